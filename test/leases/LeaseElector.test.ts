import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LeaseElector } from '../../src/leases/LeaseElector.ts';
import { recordOf } from '../../src/leases/leaseRecord.ts';
import { FakeClock, FakeLeaseApi, settle } from './helpers/fakeLeases.ts';

const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
const KEY = 'flotilla-system/flotilla-leader';

function elector(api: FakeLeaseApi, clock: FakeClock, identity: string, log: Record<string, unknown>[] = []) {
  const client = api.clientFor();
  const events: string[] = [];
  const e = new LeaseElector({
    client,
    namespace: 'flotilla-system',
    name: 'flotilla-leader',
    identity,
    timings,
    clock,
    random: () => 0.5,
    log: (entry) => log.push(entry),
    onStartedLeading: () => events.push('started'),
    onStoppedLeading: (why) => events.push(`stopped: ${why}`),
  });
  return { e, client, events };
}

/** Two candidates on one Lease API and clock: a starts first (and so acquires), then b starts. */
async function aLeadsThenBStarts() {
  const api = new FakeLeaseApi();
  const clock = new FakeClock();
  const a = elector(api, clock, 'a');
  const b = elector(api, clock, 'b');
  a.e.start();
  await settle();
  b.e.start();
  return { api, clock, a, b };
}

test("the spec written is the election record alone: a coordinated lease's strategy and preferredHolder are dropped", async () => {
  const api = new FakeLeaseApi();
  const clock = new FakeClock();
  api.leases.set(KEY, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'flotilla-leader', namespace: 'flotilla-system', resourceVersion: '1' },
    spec: { holderIdentity: '', leaseDurationSeconds: 1, strategy: 'OldestEmulationVersion', preferredHolder: 'x' },
  });
  const a = elector(api, clock, 'a');
  a.e.start();
  await clock.advance(3_000);
  assert.ok(a.e.isLeader());
  assert.equal(Object.keys(api.leases.get(KEY)!.spec!).sort(), [
    'acquireTime',
    'holderIdentity',
    'leaseDurationSeconds',
    'leaseTransitions',
    'renewTime',
  ]);
  await a.e.stop();
});

test('one of two candidates leads; the other sees it held and waits', async () => {
  const { api, clock, a, b } = await aLeadsThenBStarts();
  await clock.advance(20_000);
  assert.ok(a.e.isLeader());
  assert.not.ok(b.e.isLeader());
  assert.is(b.e.holder(), 'a');
  assert.equal(a.events, ['started']);
  const record = recordOf(api.leases.get(KEY)!);
  assert.is(record.holderIdentity, 'a');
  assert.is(record.leaseTransitions, 0);
  assert.is(record.leaseDurationSeconds, 15);
  await Promise.all([a.e.stop(), b.e.stop()]);
});

test('a leader cut off from the API stops leading at its renew deadline, before another can acquire', async () => {
  const { api, clock, a, b } = await aLeadsThenBStarts();
  await clock.advance(5_000);
  assert.ok(a.e.isLeader());
  a.client.down = true;
  const cut = clock.now();
  const lastRenew = recordOf(api.leases.get(KEY)!).renewTime!;
  // Fencing: a is no leader from lastRenew + renew deadline on, whatever its loop is doing.
  const aStopped = lastRenew + timings.renewDeadlineMs;
  const bTook = cut + (await clock.until(() => b.e.isLeader(), 30_000, 100));
  assert.not.ok(a.e.isLeader());
  assert.ok(bTook > aStopped, `b took over at +${bTook - lastRenew} ms, a stopped at +${aStopped - lastRenew} ms`);
  // b waited a whole lease duration from when it last saw a's renewal, plus at most one jittered retry period.
  assert.ok(bTook - lastRenew >= timings.leaseDurationMs);
  assert.ok(bTook - lastRenew <= timings.leaseDurationMs + timings.retryPeriodMs * 2.2 + 100);
  assert.equal(a.events, ['started', `stopped: not renewed within the renew deadline (10000 ms)`]);
  assert.is(recordOf(api.leases.get(KEY)!).leaseTransitions, 1);
  // a comes back: it sees b holding and does not lead again.
  a.client.down = false;
  await clock.advance(10_000);
  assert.not.ok(a.e.isLeader());
  assert.is(a.e.holder(), 'b');
  await Promise.all([a.e.stop(), b.e.stop()]);
});

