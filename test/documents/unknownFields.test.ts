import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { strictDecodingError, unknownFields } from '../../src/api/unknownFields.ts';
import { apiFieldsModule, installedClientNode } from '../../scripts/apiFields/apiFieldsModule.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('a misspelt or misplaced field of a built-in kind is an error at its key, with the field it was meant to be', () => {
  const file = classifyText(
    'templates/web.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  lables: {app: web}
spec:
  replica: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx
          Ports: [{containerPort: 80}]
          env:
            - {name: A, valueform: {}}
          resource:
            limits: {cpu: 1}
      volumes:
        - name: data
          emptydir: {}
      restartpolicy: Always
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.fix}`),
    [
      '5:3 UNKNOWN_FIELD rename it to labels',
      '7:3 UNKNOWN_FIELD rename it to replicas',
      '17:11 UNKNOWN_FIELD rename it to ports',
      '19:25 UNKNOWN_FIELD rename it to valueFrom',
      '20:11 UNKNOWN_FIELD rename it to resources',
      '24:11 UNKNOWN_FIELD rename it to emptyDir',
      '25:7 UNKNOWN_FIELD rename it to restartPolicy',
    ],
  );
  assert.match(
    file.problems[1]!.message,
    'unknown field spec.replica; did you mean replicas? (DeploymentSpec declares no replica',
  );
  // Held, as any template Kubernetes would refuse: its last output stays.
  assert.equal(file.templates, []);
  assert.equal(
    file.broken.map((b) => b.name),
    ['web'],
  );
});

test('a field no declared name is close to lists what the type has, to find where it belongs', () => {
  const file = classifyText(
    'templates/svc.yaml',
    'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{port: 80}]\n  containers: []\n',
  );
  assert.is(file.problems.length, 1);
  assert.is(file.problems[0]!.line, 6);
  assert.match(
    file.problems[0]!.fix,
    /^remove it, or move it where it belongs \(check its indentation\): ServiceSpec's fields are .*clusterIP.*ports/,
  );
});

test("free-form values are not fields: labels, ConfigMap data, a CRD's schema, a ControllerRevision's data, custom resources", () => {
  const file = classifyText(
    'templates/free.yaml',
    `apiVersion: v1
kind: ConfigMap
metadata: {name: c, labels: {anything: x}, annotations: {any.thing/else: other}}
data: {whatever: z}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
          properties:
            spec:
              type: object
              default: {size: 1, anything: {nested: true}}
              properties: {size: {type: integer}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: 2, colour: blue}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
  );
  assert.equal(file.problems, []);
  assert.is(file.templates.length, 4);
});

test("a misspelt field of Karmada's FederatedHPA, CronFederatedHPA, WorkloadRebalancer or interpreter customization is an error at its key", () => {
  const file = classifyText(
    'autoscaling/web.yaml',
    `apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplica: 1
  maxReplicas: 3
---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules: [{name: night, schedule: "0 22 * * *", targetReplicas: 1, timezone: Asia/Shanghai}]
---
apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata: {name: again}
spec:
  ttlSecondAfterFinished: 60
  workloads: [{apiVersion: apps/v1, kind: Deployment, name: web, nmespace: default}]
---
apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: workload}
spec:
  extra: true
  target: {apiVersion: apps.example.io/v1, kind: Workload, group: apps.example.io}
  customizations:
    retention: {luaScript: "function Retain(desiredObj, observedObj) return desiredObj end"}
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.message.split(' (')[0]}`),
    [
      '6:3 UNKNOWN_FIELD unknown field spec.minReplica; did you mean minReplicas?',
      // Without the check the rule would run in UTC, silently.
      '14:68 UNKNOWN_FIELD unknown field spec.rules[0].timezone; did you mean timeZone?',
      '20:3 UNKNOWN_FIELD unknown field spec.ttlSecondAfterFinished; did you mean ttlSecondsAfterFinished?',
      '21:66 UNKNOWN_FIELD unknown field spec.workloads[0].nmespace; did you mean namespace?',
      '27:3 UNKNOWN_FIELD unknown field spec.extra',
      '28:60 UNKNOWN_FIELD unknown field spec.target.group',
    ],
  );
  assert.equal(file.templates, []);
  assert.equal(file.rebalancers, []);
  assert.equal(file.interpreterCustomizations, []);
});

test("kube-apiserver's strict decoding error names every unknown field by its path", () => {
  const unknown = unknownFields(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replica: 3, template: { spec: { containers: [{ name: 'a', resource: {} }] } } },
    },
    'apps/v1',
    'Deployment',
  );
  assert.is(
    strictDecodingError('Deployment', 'v1', unknown),
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].resource"',
  );
  assert.equal(unknownFields({ spec: { anything: 1 } }, 'example.com/v1', 'Widget'), []);
});

test('the committed field table is the one the installed @kubernetes/client-node describes', async () => {
  const { models, apiFiles, source } = await installedClientNode(ROOT);
  const committed = readFileSync(path.join(ROOT, 'src/api/apiFields.generated.ts'), 'utf8');
  // After upgrading the client: npm run generate:api-fields.
  assert.ok(committed === apiFieldsModule(models, apiFiles, source), 'src/api/apiFields.generated.ts is stale');
  assert.match(committed, '"apps/v1/Deployment": "V1Deployment"');
  assert.match(committed, '"v1/Event": "CoreV1Event"');
});

test.run();
