// Replica faults: three `flotilla run --leader-elect` replicas on one bare repo, their Leases on an emulated host
// cluster. The leader killed, the leader cut off from the host cluster, the Lease API failing for everyone: each
// push must still be rendered exactly once and reach every member, a replica that lost its Lease must stop writing
// before another starts, and nothing may be lost.
import { configMap } from '../../helpers/fleet.ts';
import type { Child } from '../../helpers/spawnFlotilla.ts';
import { makeReplicaFleet, replicaBaseFiles, TEST_TIMINGS, type ReplicaFleet } from '../../helpers/replicaFleet.ts';
import type { Expectations, Scenario, ScenarioResult } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';

const CLUSTERS = ['member1', 'member2', 'member3', 'member4'];
const IDS = ['r0', 'r1', 'r2'];
const CONVERGE_MS = 60_000;

/** Three replicas converged on the base commit, every replica holding a shard. */
async function startFleet(partitionable = false): Promise<ReplicaFleet> {
  const f = await makeReplicaFleet(CLUSTERS);
  try {
    const base = f.fleet.push(replicaBaseFiles(CLUSTERS, 6), 'Base fleet');
    for (const id of IDS)
      if (partitionable) await f.startPartitionable(id);
      else f.start(id);
    await f.converged(base, CONVERGE_MS);
    await settled(f);
    return f;
  } catch (err) {
    await f.cleanup();
    throw err;
  }
}