test('a graceful stop releases the Lease: the next candidate leads within a retry period, not a lease duration', async () => {
  const { api, clock, a, b } = await aLeadsThenBStarts();
  await clock.advance(3_000);
  await a.e.stop();
  assert.equal(recordOf(api.leases.get(KEY)!).holderIdentity, '');
  assert.equal(a.events, ['started', 'stopped: released on stop']);
  const took = await clock.until(() => b.e.isLeader(), 10_000, 100);
  assert.ok(took <= timings.retryPeriodMs * 2.2 + 100, `took ${took} ms`);
  await b.e.stop();
});

test('a Lease labelled by someone else since the last renewal is still released on stop; one taken over is not', async () => {
  const { api, clock, a, b } = await aLeadsThenBStarts();
  await clock.advance(3_000);
  const admin = api.clientFor();
  const labelled = structuredClone(api.leases.get(KEY)!);
  labelled.metadata.labels = { team: 'platform' };
  await admin.update(labelled, 1000);
  await a.e.stop();
  assert.is(recordOf(api.leases.get(KEY)!).holderIdentity, '');
  assert.is(api.leases.get(KEY)!.metadata.labels?.team, 'platform');
  assert.ok((await clock.until(() => b.e.isLeader(), 10_000, 100)) <= timings.retryPeriodMs * 2.2 + 100);

  // b is cut off and c takes over after the lease duration; b's stop must leave c's Lease alone.
  const c = elector(api, clock, 'c');
  c.e.start();
  b.client.down = true;
  await clock.until(() => c.e.isLeader(), 30_000, 100);
  b.client.down = false;
  await b.e.stop();
  assert.is(recordOf(api.leases.get(KEY)!).holderIdentity, 'c');
  await c.e.stop();
});

test('a holder that renews keeps the lease for good; an update with a stale resourceVersion is refused', async () => {
  const api = new FakeLeaseApi();
  const clock = new FakeClock();
  const a = elector(api, clock, 'a');
  a.e.start();
  await clock.advance(120_000);
  assert.ok(a.e.isLeader());
  assert.ok(api.writes >= 120_000 / timings.retryPeriodMs - 1, `${api.writes} writes`);
  const stale = structuredClone(api.leases.get(KEY)!);
  await clock.advance(2_000);
  try {
    await api.clientFor().update(stale, 1000);
    assert.unreachable('stale update must conflict');
  } catch (err) {
    assert.match((err as Error).message, 'Operation cannot be fulfilled');
  }
  await a.e.stop();
});

test('an API that fails some calls: the leader keeps leading as long as one renewal per deadline gets through', async () => {
  const api = new FakeLeaseApi();
  const clock = new FakeClock();
  const a = elector(api, clock, 'a');
  a.e.start();
  await clock.advance(1_000);
  for (let i = 0; i < 10; i++) {
    a.client.down = true;
    await clock.advance(6_000);
    assert.ok(a.e.isLeader(), `round ${i}`);
    a.client.down = false;
    await clock.advance(2_500);
  }
  assert.equal(a.events, ['started']);
  await a.e.stop();
});

test("the times written into a Lease are the wall clock's, while expiry is judged on the monotonic one", async () => {
  const { api, clock, a, b } = await aLeadsThenBStarts();
  // The machine slept: its wall clock moved an hour on, the monotonic one did not.
  clock.wallAhead = 3_600_000;
  await clock.advance(5_000);
  const record = recordOf(api.leases.get(KEY)!);
  assert.ok(clock.wall() - record.renewTime! <= timings.retryPeriodMs * 1.2 + 100, 'renewTime is near the wall clock');
  assert.ok(record.renewTime! - clock.now() > 3_000_000, 'not the monotonic clock');
  // A renewal stamped an hour ahead does not make b wait an hour, nor take over early.
  assert.ok(a.e.isLeader());
  assert.is(b.e.holder(), 'a');
  await Promise.all([a.e.stop(), b.e.stop()]);
  const released = recordOf(api.leases.get(KEY)!);
  assert.equal([released.holderIdentity, released.renewTime! >= clock.now() + 3_600_000], ['', true]);
});

test.run();
