import type { PendingReady } from '../branches/status/statusFiles.ts';
import { formatTime } from '../time/formatTime.ts';
import type { Condition } from '../api/cluster.ts';

/** Karmada's --cluster-success-threshold and --cluster-failure-threshold. */
export interface ReadyThresholds {
  /** How long a cluster must be seen ready before NotReady flips to Ready. Default 30 s. */
  successMs: number;
  /** How long a cluster must be seen not ready before Ready flips to NotReady. Default 30 s. */
  failureMs: number;
}

export const DEFAULT_READY_THRESHOLDS: ReadyThresholds = { successMs: 30_000, failureMs: 30_000 };

/**
 * Karmada's thresholdAdjustedReadyCondition (controllers/status/cluster_condition_cache.go): the Ready condition
 * flips between True and not-True only after the observation has held for the threshold; until then the stored
 * condition stays and the pending observation is remembered. A cluster seen for the first time takes what was
 * observed; Unknown to False (both not True) passes at once.
 */
export function dampReadyCondition(
  stored: Condition | undefined,
  pending: PendingReady | undefined,
  observed: Condition,
  now: Date,
  thresholds: ReadyThresholds = DEFAULT_READY_THRESHOLDS,
): { ready: Condition; pending?: PendingReady } {
  if (!stored) return { ready: observed };
  const flips = (observed.status === 'True') !== (stored.status === 'True');
  if (!flips) return { ready: observed };
  // The observation changed since the last pass: its clock starts now.
  const since = pending && pending.status === observed.status ? pending.since : formatTime(now);
  const threshold = observed.status === 'True' ? thresholds.successMs : thresholds.failureMs;
  if (now.getTime() < Date.parse(since) + threshold)
    return { ready: stored, pending: { status: observed.status, since } };
  return { ready: observed };
}

/** When a pending observation, if it holds, flips the stored Ready condition (ms since the epoch). */
export function readyFlipTime(pending: PendingReady, thresholds: ReadyThresholds = DEFAULT_READY_THRESHOLDS): number {
  return Date.parse(pending.since) + (pending.status === 'True' ? thresholds.successMs : thresholds.failureMs);
}
