// Karmada's NoExecute taint manager run on one claimed binding before it is scheduled
// (pkg/controllers/cluster/taint_manager.go: syncBindingEviction): evicted clusters leave the previous result, and
// the replica sum falling short is what makes the scheduler place the missing replicas elsewhere.
import type { GracefulEvictionTask, ResourceBinding, TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import type { Placement, PropagationPolicy } from '../api/policy.ts';
import { evictBinding, type Eviction, type PurgeMode } from './evictBinding.ts';

/** The previous result with the evicted clusters taken out, its tasks, and what was evicted now. */
export interface EvictedResult {
  clusters: TargetCluster[];
  tasks: GracefulEvictionTask[];
  evictions: Eviction[];
}

/**
 * Evicts the previous binding from every cluster of its result whose NoExecute taints are due, judged with the
 * tolerations that result was computed for and the claiming policy's purge mode.
 */
export function evictTaintedClusters(
  previous: ResourceBinding,
  policy: PropagationPolicy,
  clusters: ReadonlyMap<string, Cluster>,
  now: Date,
): EvictedResult {
  const applied = appliedPlacement(previous);
  // Karmada's needEviction fails without a placement to read the tolerations from, and the binding stays as it is.
  if (!applied)
    return {
      clusters: [...(previous.spec.clusters ?? [])],
      tasks: [...(previous.spec.gracefulEvictionTasks ?? [])],
      evictions: [],
    };
  return evictBinding(
    previous.spec.clusters ?? [],
    previous.spec.gracefulEvictionTasks ?? [],
    clusters,
    applied.clusterTolerations,
    purgeModeOf(policy),
    now,
  );
}

/**
 * The placement the previous result was computed for, whose tolerations Karmada's taint manager reads
 * (helper.GetAppliedPlacement); undefined when the annotation is missing, unreadable or null.
 */
export function appliedPlacement(previous: ResourceBinding): Placement | undefined {
  const applied = previous.metadata.annotations?.['policy.karmada.io/applied-placement'];
  if (!applied) return undefined;
  try {
    const placement = JSON.parse(applied) as unknown;
    return placement !== null && typeof placement === 'object' && !Array.isArray(placement)
      ? (placement as Placement)
      : undefined;
  } catch {
    return undefined;
  }
}

/** failover.cluster.purgeMode of the policy, else Karmada's default --no-execute-taint-eviction-purge-mode (Gracefully). */
export function purgeModeOf(policy: PropagationPolicy): PurgeMode {
  const mode = (policy.spec.failover as { cluster?: { purgeMode?: string } } | undefined)?.cluster?.purgeMode;
  return mode === 'Directly' || mode === 'Never' ? mode : 'Gracefully';
}
