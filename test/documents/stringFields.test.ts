import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';
import { nonStringValues, stringFieldDecodeError } from '../../src/api/stringFields.ts';
import { validateStringFields } from '../../src/documents/schema/validateStringFields.ts';

test('labels, annotations, data, selectors and arguments YAML made numbers or booleans are refused at their line', () => {
  const file = classifyText(
    'templates/app.yaml',
    `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels:
    version: 1.0
data:
  port: 8080
  empty:
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    prometheus.io/scrape: true
spec:
  selector:
    matchLabels: {app: web, tier: 1}
  template:
    metadata:
      labels: {app: web, tier: 1}
    spec:
      nodeSelector:
        gpu: yes
      containers:
        - name: app
          image: web
          command: [sleep, 10]
          args: ["--port", 8080]
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web, tier: 1}
  ports: [{port: 80}]
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.message.split(' has ')[0]}`),
    [
      '6:14 label version',
      '8:9 data key port',
      '16:27 annotation prometheus.io/scrape',
      '19:35 selector label tier',
      '22:32 pod template label tier',
      '25:14 node selector gpu',
      '29:28 command word 2 of container app',
      '30:28 argument 2 of container app',
      '37:30 selector tier',
    ],
  );
  assert.ok(file.problems.every((p) => p.code === 'INVALID_VALUE' && p.severity === 'error'));
  assert.match(file.problems[0]!.message, 'has the number 1 as its value: Kubernetes takes only a string there');
  assert.is(file.problems[5]!.fix, 'quote it: gpu: "true"');
  assert.is(file.problems[7]!.fix, 'quote it: - "8080"');
  assert.equal(file.templates, [], 'each held, as any template Kubernetes would refuse');
});

test("a custom resource's labels are decoded into ObjectMeta too, while its own fields are its schema's", () => {
  const file = classifyText(
    'templates/cr.yaml',
    'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {size: 3}\nspec:\n  count: 3\n',
  );
  // kubectl's builder decodes every object's metadata (resource.metadataOnlyObject), and apiextensions-apiserver's
  // request decoder too (objectmeta.GetObjectMetaWithOptions without dropping malformed fields).
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.message.split(', not ')[0]}`),
    ['5:18 metadata.labels.size is the number 3'],
  );
  assert.is(file.templates.length, 0);
});

test("the API server's decode error names the declaring struct and the field's path without list indexes", () => {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { template: { spec: { containers: [{ name: 'a', args: ['--x', 1] }] } } },
  };
  assert.is(
    stringFieldDecodeError('Deployment', 'v1', nonStringValues(deployment)),
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string',
  );
  assert.is(stringFieldDecodeError('Deployment', 'v1', nonStringValues({ ...deployment, spec: {} })), undefined);
});

test("a Lease's holder, strategy and preferred holder are strings: YAML's 5 or yes there is refused at its line", () => {
  const lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'lock' },
    spec: { holderIdentity: 5, leaseDurationSeconds: 15, preferredHolder: true },
  };
  assert.equal(
    validateStringFields(lease).map((i) => i.path.join('.')),
    ['spec.holderIdentity', 'spec.preferredHolder'],
  );
  assert.is(
    stringFieldDecodeError('Lease', 'v1', nonStringValues(lease)),
    'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal number into Go struct field LeaseSpec.spec.holderIdentity of type string',
  );
  assert.equal(
    validateStringFields({ ...lease, spec: { holderIdentity: '5', strategy: 'OldestEmulationVersion' } }),
    [],
  );
});

test('labels, annotation keys, finalizers and annotation size the API server refuses are refused at their line', () => {
  const file = classifyText(
    'templates/meta.yaml',
    `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  labels:
    tier: front end
    a/b/c: x
  annotations:
    Example.com/Owner: me
    note: ${'x'.repeat(262_144)}
  finalizers: [example.com/cleanup, bad finalizer]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      labels: {"bad key!": x}
    spec:
      containers: [{name: web, image: web}]
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line} ${p.message.split(':')[0]}`),
    [
      '6 label tier is "front end", which is not a valid label value',
      '7 label key "a/b/c" is not valid',
      '9 the annotations hold 262167 bytes of keys and values',
      '11 finalizer "bad finalizer" is not valid',
      '20 label key "bad key!" is not valid',
    ],
  );
  assert.equal(file.templates, [], 'each held');
});

test('owner references and finalizers the API server refuses hold the template at their line; a pod template holds only its labels and annotations to the rules', () => {
  const file = classifyText(
    'templates/owned.yaml',
    `apiVersion: v1
