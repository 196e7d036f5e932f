// The decisions of client-go's LeaderElector (k8s.io/client-go/tools/leaderelection/leaderelection.go:
// tryAcquireOrRenew, isLeaseValid, IsLeader, release) as pure functions of what was read and the local clock. The
// I/O around them is LeaseElector.ts.
import type { LeaseObject, LeaseRecord } from './leaseRecord.ts';
import { recordOf } from './leaseRecord.ts';

/** What the elector remembers between attempts, as client-go's observedRecord, observedRawRecord and observedTime. */
export interface ElectionState {
  /** The record last read or written; undefined before the first read. */
  readonly observed: LeaseRecord | undefined;
  /** Its spec as read, to tell a changed lease from the same one read again. */
  readonly observedRaw: string | undefined;
  /**
   * The LOCAL time the observed record last changed. Expiry is measured from here, never from the lease's renewTime,
   * so clocks of different machines never have to agree: only the rate at which they advance.
   */
  readonly observedAt: number;
  /** The object last read or written, whose resourceVersion the next update must match. */
  readonly lease: LeaseObject | undefined;
}

export const INITIAL_ELECTION_STATE: ElectionState = {
  observed: undefined,
  observedRaw: undefined,
  observedAt: 0,
  lease: undefined,
};

export interface Candidate {
  identity: string;
  leaseDurationSeconds: number;
}

/** The lease is held by someone until observedAt + its leaseDurationSeconds (the duration the holder wrote). */
export function isLeaseValid(state: ElectionState, now: number): boolean {
  if (!state.observed) return false;
  return state.observedAt + state.observed.leaseDurationSeconds * 1000 > now;
}

export function isHolder(state: ElectionState, identity: string): boolean {
  return state.observed?.holderIdentity === identity;
}

/**
 * The fast path of a leader: update the lease it wrote last, with that object's resourceVersion, without reading it
 * first. Undefined when this candidate is not the valid holder (then read first: planAttempt).
 */
export function planFastRenew(state: ElectionState, me: Candidate, now: number, wall = now): LeaseRecord | undefined {
  if (!isHolder(state, me.identity) || !isLeaseValid(state, now) || !state.lease) return undefined;
  return {
    holderIdentity: me.identity,
    leaseDurationSeconds: me.leaseDurationSeconds,
    acquireTime: state.observed!.acquireTime,
    renewTime: wall,
    leaseTransitions: state.observed!.leaseTransitions,
  };
}

/** What to do after reading the lease: create it, update it (acquire or renew), or leave it to its valid holder. */
export type AttemptPlan =
  | { kind: 'create'; record: LeaseRecord; state: ElectionState }
  | { kind: 'update'; record: LeaseRecord; state: ElectionState }
  | { kind: 'held'; holder: string; state: ElectionState };

/** tryAcquireOrRenew after its Get: `read` is the lease, or null when it does not exist. */
export function planAttempt(
  state: ElectionState,
  me: Candidate,
  read: LeaseObject | null,
  now: number,
  wall = now,
): AttemptPlan {
  const fresh: LeaseRecord = {
    holderIdentity: me.identity,
    leaseDurationSeconds: me.leaseDurationSeconds,
    acquireTime: wall,
    renewTime: wall,
    leaseTransitions: 0,
  };
  if (!read) return { kind: 'create', record: fresh, state };
  const record = recordOf(read);
  const raw = JSON.stringify(read.spec ?? {});
  // Only a change of the record restarts the expiry clock: a holder that stopped renewing is seen as expired after
  // leaseDurationSeconds of this process's own time, whatever renewTime says.
  const seen: ElectionState =
    raw === state.observedRaw
      ? { ...state, lease: read }
      : { observed: record, observedRaw: raw, observedAt: now, lease: read };
  if (record.holderIdentity !== '' && isLeaseValid(seen, now) && !isHolder(seen, me.identity))
    return { kind: 'held', holder: record.holderIdentity, state: seen };
  const next: LeaseRecord = isHolder(seen, me.identity)
    ? { ...fresh, acquireTime: record.acquireTime, leaseTransitions: record.leaseTransitions }
    : { ...fresh, leaseTransitions: record.leaseTransitions + 1 };
  return { kind: 'update', record: next, state: seen };
}

/** After a successful create or update: what was written is what is observed, from now. */
export function afterWrite(written: LeaseObject, now: number): ElectionState {
  return {
    observed: recordOf(written),
    observedRaw: JSON.stringify(written.spec ?? {}),
    observedAt: now,
    lease: written,
  };
}

/**
 * release(): a holder stepping down gracefully empties holderIdentity and shortens the duration to 1 s, so the next
 * candidate takes over on its next attempt instead of after a whole lease duration. Undefined when not the holder.
 */
export function planRelease(state: ElectionState, me: Candidate, wall: number): LeaseRecord | undefined {
  if (!isHolder(state, me.identity) || !state.lease) return undefined;
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: wall,
    renewTime: wall,
    leaseTransitions: state.observed!.leaseTransitions,
  };
}

/**
 * Fencing: a holder may write only while its last successful renewal, counted from when that request was SENT, is
 * younger than the renew deadline. The deadline is shorter than the lease duration, and others wait a whole lease
 * duration from when they saw that renewal, so the old holder has stopped before anyone else can start.
 */
export function holdsLeadership(lastRenewSentAt: number | undefined, renewDeadlineMs: number, now: number): boolean {
  return lastRenewSentAt !== undefined && now < lastRenewSentAt + renewDeadlineMs;
}

export interface ElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** client-go's JitterFactor: an acquiring candidate waits retryPeriod × (1 + up to 1.2). */
export const JITTER_FACTOR = 1.2;

/** NewLeaderElector's checks, as sentences with a fix; undefined when the timings are usable. */
export function checkTimings(t: ElectionTimings): string | undefined {
  if (t.leaseDurationMs <= t.renewDeadlineMs)
    return 'the lease duration must be greater than the renew deadline (the old leader must stop before another may start); fix: e.g. --leader-elect-lease-duration 15s --leader-elect-renew-deadline 10s';
  if (t.renewDeadlineMs <= JITTER_FACTOR * t.retryPeriodMs)
    return `the renew deadline must be greater than ${JITTER_FACTOR} × the retry period (room for a retry before giving up); fix: e.g. --leader-elect-renew-deadline 10s --leader-elect-retry-period 2s`;
  if (t.leaseDurationMs < 1000)
    return 'the lease duration must be at least 1s (the Lease records whole seconds); fix: e.g. --leader-elect-lease-duration 15s';
  if (t.retryPeriodMs <= 0)
    return 'the retry period must be greater than zero; fix: e.g. --leader-elect-retry-period 2s';
  return undefined;
}
