// What the HPA controller does with a metric's recommendation before it scales (horizontal.go:
// normalizeDesiredReplicas and normalizeDesiredReplicasWithBehaviors), pure: the recommendation history and
// scale events are passed in and handed back, and time is a number the caller supplies.

/** --horizontal-pod-autoscaler-downscale-stabilization default (5 minutes). */
export const DEFAULT_DOWNSCALE_STABILIZATION_MS = 300_000;

export interface Recommendation {
  replicas: number;
  /** ms since epoch */
  at: number;
}

export interface ScaleEvent {
  /** Replicas added (scale-up events) or removed (scale-down events). */
  change: number;
  at: number;
}

export interface ScalingPolicy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

export interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: ScalingPolicy[];
}

export interface Behavior {
  scaleUp?: ScalingRules;
  scaleDown?: ScalingRules;
}

export interface HpaHistory {
  recommendations: Recommendation[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}

export interface ConditionResult {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  replicas: number;
  ableToScale: ConditionResult;
  scalingLimited: ConditionResult;
  /** The history to keep for the next sync. */
  history: HpaHistory;
}

export interface NormalizeInput {
  currentReplicas: number;
  /** The metrics' recommendation. */
  desiredReplicas: number;
  minReplicas: number;
  maxReplicas: number;
  behavior: Behavior | undefined;
  history: HpaHistory;
  now: number;
  /** The controller's downscale stabilization window, used without behavior and for a behavior without a scale-down window. */
  downscaleStabilizationMs: number;
}

const READY: ConditionResult = {
  status: 'True',
  reason: 'ReadyForNewScale',
  message: 'recommended size matches current size',
};

/** Records the recommendation, replacing the oldest sample that fell out of every window (as Kubernetes reuses slots). */
function record(
  recommendations: Recommendation[],
  replicas: number,
  now: number,
  isOld: (r: Recommendation) => boolean,
): Recommendation[] {
  const next = [...recommendations];
  let oldIndex = -1;
  next.forEach((r, i) => {
    if (isOld(r)) oldIndex = i;
  });
  if (oldIndex >= 0) next[oldIndex] = { replicas, at: now };
  else next.push({ replicas, at: now });
  return next;
}

/** convertDesiredReplicasWithRules: without behavior, scale-up is capped at max(2 × current, 4). */
function convertWithRules(
  current: number,
  desired: number,
  min: number,
  max: number,
): { replicas: number; reason: string; message: string } {
  const scaleUpLimit = Math.max(2 * current, 4);
  let maximum: number;
  let reason: string;
  let message: string;
  if (max > scaleUpLimit) {
    maximum = scaleUpLimit;
    reason = 'ScaleUpLimit';
    message = 'the desired replica count is increasing faster than the maximum scale rate';
  } else {
    maximum = max;
    reason = 'TooManyReplicas';
    message = 'the desired replica count is more than the maximum replica count';
  }
  if (desired < min)
    return {
      replicas: min,
      reason: 'TooFewReplicas',
      message: 'the desired replica count is less than the minimum replica count',
    };
  if (desired > maximum) return { replicas: maximum, reason, message };
  return {
    replicas: desired,
    reason: 'DesiredWithinRange',
    message: 'the desired count is within the acceptable range',
  };
}

const changeInPeriod = (events: ScaleEvent[], periodSeconds: number, now: number) =>
  events.filter((e) => e.at > now - periodSeconds * 1000).reduce((n, e) => n + e.change, 0);

/** calculateScaleUpLimitWithScalingRules: the most replicas the scale-up policies allow now. */
function scaleUpLimit(current: number, history: HpaHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const policy of rules.policies ?? []) {
    const start =
      current -
      changeInPeriod(history.scaleUpEvents, policy.periodSeconds, now) +
      changeInPeriod(history.scaleDownEvents, policy.periodSeconds, now);
    const proposed = policy.type === 'Pods' ? start + policy.value : Math.ceil(start * (1 + policy.value / 100));
    result = useMin ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors: the fewest replicas the scale-down policies allow now. */
function scaleDownLimit(current: number, history: HpaHistory, rules: ScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const useMin = rules.selectPolicy === 'Min';
  let result = useMin ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const policy of rules.policies ?? []) {
    const start =
      current -
      changeInPeriod(history.scaleUpEvents, policy.periodSeconds, now) +
      changeInPeriod(history.scaleDownEvents, policy.periodSeconds, now);
    const proposed = policy.type === 'Pods' ? start - policy.value : Math.trunc(start * (1 - policy.value / 100));
    result = useMin ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

function normalizeWithoutBehavior(input: NormalizeInput): Normalized {
  const { currentReplicas, desiredReplicas, minReplicas, maxReplicas, history, now } = input;
  const cutoff = now - input.downscaleStabilizationMs;
  // stabilizeRecommendation: the highest recommendation within the window wins.
  let stabilized = desiredReplicas;
  for (const r of history.recommendations) if (r.at >= cutoff && r.replicas > stabilized) stabilized = r.replicas;
  const recommendations = record(history.recommendations, desiredReplicas, now, (r) => r.at < cutoff);
  const ableToScale =
    stabilized !== desiredReplicas
      ? {
          status: 'True' as const,
          reason: 'ScaleDownStabilized',
          message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
        }
      : READY;
  const converted = convertWithRules(currentReplicas, stabilized, minReplicas, maxReplicas);
  return {
    replicas: converted.replicas,
    ableToScale,
    scalingLimited: {
      status: converted.replicas === stabilized ? 'False' : 'True',
      reason: converted.reason,
      message: converted.message,
    },
    history: { ...history, recommendations },
  };
}

function normalizeWithBehavior(input: NormalizeInput, behavior: Behavior): Normalized {
  const { currentReplicas, desiredReplicas, minReplicas, maxReplicas, history, now } = input;
  const up = behavior.scaleUp ?? {};
  const down = behavior.scaleDown ?? {};
  const upCutoff = now - (up.stabilizationWindowSeconds ?? 0) * 1000;
  // maybeInitScaleDownStabilizationWindow: a behavior without a scale-down window takes the controller's.
  const downCutoff =
    now -
    (down.stabilizationWindowSeconds !== undefined
      ? down.stabilizationWindowSeconds * 1000
      : input.downscaleStabilizationMs);
  // stabilizeRecommendationWithBehaviors: stay within the lowest recent (up) and highest recent (down) recommendation.
  let upRecommendation = desiredReplicas;
  let downRecommendation = desiredReplicas;
  for (const r of history.recommendations) {
    if (r.at > upCutoff) upRecommendation = Math.min(upRecommendation, r.replicas);
    if (r.at > downCutoff) downRecommendation = Math.max(downRecommendation, r.replicas);
  }
  let stabilized = currentReplicas;
  if (stabilized < upRecommendation) stabilized = upRecommendation;
  if (stabilized > downRecommendation) stabilized = downRecommendation;
  const recommendations = record(
    history.recommendations,
    desiredReplicas,
    now,
    (r) => r.at < upCutoff && r.at < downCutoff,
  );
  const ableToScale =
    stabilized !== desiredReplicas
      ? desiredReplicas >= currentReplicas
        ? {
            status: 'True' as const,
            reason: 'ScaleUpStabilized',
            message: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
          }
        : {
            status: 'True' as const,
            reason: 'ScaleDownStabilized',
            message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
          }
      : READY;

  // convertDesiredReplicasWithBehaviorRate
  let replicas = stabilized;
  let reason = 'DesiredWithinRange';
  let message = 'the desired count is within the acceptable range';
  if (stabilized > currentReplicas) {
    const limit = Math.max(scaleUpLimit(currentReplicas, history, up, now), currentReplicas);
    const maximum = Math.min(maxReplicas, limit);
    const byRate = maxReplicas > limit;
    if (stabilized > maximum) {
      replicas = maximum;
      reason = byRate ? 'ScaleUpLimit' : 'TooManyReplicas';
      message = byRate
        ? 'the desired replica count is increasing faster than the maximum scale rate'
        : 'the desired replica count is more than the maximum replica count';
    }
  } else if (stabilized < currentReplicas) {
    const limit = Math.min(scaleDownLimit(currentReplicas, history, down, now), currentReplicas);
    const minimum = Math.max(minReplicas, limit);
    const byRate = minReplicas < limit;
    if (stabilized < minimum) {
      replicas = minimum;
      reason = byRate ? 'ScaleDownLimit' : 'TooFewReplicas';
      message = byRate
        ? 'the desired replica count is decreasing faster than the maximum scale rate'
        : 'the desired replica count is less than the minimum replica count';
    }
  }
  return {
    replicas,
    ableToScale,
    scalingLimited: { status: replicas === stabilized ? 'False' : 'True', reason, message },
    history: { ...history, recommendations },
  };
}

/** The replicas to scale to, with the AbleToScale and ScalingLimited conditions that explain them. */
export function normalizeDesiredReplicas(input: NormalizeInput): Normalized {
  return input.behavior ? normalizeWithBehavior(input, input.behavior) : normalizeWithoutBehavior(input);
}

/**
 * storeScaleEvent: with a behavior, a rescale is remembered for the policies' periods (events older than the
 * longest period are dropped); without one nothing is kept.
 */
export function recordScaleEvent(
  history: HpaHistory,
  behavior: Behavior | undefined,
  from: number,
  to: number,
  now: number,
): HpaHistory {
  if (!behavior) return history;
  const longest = (rules: ScalingRules | undefined) =>
    Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds)) * 1000;
  const keepUp = history.scaleUpEvents.filter((e) => e.at >= now - longest(behavior.scaleUp));
  const keepDown = history.scaleDownEvents.filter((e) => e.at >= now - longest(behavior.scaleDown));
  if (to > from)
    return { ...history, scaleUpEvents: [...keepUp, { change: to - from, at: now }], scaleDownEvents: keepDown };
  return { ...history, scaleUpEvents: keepUp, scaleDownEvents: [...keepDown, { change: from - to, at: now }] };
}
