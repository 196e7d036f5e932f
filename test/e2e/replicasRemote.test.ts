// Three `flotilla run --leader-elect` replicas on one REMOTE repo (git http-backend on loopback), each with its own
// mirror, as pods with an emptyDir each: the leader pushes flotilla/rendered, every replica pushes its clusters'
// status to the shared flotilla/status (a push refused because another replica pushed first is replayed and sent
// again), and every push is rendered once and reaches every member, also after kill -9 of the leader.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap } from '../helpers/fleet.ts';
import { startGitHttpServer } from '../helpers/gitHttpServer.ts';
import { makeReplicaFleet, replicaBaseFiles, type ReplicaFleet } from '../helpers/replicaFleet.ts';

const CLUSTERS = ['member1', 'member2', 'member3', 'member4'];
let f: ReplicaFleet;

test.before(async () => {
  f = await makeReplicaFleet(CLUSTERS, {
    remote: async (fleet) => {
      const server = await startGitHttpServer(fleet.root);
      return { url: `${server.url}/repo.git`, close: () => server.close() };
    },
  });
});
test.after(async () => {
  await f?.cleanup();
});

/** Without blocking: the host keeping the replicas' Leases runs in this process. */
async function inventoryOn(cluster: string): Promise<string[]> {
  try {
    const text = await f.fleet.gitAsync(f.fleet.bare, 'show', `flotilla/status:inventories/${cluster}.json`);
    return (JSON.parse(text) as { objects: { name: string }[] }).objects.map((o) => o.name).sort();
  } catch {
    return [];
  }
}

test('replicas on a remote: each push rendered once, on every member, every cluster status on the remote', async () => {
  const base = f.fleet.push(replicaBaseFiles(CLUSTERS), 'Base fleet');
  for (const id of ['r0', 'r1', 'r2']) f.start(id);
  await f.converged(base, 60_000);
  const pushes: string[] = [];
  for (let i = 1; i <= 3; i++) {
    pushes.push(f.fleet.push({ 'templates/cm-0.yaml': configMap('cm-0', `v${i}`) }, `cm-0 v${i}`));
    await f.converged(pushes.at(-1)!, 30_000);
  }
  for (const sha of [base, ...pushes]) assert.is(f.outputCommitsFor(sha), 1, `output commits for ${sha}`);
  // Every replica's status reached the remote: each cluster's inventory names what it was given.
  const deadline = Date.now() + 30_000;
  const inventories = () => Promise.all(CLUSTERS.map((c) => inventoryOn(c)));
  while ((await inventories()).some((names) => names.join() !== 'cm-0,cm-1,cm-2') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const last = await inventories();
  for (const [i, c] of CLUSTERS.entries()) assert.equal(last[i], ['cm-0', 'cm-1', 'cm-2'], `${c} inventory`);
  const replicasPushingStatus = [...f.replicas].filter(([, child]) =>
    child.events.entries.some(
      (e) => e.step === 'push' && (e.pushed as string[] | undefined)?.includes('flotilla/status'),
    ),
  );
  assert.ok(replicasPushingStatus.length >= 2, `status pushed by ${replicasPushingStatus.map(([id]) => id)}`);
});

test('replicas on a remote: kill -9 of the leader, the next push still reaches every member, rendered once', async () => {
  const leader = f.leaseHolder()!;
  await f.replicas.get(leader)!.kill9();
  f.replicas.delete(leader);
  const sha = f.fleet.push({ 'templates/cm-1.yaml': configMap('cm-1', 'after the kill') }, 'cm-1 after the kill');
  await f.converged(sha, 60_000);
  assert.is(f.outputCommitsFor(sha), 1);
});

test.run();
