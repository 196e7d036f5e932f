// Karmada's application failover controller (pkg/controllers/applicationfailover) on one binding: a cluster whose
// copy of the application has been Unhealthy for longer than failover.application's tolerationSeconds is evicted with
// its purge mode, and the scheduler places the binding without it. Karmada counts from the moment the controller
// first saw it Unhealthy (held in memory); Flotilla counts from the status branch's unhealthySince.
import type { GracefulEvictionTask, ResourceBinding, TargetCluster } from '../api/binding.ts';
import { applicationFailoverOf, type ApplicationFailover } from '../api/policy.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import { formatTime } from '../time/formatTime.ts';
import { gracefulEvictCluster } from './gracefulEviction.ts';

/** A cluster whose application failed over: since when it was Unhealthy, and the toleration it outlasted. */
export interface ApplicationFailure {
  cluster: string;
  replicas: number;
  unhealthySince: string;
  tolerationSeconds: number;
  purgeMode: ApplicationFailover['purgeMode'];
}

/**
 * The first moment (ms) at which the item's copy has been Unhealthy for longer than tolerationSeconds (Karmada's
 * detectFailure evicts when now is after unhealthySince + tolerationSeconds); undefined unless it is Unhealthy (not
 * Unknown) with a known start.
 */
export function failureDeadline(item: AggregatedStatusItem, tolerationSeconds: number): number | undefined {
  if (item.health !== 'Unhealthy' || !item.unhealthySince) return undefined;
  const since = Date.parse(item.unhealthySince);
  return Number.isFinite(since) ? since + tolerationSeconds * 1000 + 1 : undefined;
}

/**
 * The clusters of the result whose application is Unhealthy and not already being evicted
 * (distinguishUnhealthyClustersWithOthers), with the moment each falls due. Pure.
 */
function unhealthyTargets(
  result: readonly TargetCluster[],
  evicting: (cluster: string) => boolean,
  items: readonly AggregatedStatusItem[],
  tolerationSeconds: number,
): { target: TargetCluster; since: string; at: number }[] {
  const out: { target: TargetCluster; since: string; at: number }[] = [];
  for (const item of items) {
    const at = failureDeadline(item, tolerationSeconds);
    if (at === undefined || evicting(item.clusterName)) continue;
    const target = result.find((t) => t.name === item.clusterName);
    if (target) out.push({ target, since: item.unhealthySince!, at });
  }
  return out;
}

/**
 * When the next of these clusters' copies falls due (ms), as the reconciler needs to know without rendering; the
 * result without the clusters being evicted, which are not watched. Undefined when none is Unhealthy.
 */
export function applicationFailureDeadline(
  result: readonly string[],
  evicting: ReadonlySet<string>,
  items: readonly AggregatedStatusItem[],
  tolerationSeconds: number,
): number | undefined {
  const targets = unhealthyTargets(
    result.map((name) => ({ name, replicas: 0 })),
    (c) => evicting.has(c),
    items,
    tolerationSeconds,
  );
  return targets.length > 0 ? Math.min(...targets.map((t) => t.at)) : undefined;
}

/**
 * Evicts the binding from each due cluster as Karmada's controller does (GracefulEvictCluster with buildTaskOptions):
 * reason ApplicationFailure, the controller's name as producer, the policy's purge mode; Gracefully with its
 * gracePeriodSeconds, Never with suppressDeletion. StatePreservation needs the StatefulFailoverInjection gate (alpha,
 * off by default), so no preserved label state is recorded.
 */
export function evictFailedApplications(
  evicted: { clusters: readonly TargetCluster[]; tasks: readonly GracefulEvictionTask[] },
  items: readonly AggregatedStatusItem[],
  failover: ApplicationFailover,
  bindingKind: 'ResourceBinding' | 'ClusterResourceBinding',
  now: Date,
): { clusters: TargetCluster[]; tasks: GracefulEvictionTask[]; failures: ApplicationFailure[] } {
  const due = unhealthyTargets(
    evicted.clusters,
    (c) => evicted.tasks.some((t) => t.fromCluster === c),
    items,
    failover.tolerationSeconds,
  ).filter((t) => t.at <= now.getTime());
  let result = { clusters: [...evicted.clusters], tasks: [...evicted.tasks] };
  const failures: ApplicationFailure[] = [];
  for (const { target, since } of due) {
    result = gracefulEvictCluster(result.clusters, result.tasks, target.name, {
      purgeMode: failover.purgeMode,
      reason: 'ApplicationFailure',
      producer:
        bindingKind === 'ClusterResourceBinding'
          ? 'cluster-resource-binding-application-failover-controller'
          : 'resource-binding-application-failover-controller',
      creationTimestamp: formatTime(now),
      ...(failover.purgeMode === 'Gracefully' && failover.gracePeriodSeconds !== undefined
        ? { gracePeriodSeconds: failover.gracePeriodSeconds }
        : {}),
      ...(failover.purgeMode === 'Never' ? { suppressDeletion: true } : {}),
    });
    failures.push({
      cluster: target.name,
      replicas: target.replicas,
      unhealthySince: since,
      tolerationSeconds: failover.tolerationSeconds,
      purgeMode: failover.purgeMode,
    });
  }
  return { ...result, failures };
}

/**
 * Whether a render reads the template's health from the status branch for this previous binding: its graceful
 * eviction tasks may end, or its application may fail over. A render and its replay (verify) read the same ones.
 */
export function readsTemplateHealth(binding: ResourceBinding): boolean {
  return (binding.spec.gracefulEvictionTasks ?? []).length > 0 || applicationFailoverOf(binding.spec) !== undefined;
}
