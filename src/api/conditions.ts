// Condition types, reasons and health values the status branch uses, declared once (Karmada's vocabulary).

export const CLUSTER_READY = 'Ready';
export const COMPLETE_API_ENABLEMENTS = 'CompleteAPIEnablements';
export const FULLY_APPLIED = 'FullyApplied';

export const CONDITION_REASONS = [
  'ClusterReady',
  'ClusterNotReady',
  'ClusterNotReachable',
  'StatusCollectionFailed',
  'ClusterStatusUnknown',
  'ClusterStatusNeverUpdated',
  'Complete',
  'Partial',
  'Empty',
  'FullyAppliedSuccess',
  'FullyAppliedFailed',
] as const;
export type ConditionReason = (typeof CONDITION_REASONS)[number];

/** Karmada's ResourceHealth: a kind without a health rule is Healthy; a failed interpretation is Unknown. */
export type Health = 'Healthy' | 'Unhealthy' | 'Unknown';
/** The reason of a Ready=Unknown set here (Karmada's cluster controller uses the same). */
export const STATUS_UNKNOWN_REASON = 'ClusterStatusUnknown';
/** The reason of a Ready=Unknown for a cluster whose status was never posted (Karmada's cluster controller). */
export const NEVER_UPDATED_REASON = 'ClusterStatusNeverUpdated';

/** A FederatedHPA status condition (Kubernetes' HorizontalPodAutoscalerCondition, without its transition time). */
export interface HpaCondition {
  type: 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';
  status: 'True' | 'False';
  reason: string;
  message: string;
}
