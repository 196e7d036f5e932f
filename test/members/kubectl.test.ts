import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';
import { manifestYaml } from '../../src/branches/rendered/manifestYaml.ts';

// The real kubectl 1.32 against a member: discovery, openapi, Table printing, server-side apply, conflicts,
// delete with wait, and a CRD followed by one of its custom resources.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

const deployment = (replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: ${image}
        resources:
          requests: {cpu: 250m, memory: 64Mi}
`;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 100 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test('kubectl get nodes prints the node table with STATUS Ready', async () => {
  const out = await kubectl(['get', 'nodes']);
  assert.is(out.code, 0, out.stderr);
  const lines = out.stdout.trim().split('\n');
  assert.match(lines[0]!, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
  assert.is(lines.length, 4);
  assert.match(lines[1]!, /^member1-node-1\s+Ready\s+<none>\s+\S+\s+v1\.32\.0$/);
});

test('kubectl apply --server-side creates a Deployment that becomes READY 2/2', async () => {
  const out = await kubectl(['apply', '--server-side', '-f', '-'], deployment(2));
  assert.is(out.code, 0, out.stderr);
  assert.match(out.stdout, 'deployment.apps/web serverside-applied');
  const ready = await waitFor('READY 2/2', async () => {
    const get = await kubectl(['get', 'deploy']);
    return /^web\s+2\/2\s+2\s+2\s+/m.test(get.stdout) ? get.stdout : undefined;
  });
  assert.match(ready, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
});

test('kubectl get pods -o wide shows Running pods with IP and NODE', async () => {
  const out = await kubectl(['get', 'pods', '-o', 'wide', '-l', 'app=web']);
  assert.is(out.code, 0, out.stderr);
  const [header, ...rows] = out.stdout.trim().split('\n');
  assert.match(header!, /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/);
  assert.is(rows.length, 2);
  for (const row of rows)
    assert.match(
      row,
      /^web-\w+-\w{5}\s+1\/1\s+Running\s+0\s+\S+\s+10\.\d+\.\d+\.\d+\s+member1-node-\d\s+<none>\s+<none>$/,
    );
  // Two pods of one ReplicaSet spread over two nodes.
  const nodes = new Set(rows.map((r) => r.split(/\s+/)[6]));
  assert.is(nodes.size, 2);
});

test('a second field manager changing replicas gets a 409 conflict unless it forces', async () => {
  const conflict = await kubectl(['apply', '--server-side', '--field-manager', 'other', '-f', '-'], deployment(3));
  assert.is.not(conflict.code, 0);
  assert.match(conflict.stderr, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
  const forced = await kubectl(
    ['apply', '--server-side', '--field-manager', 'other', '--force-conflicts', '-f', '-'],
    deployment(3),
  );
  assert.is(forced.code, 0, forced.stderr);
  const replicas = await kubectl(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']);
  assert.is(replicas.stdout, '3');
  const managers = await kubectl([
    'get',
    'deploy',
    'web',
    '-o',
    'jsonpath={.metadata.managedFields[*].manager}',
    '--show-managed-fields',
  ]);
  assert.is(managers.stdout, 'kubectl other');
});

test('kubectl scale, rollout status and shortnames work', async () => {
  assert.is((await kubectl(['scale', 'deploy/web', '--replicas=1'])).code, 0);
  const rollout = await kubectl(['rollout', 'status', 'deploy/web', '--timeout=20s']);
  assert.is(rollout.code, 0, rollout.stderr);
  assert.match(rollout.stdout, 'successfully rolled out');
  const rs = await kubectl(['get', 'rs', '-l', 'app=web']);
  assert.match(rs.stdout, /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE$/m);
});

test('kubectl delete -f removes the Deployment and, by garbage collection, its pods', async () => {
  const out = await kubectl(['delete', '-f', '-'], deployment(3));
  assert.is(out.code, 0, out.stderr);
  assert.match(out.stdout, 'deployment.apps "web" deleted');
  await waitFor('pods gone', async () =>
    (await kubectl(['get', 'pods', '-l', 'app=web'])).stderr.includes('No resources found'),
  );
  const get = await kubectl(['get', 'deploy', 'web']);
  assert.match(get.stderr, 'deployments.apps "web" not found');
});

test('a CRD applied to the member serves its custom resources', async () => {
  const crd = readFileSync('/work/shared/karmada-samples/guestbook/guestbooks-crd.yaml', 'utf8');
  const cr = readFileSync('/work/shared/karmada-samples/guestbook/guestbook.yaml', 'utf8');
  const applyCrd = await kubectl(['apply', '--server-side', '-f', '-'], crd);
  assert.is(applyCrd.code, 0, applyCrd.stderr);
  const established = await kubectl([
    'wait',
    '--for=condition=Established',
    'crd/guestbooks.webapp.my.domain',
    '--timeout=10s',
  ]);
  assert.is(established.code, 0, established.stderr);
  const applyCr = await kubectl(['apply', '--server-side', '-f', '-'], cr);
  assert.is(applyCr.code, 0, applyCr.stderr);
  assert.match(applyCr.stdout, 'guestbook.webapp.my.domain/guestbook-sample serverside-applied');
  const get = await kubectl(['get', 'guestbooks']);
  assert.match(get.stdout, /^guestbook-sample\s+\S+$/m);
  const size = await kubectl(['get', 'guestbook', 'guestbook-sample', '-o', 'jsonpath={.spec.size}']);
  assert.is(size.stdout, '2');
});

test("a kind: List applies item by item, client-side and server-side, and a kind nobody serves gets kubectl's CRD hint", async () => {
  // kubectl validates a List's items, and a kind neither openapi v3 nor a CRD names, against /openapi/v2.
  const list = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-a}
  data: {k: a}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-b}
  data: {k: b}
`;
  const clientSide = await kubectl(['apply', '-f', '-'], list);
  assert.is(clientSide.code, 0, clientSide.stderr);
  assert.match(clientSide.stdout, 'configmap/listed-a created');
  assert.match(clientSide.stdout, 'configmap/listed-b created');
  const serverSide = await kubectl(['apply', '--server-side', '-f', '-'], list);
  assert.is(serverSide.code, 0, serverSide.stderr);
  assert.match(serverSide.stdout, 'configmap/listed-b serverside-applied');
  // The document has no schemas, so an unknown field in an item is refused by the server's strict field
  // validation (kube-apiserver's kubectl refuses it on the client, from the schema).
  const unknownField = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: listed-c}, bogus: 1}\n',
  );
  assert.is.not(unknownField.code, 0);
  assert.match(unknownField.stderr, 'unknown field "bogus"');
  const unserved = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web}\nspec: {}\n',
  );
  assert.is.not(unserved.code, 0);
  assert.match(unserved.stderr, 'no matches for kind "ServiceMonitor" in version "monitoring.coreos.com/v1"');
  assert.match(unserved.stderr, 'ensure CRDs are installed first');
});

