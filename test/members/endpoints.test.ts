import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// The member's endpoints controller seen through the real kubectl 1.32: core/v1 Endpoints kept beside the
// EndpointSlices for a Service with a selector, so `kubectl get endpoints` and `kubectl describe` show the pods'
// addresses; Endpoints of a Service without a selector stay as their writer left them.

const harness = new MemberHarness();
let member: Member;
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
metadata: {name: web, namespace: default, labels: {tier: front}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`;

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
});
test.after(async () => {
  await harness.cleanup();
});

const k = async (...args: string[]) => {
  const r = await kubectl(['--context', 'member1', ...args]);
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
};
const podIps = async () =>
  (await k('get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[*].status.podIP}')).split(/\s+/).filter(Boolean);
/** `kubectl get endpoints web`'s ENDPOINTS column, split and sorted. */
const endpointsColumn = async () => {
  const r = await kubectl(['--context', 'member1', 'get', 'endpoints', 'web', '--no-headers']);
  return r.code === 0 ? r.stdout.trim().split(/\s+/)[1]!.split(',').sort() : undefined;
};
const withPort = (ips: string[]) => ips.map((ip) => `${ip}:8080`).sort();

test("kubectl get endpoints and kubectl describe show the Service's ready pods on the resolved named port", async () => {
  const applied = await kubectl(['--context', 'member1', 'apply', '--server-side', '-f', '-'], app);
  assert.is(applied.code, 0, applied.stderr);
  const ips = await waitFor('two ready pods in the endpoints', async () => {
    const ready = await podIps();
    const column = await endpointsColumn();
    return ready.length === 2 && JSON.stringify(column) === JSON.stringify(withPort(ready)) ? ready : undefined;
  });
  const ep = JSON.parse(await k('get', 'endpoints', 'web', '-o', 'json'));
  assert.equal(ep.metadata.labels, { tier: 'front' });
  assert.is(ep.metadata.ownerReferences, undefined);
  assert.equal(ep.subsets[0].ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  for (const a of ep.subsets[0].addresses) {
    assert.is(a.targetRef.kind, 'Pod');
    assert.match(a.nodeName, /^member1-node-\d$/);
  }
  const describedEndpoints = await k('describe', 'endpoints', 'web');
  assert.match(
    describedEndpoints,
    new RegExp(`Addresses:\\s+${[...ips].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).join(',')}`),
  );
  assert.match(describedEndpoints, /http\s+8080\s+TCP/);
  const describedService = await k('describe', 'service', 'web');
  for (const ip of ips) assert.match(describedService, `${ip}:8080`);
});

test('the endpoints follow scaling, come back when deleted by hand, and go with their Service', async () => {
  await k('scale', 'deploy/web', '--replicas=3');
  await waitFor('three endpoints', async () => {
    const ready = await podIps();
    return ready.length === 3 && JSON.stringify(await endpointsColumn()) === JSON.stringify(withPort(ready));
  });
  await k('delete', 'endpoints', 'web');
  await waitFor('the endpoints back', async () => (await endpointsColumn())?.length === 3);
  await k('delete', 'service', 'web');
  await waitFor('the endpoints gone with the Service', async () => (await endpointsColumn()) === undefined);
});

test('a Service without a selector keeps the Endpoints its writer made', async () => {
  const service =
    'apiVersion: v1\nkind: Service\nmetadata: {name: external, namespace: default}\nspec:\n  ports: [{port: 80}]\n';
  const applied = await kubectl(['--context', 'member1', 'apply', '-f', '-'], service);
  assert.is(applied.code, 0, applied.stderr);
  const body = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'external', namespace: 'default' },
    subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 80, protocol: 'TCP' }] }],
  };
  const created = await api(member, 'POST', '/api/v1/namespaces/default/endpoints', { body });
  assert.is(created.status, 201, JSON.stringify(created.body));
  await member.settled();
  const stored = JSON.parse(await k('get', 'endpoints', 'external', '-o', 'json'));
  assert.is(stored.metadata.resourceVersion, created.body.metadata.resourceVersion);
  assert.equal(stored.subsets, body.subsets);
});

test.run();
