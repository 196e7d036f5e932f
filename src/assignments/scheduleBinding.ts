// Karmada's scheduler for one claimed binding (pkg/scheduler/scheduler.go: doScheduleBinding -> patchScheduleResultForResourceBinding):
// the binding's scheduling inputs become a SchedulingRequest, `schedule` runs the filter -> score -> select ->
// assign sequence over the cluster snapshot, and the result is written back to the binding (spec.clusters, the
// applied-placement annotation, the Scheduled condition). A WorkloadRebalancer request not yet observed schedules
// in fresh mode.
import { atTemplate } from '../api/templatePlace.ts';
import type { GracefulEvictionTask, ResourceBinding, TargetCluster } from '../api/binding.ts';
import { placementJson } from './placementJson.ts';
import type { Cluster } from '../api/cluster.ts';
import { describeRef } from '../api/kinds.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import type { ClaimedBinding } from '../bindings/claimTemplate.ts';
import { describePolicy } from '../bindings/matchPolicy.ts';
import type { Template } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { isWorkload } from './framework.ts';
import { keptOutByStatus } from './keptOutByStatus.ts';
import { OBSERVED_REBALANCERS_ANNOTATION, pendingRequests, requestsFor } from './rebalanceRequests.ts';
import { replicaSchedulingType } from './replicaStrategy.ts';
import { schedule } from './schedule.ts';
import type { ScheduleResult, SchedulingRequest } from './types.ts';

/** The previous result as the scheduler gets it: after the taint manager took evicted clusters out of it. */
export interface PreviousResult {
  clusters: TargetCluster[];
  tasks: readonly GracefulEvictionTask[];
}

/** What cluster status a pending binding's result depends on (outputs/pendingBindings.ts re-renders it when it moves). */
export interface PendingOn {
  replicas?: number;
  request?: Record<string, string | number>;
}

export interface ScheduledBinding {
  /** The claimed binding with its result: spec.clusters, applied-placement, status, observed rebalance requests. */
  binding: ResourceBinding;
  result: ScheduleResult;
  /** The result's clusters sorted by name. */
  targets: TargetCluster[];
  /** NO_CLUSTER_FITS or UNSCHEDULABLE at the template when the scheduler failed. */
  problem?: Problem;
  /** Set when the result waits on cluster status (see pendingOn). */
  waiting?: PendingOn;
  /** WorkloadRebalancers whose request this schedule carried out (fresh mode). */
  rescheduledBy?: string[];
}

/** Schedules the claimed binding on the cluster snapshot (sorted by name) and writes the result into it. */
export function scheduleBinding(
  template: Template,
  claim: ClaimedBinding,
  previous: ResourceBinding | undefined,
  previousResult: PreviousResult,
  clusters: readonly Cluster[],
  rebalancers: readonly WorkloadRebalancer[],
  /** Registered clusters kept out of `clusters` beforehand, with why (SchedulingRequest.excluded). */
  excluded?: SchedulingRequest['excluded'],
  /** SchedulingRequest.candidateReasons. */
  candidateReasons?: false,
): ScheduledBinding {
  const policy = claim.policy.object;
  const placement = policy.spec.placement ?? {};
  const uid = (template.manifest.metadata as { uid?: string } | undefined)?.uid ?? '';
  const requests = requestsFor(template.ref, rebalancers);
  const pending = pendingRequests(requests, previous);
  const { tasks } = previousResult;
  const request: SchedulingRequest = {
    ...(pending.length > 0 ? { reschedule: true } : {}),
    resource: { ...template.ref, uid },
    placement,
    replicas: claim.replicas,
    ...(claim.binding.spec.replicaRequirements !== undefined ? { replicaRequirements: true } : {}),
    ...(claim.resourceRequest ? { resourceRequest: claim.resourceRequest } : {}),
    previous: previousResult.clusters,
    ...(tasks.length > 0 ? { evictingClusters: tasks.map((t) => t.fromCluster) } : {}),
    ...(previous?.metadata.annotations?.['policy.karmada.io/applied-placement'] !== undefined
      ? { previousPlacement: previous.metadata.annotations['policy.karmada.io/applied-placement'] }
      : {}),
    ...(previous?.status?.schedulerObservedAffinityName
      ? { observedAffinityName: previous.status.schedulerObservedAffinityName }
      : {}),
    ...(excluded?.length ? { excluded } : {}),
    ...(candidateReasons === false ? { candidateReasons } : {}),
  };
  const result = schedule(request, clusters);
  const failed =
    result.status === 'NoClusterFit' || result.status === 'Unschedulable' || result.status === 'SchedulerError';
  const targets = [...result.clusters].sort(byName);
  // A request is observed once carried out; a failed fresh schedule leaves it pending, to be retried.
  const ok = result.status === 'Scheduled' || result.status === 'Unchanged';
  const observed = ok ? requests.join(',') : previous?.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION];
  const binding = withResult(claim.binding, placement, targets, result, previous, observed);
  const waiting = pendingOn(result, request, clusters);
  return {
    binding,
    result,
    targets,
    ...(failed
      ? {
          problem: {
            ...atTemplate(
              template,
              `${describeRef(template.ref)} (${describePolicy(policy)}): ${result.message}${result.detail ? ` (${result.detail})` : ''}`,
            ),
            code: result.status === 'NoClusterFit' ? 'NO_CLUSTER_FITS' : 'UNSCHEDULABLE',
            severity: 'warning',
            fix:
              result.status === 'NoClusterFit'
                ? `widen the placement of ${describePolicy(policy)} (clusterAffinity, clusterTolerations) or register a matching cluster under clusters/`
                : 'add capacity or relax the spread constraints; the previous placement is kept until then',
            data: { explanation: result.explanation },
          } satisfies Problem,
        }
      : {}),
    ...(waiting ? { waiting } : {}),
    ...(ok && pending.length > 0 ? { rescheduledBy: pending } : {}),
  };
}

