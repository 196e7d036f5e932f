// Retrying what could not be scheduled. Karmada keeps an unschedulable binding in its scheduling queue and tries it
// again after a backoff, then at least every 5 minutes (pkg/scheduler/internal/queue/scheduling_queue.go); a render
// here is a pure function of Git and the cluster state it reads, so it can do better: a pending binding (its index
// entry has `waiting`, set by assignments/scheduleBinding.ts) is rendered again exactly when the cluster state shows a
// change its schedule reads, and never otherwise.
import type { Cluster, ObservedCluster, Taint } from '../api/cluster.ts';
import { describeRef, parseRefKey } from '../api/kinds.ts';
import { availableReplicas } from '../assignments/availableReplicas.ts';
import { apiEnablementOf, type APIEnablementStatus } from '../assignments/plugins/apiEnablement.ts';
import type { WaitingFor } from '../branches/rendered/outputIndex.ts';

/**
 * The pending templates (refKey → what they wait for) that the change from `before` (the cluster state the last render
 * read) to `after` can give another result, each with why: a cluster now serves its kind, or stopped serving it
 * (APIEnablement runs on every cluster, and its reasons are part of a failed result's message); a cluster's taints
 * changed (TaintToleration; Ready reaches the scheduler only this way, as the not-ready and unreachable taints); or,
 * for a workload that could not be placed, the replicas some cluster can take changed. Anything else a status commit
 * holds (Ready alone, versions, node counts, other kinds' APIs, capacity for what is not waiting on it) is left out:
 * rendering those again could change nothing.
 */
export function findRetriableBindings(
  pending: ReadonlyMap<string, WaitingFor>,
  before: ReadonlyMap<string, ObservedCluster>,
  after: ReadonlyMap<string, ObservedCluster>,
): Map<string, string> {
  const due = new Map<string, string>();
  if (pending.size === 0) return due;
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const taintsChanged = names.filter(
    (name) => taintKey(before.get(name)?.taints) !== taintKey(after.get(name)?.taints),
  );
  for (const [key, waiting] of [...pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const ref = parseRefKey(key);
    const why =
      apiChange(ref.apiVersion, ref.kind, names, before, after) ??
      (taintsChanged.length > 0 ? `the taints of ${taintsChanged.join(', ')} changed` : undefined) ??
      capacityChange(waiting, names, before, after);
    if (why) due.set(key, `${describeRef(ref)}: ${why}`);
  }
  return due;
}

function apiChange(
  apiVersion: string,
  kind: string,
  names: readonly string[],
  before: ReadonlyMap<string, ObservedCluster>,
  after: ReadonlyMap<string, ObservedCluster>,
): string | undefined {
  for (const name of names) {
    const was = answerOf(name, before.get(name), apiVersion, kind);
    const now = answerOf(name, after.get(name), apiVersion, kind);
    if (was === now) continue;
    return now === 'APIEnabled'
      ? `${name} now serves ${apiVersion} ${kind}`
      : `${name} no longer lists ${apiVersion} ${kind} (${now})`;
  }
  return undefined;
}

function capacityChange(
  waiting: WaitingFor,
  names: readonly string[],
  before: ReadonlyMap<string, ObservedCluster>,
  after: ReadonlyMap<string, ObservedCluster>,
): string | undefined {
  if (!waiting.replicas) return undefined;
  for (const name of names) {
    const was = freeReplicas(name, before.get(name), waiting);
    const now = freeReplicas(name, after.get(name), waiting);
    if (was !== now) return `${name} has room for ${now} replica(s), ${was} before (${waiting.replicas} to place)`;
  }
  return undefined;
}

/** What the APIEnablement filter says of a cluster known only by its observed status (none: every API served). */
function answerOf(
  name: string,
  observed: ObservedCluster | undefined,
  apiVersion: string,
  kind: string,
): APIEnablementStatus {
  return apiEnablementOf(clusterWith(name, observed), apiVersion, kind);
}

function freeReplicas(name: string, observed: ObservedCluster | undefined, waiting: WaitingFor): number {
  const replicas = waiting.replicas ?? 0;
  return availableReplicas(clusterWith(name, observed), {
    resource: { apiVersion: '', kind: '', namespace: '', name: '' },
    placement: {},
    previous: [],
    replicas,
    ...(waiting.request ? { resourceRequest: waiting.request } : {}),
  });
}

function clusterWith(name: string, observed: ObservedCluster | undefined): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push' },
    ...(observed?.status ? { status: observed.status } : {}),
  };
}

/** The taints as the TaintToleration filter sees them: key, value and effect (the time added only matters to eviction). */
function taintKey(taints: readonly Taint[] | undefined): string {
  return (taints ?? [])
    .map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`)
    .sort()
    .join(',');
}
