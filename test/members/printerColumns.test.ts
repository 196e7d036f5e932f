import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, api, waitFor } from './helpers/memberHarness.ts';

// What the real kubectl prints from the member's Tables for each kind, cell by cell as kube-apiserver's printers
// (pkg/printers/internalversion/printers.go) write them.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let member: Awaited<ReturnType<MemberHarness['start']>>;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const apply = async (yaml: string) => {
  const out = await kubectl(['apply', '--server-side', '-f', '-'], yaml);
  assert.is(out.code, 0, out.stderr);
};
const get = async (...args: string[]) => {
  const out = await kubectl(['get', ...args]);
  assert.is(out.code, 0, out.stderr);
  return out.stdout;
};

test('services print EXTERNAL-IP per type, balancer addresses sorted and unclipped, selectors sorted', async () => {
  await apply(`apiVersion: v1
kind: Service
metadata: {name: ext, namespace: default}
spec: {type: ExternalName, externalName: db.example.com}
---
apiVersion: v1
kind: Service
metadata: {name: pinned, namespace: default}
spec:
  externalIPs: [203.0.113.7]
  selector: {tier: web, app: shop}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: lb, namespace: default}
spec:
  type: LoadBalancer
  externalIPs: [203.0.113.9]
  ports: [{port: 443}]
`);
  const status = JSON.stringify({
    status: {
      loadBalancer: {
        ingress: [{ ip: '198.51.100.20' }, { hostname: 'balancer.example.com' }, { ip: '198.51.100.20' }],
      },
    },
  });
  const patched = await kubectl(['patch', 'service', 'lb', '--subresource=status', '--type=merge', '-p', status]);
  assert.is(patched.code, 0, patched.stderr);
  const out = await get('services', 'ext', 'pinned', 'lb', '-o', 'wide');
  assert.match(out, /^ext\s+ExternalName\s+<none>\s+db\.example\.com\s+<none>\s+\S+\s+<none>$/m);
  assert.match(out, /^pinned\s+ClusterIP\s+10\.\S+\s+203\.0\.113\.7\s+80\/TCP\s+\S+\s+app=shop,tier=web$/m);
  assert.match(
    out,
    /^lb\s+LoadBalancer\s+10\.\S+\s+198\.51\.100\.20,balancer\.example\.com,203\.0\.113\.9\s+443:\d+\/TCP\s+/m,
  );
});

test('ingresses print the hosts of their first three rules and their sorted addresses', async () => {
  await apply(`apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: shop, namespace: default}
spec:
  rules:
  - http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: pinned, port: {number: 80}}}}]}
  - host: a.example.com
  - host: b.example.com
  - host: c.example.com
  - host: d.example.com
`);
  const status = JSON.stringify({
    status: { loadBalancer: { ingress: [{ ip: '198.51.100.9' }, { ip: '198.51.100.1' }] } },
  });
  const patched = await kubectl(['patch', 'ingress', 'shop', '--subresource=status', '--type=merge', '-p', status]);
  assert.is(patched.code, 0, patched.stderr);
  assert.match(
    await get('ingress', 'shop'),
    /^shop\s+<none>\s+a\.example\.com,b\.example\.com,c\.example\.com \+ 2 more\.\.\.\s+198\.51\.100\.1,198\.51\.100\.9\s+80\s+\S+$/m,
  );
});

