// policy.karmada.io/v1alpha1 types, as Karmada defines them (pkg/apis/policy/v1alpha1). Types only, no logic.

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/**
 * A NodeSelectorRequirement over a cluster's fields. Placements and OverridePolicy targets admit only provider, region
 * and zone with In and NotIn (validation); a staticWeightList's or ClusterTaintPolicy's targets admit anything, and
 * match as Karmada's util.ClusterMatches reads it.
 */
export interface FieldSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface ClusterAffinity {
  labelSelector?: LabelSelector;
  fieldSelector?: { matchExpressions?: FieldSelectorRequirement[] };
  clusterNames?: string[];
  exclude?: string[];
}

export interface ClusterAffinityTerm extends ClusterAffinity {
  affinityName: string;
  overflowAffinities?: ClusterAffinity[];
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | '';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | '';
  tolerationSeconds?: number;
}

export type SpreadByField = 'cluster' | 'region' | 'zone' | 'provider';

export interface SpreadConstraint {
  spreadByField?: SpreadByField;
  spreadByLabel?: string;
  maxGroups?: number;
  minGroups?: number;
}

export interface StaticClusterWeight {
  targetCluster: ClusterAffinity;
  weight: number;
}

export interface ClusterPreferences {
  staticWeightList?: StaticClusterWeight[];
  dynamicWeight?: 'AvailableReplicas';
}

export interface ReplicaSchedulingStrategy {
  replicaSchedulingType?: 'Duplicated' | 'Divided';
  replicaDivisionPreference?: 'Aggregated' | 'Weighted';
  weightPreference?: ClusterPreferences;
}

export interface Placement {
  clusterAffinity?: ClusterAffinity;
  clusterAffinities?: ClusterAffinityTerm[];
  clusterTolerations?: Toleration[];
  spreadConstraints?: SpreadConstraint[];
  replicaScheduling?: ReplicaSchedulingStrategy;
}

export interface ResourceSelector {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name?: string;
  labelSelector?: LabelSelector;
}

/** Dispatching held back: to every cluster, or to those named. Karmada's webhook lets only one of the two be set. */
export interface Suspension {
  dispatching?: boolean;
  dispatchingOnClusters?: { clusterNames?: string[] };
}

/** Karmada's shouldSuspendDispatching: whether what a binding places on `cluster` waits to be applied there. */
export function dispatchingSuspended(suspension: Suspension | undefined, cluster: string): boolean {
  if (!suspension) return false;
  return suspension.dispatching === true || (suspension.dispatchingOnClusters?.clusterNames ?? []).includes(cluster);
}

export interface PropagationSpec {
  resourceSelectors: ResourceSelector[];
  priority?: number;
  preemption?: 'Always' | 'Never';
  conflictResolution?: 'Abort' | 'Overwrite';
  propagateDeps?: boolean;
  /** Deprecated: declared in Karmada's API, read by none of its controllers (propagateDeps replaced it). */
  association?: boolean;
  placement?: Placement;
  dependentOverrides?: string[];
  schedulerName?: string;
  /** Checked by validation and defaulted (applyPolicyDefaults); read through applicationFailoverOf. */
  failover?: unknown;
  activationPreference?: '' | 'Lazy';
  suspension?: Suspension;
  preserveResourcesOnDeletion?: boolean;
  schedulePriority?: unknown;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  uid?: string;
  generation?: number;
}

export interface PropagationPolicy {
  apiVersion: 'policy.karmada.io/v1alpha1';
  kind: 'PropagationPolicy' | 'ClusterPropagationPolicy';
  metadata: ObjectMeta;
  spec: PropagationSpec;
}

export type OverrideOperator = 'add' | 'remove' | 'replace';

export interface PlaintextOverrider {
  path: string;
  operator: OverrideOperator;
  value?: unknown;
}

export interface ImageOverrider {
  predicate?: { path: string };
  component: 'Registry' | 'Repository' | 'Tag';
  operator: OverrideOperator;
  value?: string;
}