/**
 * What the binding waits for in cluster status, or undefined when its result no longer depends on it. A failed
 * schedule is tried again by every render that touches the template (its reasons name every cluster's filter, and
 * capacity decides a workload's), and so is a non-workload or Duplicated one (Karmada schedules those on every
 * reconcile), whose result a status change can grow when only status keeps a cluster it asks for out.
 */
export function pendingOn(
  result: ScheduleResult,
  req: SchedulingRequest,
  clusters: readonly Cluster[],
): PendingOn | undefined {
  if (result.status === 'NoClusterFit' || result.status === 'Unschedulable' || result.status === 'SchedulerError') {
    return req.replicas > 0
      ? { replicas: req.replicas, ...(req.resourceRequest ? { request: req.resourceRequest } : {}) }
      : {};
  }
  const everyTime = !isWorkload(req) || replicaSchedulingType(req.placement) === 'Duplicated';
  return everyTime && keptOutByStatus(req, result.explanation, clusters, result.affinityName).length > 0
    ? {}
    : undefined;
}

/** The claimed binding with the scheduler's result patched in; every field keeps the place the detector gave it. */
function withResult(
  claimed: ResourceBinding,
  placement: object,
  targets: TargetCluster[],
  result: ScheduleResult,
  previous: ResourceBinding | undefined,
  observed: string | undefined,
): ResourceBinding {
  const ok = result.status === 'Scheduled' || result.status === 'Unchanged';
  // Karmada patches a result, and the placement it was computed for, on success and on a no-fit error (whose result
  // is empty); any other error patches nothing (scheduler.go#scheduleResourceBindingWithClusterAffinity).
  const patched = ok || result.status === 'NoClusterFit';
  const affinityName = result.affinityName ?? previous?.status?.schedulerObservedAffinityName;
  // Not scheduled at all: Karmada patches no condition, so the last schedule's stays as it was, a failed one included,
  // and a binding that never had one (made by hand, or exported from Karmada) still has none.
  const unchanged = result.status === 'Unchanged';
  const kept = unchanged ? previous?.status?.conditions?.find((c) => c.type === 'Scheduled') : undefined;
  return {
    ...claimed,
    metadata: {
      ...claimed.metadata,
      annotations: {
        ...claimed.metadata.annotations,
        // The placement this result was computed for: a later change to it triggers rescheduling.
        'policy.karmada.io/applied-placement': patched
          ? placementJson(placement)
          : (previous?.metadata.annotations?.['policy.karmada.io/applied-placement'] ?? placementJson(placement)),
        ...(observed ? { [OBSERVED_REBALANCERS_ANNOTATION]: observed } : {}),
      },
    },
    spec: { ...claimed.spec, clusters: targets },
    status: {
      ...(affinityName ? { schedulerObservedAffinityName: affinityName } : {}),
      ...(kept
        ? { conditions: [kept] }
        : unchanged
          ? {}
          : {
              conditions: [
                {
                  type: 'Scheduled',
                  status: ok ? 'True' : 'False',
                  reason: ok ? 'Success' : result.status,
                  message: ok ? 'Binding has been scheduled successfully.' : result.message,
                },
              ],
            }),
    },
  };
}

function byName(a: TargetCluster, b: TargetCluster): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
