// The taint manager's pass over one binding: which of its clusters are evicted now, and how.
import type { GracefulEvictionTask, TargetCluster } from '../api/binding.ts';
import type { Cluster, Taint } from '../api/cluster.ts';
import type { Toleration } from '../api/policy.ts';
import { formatTime } from '../time/formatTime.ts';
import { gracefulEvictCluster } from './gracefulEviction.ts';
import { taintEviction } from './taintEviction.ts';

export type PurgeMode = 'Gracefully' | 'Directly' | 'Never';

/** One eviction decision, with what the commit message needs to say which cluster, since when and why. */
export interface Eviction {
  cluster: string;
  replicas: number;
  taint: Taint;
  why: 'untolerated' | 'tolerationExpired';
  tolerationSeconds?: number;
  purgeMode: PurgeMode;
}

/**
 * Evicts the binding from every cluster of its result whose NoExecute taints are due (see taintEviction), with the
 * tolerations the result was computed for, recording a task each time as Karmada's taint manager does: Gracefully,
 * the cluster keeps its copy for now; Never, a task that never ends by itself (suppressDeletion); Directly, the copy
 * goes at once, and the task only keeps the scheduler from placing the binding there again until it ends.
 */
export function evictBinding(
  clusters: readonly TargetCluster[],
  tasks: readonly GracefulEvictionTask[],
  byName: ReadonlyMap<string, Cluster>,
  tolerations: readonly Toleration[] | undefined,
  purgeMode: PurgeMode,
  now: Date,
): { clusters: TargetCluster[]; tasks: GracefulEvictionTask[]; evictions: Eviction[] } {
  let result = { clusters: [...clusters], tasks: [...tasks] };
  const evictions: Eviction[] = [];
  for (const target of clusters) {
    const cluster = byName.get(target.name);
    if (!cluster) continue;
    const verdict = taintEviction(cluster.spec.taints ?? [], tolerations, now);
    if (!verdict.evict) continue;
    // No message, as Karmada's taint manager gives none: the eviction below says which taint and why.
    result = gracefulEvictCluster(result.clusters, result.tasks, target.name, {
      purgeMode,
      reason: 'TaintUntolerated',
      producer: 'TaintManager',
      creationTimestamp: formatTime(now),
      ...(purgeMode === 'Never' ? { suppressDeletion: true } : {}),
    });
    evictions.push({
      cluster: target.name,
      replicas: target.replicas,
      taint: verdict.taint,
      why: verdict.why,
      purgeMode,
      ...(verdict.why === 'tolerationExpired' ? { tolerationSeconds: verdict.tolerationSeconds } : {}),
    });
  }
  return { ...result, evictions };
}
