// The cluster state a render depends on beyond the source commit, reduced to what output commits record so the next
// sync can tell whether it must render again: a key of the controller-managed taints, and the next time a NoExecute
// toleration runs out.
import { createHash } from 'node:crypto';
import type { ObservedCluster } from '../api/cluster.ts';
import type { ConfigModel } from '../api/model.ts';
import { formatTime } from '../time/formatTime.ts';
import { effectiveTaints } from '../taints/clusterTaints.ts';

/**
 * A short hash of every cluster's managed taints (key, value, effect, timeAdded): '' when no cluster has one, so a
 * fleet that never failed over records nothing. Ready itself is left out: Karmada does not filter NotReady clusters,
 * only their taints, and capacity changes do not move Divided workloads (KARMADA.md §4), so neither re-renders.
 */
export function clusterStateKey(observed: ReadonlyMap<string, ObservedCluster>): string {
  const parts: string[] = [];
  for (const name of [...observed.keys()].sort()) {
    const taints = observed.get(name)!.taints ?? [];
    if (taints.length === 0) continue;
    parts.push(`${name}=${taints.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}@${t.timeAdded ?? ''}`).join(',')}`);
  }
  return parts.length === 0 ? '' : createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
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
  const check = trailers['Failover-Check'];
  return (
    clusterStateKey(observed) !== (trailers['Cluster-State'] ?? '') ||
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
