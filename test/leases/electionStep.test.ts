import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  afterWrite,
  checkTimings,
  holdsLeadership,
  INITIAL_ELECTION_STATE,
  isLeaseValid,
  planAttempt,
  planFastRenew,
  planRelease,
} from '../../src/leases/electionStep.ts';
import { recordOf, specOf, type LeaseObject, type LeaseRecord } from '../../src/leases/leaseRecord.ts';

const T0 = 1_800_000_000_000;
const me = { identity: 'a', leaseDurationSeconds: 15 };

function lease(record: Partial<LeaseRecord>, rv = '7'): LeaseObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'flotilla-leader', namespace: 'flotilla-system', resourceVersion: rv },
    spec: specOf({
      holderIdentity: '',
      leaseDurationSeconds: 15,
      acquireTime: T0 - 60_000,
      renewTime: T0 - 1_000,
      leaseTransitions: 3,
      ...record,
    }),
  };
}

test('no Lease yet: the candidate creates it as holder, acquire and renew time now, no transitions', () => {
  const plan = planAttempt(INITIAL_ELECTION_STATE, me, null, T0);
  assert.is(plan.kind, 'create');
  assert.equal((plan as { record: LeaseRecord }).record, {
    holderIdentity: 'a',
    leaseDurationSeconds: 15,
    acquireTime: T0,
    renewTime: T0,
    leaseTransitions: 0,
  });
});

test('a Lease held by another is left alone until its duration passed on THIS clock since it last changed', () => {
  const held = lease({ holderIdentity: 'b', renewTime: T0 - 3_600_000 }); // renewTime an hour old: not what counts
  const first = planAttempt(INITIAL_ELECTION_STATE, me, held, T0);
  assert.is(first.kind, 'held');
  assert.is((first as { holder: string }).holder, 'b');
  // Read again unchanged 14.9 s later: still held; the expiry clock was not restarted by the re-read.
  const again = planAttempt(first.state, me, held, T0 + 14_900);
  assert.is(again.kind, 'held');
  assert.is(again.state.observedAt, T0);
  // After 15 s without a change: taken over, one more transition, acquired now.
  const taken = planAttempt(again.state, me, held, T0 + 15_000);
  assert.is(taken.kind, 'update');
  const record = (taken as { record: LeaseRecord }).record;
  assert.is(record.holderIdentity, 'a');
  assert.is(record.leaseTransitions, 4);
  assert.is(record.acquireTime, T0 + 15_000);
});

test('a renewal by the holder restarts the expiry clock of everyone watching', () => {
  const first = planAttempt(INITIAL_ELECTION_STATE, me, lease({ holderIdentity: 'b' }), T0);
  const renewed = lease({ holderIdentity: 'b', renewTime: T0 + 10_000 }, '8');
  const second = planAttempt(first.state, me, renewed, T0 + 10_000);
  assert.is(second.state.observedAt, T0 + 10_000);
  assert.is(planAttempt(second.state, me, renewed, T0 + 20_000).kind, 'held');
  assert.is(planAttempt(second.state, me, renewed, T0 + 25_000).kind, 'update');
});

test('the expiry uses the duration the holder wrote, not the candidate own setting', () => {
  const first = planAttempt(INITIAL_ELECTION_STATE, me, lease({ holderIdentity: 'b', leaseDurationSeconds: 60 }), T0);
  assert.ok(isLeaseValid(first.state, T0 + 59_000));
  assert.is(
    planAttempt(first.state, me, lease({ holderIdentity: 'b', leaseDurationSeconds: 60 }), T0 + 30_000).kind,
    'held',
  );
});

test('a released Lease (empty holder) is taken at once', () => {
  const plan = planAttempt(INITIAL_ELECTION_STATE, me, lease({ holderIdentity: '', leaseDurationSeconds: 1 }), T0);
  assert.is(plan.kind, 'update');
  assert.is((plan as { record: LeaseRecord }).record.leaseTransitions, 4);
});

test('the holder renewing keeps its acquire time and the transition count; the fast path needs a valid lease', () => {
  const own = lease({ holderIdentity: 'a', acquireTime: T0 - 5_000 });
  const plan = planAttempt(INITIAL_ELECTION_STATE, me, own, T0);
  assert.is(plan.kind, 'update');
  const record = (plan as { record: LeaseRecord }).record;
  assert.is(record.acquireTime, T0 - 5_000);
  assert.is(record.leaseTransitions, 3);
  assert.is(record.renewTime, T0);
  const state = afterWrite({ ...own, spec: specOf(record) }, T0);
  assert.is(planFastRenew(state, me, T0 + 2_000)?.acquireTime, T0 - 5_000);
  assert.is(planFastRenew(state, me, T0 + 15_000), undefined, 'expired: read first');
  assert.is(planFastRenew(state, { ...me, identity: 'b' }, T0 + 2_000), undefined);
});

test('release empties the holder and shortens the duration to 1 s; only the holder releases', () => {
  const state = afterWrite(lease({ holderIdentity: 'a' }), T0);
  assert.equal(planRelease(state, me, T0 + 1), {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: T0 + 1,
    renewTime: T0 + 1,
    leaseTransitions: 3,
  });
  assert.is(planRelease(state, { ...me, identity: 'b' }, T0), undefined);
});

test('fencing: a holder may write only until its last renewal, counted from when it was sent, is renew-deadline old', () => {
  assert.ok(holdsLeadership(T0, 10_000, T0 + 9_999));
  assert.not.ok(holdsLeadership(T0, 10_000, T0 + 10_000));
  assert.not.ok(holdsLeadership(undefined, 10_000, T0));
});

test('timings are checked as client-go does: duration > deadline > 1.2 × retry', () => {
  assert.is(checkTimings({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), undefined);
  assert.match(
    checkTimings({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 })!,
    'greater than the renew deadline',
  );
  assert.match(
    checkTimings({ leaseDurationMs: 15_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 })!,
    '1.2 × the retry period',
  );
  assert.match(checkTimings({ leaseDurationMs: 15_000, renewDeadlineMs: 2_400, retryPeriodMs: 2_000 })!, 'fix:');
});

test("a Lease another client wrote keeps its microseconds: the holder's renewal writes acquireTime back exactly", () => {
  const written: LeaseObject = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'flotilla-leader', namespace: 'flotilla-system', resourceVersion: '7' },
    spec: {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2026-12-05T11:00:00.123456Z',
      renewTime: '2026-12-05T11:00:09.999999Z',
      leaseTransitions: 2,
    },
  };
  const plan = planAttempt(INITIAL_ELECTION_STATE, me, written, T0);
  assert.is(plan.kind, 'update');
  const spec = specOf((plan as { record: LeaseRecord }).record);
  assert.is(spec.acquireTime, '2026-12-05T11:00:00.123456Z');
  assert.is(spec.leaseTransitions, 2);
  const state = afterWrite({ ...written, spec }, T0);
  assert.is(specOf(planFastRenew(state, me, T0 + 2_000)!).acquireTime, '2026-12-05T11:00:00.123456Z');
  assert.is(Math.round((recordOf(written).renewTime! - recordOf(written).acquireTime!) * 1000), 9_876_543);
});

test.run();
