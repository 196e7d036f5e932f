import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// metrics.k8s.io/v1beta1 on a member, read by the real kubectl 1.32 (`kubectl top`, which first checks
// discovery for the group) and by a raw client: usage comes from the pods' cpu-usage annotation. kubectl pads
// every cell, the last one too, hence the trailing \s* in the patterns.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: busy, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: busy}}
  template:
    metadata:
      labels: {app: busy}
      annotations: {emulator.flotilla.io/cpu-usage: 150m, emulator.flotilla.io/memory-usage: 64Mi}
    spec:
      containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: 200m}}}]
`;

test.before(async () => {
  member = await harness.start({ name: 'member1', nodes: [{ name: 'only-node', cpu: '4', memory: '8Gi' }] });
  kubectl = harness.kubectl([member]);
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], deployment)).code, 0);
  await waitFor('2 running pods', async () => /^busy\s+2\/2\s/m.test((await kubectl(['get', 'deploy'])).stdout));
});

test.after(async () => {
  await harness.cleanup();
});

test('discovery lists metrics.k8s.io/v1beta1 with pods and nodes, get and list only', async () => {
  const list = await api(member, 'GET', '/apis/metrics.k8s.io/v1beta1');
  assert.is(list.status, 200);
  assert.equal(
    list.body.resources.map((r: any) => [r.name, r.kind, r.namespaced, r.verbs]),
    // metrics-server's APIInstaller lists its resources by name, as kube-apiserver's does.
    [
      ['nodes', 'NodeMetrics', false, ['get', 'list']],
      ['pods', 'PodMetrics', true, ['get', 'list']],
    ],
  );
  const refused = await api(member, 'DELETE', '/apis/metrics.k8s.io/v1beta1/nodes/only-node');
  assert.is(refused.status, 405);
});

test("kubectl top pods prints each running pod's annotated usage", async () => {
  const out = await kubectl(['top', 'pods', '-l', 'app=busy']);
  assert.is(out.code, 0, out.stderr);
  const [header, ...rows] = out.stdout.trim().split('\n');
  assert.match(header!, /^NAME\s+CPU\(cores\)\s+MEMORY\(bytes\)\s*$/);
  assert.is(rows.length, 2);
  for (const row of rows) assert.match(row, /^busy-\w+-\w{5}\s+150m\s+64Mi\s*$/);
});

test('kubectl top nodes sums the pods on each node against its allocatable', async () => {
  const out = await kubectl(['top', 'nodes']);
  assert.is(out.code, 0, out.stderr);
  assert.match(out.stdout, /^NAME\s+CPU\(cores\)\s+CPU\(%\)\s+MEMORY\(bytes\)\s+MEMORY\(%\)\s*$/m);
  assert.match(out.stdout, /^only-node\s+300m\s+7%\s+128Mi\s+1%\s*$/m);
});

test('a changed annotation shows in the next read; a pod without one reads 0', async () => {
  const pods = (await api(member, 'GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dbusy')).body.items;
  const name = pods[0].metadata.name;
  await api(member, 'PATCH', `/api/v1/namespaces/default/pods/${name}`, {
    contentType: 'application/merge-patch+json',
    body: { metadata: { annotations: { 'emulator.flotilla.io/cpu-usage': '1' } } },
  });
  const one = await api(member, 'GET', `/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/${name}`);
  assert.is(one.status, 200);
  assert.is(one.body.containers[0].usage.cpu, '1');
  assert.is(one.body.window, '15s');
  const missing = await api(member, 'GET', '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/nope');
  assert.is(missing.status, 404);
});

test.run();