test('client-side kubectl apply (strategic merge patch) and kubectl diff work', async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment(1))).code, 0);
  const configured = await kubectl(['apply', '-f', '-'], deployment(1, 'nginx:1.28'));
  assert.is(configured.code, 0, configured.stderr);
  assert.match(configured.stdout, 'deployment.apps/web configured');
  const image = await kubectl(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
  assert.is(image.stdout, 'nginx:1.28');
  const diff = await kubectl(['diff', '-f', '-'], deployment(1, 'nginx:1.29'));
  assert.is(diff.code, 1);
  assert.match(diff.stdout, /^\+\s+(- )?image: nginx:1\.29$/m);
  assert.not.match(diff.stdout, '-  uid:');
});

test('kubectl create configmap, namespace, deployment and secret work (client-go sends built-in kinds as protobuf)', async () => {
  const cm = await kubectl(['create', 'configmap', 'settings', '--from-literal=mode=blue', '--from-literal=size=3']);
  assert.is(cm.code, 0, cm.stderr);
  assert.match(cm.stdout, 'configmap/settings created');
  assert.is(
    (await kubectl(['get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode} {.data.size}'])).stdout,
    'blue 3',
  );
  const ns = await kubectl(['create', 'namespace', 'team-a']);
  assert.is(ns.code, 0, ns.stderr);
  assert.match((await kubectl(['get', 'namespace', 'team-a'])).stdout, /^team-a\s+Active\s/m);
  const dep = await kubectl([
    'create',
    'deployment',
    'api',
    '-n',
    'team-a',
    '--image=nginx:1.27',
    '--replicas=2',
    '--port=8080',
  ]);
  assert.is(dep.code, 0, dep.stderr);
  assert.match(dep.stdout, 'deployment.apps/api created');
  const fields = await kubectl([
    'get',
    'deploy',
    'api',
    '-n',
    'team-a',
    '-o',
    'jsonpath={.spec.replicas} {.spec.selector.matchLabels.app} {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}',
  ]);
  assert.is(fields.stdout, '2 api nginx:1.27 8080');
  await waitFor('api READY 2/2', async () =>
    /^api\s+2\/2\s/m.test((await kubectl(['get', 'deploy', '-n', 'team-a'])).stdout),
  );
  // replicas is a pointer in Go: an explicit 0 travels in the protobuf body and must not become the default 1.
  assert.is((await kubectl(['create', 'deployment', 'idle', '--image=nginx', '--replicas=0'])).code, 0);
  assert.is((await kubectl(['get', 'deploy', 'idle', '-o', 'jsonpath={.spec.replicas}'])).stdout, '0');
  const secret = await kubectl(['create', 'secret', 'generic', 'token', '--from-literal=key=s3cr3t']);
  assert.is(secret.code, 0, secret.stderr);
  assert.is(
    Buffer.from((await kubectl(['get', 'secret', 'token', '-o', 'jsonpath={.data.key}'])).stdout, 'base64').toString(),
    's3cr3t',
  );
});

