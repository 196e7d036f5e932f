// The taints Flotilla's controllers put on a cluster (Karmada's cluster controller and ClusterTaintPolicy
// controller), and the effective list the scheduler and the eviction see: Git's spec.taints plus these.
import type { Cluster, Condition, Taint } from '../api/cluster.ts';
import type { ClusterTaintPolicy, MatchCondition } from '../api/policy.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';

export const TAINT_NOT_READY = 'cluster.karmada.io/not-ready';
export const TAINT_UNREACHABLE = 'cluster.karmada.io/unreachable';

/**
 * The controller-managed taints of one cluster after a status change (pure). Starting from the previous managed
 * list (so timeAdded survives), in Karmada's order: the cluster controller's automatic NoSchedule taints from Ready
 * (False → not-ready, Unknown → unreachable, True → neither, no Ready condition → not-ready added), then each
 * ClusterTaintPolicy whose targetClusters match, by name: add when every addOnCondition holds, then remove when
 * every removeOnCondition holds. A new taint is stamped with `now`.
 *
 * Flotilla drops a managed taint that neither rule nor any policy names any more (Karmada keeps it when its policy
 * is deleted): nothing can `kubectl taint` the status branch, so a kept taint could never be removed.
 */
export function buildManagedTaints(
  previous: readonly Taint[],
  conditions: readonly Condition[],
  policies: readonly ClusterTaintPolicy[],
  cluster: Cluster,
  now: string,
): Taint[] {
  const userTaints = (cluster.spec.taints ?? []).filter((t) => !isAutomatic(t));
  const named = new Set([`${TAINT_NOT_READY}:NoSchedule`, `${TAINT_UNREACHABLE}:NoSchedule`]);
  for (const p of policies) for (const t of p.spec.taints) named.add(`${t.key}:${t.effect}`);
  let taints = previous.filter((t) => named.has(`${t.key}:${t.effect}`));
  // Karmada's cluster controller edits the Cluster's one taint list: an automatic taint registered with the cluster is
  // the controller's to keep or remove, as one it added would be.
  for (const t of cluster.spec.taints ?? [])
    if (isAutomatic(t) && !taints.some((x) => x.key === t.key && x.effect === t.effect)) taints = [...taints, t];

  const add = (t: Omit<Taint, 'timeAdded'>) => {
    const same = (x: Taint) => x.key === t.key && x.effect === t.effect;
    if (taints.some(same) || userTaints.some(same)) return;
    taints = [...taints, { key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect, timeAdded: now }];
  };
  const remove = (t: Pick<Taint, 'key' | 'effect'>) => {
    taints = taints.filter((x) => !(x.key === t.key && x.effect === t.effect));
  };

  const ready = conditions.find((c) => c.type === 'Ready');
  const notReady = { key: TAINT_NOT_READY, effect: 'NoSchedule' } as const;
  const unreachable = { key: TAINT_UNREACHABLE, effect: 'NoSchedule' } as const;
  if (!ready) {
    // A cluster no status has reached yet: not-ready is added and nothing removed (taintClusterByCondition).
    add(notReady);
  } else if (ready.status === 'False') {
    add(notReady);
    remove(unreachable);
  } else if (ready.status === 'Unknown') {
    add(unreachable);
    remove(notReady);
  } else {
    remove(notReady);
    remove(unreachable);
  }

  for (const policy of [...policies].sort((a, b) =>
    a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
  )) {
    if (policy.spec.targetClusters && !matchClusterAffinity(policy.spec.targetClusters, cluster)) continue;
    if (conditionsMatch(conditions, policy.spec.addOnConditions)) for (const t of policy.spec.taints) add(t);
    if (conditionsMatch(conditions, policy.spec.removeOnConditions)) for (const t of policy.spec.taints) remove(t);
  }
  return taints;
}

/**
 * Karmada's conditionMatches: every MatchCondition holds (ANDed); an empty list never matches; a missing condition
 * fails, and so does an operator other than In and NotIn, which the CRD admits.
 */
export function conditionsMatch(
  conditions: readonly Condition[],
  matches: readonly MatchCondition[] | undefined,
): boolean {
  if (!matches || matches.length === 0) return false;
  return matches.every((m) => {
    const c = conditions.find((x) => x.type === m.conditionType);
    if (!c) return false;
    const listed = m.statusValues.includes(c.status);
    if (m.operator === 'In') return listed;
    if (m.operator === 'NotIn') return !listed;
    return false;
  });
}

/**
 * What the scheduler and the taint manager see: the user's taints from Git, then the managed ones not already there.
 * The automatic NoSchedule taints are the managed list's alone (buildManagedTaints takes over those Git registers).
 */
export function effectiveTaints(
  gitTaints: readonly Taint[] | undefined,
  managed: readonly Taint[] | undefined,
): Taint[] {
  const out = (gitTaints ?? []).filter((t) => !isAutomatic(t));
  for (const t of managed ?? []) if (!out.some((x) => x.key === t.key && x.effect === t.effect)) out.push(t);
  return out;
}

/** The cluster controller's own taints: not-ready and unreachable, NoSchedule. */
function isAutomatic(t: Pick<Taint, 'key' | 'effect'>): boolean {
  return t.effect === 'NoSchedule' && (t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE);
}
