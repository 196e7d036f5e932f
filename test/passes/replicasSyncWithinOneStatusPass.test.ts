// Karmada's deployment replicas syncer runs on the template's status update: the members' summed replicas reach the
// template as soon as their status does. Here that is one status pass: the pass that commits the members' status
// after their HPAs scaled also commits the synced count, and the next render divides it. Deciding from the status
// branch as the previous pass left it took a second status pass. The members are scaled by hand as their HPAs would
// (the Deployment is labelled retain-replicas, so no HPA controller runs on its own clock), and each wait is on
// their writes: every step is in order, without timers.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { reconcileOnce, reconcileStatusOnce } from '../../src/reconcile.ts';
import { clusterRegistration, deployment, makeFleet, weightedPolicy, type Fleet } from '../helpers/fleet.ts';
import { untilTrue, type ChangeSource } from '../helpers/untilTrue.ts';

const CLUSTERS = ['member1', 'member2'] as const;
const SYNCED = 'syncedreplicas/default/web.yaml';
let fleet: Fleet;
let kubes: Map<string, KubeTarget>;
test.before(async () => {
  fleet = await makeFleet({ members: [...CLUSTERS], readyDelayMs: 0 });
  kubes = await connectKubeconfig(path.join(fleet.credentials, 'members.config'));
});
test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await fleet?.cleanup();
});

const FILES = {
  ...Object.fromEntries(CLUSTERS.map((c) => [`clusters/${c}.yaml`, clusterRegistration(c)])),
  'templates/web.yaml': deployment('web', 4, { labels: { 'resourcetemplate.karmada.io/retain-replicas': 'true' } }),
  'policies/web.yaml': weightedPolicy('web', [...CLUSTERS]),
};

const memberWrites: ChangeSource = (listener) => {
  const stops = fleet.members.map((m) => m.store.subscribe(listener));
  return () => {
    for (const stop of stops) stop();
  };
};
/** Both members run `replicas` of web and their status says so for the spec they hold. */
const membersRun = (replicas: number) =>
  untilTrue(
    `web at ${replicas} on both members`,
    () =>
      fleet.members.every((m) => {
        const d = m.store.get('apps/deployments', 'default', 'web') as
          | { metadata: { generation?: number }; spec?: { replicas?: number }; status?: Record<string, unknown> }
          | undefined;
        return (
          d?.spec?.replicas === replicas &&
          d.status?.replicas === replicas &&
          d.status.observedGeneration === d.metadata.generation
        );
      }),
    [memberWrites],
  );
/** Each member's web scaled to `replicas` through the scale subresource, as kube-controller-manager's HPA writes it. */
const scaleMembers = async (replicas: number) => {
  for (const kube of kubes.values()) {
    const res = await kube.request({
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/default/deployments/web/scale',
      contentType: 'application/merge-patch+json',
      body: JSON.stringify({ spec: { replicas } }),
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
};
/** What each pass runs against: the fleet's repository and members, quiet. */
const passTarget = async () => ({
  repo: await openRepo(fleet.bare),
  outputRef: 'refs/heads/flotilla/rendered',
  statusRef: 'refs/heads/flotilla/status',
  clusters: kubes,
  log: () => undefined,
});
const show = (file: string): string | undefined => {
  try {
    return fleet.git(fleet.bare, 'show', file);
  } catch {
    return undefined; // not written yet
  }
};

test("the status pass that brings in the members' scaled replicas syncs them; the next render divides the sum", async () => {
  fleet.push(FILES, 'web: 4 replicas divided 1:1, the members own the count (retain-replicas)');
  const refs = await passTarget();
  await reconcileOnce({ ...refs, sourceRef: 'refs/heads/main', render: true });
  await membersRun(2);
  await reconcileStatusOnce(refs);
  assert.is(show(`flotilla/status:${SYNCED}`), undefined, 'the members run what the template says');

  // The members' HPAs scale each half from 2 to 3 (the scale subresource, as kube-controller-manager writes it).
  await scaleMembers(3);
  await membersRun(3);

  const pass = await reconcileStatusOnce(refs);
  assert.ok(pass.changedPaths.includes(SYNCED), `one status pass syncs the count: ${pass.changedPaths.join(', ')}`);
  assert.ok(pass.changedPaths.includes('templates/default/deployment.apps_web.yaml'), 'with the status it follows');
  const record = parse(show(`${pass.statusCommit}:${SYNCED}`)!);
  assert.equal(
    { replicas: record.replicas, gitReplicas: record.gitReplicas, clusters: record.clusters },
    { replicas: 6, gitReplicas: 4, clusters: { member1: 3, member2: 3 } },
  );
  assert.match(
    show(`${pass.statusCommit}`) ?? '',
    /Replicas synced for Deployment default\/web: 4 -> 6 replicas, as the members run them \(3 in member1, 3 in member2; 4 in Git\)/,
  );

  // The next render gives the template the members' sum, divided as they run it.
  await reconcileOnce({ ...refs, sourceRef: 'refs/heads/main', render: true });
  const binding = parse(show('flotilla/rendered:bindings/default/web-deployment.yaml')!);
  assert.is(binding.spec.replicas, 6);
  assert.equal(
    (binding.spec.clusters as { name: string; replicas: number }[]).map((c) => [c.name, c.replicas]),
    [
      ['member1', 3],
      ['member2', 3],
    ],
  );
  const again = await reconcileStatusOnce(refs);
  assert.not.ok(again.changedPaths.includes(SYNCED), 'the sum synced once stays as it is');
});

test('with --leader-elect only the leader syncs: a replica that does not lead commits the status, not the count', async () => {
  const refs = await passTarget();
  await scaleMembers(4);
  await membersRun(4);
  const follower = await reconcileStatusOnce({ ...refs, autoscaling: async () => null });
  assert.ok(follower.changedPaths.includes('templates/default/deployment.apps_web.yaml'), 'the status is committed');
  assert.not.ok(follower.changedPaths.includes(SYNCED), 'a replica that does not lead decides nothing');
  const leader = await reconcileStatusOnce({
    ...refs,
    autoscaling: async () => ({ clusters: kubes, ready: new Set(CLUSTERS) }),
  });
  assert.ok(leader.changedPaths.includes(SYNCED), leader.changedPaths.join(', '));
  assert.is(parse(show(`flotilla/status:${SYNCED}`)!).replicas, 8);
});

test.run();