test("names are checked by kind as kube-apiserver checks them: an RBAC name may hold ':', a Service's may not hold '.'", async () => {
  const role = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: metallb-system:controller
rules:
- apiGroups: [""]
  resources: [services]
  verbs: [get, list]
`;
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], role);
  assert.is(applied.code, 0, applied.stderr);
  assert.match(applied.stdout, 'clusterrole.rbac.authorization.k8s.io/metallb-system:controller serverside-applied');
  const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web.v2\nspec:\n  ports:\n  - port: 80\n';
  const refused = await kubectl(['apply', '--server-side', '-f', '-'], service);
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, 'a DNS-1035 label must consist of lower case alphanumeric characters');
});

test('what applications install beside their workloads applies: webhook configurations, a CSIDriver, a RuntimeClass, an APIService', async () => {
  const objects = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: metallb-webhook-configuration
webhooks:
- name: ipaddresspoolvalidationwebhook.metallb.io
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {name: metallb-webhook-service, namespace: metallb-system, path: /validate}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: csi.spiffe.io
spec:
  attachRequired: false
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: gvisor
handler: runsc
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1beta1.custom.metrics.k8s.io
spec:
  group: custom.metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {name: prometheus-adapter, namespace: monitoring}
`;
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], objects);
  assert.is(applied.code, 0, applied.stderr);
  for (const line of [
    'validatingwebhookconfiguration.admissionregistration.k8s.io/metallb-webhook-configuration serverside-applied',
    'csidriver.storage.k8s.io/csi.spiffe.io serverside-applied',
    'runtimeclass.node.k8s.io/gvisor serverside-applied',
    'apiservice.apiregistration.k8s.io/v1beta1.custom.metrics.k8s.io serverside-applied',
  ])
    assert.match(applied.stdout, line);
  assert.match((await kubectl(['get', 'csidrivers'])).stdout, /^csi\.spiffe\.io\s/m);
});

test('a Deployment whose env value YAML made a boolean cannot be decoded, as kube-apiserver answers', async () => {
  const refused = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    deployment(1)
      .replace('        resources:', '        env:\n        - {name: DEBUG, value: true}\n        resources:')
      .replace('name: web\n  namespace', 'name: web-env\n  namespace'),
  );
  assert.is.not(refused.code, 0);
  assert.match(
    refused.stderr,
    'cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
    refused.stderr,
  );
});

test("a field a built-in kind does not declare is refused under kubectl's strict validation, dropped with a warning without it", async () => {
  const typo = deployment(1)
    .replace('name: web\n  namespace', 'name: web-typo\n  namespace')
    .replace('        resources:', '        resource:');
  for (const args of [['apply'], ['create']]) {
    const refused = await kubectl([...args, '-f', '-'], typo);
    assert.is.not(refused.code, 0, args.join(' '));
    assert.match(refused.stderr, /spec\.template\.spec\.containers\[0\]\.resource/, refused.stderr);
  }
  // Server-side apply types the configuration first: its error names the container by its key.
  const typed = await kubectl(['apply', '--server-side', '-f', '-'], typo);
  assert.match(typed.stderr, '.spec.template.spec.containers[name="web"].resource: field not declared in schema');
  const created = await kubectl(
    ['create', '-f', '-'],
    typo.replace('        resource:', '        resourcez: {}\n        resources:'),
  );
  assert.is(created.code, 1, 'refused as strict first');
  assert.match(created.stderr, 'strict decoding error: unknown field "spec.template.spec.containers[0].resourcez"');
  const lenient = await kubectl(['apply', '--validate=warn', '-f', '-'], typo);
  assert.is(lenient.code, 0, lenient.stderr);
  assert.match(lenient.stderr, 'Warning: unknown field "spec.template.spec.containers[0].resource"');
  const stored = JSON.parse((await kubectl(['get', 'deployment', 'web-typo', '-o', 'json'])).stdout);
  assert.equal(Object.keys(stored.spec.template.spec.containers[0]).includes('resource'), false);
});

