import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A NoExecute taint on a member's node, as Kubernetes' taint-eviction controller acts on it, seen through kubectl.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const pod = (name: string, node: string, toleration = '') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: default}
spec:
  nodeName: ${node}
  containers: [{name: app, image: busybox}]
${toleration ? `  tolerations: [${toleration}]\n` : ''}`;

const names = async () =>
  (await kubectl(['get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}'])).stdout.split(' ').filter(Boolean).sort();

test('a NoExecute taint evicts the pods that do not tolerate it, at once or after their tolerationSeconds', async () => {
  const node = 'member1-node-2';
  for (const manifest of [
    pod('plain', node),
    pod('forever', node, '{key: dedicated, operator: Exists, effect: NoExecute}'),
    pod('briefly', node, '{key: dedicated, operator: Equal, value: gpu, effect: NoExecute, tolerationSeconds: 1}'),
    pod('elsewhere', 'member1-node-1'),
  ])
    assert.is((await kubectl(['apply', '-f', '-'], manifest)).code, 0, manifest);
  assert.equal(await names(), ['briefly', 'elsewhere', 'forever', 'plain']);
  assert.is((await kubectl(['taint', 'nodes', node, 'dedicated=gpu:NoExecute'])).code, 0);
  assert.equal(
    await waitFor('plain evicted', async () => {
      const now = await names();
      return now.includes('plain') ? undefined : now;
    }),
    ['briefly', 'elsewhere', 'forever'],
  );
  assert.equal(
    await waitFor('briefly evicted once its second is up', async () => {
      const now = await names();
      return now.includes('briefly') ? undefined : now;
    }),
    ['elsewhere', 'forever'],
  );
});

test('a cordon shows as the unschedulable taint, which a DaemonSet pod tolerates with the other node conditions', async () => {
  const node = 'member1-node-3';
  const taints = async () => (await kubectl(['get', 'node', node, '-o', 'jsonpath={.spec.taints}'])).stdout;
  assert.is((await kubectl(['cordon', node])).code, 0);
  assert.match(
    await waitFor('the unschedulable taint', async () =>
      (await taints()).includes('unschedulable') ? taints() : undefined,
    ),
    '{"effect":"NoSchedule","key":"node.kubernetes.io/unschedulable"}',
  );
  const ds = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: busybox}]}
`;
  assert.is((await kubectl(['apply', '-f', '-'], ds)).code, 0);
  const onCordoned = await waitFor('a daemon on the cordoned node', async () => {
    const list = JSON.parse((await kubectl(['get', 'pods', '-l', 'app=agent', '-o', 'json'])).stdout);
    return list.items.find((p: { spec: { nodeName?: string } }) => p.spec.nodeName === node);
  });
  assert.equal(
    onCordoned.spec.tolerations.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`),
    [
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ],
  );
  assert.is((await kubectl(['uncordon', node])).code, 0);
  await waitFor('the taint gone', async () => ((await taints()).includes('unschedulable') ? undefined : true));
});

test.run();
