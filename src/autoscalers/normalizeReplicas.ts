/**
 * Karmada's FederatedHPA normalisation of a metric recommendation (pkg/controllers/federatedhpa/
 * federatedhpa_controller.go: reconcileAutoscaler, normalizeDesiredReplicas[WithBehaviors],
 * stabilizeRecommendation[WithBehaviors], convertDesiredReplicasWith{Rules,BehaviorRate}, storeScaleEvent).
 * Karmada keeps the recommendations and scale events in controller memory; here they are an explicit history the
 * caller stores (on the status branch), so a decision is a pure function of its inputs and can be replayed.
 */
import type { ScalingBehavior, ScalingRules } from './scalingBehavior.ts';

export interface TimedRecommendation {
  /** ms since the epoch */
  at: number;
  replicas: number;
}

export interface TimedScaleEvent {
  at: number;
  /** Replicas added (scale up) or removed (scale down), positive. */
  change: number;
}

export interface ScalingHistory {
  recommendations: TimedRecommendation[];
  scaleUpEvents: TimedScaleEvent[];
  scaleDownEvents: TimedScaleEvent[];
}

export const EMPTY_HISTORY: ScalingHistory = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };

/** The Kubernetes controller manager's --horizontal-pod-autoscaler-downscale-stabilization (5 minutes). */
export const DEFAULT_DOWNSCALE_STABILIZATION_MS = 300_000;

export interface ScaleInput {
  minReplicas: number;
  maxReplicas: number;
  behavior: ScalingBehavior | undefined;
  /** The workload's replicas now (the template's, or the last decision's). */
  currentReplicas: number;
  /**
   * The workload's spec.replicas summed over its Ready target clusters (Karmada's multi-cluster scale): scaling is
   * disabled only when this is 0, never for a template at 0 whose members still run it.
   */
  memberReplicas: number;
  /** The largest recommendation over the metrics; undefined when no metric could be computed. */
  metricReplicas: number | undefined;
  /** The metric that gave it, for the reason ("cpu resource utilization (percentage of request)"). */
  metricName?: string;
  now: number;
  history: ScalingHistory;
  downscaleStabilizationMs?: number;
}

export interface ScaleDecision {
  desiredReplicas: number;
  /** Whether the workload's replicas change. */
  rescale: boolean;
  /** Why it changes, in Karmada's words; empty when it does not. */
  reason: string;
  /** The AbleToScale / ScalingLimited reasons Karmada sets on the status. */
  ableToScale: string;
  scalingLimited: string;
  history: ScalingHistory;
}

/** Karmada's (and Kubernetes') scale-up limit without behaviors: max(2 x current, 4). */
function scaleUpLimit(current: number): number {
  return Math.max(2 * current, 4);
}

function changeInPeriod(periodSeconds: number, events: readonly TimedScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  let sum = 0;
  for (const e of events) if (e.at > cutoff) sum += e.change;
  return sum;
}