test('fields set to null are not stored, as kube-apiserver decodes them: no diff after applying them', async () => {
  const svc = `apiVersion: v1
kind: Service
metadata: {name: nulls, namespace: default}
spec:
  type: NodePort
  selector: {app: web}
  ports: [{port: 80, nodePort: null}]
  externalIPs: null
`;
  const withNull = deployment(1)
    .replace('name: web\n  namespace', 'name: web-nulls\n  namespace')
    .replace('        resources:', '        env: null\n        resources:');
  for (const args of [
    ['apply', '--server-side', '-f', '-'],
    ['apply', '-f', '-'],
  ]) {
    const applied = await kubectl(args, `${svc}---\n${withNull}`);
    assert.is(applied.code, 0, applied.stderr);
  }
  const stored = JSON.parse((await kubectl(['get', 'service', 'nulls', '-o', 'json'])).stdout);
  assert.is(stored.spec.externalIPs, undefined);
  assert.is(typeof stored.spec.ports[0].nodePort, 'number', 'allocated, as for an unset nodePort');
  const workload = JSON.parse((await kubectl(['get', 'deployment', 'web-nulls', '-o', 'json'])).stdout);
  assert.equal(Object.keys(workload.spec.template.spec.containers[0]).includes('env'), false);
  const diff = await kubectl(['diff', '--server-side', '-f', '-'], withNull);
  assert.is(diff.code, 0, diff.stdout);
});

test("an update owns only the fields that are stored: an omitted zero is no one's, so switching to server-side apply does not conflict", async () => {
  // ingress-nginx's controller Deployment writes `minReadySeconds: 0`, which DeploymentSpec omits when empty.
  const manifest = deployment(1)
    .replace('name: web\n  namespace', 'name: web-zero\n  namespace')
    .replace('spec:\n  replicas', 'spec:\n  minReadySeconds: 0\n  replicas');
  assert.is((await kubectl(['apply', '-f', '-'], manifest)).code, 0);
  const live = JSON.parse((await kubectl(['get', 'deploy', 'web-zero', '-o', 'json', '--show-managed-fields'])).stdout);
  const csa = live.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl-client-side-apply');
  assert.is(csa.fieldsV1['f:spec']['f:minReadySeconds'], undefined);
  const serverSide = await kubectl(['apply', '--server-side', '-f', '-'], manifest);
  assert.is(serverSide.code, 0, serverSide.stderr);
  assert.match(serverSide.stdout, 'deployment.apps/web-zero serverside-applied');
});

