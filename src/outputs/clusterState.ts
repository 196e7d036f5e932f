// The cluster state a render depends on beyond the source commit, reduced to what output commits record so the next
// sync can tell whether it must render again: a key of the controller-managed taints, and the next time a NoExecute
// toleration runs out; and, read again from the status commit a render recorded, which clusters' state moved since.
import { createHash } from 'node:crypto';
import type { ObservedCluster, Taint } from '../api/cluster.ts';
import type { ConfigModel } from '../api/model.ts';
import { formatTime } from '../time/formatTime.ts';
import { effectiveTaints } from '../taints/clusterTaints.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { CLUSTER_STATE_TRAILER, FAILOVER_CHECK_TRAILER } from '../branches/rendered/trailers.ts';
import { readRecordedState } from './recordedState.ts';
import type { GitRepo } from '../commits/types.ts';

/**
 * A short hash of every cluster's managed taints (key, value, effect, timeAdded): '' when no cluster has one, so a
 * fleet that never failed over records nothing. Ready itself is left out: Karmada does not filter NotReady clusters,
 * only their taints, and capacity changes do not move Divided workloads (KARMADA.md §4), so neither re-renders.
 */
export function clusterStateKey(observed: ReadonlyMap<string, ObservedCluster>): string {
  const parts: string[] = [];
  for (const name of [...observed.keys()].sort()) {
    const taints = managedTaints(observed.get(name));
    if (taints !== '') parts.push(`${name}=${taints}`);
  }
  return parts.length === 0 ? '' : createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** A cluster's managed taints as the key reads them; '' for none. */
function managedTaints(cluster: ObservedCluster | undefined): string {
  return (cluster?.taints ?? []).map((t) => `${t.key}=${t.value ?? ''}:${t.effect}@${t.timeAdded ?? ''}`).join(',');
}

/**
 * Which clusters a render must look at again because their state moved outside Git, and what each move can reach:
 * `evicting`, those where a NoExecute taint came or restarted its clock, and, when a NoExecute toleration the last
 * render noted ran out (`noExecuteDue`), every cluster with a NoExecute taint (the observed ones here; loadSource adds
 * those Git gives): what runs there may be evicted. `freed`, those a NoSchedule or NoExecute taint left: what could be
 * placed there and is not may join.
 */
export interface ClusterStateMoves {
  evicting: ReadonlySet<string>;
  freed: ReadonlySet<string>;
  noExecuteDue: boolean;
}

/** What a move of a cluster's managed taints can move of what is already scheduled (taintMoves). */
export interface TaintMoves {
  /** What runs on the cluster: a NoExecute taint came or restarted its clock (the taint manager). */
  evicts: boolean;
  /** What could be placed on the cluster and is not: a NoSchedule or NoExecute taint that kept it off went. */
  frees: boolean;
}

/**
 * What a cluster's managed taints going from `before` to `after` can move. A NoSchedule taint added keeps nothing off a
 * cluster a binding already targets (Karmada's TaintToleration filter skips those) and a cluster a binding does not
 * target stays off it, PreferNoSchedule is not filtered at all, and a taint that goes evicts nothing. A render
 * schedules what it renders for other reasons with the new taints anyway. Pure.
 */
export function taintMoves(before: readonly Taint[], after: readonly Taint[]): TaintMoves {
  const filtered = (t: Taint) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
  const clockBefore = new Map(
    before.filter((t) => t.effect === 'NoExecute').map((t) => [taintIdentity(t), t.timeAdded ?? ''] as const),
  );
  const kept = new Set(after.filter(filtered).map(taintIdentity));
  return {
    evicts: after.some((t) => t.effect === 'NoExecute' && clockBefore.get(taintIdentity(t)) !== (t.timeAdded ?? '')),
    frees: before.some((t) => filtered(t) && !kept.has(taintIdentity(t))),
  };
}

function taintIdentity(t: Taint): string {
  return `${t.key}=${t.value ?? ''}:${t.effect}`;
}

/**
 * The clusters whose state moved since the render whose trailers these are, read again from the status commit its
 * Cluster-Status trailer records; 'all' when that state cannot be read again (a file, a commit gone, or one that no
 * longer gives the recorded key): every template renders then.
 */
export async function clusterStateMovesSince(
  repo: GitRepo,
  trailers: Readonly<Record<string, string | undefined>>,
  observed: ReadonlyMap<string, ObservedCluster>,
  now: Date,
): Promise<ClusterStateMoves | 'all'> {
  const before = await readRecordedState<ReadonlyMap<string, ObservedCluster>>(
    trailers,
    trailers[CLUSTER_STATE_TRAILER] ?? '',
    new Map(),
    (commit) => readObservedClusters(repo, commit),
    clusterStateKey,
  );
  if (!before) return 'all';
  const evicting = new Set<string>();
  const freed = new Set<string>();
  for (const name of new Set([...before.keys(), ...observed.keys()])) {
    const moves = taintMoves(before.get(name)?.taints ?? [], observed.get(name)?.taints ?? []);
    if (moves.evicts) evicting.add(name);
    if (moves.frees) freed.add(name);
  }
  const check = trailers[FAILOVER_CHECK_TRAILER];
  const noExecuteDue = check !== undefined && Date.parse(check) <= now.getTime();
  if (noExecuteDue)
    for (const [name, c] of observed) if (c.taints?.some((t) => t.effect === 'NoExecute')) evicting.add(name);
  return { evicting, freed, noExecuteDue };
}

/**
 * Whether an output must be rendered again in full although its source did not move: the managed taints differ from
 * those its trailers record (Cluster-State), or a NoExecute toleration it noted (Failover-Check) has run out.
 */
export function clusterStateMoved(
  trailers: Readonly<Record<string, string | undefined>>,
  observed: ReadonlyMap<string, ObservedCluster>,
  now: Date,
): boolean {
  const check = trailers[FAILOVER_CHECK_TRAILER];
  return (
    clusterStateKey(observed) !== (trailers[CLUSTER_STATE_TRAILER] ?? '') ||
    (check !== undefined && Date.parse(check) <= now.getTime())
  );
}

/**
 * The earliest time after `now` at which a NoExecute taint's toleration (any tolerationSeconds a policy names) runs
 * out: the sync must render again then even if nothing else changed. Undefined when no such time is ahead.
 */
export function nextFailoverCheck(
  model: ConfigModel,
  observed: ReadonlyMap<string, ObservedCluster>,
  now: Date,
): string | undefined {
  const seconds = new Set<number>();
  for (const p of model.propagationPolicies) {
    for (const t of p.object.spec.placement?.clusterTolerations ?? [])
      if (typeof t.tolerationSeconds === 'number') seconds.add(Math.max(0, t.tolerationSeconds));
  }
  let next: number | undefined;
  for (const [name, c] of model.clusters) {
    for (const taint of effectiveTaints(c.object.spec.taints, observed.get(name)?.taints)) {
      if (taint.effect !== 'NoExecute' || !taint.timeAdded) continue;
      for (const s of seconds) {
        const at = Date.parse(taint.timeAdded) + s * 1000;
        if (at > now.getTime() && (next === undefined || at < next)) next = at;
      }
    }
  }
  return next === undefined ? undefined : formatTime(new Date(next));
}