test('workload selectors and node selectors print sorted, label expressions included', async () => {
  await apply(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector:
    matchLabels: {tier: node, app: agent}
    matchExpressions: [{key: role, operator: In, values: [b, a]}]
  template:
    metadata: {labels: {tier: node, app: agent, role: a}}
    spec:
      nodeSelector: {zone: z1, disk: ssd}
      containers: [{name: agent, image: agent:1}]
`);
  assert.match(
    await get('daemonset', 'agent', '-o', 'wide'),
    /^agent\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+disk=ssd,zone=z1\s+\S+\s+agent\s+agent:1\s+app=agent,role in \(a,b\),tier=node$/m,
  );
});

test('jobs print STATUS from their conditions and deletion, COMPLETIONS of their parallelism; cronjobs SUSPEND as words', async () => {
  await apply(`apiVersion: batch/v1
kind: Job
metadata: {name: queue, namespace: default, finalizers: [example.com/hold]}
spec:
  suspend: true
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      containers: [{name: worker, image: worker:1}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: backup, image: backup:2}]
`);
  await waitFor('the Job suspended', async () => {
    const out = await get('job', 'queue');
    return /^queue\s+Suspended\s+0\/1 of 3\s+\S*\s+\S+$/m.test(out) ? out : undefined;
  });
  assert.is((await kubectl(['delete', 'job', 'queue', '--wait=false'])).code, 0);
  assert.match(await get('job', 'queue'), /^queue\s+Terminating\s+0\/1 of 3\s+/m);
  assert.is(
    (await kubectl(['patch', 'job', 'queue', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])).code,
    0,
  );
  assert.match(
    await get('cronjob', 'nightly', '-o', 'wide'),
    /^nightly\s+0 3 \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+\s+backup\s+backup:2\s+<none>$/m,
  );
});

test('apiservices, network policies, webhook configurations, runtime classes and limit ranges print their own columns', async () => {
  await apply(`apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.example.com}
spec:
  group: metrics.example.com
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  service: {namespace: kube-system, name: metrics}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: default}
spec:
  podSelector: {matchLabels: {tier: web, app: shop}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: guard}
webhooks:
- name: guard.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: "https://guard.example.com/validate"}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: sandboxed}
handler: runsc
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: default}
spec:
  limits: [{type: Container, default: {cpu: 500m}}]
`);
  assert.match(
    await get('apiservice', 'v1beta1.metrics.example.com'),
    /^NAME\s+SERVICE\s+AVAILABLE\s+AGE\nv1beta1\.metrics\.example\.com\s+kube-system\/metrics\s+\S.*\s+\S+$/m,
  );
  assert.match(await get('networkpolicy', 'deny'), /^deny\s+app=shop,tier=web\s+\S+$/m);
  assert.match(await get('validatingwebhookconfiguration', 'guard'), /^NAME\s+WEBHOOKS\s+AGE\nguard\s+1\s+\S+$/m);
  assert.match(await get('runtimeclass', 'sandboxed'), /^sandboxed\s+runsc\s+\S+$/m);
  assert.match(await get('limitrange', 'limits'), /^NAME\s+CREATED AT\nlimits\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
});

test('custom resources print blank cells for missing or mistyped values, objects as JSON, and AGE without printer columns', async () => {
  await apply(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.ex.io}
spec:
  group: ex.io
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Ratio, type: number, jsonPath: .spec.ratio}
    - {name: Enabled, type: boolean, jsonPath: .spec.enabled}
    - {name: Conf, type: string, jsonPath: .spec.conf}
    - {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status'}
    - {name: Since, type: date, jsonPath: .spec.since}
    - {name: Tail, type: string, jsonPath: '.spec.list[-1]'}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: plains.ex.io}
spec:
  group: ex.io
  scope: Namespaced
  names: {kind: Plain, plural: plains, singular: plain, listKind: PlainList}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`);
  const created = await waitFor('the custom kinds served', async () => {
    const out = await kubectl(
      ['apply', '-f', '-'],
      `apiVersion: ex.io/v1
kind: Gadget
metadata: {name: full, namespace: default}
spec: {size: 2.7, ratio: 3, enabled: true, conf: {b: 1, a: "<x>"}, since: soon, list: [a, b]}
status: {conditions: [{type: Synced, status: "False"}, {type: Ready, status: "True"}]}
---
apiVersion: ex.io/v1
kind: Gadget
metadata: {name: odd, namespace: default}
spec: {size: "2", ratio: "x", enabled: "yes", since: ""}
---
apiVersion: ex.io/v1
kind: Plain
metadata: {name: p1, namespace: default}
`,
    );
    return out.code === 0 ? out : undefined;
  });
  assert.ok(created);
  const gadgets = await get('gadgets', 'full', 'odd');
  assert.match(gadgets, /^full\s+2\s+3\s+true\s+\{"a":"\\u003cx\\u003e","b":1\}\s+True\s+<invalid>\s+b$/m);
  assert.match(gadgets, /^odd\s+<unknown>\s*$/m);
  const table = await api(member, 'GET', '/apis/ex.io/v1/namespaces/default/plains', {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
  });
  assert.equal(
    table.body.columnDefinitions.map((c: any) => [c.name, c.type]),
    [
      ['Name', 'string'],
      ['Age', 'date'],
    ],
  );
  assert.match(await get('plains'), /^p1\s+\d+s$/m);
});

