import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A PodDisruptionBudget's status on a member, as Kubernetes' disruption controller keeps it and as Karmada reads it
// (healthy while currentHealthy >= desiredHealthy), seen through the real kubectl.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
`;

const budgets = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-min, namespace: default}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-max, namespace: default}
spec:
  maxUnavailable: 34%
  selector: {matchLabels: {app: web}}
`;

const status = async (name: string) => JSON.parse((await kubectl(['get', 'pdb', name, '-o', 'json'])).stdout).status;

test('a budget counts the Ready pods its selector takes against minAvailable or its controllers’ scale', async () => {
  assert.is((await kubectl(['apply', '-f', '-'], `${deployment(3)}---\n${budgets}`)).code, 0);
  const min = await waitFor('web-min sees 3 healthy pods', async () => {
    const s = await status('web-min');
    return s?.currentHealthy === 3 ? s : undefined;
  });
  assert.is(min.desiredHealthy, 2);
  assert.is(min.expectedPods, 3);
  assert.is(min.disruptionsAllowed, 1);
  assert.is(min.conditions[0].type, 'DisruptionAllowed');
  assert.is(min.conditions[0].status, 'True');
  assert.is(min.conditions[0].reason, 'SufficientPods');
  // 34 % of the Deployment's 3 replicas, rounded up: 2 may be unavailable, so 1 must stay healthy.
  const max = await waitFor('web-max sees 3 healthy pods', async () => {
    const s = await status('web-max');
    return s?.currentHealthy === 3 ? s : undefined;
  });
  assert.equal([max.expectedPods, max.desiredHealthy, max.disruptionsAllowed], [3, 1, 2]);
  const table = await kubectl(['get', 'pdb', 'web-min']);
  assert.match(table.stdout, /^web-min\s+2\s+N\/A\s+1\s+\S+$/m);

  // Scaled to 1: the integer budget can no longer be met, and Karmada would read the budget unhealthy.
  assert.is((await kubectl(['apply', '-f', '-'], deployment(1))).code, 0);
  const short = await waitFor('web-min down to 1 healthy pod', async () => {
    const s = await status('web-min');
    return s?.currentHealthy === 1 && s.expectedPods === 1 ? s : undefined;
  });
  assert.is(short.disruptionsAllowed, 0);
  assert.is(short.conditions[0].status, 'False');
  assert.is(short.conditions[0].reason, 'InsufficientPods');
});

test.run();