kind: ConfigMap
metadata:
  name: two-controllers
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: a, uid: 0b1c, controller: true}
  - {apiVersion: apps/v1, kind: Deployment, name: b, uid: 2d3e, controller: true}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: incomplete
  ownerReferences:
  - apiVersion: apps/v1/x
    kind: Deployment
    name: a
  - {apiVersion: v1, kind: Event, name: e, uid: 4f5a}
  finalizers: [orphan, foregroundDeletion]
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      finalizers: [not/a/qualified/name]
      ownerReferences: [{kind: Deployment}]
    spec:
      containers: [{name: web, image: web}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: p
  namespace: default
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: c}]
spec: {resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]}
`,
  );
  assert.equal(
    file.problems.map((p) => `${p.line} ${p.message.split(':')[0]}`),
    [
      '7 ownerReferences[1] (Deployment/b) sets controller',
      '14 ownerReferences[0] has no version in its apiVersion',
      '14 ownerReferences[0] has no uid',
      '17 ownerReferences[1] names an Event (/v1, Kind=Event) as the owner',
      '18 the finalizers orphan and foregroundDeletion are both set',
      '39 metadata.ownerReferences[0].uid is required',
    ],
  );
  assert.equal(
    file.templates.map((t) => (t.manifest.metadata as { name: string }).name),
    ['web'],
  );
});

test("Karmada's own kinds are held to the same label, annotation and finalizer rules, and each is held", () => {
  // karmada-apiserver's ValidateObjectMetaAccessor for its custom resources, the aggregated API server's
  // ValidateCluster and the MultiClusterService webhook's ValidateObjectMeta.
  const kinds = [
    'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default, LABELS}\nspec: {resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]}',
    'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: o, LABELS}\nspec: {}',
    'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterTaintPolicy\nmetadata: {name: t, LABELS}\nspec: {taints: [{key: a, effect: NoSchedule}]}',
    'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m, LABELS}\nspec: {syncMode: Push}',
    'apiVersion: networking.karmada.io/v1alpha1\nkind: MultiClusterService\nmetadata: {name: web, namespace: default, LABELS}\nspec: {types: [CrossCluster]}',
    'apiVersion: apps.karmada.io/v1alpha1\nkind: WorkloadRebalancer\nmetadata: {name: r, LABELS}\nspec: {workloads: [{apiVersion: apps/v1, kind: Deployment, name: web}]}',
    'apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata: {name: c, LABELS}\nspec: {target: {apiVersion: example.io/v1, kind: Foo}, customizations: {}}',
  ];
  for (const kind of kinds) {
    const valid = classifyText('policies/k.yaml', kind.replace('LABELS', 'labels: {app.kubernetes.io/name: x}'));
    assert.equal(valid.problems, [], kind);
    const file = classifyText(
      'policies/k.yaml',
      kind.replace('LABELS', 'labels: {a/b/c: x}, annotations: {Bad_/x: "y"}, finalizers: [bad finalizer]'),
    );
    assert.equal(
      file.problems.map((p) => `${p.line} ${p.message.split(':')[0]}`),
      [
        '3 label key "a/b/c" is not valid',
        '3 annotation key "Bad_/x" is not valid',
        '3 finalizer "bad finalizer" is not valid',
      ],
      kind,
    );
    assert.is(file.broken.length, kind.includes('WorkloadRebalancer') ? 0 : 1, kind);
    assert.equal(
      [
        ...file.templates,
        ...file.propagationPolicies,
        ...file.overridePolicies,
        ...file.clusterTaintPolicies,
        ...file.clusters,
        ...file.rebalancers,
        ...file.interpreterCustomizations,
      ],
      [],
      kind,
    );
  }
});

test("a Secret's value YAML made a number or a list is refused at its line without being shown", () => {
  const issues = validateStringFields({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', labels: { tier: 1 } },
    data: { pin: 48151623 },
    stringData: { token: ['s3cr3t'] },
  });
  assert.equal(
    issues.map((i) => i.path),
    [
      ['metadata', 'labels', 'tier'],
      ['data', 'pin'],
      ['stringData', 'token'],
    ],
  );
  const text = issues.map((i) => `${i.message} ${i.fix}`).join('\n');
  assert.not.ok(text.includes('48151623') || text.includes('s3cr3t'), text);
  assert.match(text, 'quote it: pin: "…"');
  assert.match(text, 'quote it: tier: "1"', 'a label is no secret: its value is shown');
});

test.run();