test('events print their source, first time and count from the events.k8s.io fields, and a kind alone without a name', async () => {
  const old = new Date(Date.now() - 600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await apply(`apiVersion: v1
kind: Event
metadata: {name: ev1, namespace: default}
involvedObject: {kind: Node}
reason: Rebooted
type: Normal
message: rebooted
firstTimestamp: "${old}"
reportingComponent: kubelet
reportingInstance: node-a
source: {}
`);
  const out = await get('events', 'ev1', '-o', 'wide');
  assert.match(out, /^10m\s+Normal\s+Rebooted\s+node\s+kubelet,\s+node-a\s+rebooted\s+10m\s+1\s+ev1$/m);
});

test('nodes print roles from both role labels, and <unknown> for empty system info', async () => {
  await apply(`apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {node-role.kubernetes.io/infra: "", kubernetes.io/role: edge}
`);
  const out = await get('nodes', 'worker-1', '-o', 'wide');
  assert.match(out, /^worker-1\s+\S+\s+edge,infra\s+.*<unknown>\s+<unknown>\s+<unknown>$/m);
});

test('pods print how many of their readiness gates are true', async () => {
  await apply(`apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: default}
spec:
  readinessGates: [{conditionType: example.com/lb}, {conditionType: example.com/dns}]
  containers: [{name: c, image: busybox}]
`);
  const status = JSON.stringify({ status: { conditions: [{ type: 'example.com/lb', status: 'True' }] } });
  const patched = await kubectl(['patch', 'pod', 'gated', '--subresource=status', '--type=strategic', '-p', status]);
  assert.is(patched.code, 0, patched.stderr);
  assert.match(await get('pods', 'gated', '-o', 'wide'), /^gated\s+.*\s1\/2$/m);
});

test('claims print the beta storage-class annotation over the field and capacities, quota usage canonically', async () => {
  await apply(`apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: legacy
  namespace: default
  annotations: {volume.beta.kubernetes.io/storage-class: slow}
spec:
  storageClassName: fast
  volumeName: pv-legacy
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Namespace
metadata: {name: quotas}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: quotas}
spec: {hard: {requests.cpu: "2", limits.memory: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: half, namespace: quotas}
spec: {containers: [{name: c, image: busybox, resources: {requests: {cpu: "0.5"}, limits: {memory: "0.25Gi"}}}]}
`);
  const claimStatus = JSON.stringify({ status: { phase: 'Bound', capacity: { storage: '2048Mi' } } });
  const claim = await kubectl(['patch', 'pvc', 'legacy', '--subresource=status', '--type=merge', '-p', claimStatus]);
  assert.is(claim.code, 0, claim.stderr);
  assert.match(await get('pvc', 'legacy'), /^legacy\s+Bound\s+pv-legacy\s+2Gi\s+slow\s+/m);
  // The quota controller's used: the pod's 0.5 cpu request and 0.25Gi memory limit, stored canonical.
  assert.match(
    await get('quota', 'compute', '-n', 'quotas'),
    /^compute\s+\S+\s+requests\.cpu: 500m\/2\s+limits\.memory: 256Mi\/1Gi$/m,
  );
});

test.run();