export interface CommandArgsOverrider {
  containerName: string;
  operator: 'add' | 'remove';
  value?: string[];
}

export interface LabelAnnotationOverrider {
  operator: OverrideOperator;
  value?: Record<string, string>;
}

export interface FieldOverrider {
  fieldPath: string;
  json?: { subPath: string; operator: OverrideOperator; value?: unknown }[];
  yaml?: { subPath: string; operator: OverrideOperator; value?: unknown }[];
}

export interface Overriders {
  plaintext?: PlaintextOverrider[];
  imageOverrider?: ImageOverrider[];
  commandOverrider?: CommandArgsOverrider[];
  argsOverrider?: CommandArgsOverrider[];
  labelsOverrider?: LabelAnnotationOverrider[];
  annotationsOverrider?: LabelAnnotationOverrider[];
  fieldOverrider?: FieldOverrider[];
}

export interface RuleWithCluster {
  targetCluster?: ClusterAffinity;
  overriders: Overriders;
}

export interface OverrideSpec {
  resourceSelectors?: ResourceSelector[];
  overrideRules?: RuleWithCluster[];
  /** Deprecated pair, kept because Karmada still accepts it. */
  targetCluster?: ClusterAffinity;
  overriders?: Overriders;
}

export interface OverridePolicy {
  apiVersion: 'policy.karmada.io/v1alpha1';
  kind: 'OverridePolicy' | 'ClusterOverridePolicy';
  metadata: ObjectMeta;
  spec: OverrideSpec;
}

/** One condition a ClusterTaintPolicy matches on: the cluster's condition of that type has (In) or lacks (NotIn) a status. */
export interface MatchCondition {
  conditionType: string;
  /** In or NotIn; Karmada admits any other, which matches nothing. */
  operator: string;
  /** True, False, Unknown; Karmada admits any text, and none. */
  statusValues: string[];
}

/**
 * policy.karmada.io/v1alpha1 ClusterTaintPolicy (cluster-scoped): taints added to the target clusters when every
 * addOnCondition holds and removed when every removeOnCondition holds. In Flotilla a NoExecute taint in one is the
 * opt-in to failover (Karmada needs the Failover gate plus --enable-no-execute-taint-eviction).
 */
export interface ClusterTaintPolicy {
  apiVersion: 'policy.karmada.io/v1alpha1';
  kind: 'ClusterTaintPolicy';
  metadata: ObjectMeta;
  spec: {
    targetClusters?: ClusterAffinity;
    addOnConditions?: MatchCondition[];
    removeOnConditions?: MatchCondition[];
    taints: { key: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'; value?: string }[];
  };
}

/** failover.application of a policy, with the CRD's and the webhook's defaults applied (KARMADA.md §2). */
export interface ApplicationFailover {
  tolerationSeconds: number;
  purgeMode: 'Gracefully' | 'Directly' | 'Never';
  /** Set with purgeMode Gracefully only (the webhook's default 600). */
  gracePeriodSeconds?: number;
}

/** The policy's failover.application, undefined when it has none (or one validation refused). */
export function applicationFailoverOf(spec: { failover?: unknown }): ApplicationFailover | undefined {
  const application = (spec.failover as { application?: unknown } | undefined)?.application;
  if (!application || typeof application !== 'object') return undefined;
  const a = application as {
    decisionConditions?: { tolerationSeconds?: unknown };
    purgeMode?: unknown;
    gracePeriodSeconds?: unknown;
  };
  const toleration = a.decisionConditions?.tolerationSeconds;
  const purgeMode = a.purgeMode === 'Directly' || a.purgeMode === 'Never' ? a.purgeMode : 'Gracefully';
  return {
    tolerationSeconds: typeof toleration === 'number' && toleration >= 0 ? toleration : 300,
    purgeMode,
    ...(purgeMode === 'Gracefully'
      ? {
          gracePeriodSeconds:
            typeof a.gracePeriodSeconds === 'number' && a.gracePeriodSeconds > 0 ? a.gracePeriodSeconds : 600,
        }
      : {}),
  };
}
