/**
 * The conditions a FederatedHPA's status carries, as Karmada's controller sets them (pkg/controllers/federatedhpa/
 * federatedhpa_controller.go setCondition, with Kubernetes' HPA reasons and messages): AbleToScale, ScalingActive and
 * ScalingLimited. Pure: built from what one evaluation found.
 */

import type { HpaCondition } from '../api/conditions.ts';

export type { HpaCondition };

export type Evaluation =
  /**
   * No target cluster gave the workload's scale (none Ready, or the workload is on none yet): FailedGetScale. A
   * `reason` of Karmada's earlier steps (FailedGetBinding, FailedGetTargetClusters) comes with its whole message.
   */
  | { kind: 'no-scale'; message: string; reason?: string }
  /** Every metric failed (or some did and the rest would scale down): the first failure's reason. */
  | { kind: 'metric-failed'; reason: string; message: string }
  /** The pods are selected by more than one FederatedHPA: none of them scales them. */
  | { kind: 'ambiguous-selector'; message: string }
  | {
      kind: 'decided';
      /** The decision's AbleToScale reason (normalizeReplicas), ScalingDisabled for a target its members run at 0. */
      ableToScale: string;
      scalingLimited: string;
      rescale: boolean;
      desiredReplicas: number;
      /** The metric the count came from; undefined when the count was brought inside min/max without metrics. */
      metricName?: string;
    };

const LIMITED: Record<string, string> = {
  TooFewReplicas: 'the desired replica count is less than the minimum replica count',
  TooManyReplicas: 'the desired replica count is more than the maximum replica count',
  ScaleUpLimit: 'the desired replica count is increasing faster than the maximum scale rate',
  ScaleDownLimit: 'the desired replica count is decreasing faster than the maximum scale rate',
  DesiredWithinRange: 'the desired count is within the acceptable range',
};

const ABLE: Record<string, string> = {
  SucceededGetScale: "the HPA controller was able to get the target's current scale",
  ReadyForNewScale: 'recommended size matches current size',
  ScaleDownStabilized:
    'recent recommendations were higher than current one, applying the highest recent recommendation',
  ScaleUpStabilized: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
};

/** The conditions after one evaluation, in Kubernetes' order (AbleToScale, ScalingActive, ScalingLimited). */
export function hpaConditions(e: Evaluation): HpaCondition[] {
  if (e.kind === 'no-scale')
    return [
      e.reason
        ? { type: 'AbleToScale', status: 'False', reason: e.reason, message: e.message }
        : {
            type: 'AbleToScale',
            status: 'False',
            reason: 'FailedGetScale',
            message: `the HPA controller was unable to get the target's current scale: ${e.message}`,
          },
    ];
  const able: HpaCondition = {
    type: 'AbleToScale',
    status: 'True',
    reason: 'SucceededGetScale',
    message: ABLE.SucceededGetScale!,
  };
  if (e.kind === 'ambiguous-selector')
    return [able, { type: 'ScalingActive', status: 'False', reason: 'AmbiguousSelector', message: e.message }];
  if (e.kind === 'metric-failed')
    return [
      able,
      {
        type: 'ScalingActive',
        status: 'False',
        reason: e.reason,
        message: `the HPA was unable to compute the replica count: ${e.message}`,
      },
    ];
  if (e.ableToScale === 'ScalingDisabled')
    return [
      able,
      {
        type: 'ScalingActive',
        status: 'False',
        reason: 'ScalingDisabled',
        message: 'scaling is disabled since the replica count of the target is zero',
      },
    ];
  const out: HpaCondition[] = [
    e.rescale
      ? {
          type: 'AbleToScale',
          status: 'True',
          reason: 'SucceededRescale',
          message: `the HPA controller was able to update the target scale to ${e.desiredReplicas}`,
        }
      : { ...able, reason: e.ableToScale, message: ABLE[e.ableToScale] ?? ABLE.SucceededGetScale! },
  ];
  if (e.metricName)
    out.push({
      type: 'ScalingActive',
      status: 'True',
      reason: 'ValidMetricFound',
      message: `the HPA was able to successfully calculate a replica count from ${e.metricName}`,
    });
  if (e.scalingLimited)
    out.push({
      type: 'ScalingLimited',
      status: e.scalingLimited === 'DesiredWithinRange' ? 'False' : 'True',
      reason: e.scalingLimited,
      message: LIMITED[e.scalingLimited] ?? e.scalingLimited,
    });
  return out;
}

/**
 * The status's conditions after an evaluation set `next` (Karmada's setConditionInList): each type keeps its place
 * in the list and takes the new value; a type this evaluation did not set stays as it was (a failed metric leaves
 * the last ScalingLimited); a new type goes last.
 */
export function mergeHpaConditions(
  previous: readonly HpaCondition[] | undefined,
  next: readonly HpaCondition[],
): HpaCondition[] {
  const out = (previous ?? []).map((c) => next.find((n) => n.type === c.type) ?? c);
  for (const n of next) if (!out.some((c) => c.type === n.type)) out.push(n);
  return out;
}