async function settled(f: ReplicaFleet): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const claims = [...f.replicas.keys()].map(
      (id) =>
        JSON.parse(
          f.lease(`flotilla-replica-${id}`)?.metadata.annotations?.['flotilla.io/clusters'] ?? '[]',
        ) as string[],
    );
    if (claims.flat().sort().join() === [...CLUSTERS].sort().join() && claims.every((c) => c.length > 0)) return;
    if (Date.now() > deadline) throw new Error(`shards did not settle: ${JSON.stringify(claims)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Objects the rendered head gives the members that they do not hold. */
function lostObjects(f: ReplicaFleet): number {
  let lost = 0;
  for (const c of CLUSTERS) {
    const rendered = f.fleet
      .git(f.fleet.bare, 'ls-tree', '-r', '--name-only', 'flotilla/rendered', '--', `clusters/${c}/`)
      .split('\n')
      .filter(Boolean).length;
    lost += Math.max(0, rendered - f.managed(c).length);
  }
  return lost;
}

/** Member writes and output commits a replica logged at or after `from` (epoch ms). */
function writesSince(child: Child, from: number): { writes: number; renders: number } {
  let writes = 0;
  let renders = 0;
  for (const e of child.events.entries) {
    if (Date.parse(String(e.time)) < from) continue;
    if (e.step === 'apply' && typeof e.writes === 'number') writes += e.writes;
    if (e.step === 'render' && e.outputCommit) renders++;
  }
  return { writes, renders };
}

async function holderOtherThan(f: ReplicaFleet, who: string | undefined, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = f.leaseHolder();
    if (h && h !== who && f.replicas.has(h)) return h;
    if (Date.now() > deadline) throw new Error(`no other replica took flotilla-leader within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function leaderKilled(expect: Expectations): Promise<ScenarioResult> {
  const f = await startFleet();
  try {
    const leader = f.leaseHolder()!;
    await f.replicas.get(leader)!.kill9();
    f.replicas.delete(leader);
    const killed = performance.now();
    const head = f.fleet.push({ 'templates/cm-0.yaml': configMap('cm-0', 'after the kill') }, 'cm-0 after the kill');
    // How soon (lease duration + a retry period) is proven on a fake clock in test/leases/LeaseElector.test.ts; the
    // time it took here goes into the row.
    const next = await holderOtherThan(f, leader, 30_000);
    const takeover = since(killed);
    await f.converged(head, CONVERGE_MS);
    expect.equal(f.outputCommitsFor(head), 1, 'output commits for the push after the kill');
    return {
      outcome: `${next} led after ${takeover.toFixed(1)} s; push rendered once, on every member`,
      lost: lostObjects(f),
      recovery_s: since(killed),
    };
  } finally {
    await f.cleanup();
  }
}

async function leaderPartitioned(expect: Expectations): Promise<ScenarioResult> {
  const f = await startFleet(true);
  try {
    const leader = f.leaseHolder()!;
    const cut = Date.now();
    f.partition(leader, true);
    const head = f.fleet.push({ 'templates/cm-1.yaml': configMap('cm-1', 'partitioned') }, 'cm-1 while partitioned');
    const next = await holderOtherThan(f, leader, 30_000);
    await f.converged(head, CONVERGE_MS);
    expect.equal(f.outputCommitsFor(head), 1, 'output commits for the push during the partition');
    // Fenced: from its renew deadline on, the cut-off replica neither renders nor writes to a member.
    const late = writesSince(f.replicas.get(leader)!, cut + TEST_TIMINGS.renewDeadlineMs + 100);
    expect.equal(late, { writes: 0, renders: 0 }, 'writes of the partitioned replica after its renew deadline');
    f.partition(leader, false);
    const healed = performance.now();
    const after = f.fleet.push({ 'templates/cm-2.yaml': configMap('cm-2', 'healed') }, 'cm-2 after healing');
    await f.converged(after, CONVERGE_MS);
    await settled(f);
    expect.equal(f.outputCommitsFor(after), 1, 'output commits for the push after healing');
    return {
      outcome: `${leader} fenced at its deadline, ${next} led; push rendered once; ${leader} rejoined`,
      lost: lostObjects(f),
      recovery_s: since(healed),
    };
  } finally {
    await f.cleanup();
  }
}

async function leaseApiFailing(expect: Expectations): Promise<ScenarioResult> {
  const f = await startFleet();
  try {
    const leader = f.leaseHolder();
    await f.host.faults.set({ errorRate: 1 });
    const failing = Date.now();
    // Each replica logs losing its Leases at its renew deadline: awaited, the deadline only a safety net.
    const lost = (id: string, lease: string) =>
      f.replicas
        .get(id)!
        .events.next(
          `${id} losing ${lease}`,
          (e) =>
            e.step === 'lease' &&
            e.lost === id &&
            e.lease === `flotilla-system/${lease}` &&
            Date.parse(String(e.time)) >= failing,
          30_000,
          true,
        );
    await Promise.all([
      ...[...f.replicas.keys()].map((id) => lost(id, `flotilla-replica-${id}`)),
      ...(leader ? [lost(leader, 'flotilla-leader')] : []),
    ]);
    // Pushed once every replica stood down: nobody may render or apply it until the Leases are back.
    const head = f.fleet.push(
      { 'templates/cm-3.yaml': configMap('cm-3', 'no leases') },
      'cm-3 with the Lease API down',
    );
    await new Promise((resolve) => setTimeout(resolve, TEST_TIMINGS.leaseDurationMs));
    expect.equal(f.outputCommitsFor(head), 0, 'output commits for the push while no replica holds a Lease');
    let late = { writes: 0, renders: 0 };
    for (const child of f.replicas.values()) {
      const w = writesSince(child, failing + TEST_TIMINGS.renewDeadlineMs + 100);
      late = { writes: late.writes + w.writes, renders: late.renders + w.renders };
    }
    expect.equal(late, { writes: 0, renders: 0 }, 'writes after every renew deadline passed without the Lease API');
    await f.host.faults.reset();
    const back = performance.now();
    await f.converged(head, CONVERGE_MS);
    await settled(f);
    expect.equal(f.outputCommitsFor(head), 1, 'output commits for the push made during the outage');
    return {
      outcome: 'every replica stood down at its deadline, nothing written; after: push rendered once, on every member',
      lost: lostObjects(f),
      recovery_s: since(back),
    };
  } finally {
    await f.cleanup();
  }
}

export const replicaFaultScenarios: Scenario[] = [
  {
    // Soak: three replicas and a takeover cost ~20 s; test/e2e/replicas.test.ts covers the kill in `npm test`.
    group: 'process',
    name: 'leader replica killed (three replicas, --leader-elect)',
    speed: 'soak',
    injected: 'kill -9 of the replica holding flotilla-system/flotilla-leader, then a push',
    run: leaderKilled,
  },
  {
    group: 'process',
    name: 'leader replica partitioned from the host cluster',
    speed: 'soak',
    injected: 'network between the leader and the Lease API blackholed; a push; healed; a push',
    run: leaderPartitioned,
  },
  {
    group: 'process',
    name: 'Lease API failing for every replica',
    speed: 'soak',
    injected:
      'host cluster answers 500 to every Lease call for 5 s (> lease duration); a push once all deadlines passed',
    run: leaseApiFailing,
  },
];