test('a dry run answers with the empty fields Go omits left out, so kubectl diff after an apply is empty', async () => {
  // cert-manager's bindings write `apiGroup: ""` in their subjects; Subject.apiGroup is omitempty.
  const binding = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: dry-empty}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects:
- {apiGroup: "", kind: ServiceAccount, name: default, namespace: default}
`;
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], binding)).code, 0);
  const serverSide = await kubectl(['diff', '--server-side', '-f', '-'], binding);
  assert.is(serverSide.code, 0, serverSide.stdout);
  // A client-side diff of an object applied server-side patches in `annotations: {}` (no last-applied annotation).
  const clientSide = await kubectl(['diff', '-f', '-'], binding);
  assert.is(clientSide.code, 0, clientSide.stdout);
  for (const verb of [
    ['create', '-f', '-'],
    ['apply', '--server-side', '-f', '-'],
  ]) {
    const dry = await kubectl([...verb, '--dry-run=server', '-o', 'json'], binding.replace('dry-empty', 'dry-new'));
    assert.is(dry.code, 0, dry.stderr);
    const object = JSON.parse(dry.stdout);
    assert.equal(object.subjects[0], { kind: 'ServiceAccount', name: 'default', namespace: 'default' }, verb[0]);
    assert.ok(object.metadata.uid, `${verb.join(' ')}: a dry-run create fills the uid`);
    assert.match(object.metadata.creationTimestamp, /^\d{4}-/);
  }
});

test("the pod templates of DaemonSets, Jobs, CronJobs and Pods are validated as a Deployment's are; a StatefulSet's mounts may name its claims", async () => {
  const pod = `containers:
      - name: app
        image: busybox
        volumeMounts: [{name: nope, mountPath: /data}]`;
  const cases: [string, string][] = [
    [
      `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds-bad, namespace: default}\nspec:\n  selector: {matchLabels: {app: ds}}\n  template:\n    metadata: {labels: {app: ds}}\n    spec:\n      ${pod}\n`,
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "nope"',
    ],
    [
      `apiVersion: batch/v1\nkind: Job\nmetadata: {name: job-bad, namespace: default}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      ${pod}\n`,
      'spec.template.spec.containers[0].volumeMounts[0].name: Not found: "nope"',
    ],
    [
      `apiVersion: v1\nkind: Pod\nmetadata: {name: pod-bad, namespace: default}\nspec:\n  ${pod.replaceAll('\n    ', '\n  ')}\n`,
      'spec.containers[0].volumeMounts[0].name: Not found: "nope"',
    ],
  ];
  for (const [manifest, message] of cases) {
    const refused = await kubectl(['apply', '--server-side', '-f', '-'], manifest);
    assert.is.not(refused.code, 0, manifest);
    assert.match(refused.stderr, message, refused.stderr);
  }
  const sts = `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: sts-claims, namespace: default}\nspec:\n  serviceName: sts\n  selector: {matchLabels: {app: sts}}\n  template:\n    metadata: {labels: {app: sts}}\n    spec:\n      ${pod.replace('nope', 'data')}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n`;
  const accepted = await kubectl(['apply', '--server-side', '-f', '-'], sts);
  assert.is(accepted.code, 0, accepted.stderr);
});

test('a label, an annotation or ConfigMap data that YAML made a number cannot be decoded, as kube-apiserver answers', async () => {
  const cases: [string, string][] = [
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ports\n  namespace: default\ndata:\n  port: 8080\n',
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    ],
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: labelled\n  namespace: default\n  labels:\n    version: 1.0\n',
      'cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    [
      deployment(1)
        .replace('name: web\n  namespace', 'name: web-annotated\n  namespace')
        .replace(/(  template:\n    metadata:\n)/, '$1      annotations: {prometheus.io/scrape: true}\n'),
      'cannot unmarshal bool into Go struct field ObjectMeta.spec.template.metadata.annotations of type string',
    ],
  ];
  for (const [manifest, message] of cases) {
    const refused = await kubectl(['apply', '--server-side', '-f', '-'], manifest);
    assert.is.not(refused.code, 0, manifest);
    assert.match(refused.stderr, message);
  }
  assert.is((await kubectl(['get', 'configmap', 'ports', 'labelled', '--ignore-not-found'])).stdout.trim(), '');
});

test("a Secret's data, a ConfigMap's binaryData or a webhook's caBundle that is not base64 cannot be decoded, as kube-apiserver answers", async () => {
  const cases: [string, string][] = [
    [
      'apiVersion: v1\nkind: Secret\nmetadata: {name: plain, namespace: default}\ndata:\n  password: hunter2-not-base64!\n',
      'Error from server (BadRequest): error when creating "STDIN": Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7',
    ],
    [
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: blob, namespace: default}\nbinaryData:\n  blob: aGVsbG8\n',
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 4',
    ],
    [
      'apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: hook}\nwebhooks:\n- name: a.example.com\n  admissionReviewVersions: [v1]\n  sideEffects: None\n  clientConfig: {url: "https://a.example.com", caBundle: "not a bundle"}\n',
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 3',
    ],
  ];
  for (const [manifest, message] of cases) {
    const refused = await kubectl(['apply', '-f', '-'], manifest);
    assert.is.not(refused.code, 0, manifest);
    assert.match(refused.stderr, message, refused.stderr);
  }
  const encoded = await kubectl(
    ['apply', '-f', '-'],
    'apiVersion: v1\nkind: Secret\nmetadata: {name: encoded, namespace: default}\ndata:\n  password: aHVudGVyMg==\n',
  );
  assert.is(encoded.code, 0, encoded.stderr);
});

test('labels, annotation keys and finalizers the API server refuses are refused with its field errors, custom resources too', async () => {
  const refused = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad-meta\n  namespace: default\n  labels:\n    tier: "front end"\n  annotations:\n    a/b/c: x\n',
  );
  assert.is.not(refused.code, 0);
  assert.match(refused.stderr, 'ConfigMap "bad-meta" is invalid');
  assert.match(refused.stderr, 'metadata.labels: Invalid value: "front end": a valid label must be an empty string');
  assert.match(refused.stderr, 'metadata.annotations: Invalid value: "a/b/c": a qualified name must consist of');
  const big = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big-annotations\n  namespace: default\n  annotations:\n    note: ${'x'.repeat(262_145)}\n`,
  );
  assert.match(big.stderr, 'metadata.annotations: Too long: may not be more than 262144 bytes');
  const template = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    deployment(1)
      .replace('name: web\n  namespace', 'name: web-meta\n  namespace')
      .replace('    metadata:\n      labels: {app: web}', '    metadata:\n      labels: {app: web, "bad key!": x}'),
  );
  assert.match(template.stderr, 'spec.template.metadata.labels: Invalid value: "bad key!": name part must consist of');
  assert.is(
    (
      await kubectl(['get', 'configmap,deployment', 'bad-meta', 'big-annotations', 'web-meta', '--ignore-not-found'])
    ).stdout.trim(),
    '',
  );
});

