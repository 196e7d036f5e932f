import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// The member's EndpointSlice controller seen through the real kubectl 1.32: slices for a Service's ready pods
// with its named targetPort resolved, pod IPs from each member's own CIDR, and slices some other controller
// manages left exactly as written.

const harness = new MemberHarness();
let member1: Member;
let member2: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

const app = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`;

const foreignSlice = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: {
    name: 'web-from-member2',
    namespace: 'default',
    labels: {
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.karmada.io',
    },
  },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.99.0.7'], conditions: { ready: true } }],
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
};

test.before(async () => {
  member1 = await harness.start({ name: 'member1' });
  member2 = await harness.start({ name: 'member2' });
  kubectl = harness.kubectl([member1, member2]);
});

test.after(async () => {
  await harness.cleanup();
});

const slicesOf = async (context: string) => {
  const out = await kubectl([
    '--context',
    context,
    'get',
    'endpointslices',
    '-l',
    'kubernetes.io/service-name=web',
    '-o',
    'json',
  ]);
  return JSON.parse(out.stdout).items as any[];
};

test("kubectl get endpointslices lists the Service's two ready pods on the resolved named port", async () => {
  for (const context of ['member1', 'member2']) {
    const applied = await kubectl(['--context', context, 'apply', '--server-side', '-f', '-'], app);
    assert.is(applied.code, 0, applied.stderr);
  }
  const printed = await waitFor('two ready endpoints', async () => {
    const out = await kubectl(['--context', 'member1', 'get', 'endpointslices']);
    return /^web-\w{5}\s+IPv4\s+8080\s+\d+\.\d+\.\d+\.\d+,\d+\.\d+\.\d+\.\d+\s+\S+$/m.test(out.stdout)
      ? out.stdout
      : undefined;
  });
  assert.match(printed, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
  const [slice] = await slicesOf('member1');
  assert.is(slice.metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
  assert.is(slice.metadata.ownerReferences[0].kind, 'Service');
  assert.equal(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  for (const endpoint of slice.endpoints) {
    assert.equal(endpoint.conditions, { ready: true, serving: true, terminating: false });
    assert.is(endpoint.targetRef.kind, 'Pod');
    assert.match(endpoint.nodeName, /^member1-node-\d$/);
  }
});

test("each member hands out pod IPs from its own CIDR, so the two members' endpoints differ", async () => {
  const addresses = async (context: string) => {
    const slices = await waitFor(`${context} endpoints`, async () => {
      const found = await slicesOf(context);
      return found.flatMap((s) => s.endpoints ?? []).length === 2 ? found : undefined;
    });
    return slices.flatMap((s) => s.endpoints.map((e: any) => e.addresses[0] as string));
  };
  const one = await addresses('member1');
  const two = await addresses('member2');
  const prefix = (ip: string) => ip.split('.').slice(0, 2).join('.');
  assert.is(new Set(one.map(prefix)).size, 1);
  assert.is.not(prefix(one[0]!), prefix(two[0]!));
  const nodeCidr = (
    await kubectl(['--context', 'member2', 'get', 'node', 'member2-node-1', '-o', 'jsonpath={.spec.podCIDR}'])
  ).stdout;
  assert.is(nodeCidr.split('.').slice(0, 2).join('.'), prefix(two[0]!));
});

test("a slice managed by another controller is left as written while the member's own slice follows scaling", async () => {
  const created = await api(member1, 'POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
    body: foreignSlice,
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is((await kubectl(['--context', 'member1', 'scale', 'deploy/web', '--replicas=3'])).code, 0);
  await waitFor("three endpoints in the member's own slice", async () => {
    const own = (await slicesOf('member1')).filter(
      (s) => s.metadata.labels['endpointslice.kubernetes.io/managed-by'] === 'endpointslice-controller.k8s.io',
    );
    return own.length === 1 && own[0].endpoints.filter((e: any) => e.conditions.ready).length === 3;
  });
  await member1.settled();
  const foreign = (
    await api(member1, 'GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/web-from-member2')
  ).body;
  assert.is(foreign.metadata.resourceVersion, created.body.metadata.resourceVersion);
  assert.equal(foreign.endpoints, foreignSlice.endpoints);
});

test('deleting the Service removes its slices through their owner reference, not the foreign one', async () => {
  assert.is((await kubectl(['--context', 'member1', 'delete', 'service', 'web'])).code, 0);
  const left = await waitFor('own slices gone', async () => {
    const slices = await slicesOf('member1');
    return slices.length === 1 ? slices : undefined;
  });
  assert.is(left[0].metadata.name, 'web-from-member2');
});

test.run();
