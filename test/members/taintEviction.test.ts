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

test.run();
