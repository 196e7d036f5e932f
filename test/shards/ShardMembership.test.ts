import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ShardMembership } from '../../src/shards/ShardMembership.ts';
import { FakeClock, FakeLeaseApi } from '../leases/helpers/fakeLeases.ts';

const timings = { leaseDurationMs: 3_000, renewDeadlineMs: 2_000, retryPeriodMs: 500 };
const CLUSTERS = new Map(Array.from({ length: 12 }, (_, i) => [`member${i + 1}`, 10 + i * 7]));

function fleet(ids: string[]) {
  const api = new FakeLeaseApi();
  const clock = new FakeClock();
  const log: Record<string, unknown>[] = [];
  const replicas = new Map<string, { m: ShardMembership; client: ReturnType<FakeLeaseApi['clientFor']> }>();
  const add = (id: string) => {
    const client = api.clientFor();
    const m = new ShardMembership({
      client,
      namespace: 'flotilla-system',
      identity: id,
      timings,
      clock,
      log: (e) => log.push(e),
      weights: async () => CLUSTERS,
    });
    replicas.set(id, { m, client });
    m.start();
  };
  for (const id of ids) add(id);
  /** Every 50 ms of fake time: no cluster owned by two replicas at once. */
  const run = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      await clock.advance(50);
      const seen = new Map<string, string>();
      for (const [id, { m }] of replicas)
        for (const c of m.owned()) {
          assert.not.ok(seen.has(c), `${c} owned by ${seen.get(c)} and ${id} at once`);
          seen.set(c, id);
        }
    }
  };
  const owners = () => {
    const out = new Map<string, string>();
    for (const [id, { m }] of replicas) for (const c of m.owned()) out.set(c, id);
    return out;
  };
  return { api, clock, replicas, add, run, owners, log };
}

test('three replicas share every cluster, each owned by exactly one, never two at once', async () => {
  const f = fleet(['r0', 'r1', 'r2']);
  await f.run(10_000);
  const owners = f.owners();
  assert.is(owners.size, CLUSTERS.size);
  assert.equal(new Set(owners.values()).size, 3, 'every replica owns some');
  await Promise.all([...f.replicas.values()].map(({ m }) => m.stop()));
});

test('a replica stopping releases its clusters: only those move, to the others, within a few retry periods', async () => {
  const f = fleet(['r0', 'r1', 'r2']);
  await f.run(10_000);
  const before = f.owners();
  await f.replicas.get('r1')!.m.stop();
  f.replicas.delete('r1');
  await f.run(5 * timings.retryPeriodMs);
  const after = f.owners();
  assert.is(after.size, CLUSTERS.size);
  const moved = [...after].filter(([c, r]) => before.get(c) !== r).map(([c]) => c);
  assert.equal(
    moved.sort(),
    [...before]
      .filter(([, r]) => r === 'r1')
      .map(([c]) => c)
      .sort(),
  );
  await Promise.all([...f.replicas.values()].map(({ m }) => m.stop()));
});

test('a replica cut off from the API stops applying at its renew deadline; its clusters move only after its Lease expired', async () => {
  const f = fleet(['r0', 'r1', 'r2']);
  await f.run(10_000);
  const r2 = f.replicas.get('r2')!;
  const hers = [...f.owners()].filter(([, r]) => r === 'r2').map(([c]) => c);
  assert.ok(hers.length > 0);
  r2.client.down = true;
  const cut = f.clock.now();
  let stoppedAt: number | undefined;
  let movedAt: number | undefined;
  for (let t = 0; t < 10_000 && movedAt === undefined; t += 50) {
    await f.run(50);
    if (stoppedAt === undefined && r2.m.owned().size === 0) stoppedAt = f.clock.now() - cut;
    const owners = f.owners();
    if (hers.every((c) => owners.has(c) && owners.get(c) !== 'r2')) movedAt = f.clock.now() - cut;
  }
  assert.ok(stoppedAt !== undefined && stoppedAt <= timings.renewDeadlineMs, `stopped at +${stoppedAt} ms`);
  assert.ok(movedAt !== undefined && movedAt >= timings.leaseDurationMs, `moved at +${movedAt} ms`);
  // Back on the network: it rejoins and gets a share again, still never two owners at once (checked by run).
  r2.client.down = false;
  await f.run(10_000);
  assert.is(f.owners().size, CLUSTERS.size);
  assert.ok([...f.owners().values()].includes('r2'));
  await Promise.all([...f.replicas.values()].map(({ m }) => m.stop()));
});

test('a replica joining takes over clusters only as their owners release them', async () => {
  const f = fleet(['r0', 'r1']);
  await f.run(10_000);
  const before = f.owners();
  f.add('r2');
  await f.run(10_000);
  const after = f.owners();
  assert.is(after.size, CLUSTERS.size);
  const moved = [...after].filter(([c, r]) => before.get(c) !== r);
  assert.ok(moved.length > 0 && moved.every(([, r]) => r === 'r2'), JSON.stringify(moved));
  assert.ok(
    f.log.some((e) => e.released),
    'the old owners released what moved',
  );
  await Promise.all([...f.replicas.values()].map(({ m }) => m.stop()));
});

test('a released or abandoned replica Lease is deleted after ten lease durations (at least a minute); live ones stay', async () => {
  const f = fleet(['r0', 'r1', 'r2']);
  await f.run(10_000);
  await f.replicas.get('r1')!.m.stop(); // released: holder ''
  f.replicas.delete('r1');
  f.replicas.get('r2')!.client.down = true; // gone without a word
  const r2 = f.replicas.get('r2')!;
  f.replicas.delete('r2');
  await f.run(30_000);
  assert.ok(f.api.leases.has('flotilla-system/flotilla-replica-r1'), 'kept for a while');
  await f.run(40_000);
  assert.equal([...f.api.leases.keys()], ['flotilla-system/flotilla-replica-r0']);
  assert.is(f.owners().size, CLUSTERS.size, 'r0 owns everything');
  await r2.m.stop();
  await Promise.all([...f.replicas.values()].map(({ m }) => m.stop()));
});

test.run();