test("owner references and GC finalizers are refused as the API server refuses them, in its words; a pod template's are not checked", async () => {
  const owned = (name: string, extra: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n${extra}`;
  const controllers = await kubectl(
    ['create', '-f', '-'],
    owned(
      'two-controllers',
      '  ownerReferences:\n  - {apiVersion: apps/v1, kind: Deployment, name: a, uid: "1", controller: true}\n  - {apiVersion: apps/v1, kind: Deployment, name: b, uid: "2", controller: true}\n',
    ),
  );
  assert.is.not(controllers.code, 0);
  assert.match(
    controllers.stderr,
    'The ConfigMap "two-controllers" is invalid: metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"Deployment","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b',
  );
  const incomplete = await kubectl(
    ['create', '-f', '-'],
    owned(
      'incomplete',
      '  ownerReferences:\n  - {kind: Deployment, name: a}\n  - {apiVersion: v1, kind: Event, name: e, uid: "3", blockOwnerDeletion: true}\n  finalizers: [orphan, foregroundDeletion, a/b/c]\n',
    ),
  );
  assert.is.not(incomplete.code, 0);
  for (const line of [
    'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"3","blockOwnerDeletion":true}: /v1, Kind=Event is disallowed from being an owner',
    'metadata.finalizers: Invalid value: "a/b/c": a qualified name must consist of',
    'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion", "a/b/c"}: finalizer orphan and foregroundDeletion cannot be both set',
  ])
    assert.match(incomplete.stderr, line);
  const template = await kubectl(
    ['create', '-f', '-'],
    deployment(0)
      .replace('name: web\n  namespace', 'name: web-template-owner\n  namespace')
      .replace(
        '    metadata:\n      labels: {app: web}',
        '    metadata:\n      labels: {app: web}\n      finalizers: [a/b/c]\n      ownerReferences: [{kind: Deployment}]',
      ),
  );
  assert.is(template.code, 0, template.stderr);
  assert.is(
    (await kubectl(['get', 'configmap', 'two-controllers', 'incomplete', '--ignore-not-found'])).stdout.trim(),
    '',
  );
  await kubectl(['delete', 'deployment', 'web-template-owner']);
});

test("the rendered branch's YAML of strings with controls, separators and tabs reads back the same in kubectl", async () => {
  const data = {
    del: 'a\x7fb',
    c1: 'a\x9fb',
    nel: 'a\u0085b',
    separators: 'a\u2028b\u2029c',
    nonchars: '\ufeffa\ufffe',
    tab: 'x\ty',
    equals: '=',
    lines: 'l1\nl2\x7f',
  };
  const text = manifestYaml({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'odd-text', namespace: 'default' },
    data,
  });
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], text);
  assert.is(applied.code, 0, applied.stderr);
  const got = await kubectl(['get', 'configmap', 'odd-text', '-o', 'json']);
  assert.equal(JSON.parse(got.stdout).data, data);
});

test('kubectl exec, attach and port-forward end with the emulator saying its pod runs no process', async () => {
  assert.is((await kubectl(['run', 'shell', '--image=busybox'])).code, 0);
  for (const [args, verb] of [
    [['exec', 'shell', '--', 'ls'], 'exec to'],
    [['attach', 'shell'], 'attach to'],
    [['port-forward', 'shell', '0:80'], 'forward a port to'],
  ] as const) {
    const out = await kubectl([...args]);
    assert.is.not(out.code, 0, args.join(' '));
    assert.match(
      out.stderr,
      `pod shell is simulated by the flotilla member emulator and runs no process: there is nothing to ${verb}`,
    );
  }
  assert.match((await kubectl(['exec', 'nope', '--', 'ls'])).stderr, 'pods "nope" not found');
});

test("a field selector naming a field the kind's selector does not take is refused, as kube-apiserver refuses it", async () => {
  const pods = await kubectl(['get', 'pods', '--field-selector', 'spec.foo=x']);
  assert.is.not(pods.code, 0);
  assert.match(pods.stderr, 'field label not supported: spec.foo');
  const deployments = await kubectl(['get', 'deploy', '--field-selector', 'spec.replicas=3']);
  assert.is.not(deployments.code, 0);
  assert.match(
    deployments.stderr,
    '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
  for (const args of [
    ['pods', '--field-selector', 'status.phase=Running,spec.nodeName!=nowhere'],
    ['deploy', '--field-selector', 'metadata.name=web'],
    ['secrets', '--field-selector', 'type=Opaque'],
  ])
    assert.is((await kubectl(['get', ...args])).code, 0, args.join(' '));
});

test("quotas, roles, role bindings, storage and priority classes and ControllerRevisions print kube-apiserver's columns", async () => {
  const create = async (...args: string[]) => assert.is((await kubectl(['create', ...args])).code, 0, args.join(' '));
  // In a namespace of its own: the quota controller counts what the namespace runs.
  await create('namespace', 'quota-columns');
  await create('quota', 'q1', '-n', 'quota-columns', '--hard=pods=10,requests.cpu=2,limits.memory=1Gi');
  await create('role', 'reader', '--verb=get', '--resource=pods');
  await create('rolebinding', 'readers', '--role=reader', '--user=alice', '--serviceaccount=default:robot');
  await create('priorityclass', 'high', '--value=1000');
  const table = async (...args: string[]) => (await kubectl(['get', ...args])).stdout;
  assert.match(
    await table('quota', 'q1', '-n', 'quota-columns'),
    /^q1\s+\S+\s+pods: 0\/10, requests\.cpu: 0\/2\s+limits\.memory: 0\/1Gi$/m,
  );
  assert.match(await table('role', 'reader'), /^NAME\s+CREATED AT\nreader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
  assert.match(
    await table('rolebinding', 'readers', '-o', 'wide'),
    /^readers\s+Role\/reader\s+\S+\s+alice\s+default\/robot$/m,
  );
  assert.match(await table('priorityclass', 'high'), /^high\s+1000\s+false\s+\S+\s+PreemptLowerPriority$/m);
  const sc =
    'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\n  annotations: {storageclass.kubernetes.io/is-default-class: "true"}\nprovisioner: example.com/fast\n';
  assert.is((await kubectl(['apply', '-f', '-'], sc)).code, 0);
  assert.match(
    await table('storageclass', 'fast'),
    /^fast \(default\)\s+example\.com\/fast\s+Delete\s+Immediate\s+false\s+\S+$/m,
  );
  assert.match(await table('controllerrevisions', '-A'), /^NAMESPACE\s+NAME\s+CONTROLLER\s+REVISION\s+AGE$/m);
});

test('a server-side dry run returns what the write would store: creation fields filled, the generation bumped', async () => {
  const created = await kubectl(['create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server', '-o', 'json']);
  assert.is(created.code, 0, created.stderr);
  const cm = JSON.parse(created.stdout);
  assert.match(cm.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(cm.metadata.uid);
  assert.is((await kubectl(['get', 'configmap', 'dry'])).code, 1, 'nothing stored');
  const manifest = deployment(1).replace('name: web\n', 'name: dry-web\n');
  assert.is((await kubectl(['apply', '-f', '-'], manifest)).code, 0);
  const live = JSON.parse((await kubectl(['get', 'deploy', 'dry-web', '-o', 'json'])).stdout);
  const dry = await kubectl(['set', 'image', 'deploy/dry-web', 'web=nginx:1.28', '--dry-run=server', '-o', 'json']);
  assert.is(dry.code, 0, dry.stderr);
  assert.is(JSON.parse(dry.stdout).metadata.generation, live.metadata.generation + 1);
  const unchanged = await kubectl(['label', 'deploy/dry-web', 'tier=web', '--dry-run=server', '-o', 'json']);
  assert.is(JSON.parse(unchanged.stdout).metadata.generation, live.metadata.generation, 'labels are no spec change');
});

test('kubectl auth can-i and whoami are answered: the emulator allows every request, to the user kubectl names', async () => {
  const can = await kubectl(['auth', 'can-i', 'create', 'deployments']);
  assert.is(can.code, 0, can.stderr);
  assert.is(can.stdout.trim(), 'yes');
  assert.is((await kubectl(['auth', 'can-i', 'delete', 'nodes', '--as=alice'])).stdout.trim(), 'yes');
  assert.match((await kubectl(['auth', 'can-i', '--list'])).stdout, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
  const whoami = await kubectl(['auth', 'whoami', '--as=bob', '--as-group=devs']);
  assert.is(whoami.code, 0, whoami.stderr);
  assert.match(whoami.stdout, /^Username\s+bob$/m);
  assert.match(whoami.stdout, /^Groups\s+\[devs system:authenticated\]$/m);
  assert.is.not(
    (await kubectl(['get', 'selfsubjectaccessreviews'])).code,
    0,
    'nothing to list: a review is never stored',
  );
});

test("managedFields come in kube-apiserver's order: Apply entries before Update ones, whatever wrote first", async () => {
  assert.is((await kubectl(['create', 'configmap', 'owned', '--from-literal=a=b'])).code, 0);
  assert.is((await kubectl(['label', 'configmap', 'owned', 'tier=web'])).code, 0);
  const applied = await kubectl(
    ['apply', '--server-side', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned' }, data: { c: 'd' } }),
  );
  assert.is(applied.code, 0, applied.stderr);
  const got = await kubectl(['get', 'configmap', 'owned', '-o', 'json', '--show-managed-fields']);
  const entries = JSON.parse(got.stdout).metadata.managedFields as { manager: string; operation: string }[];
  assert.equal(
    entries.map((e) => `${e.operation} ${e.manager}`),
    ['Apply kubectl', 'Update kubectl-create', 'Update kubectl-label'],
  );
});

test('deleting again with another propagation policy redirects a deletion held for its dependents, as the registry does', async () => {
  const held = async (owner: string) => {
    assert.is((await kubectl(['create', 'configmap', owner])).code, 0);
    const uid = (await kubectl(['get', 'configmap', owner, '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const child = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `${owner}-child`,
        finalizers: ['example.com/hold'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid, blockOwnerDeletion: true }],
      },
    };
    assert.is((await kubectl(['create', '-f', '-'], JSON.stringify(child))).code, 0);
    assert.is((await kubectl(['delete', 'configmap', owner, '--cascade=foreground', '--wait=false'])).code, 0);
    const finalizers = await kubectl(['get', 'configmap', owner, '-o', 'jsonpath={.metadata.finalizers}']);
    assert.is(finalizers.stdout, '["foregroundDeletion"]');
  };
  const exists = async (name: string) => (await kubectl(['get', 'configmap', name, '-o', 'name'])).code === 0;

  // kubectl's default cascade names Background, which drops foregroundDeletion: nothing holds the owner any more.
  await held('fg-then-bg');
  const background = await kubectl(['delete', 'configmap', 'fg-then-bg', '--timeout=5s']);
  assert.is(background.code, 0, background.stderr);
  assert.not.ok(await exists('fg-then-bg'));
  assert.ok(await exists('fg-then-bg-child'), 'the dependent is still held by its own finalizer');

  await held('fg-then-orphan');
  const orphan = await kubectl(['delete', 'configmap', 'fg-then-orphan', '--cascade=orphan', '--timeout=5s']);
  assert.is(orphan.code, 0, orphan.stderr);
  assert.not.ok(await exists('fg-then-orphan'));
  const child = await kubectl([
    'get',
    'configmap',
    'fg-then-orphan-child',
    '-o',
    'jsonpath={.metadata.ownerReferences}',
  ]);
  assert.is(child.stdout, '', 'the orphaned dependent no longer names its owner');

  for (const name of ['fg-then-bg-child', 'fg-then-orphan-child'])
    await kubectl([
      'patch',
      'configmap',
      name,
      '--type',
      'json',
      '-p',
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
});

test("a patch must leave the object its URL's name and namespace, as the API server's patcher checks", async () => {
  assert.is((await kubectl(['create', 'configmap', 'named', '--from-literal=a=b'])).code, 0);
  const renamed = await kubectl([
    'patch',
    'configmap',
    'named',
    '--type',
    'merge',
    '-p',
    '{"metadata":{"name":"other"}}',
  ]);
  assert.is.not(renamed.code, 0);
  assert.match(renamed.stderr, 'the name of the object (other) does not match the name on the URL (named)');
  const moved = await kubectl([
    'patch',
    'configmap',
    'named',
    '--type',
    'json',
    '-p',
    '[{"op":"replace","path":"/metadata/namespace","value":"kube-system"}]',
  ]);
  assert.is.not(moved.code, 0);
  assert.match(moved.stderr, 'the namespace of the provided object does not match the namespace sent on the request');
  const unnamed = await kubectl([
    'patch',
    'configmap',
    'named',
    '--type',
    'json',
    '-p',
    '[{"op":"remove","path":"/metadata/name"}]',
  ]);
  assert.match(unnamed.stderr, 'the name of the object () does not match the name on the URL (named)');
  // Leaving the namespace out is no contradiction: the request's is taken.
  const unset = await kubectl([
    'patch',
    'configmap',
    'named',
    '--type',
    'json',
    '-p',
    '[{"op":"remove","path":"/metadata/namespace"}]',
  ]);
  assert.is(unset.code, 0, unset.stderr);
});

test("a JSON patch that is not a list of operations is refused in Go's words, and an unknown operation is the generic 422", async () => {
  assert.is((await kubectl(['create', 'configmap', 'json-patched', '--from-literal=a=b'])).code, 0);
  const patch = (body: string) => kubectl(['patch', 'configmap', 'json-patched', '--type', 'json', '-p', body]);
  const unbracketed = await patch('{"op":"add","path":"/data/c","value":"d"}');
  assert.match(
    unbracketed.stderr,
    'Error from server (BadRequest): error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
  );
  const numericOp = await patch('[{"op":1,"path":"/data/c"}]');
  assert.match(numericOp.stderr, 'json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string');
  const unknownOp = await patch('[{"op":"append","path":"/data/c","value":"d"}]');
  assert.match(
    unknownOp.stderr,
    'The request is invalid: the server rejected our request due to an error in our request',
  );
});

test('a merge or strategic patch that is not an object is refused as kube-apiserver decodes it, a null merge patch too', async () => {
  assert.is((await kubectl(['create', 'configmap', 'map-patched', '--from-literal=a=b'])).code, 0);
  const patch = (type: string, body: string) =>
    kubectl(['patch', 'configmap', 'map-patched', '--type', type, '-p', body]);
  assert.match(
    (await patch('merge', '[{"a":"c"}]')).stderr,
    'Error from server (BadRequest): error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}',
  );
  assert.match(
    (await patch('strategic', '"a"')).stderr,
    'Error from server (BadRequest): json: cannot unmarshal string into Go value of type map[string]interface {}',
  );
  assert.match((await patch('merge', 'null')).stderr, 'Error from server (BadRequest): Invalid JSON Patch');
  const nothing = await patch('strategic', 'null');
  assert.is(nothing.code, 0, nothing.stderr);
});

test.run();