function scaleUpLimitWithRules(current: number, history: ScalingHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const policy of rules.policies) {
    const start =
      current -
      changeInPeriod(policy.periodSeconds, history.scaleUpEvents, now) +
      changeInPeriod(policy.periodSeconds, history.scaleDownEvents, now);
    // Rounded up so a small percentage still adds a replica.
    const proposed = policy.type === 'Pods' ? start + policy.value : Math.ceil(start * (1 + policy.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

function scaleDownLimitWithRules(current: number, history: ScalingHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const policy of rules.policies) {
    const start =
      current -
      changeInPeriod(policy.periodSeconds, history.scaleUpEvents, now) +
      changeInPeriod(policy.periodSeconds, history.scaleDownEvents, now);
    const proposed = policy.type === 'Pods' ? start - policy.value : Math.trunc(start * (1 - policy.value / 100));
    result = pick(result, proposed);
  }
  return result;
}

function longestPeriodMs(rules: ScalingRules): number {
  return Math.max(0, ...rules.policies.map((p) => p.periodSeconds)) * 1000;
}

/**
 * Karmada's stabilizeRecommendation[WithBehaviors] record: the new recommendation takes the place of the last one
 * older than the windows, else is appended. The others older than the windows stay (the list stays as long as the
 * most a window has held), so a window widened later counts them again.
 */
function recordRecommendation(
  list: readonly TimedRecommendation[],
  oldIndex: number,
  rec: TimedRecommendation,
): TimedRecommendation[] {
  if (oldIndex < 0) return [...list, rec];
  return list.map((r, i) => (i === oldIndex ? rec : r));
}

interface Normalized {
  desired: number;
  ableToScale: string;
  scalingLimited: string;
  recommendations: TimedRecommendation[];
}

function normalizeWithoutBehavior(input: ScaleInput, proposed: number, windowMs: number): Normalized {
  const { now, currentReplicas: current } = input;
  const cutoff = now - windowMs;
  let stabilized = proposed;
  let old = -1;
  input.history.recommendations.forEach((rec, i) => {
    if (rec.at < cutoff) old = i;
    else if (rec.replicas > stabilized) stabilized = rec.replicas;
  });
  const kept = recordRecommendation(input.history.recommendations, old, { at: now, replicas: proposed });
  const ableToScale = stabilized !== proposed ? 'ScaleDownStabilized' : 'ReadyForNewScale';
  const upLimit = scaleUpLimit(current);
  const maximum = Math.min(input.maxReplicas, upLimit);
  const limitReason = input.maxReplicas > upLimit ? 'ScaleUpLimit' : 'TooManyReplicas';
  if (stabilized < input.minReplicas)
    return { desired: input.minReplicas, ableToScale, scalingLimited: 'TooFewReplicas', recommendations: kept };
  if (stabilized > maximum)
    return { desired: maximum, ableToScale, scalingLimited: limitReason, recommendations: kept };
  return { desired: stabilized, ableToScale, scalingLimited: 'DesiredWithinRange', recommendations: kept };
}

function normalizeWithBehavior(
  input: ScaleInput,
  behavior: ScalingBehavior,
  proposed: number,
  windowMs: number,
): Normalized {
  const { now, currentReplicas: current, history } = input;
  const upCutoff = now - (behavior.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downSeconds = behavior.scaleDown.stabilizationWindowSeconds;
  const downCutoff = now - (downSeconds === undefined ? windowMs : downSeconds * 1000);
  let up = proposed;
  let down = proposed;
  let old = -1;
  history.recommendations.forEach((rec, i) => {
    if (rec.at > upCutoff) up = Math.min(rec.replicas, up);
    if (rec.at > downCutoff) down = Math.max(rec.replicas, down);
    if (rec.at < upCutoff && rec.at < downCutoff) old = i;
  });
  const kept = recordRecommendation(history.recommendations, old, { at: now, replicas: proposed });
  const stabilized = Math.min(Math.max(current, up), down);
  const ableToScale =
    stabilized === proposed ? 'ReadyForNewScale' : proposed >= current ? 'ScaleUpStabilized' : 'ScaleDownStabilized';
  let desired = stabilized;
  let scalingLimited = 'DesiredWithinRange';
  if (stabilized > current) {
    const limit = Math.max(scaleUpLimitWithRules(current, history, behavior.scaleUp, now), current);
    const maximum = Math.min(input.maxReplicas, limit);
    const reason = input.maxReplicas > limit ? 'ScaleUpLimit' : 'TooManyReplicas';
    if (stabilized > maximum) [desired, scalingLimited] = [maximum, reason];
  } else if (stabilized < current) {
    const limit = Math.min(scaleDownLimitWithRules(current, history, behavior.scaleDown, now), current);
    const minimum = Math.max(input.minReplicas, limit);
    const reason = input.minReplicas < limit ? 'ScaleDownLimit' : 'TooFewReplicas';
    if (stabilized < minimum) [desired, scalingLimited] = [minimum, reason];
  }
  return { desired, ableToScale, scalingLimited, recommendations: kept };
}

/**
 * Karmada's storeScaleEvent: the new event takes the place of the last one older than the longest policy period,
 * else is appended. The other outdated ones stay and count again if a policy's period is widened later.
 */
function withScaleEvent(
  history: ScalingHistory,
  behavior: ScalingBehavior | undefined,
  from: number,
  to: number,
  now: number,
): ScalingHistory {
  if (!behavior) return history;
  const store = (events: readonly TimedScaleEvent[], rules: ScalingRules, change: number): TimedScaleEvent[] => {
    const cutoff = now - longestPeriodMs(rules);
    let outdated = -1;
    events.forEach((e, i) => {
      if (e.at < cutoff) outdated = i;
    });
    const event = { at: now, change };
    return outdated < 0 ? [...events, event] : events.map((e, i) => (i === outdated ? event : e));
  };
  if (to > from) return { ...history, scaleUpEvents: store(history.scaleUpEvents, behavior.scaleUp, to - from) };
  return { ...history, scaleDownEvents: store(history.scaleDownEvents, behavior.scaleDown, from - to) };
}

/**
 * One reconcileAutoscaler step after the metrics are read: the replicas the workload should have now, and the
 * history to keep for the next step. A target its members run at 0 replicas (with minReplicas > 0) is not
 * autoscaled; a count outside [min, max] is brought inside without metrics.
 */
export function decideReplicas(input: ScaleInput): ScaleDecision | { error: string } {
  const { currentReplicas: current, minReplicas, maxReplicas, now } = input;
  const windowMs = input.downscaleStabilizationMs ?? DEFAULT_DOWNSCALE_STABILIZATION_MS;
  // Karmada tests the members' scale here, not the template's count (Kubernetes' HPA tests the one scale it has).
  if (input.memberReplicas === 0 && minReplicas !== 0)
    return {
      desiredReplicas: 0,
      rescale: false,
      reason: '',
      ableToScale: 'ScalingDisabled',
      scalingLimited: '',
      history: input.history,
    };
  let desired: number;
  let reason = '';
  let ableToScale = 'SucceededGetScale';
  let scalingLimited = '';
  let history = input.history;
  if (current > maxReplicas) [desired, reason] = [maxReplicas, 'Current number of replicas above Spec.MaxReplicas'];
  else if (current < minReplicas)
    [desired, reason] = [minReplicas, 'Current number of replicas below Spec.MinReplicas'];
  else {
    if (input.metricReplicas === undefined) return { error: 'no metric could be computed' };
    const proposed = Math.max(0, input.metricReplicas);
    if (proposed > current) reason = `${input.metricName ?? 'metric'} above target`;
    if (proposed < current) reason = 'All metrics below target';
    const n = input.behavior
      ? normalizeWithBehavior(input, input.behavior, proposed, windowMs)
      : normalizeWithoutBehavior(input, proposed, windowMs);
    desired = n.desired;
    ableToScale = n.ableToScale;
    scalingLimited = n.scalingLimited;
    history = { ...history, recommendations: n.recommendations };
  }
  const rescale = desired !== current;
  if (!rescale) return { desiredReplicas: current, rescale, reason: '', ableToScale, scalingLimited, history };
  history = withScaleEvent(history, input.behavior, current, desired, now);
  return { desiredReplicas: desired, rescale, reason, ableToScale, scalingLimited, history };
}
