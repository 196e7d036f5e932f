import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A Deployment's rolling update paced as the deployment controller paces it: the new ReplicaSet grows while all pods
// stay within replicas + maxSurge, and the old ones shrink only as far as replicas - maxUnavailable stay available.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 30 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const deployment = (name: string, replicas: number, rollingUpdate: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  strategy: {type: RollingUpdate${rollingUpdate ? `, rollingUpdate: ${rollingUpdate}` : ''}}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: web, image: "nginx:1"}]}
`;

/**
 * Rolls `name` to nginx:2 and returns the most pods its ReplicaSets asked for together, and the fewest ready pods, seen
 * at any write meanwhile (a pod being replaced may outlive its ReplicaSet's scale-down for a moment, as on a cluster).
 */
async function rollOut(name: string, replicas: number): Promise<{ most: number; fewestReady: number }> {
  const pods = () =>
    member.store
      .list('/pods', 'default')
      .filter((p) => p.metadata.labels?.app === name && !p.metadata.deletionTimestamp);
  const ready = () =>
    pods().filter((p) =>
      (p.status?.conditions ?? []).some(
        (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
      ),
    ).length;
  const asked = () =>
    member.store
      .list('apps/replicasets', 'default')
      .filter((rs) => rs.metadata.labels?.app === name)
      .reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
  let most = 0;
  let fewestReady = Number.POSITIVE_INFINITY;
  const unsubscribe = member.store.subscribe(() => {
    most = Math.max(most, asked());
    fewestReady = Math.min(fewestReady, ready());
  });
  try {
    assert.is((await kubectl(['set', 'image', `deploy/${name}`, 'web=nginx:2'])).code, 0);
    await waitFor(`${name} rolled out`, async () => {
      const d = JSON.parse((await kubectl(['get', 'deploy', name, '-o', 'json'])).stdout);
      const s = d.status ?? {};
      return s.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas;
    });
  } finally {
    unsubscribe();
  }
  return { most, fewestReady };
}

test('maxSurge 0 and maxUnavailable 1: never more pods asked for than replicas, never two unavailable at once', async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment('strict', 4, '{maxSurge: 0, maxUnavailable: 1}'))).code, 0);
  await waitFor('strict ready', async () =>
    /^strict\s+4\/4\s/m.test((await kubectl(['get', 'deploy', 'strict'])).stdout),
  );
  const { most, fewestReady } = await rollOut('strict', 4);
  assert.is(most, 4);
  assert.ok(fewestReady >= 3, `ready pods fell to ${fewestReady}`);
});

test("the defaults, 25% each: three replicas roll one extra pod at a time, and the ReplicaSet's max-replicas says so", async () => {
  assert.is((await kubectl(['apply', '-f', '-'], deployment('paced', 3, ''))).code, 0);
  await waitFor('paced ready', async () => /^paced\s+3\/3\s/m.test((await kubectl(['get', 'deploy', 'paced'])).stdout));
  const { most, fewestReady } = await rollOut('paced', 3);
  assert.is(most, 4);
  assert.ok(fewestReady >= 3, `ready pods fell to ${fewestReady}`);
  const sets = JSON.parse((await kubectl(['get', 'rs', '-l', 'app=paced', '-o', 'json'])).stdout).items;
  assert.equal(
    sets.map((rs: { metadata: { annotations: Record<string, string> } }) => [
      rs.metadata.annotations['deployment.kubernetes.io/desired-replicas'],
      rs.metadata.annotations['deployment.kubernetes.io/max-replicas'],
    ]),
    [
      ['3', '4'],
      ['3', '4'],
    ],
  );
});

test.run();
