import { describeRef, groupOf, refKey, type ObjectRef } from '../api/kinds.ts';
import type { PropagationPolicy } from '../api/policy.ts';
import type { Located } from '../api/model.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';
import { policiesInScope, type PolicyScope } from '../selectors/policiesInScope.ts';

export interface MatchableTemplate {
  ref: ObjectRef;
  labels: Readonly<Record<string, string>>;
}

export type PolicyMatch =
  | { status: 'matched'; policy: Located<PropagationPolicy>; reason: string }
  | { status: 'unmatched'; reason: string }
  | { status: 'skipped'; reason: string };

/** Karmada's reserved and default-skipped namespaces (detector + --skipped-propagating-namespaces). */
export function isSkippedNamespace(namespace: string): boolean {
  return (
    namespace === 'karmada-system' ||
    namespace === 'karmada-cluster' ||
    namespace.startsWith('karmada-es-') ||
    /^kube-.*$/.test(namespace)
  );
}

const SKIPPED_GROUPS = new Set([
  'cluster.karmada.io',
  'policy.karmada.io',
  'work.karmada.io',
  'config.karmada.io',
  'networking.karmada.io',
  'autoscaling.karmada.io',
  'remedy.karmada.io',
  'apps.karmada.io',
  'events.k8s.io',
]);

/**
 * Whether a kind belongs to Karmada's own API groups that the detector never propagates (FederatedHPA,
 * CronFederatedHPA, MultiClusterService, ...): a control-plane object, read by Flotilla itself, never a workload.
 */
export function isControlPlaneApi(apiVersion: string): boolean {
  const group = groupOf(apiVersion);
  return group.endsWith('.karmada.io') && SKIPPED_GROUPS.has(group);
}

/** Why Karmada's detector would ignore this object, or undefined (pkg/util/apigroup.go, detector.go). */
export function skipReason(t: MatchableTemplate): string | undefined {
  const { apiVersion, kind, namespace, name } = t.ref;
  if (SKIPPED_GROUPS.has(groupOf(apiVersion))) return `API group ${groupOf(apiVersion)} is never propagated`;
  if (apiVersion === 'v1' && kind === 'Event') return 'Events are never propagated';
  if (apiVersion === 'coordination.k8s.io/v1' && kind === 'Lease') return 'Leases are never propagated';
  if (namespace && isSkippedNamespace(namespace))
    return `namespace ${namespace} is reserved or skipped (kube-*, karmada-*)`;
  if (kind === 'ConfigMap' && namespace === 'kube-system' && name === 'extension-apiserver-authentication')
    return 'reserved ConfigMap';
  if (t.labels['resourcetemplate.karmada.io/claimed-by'])
    return `claimed by ${t.labels['resourcetemplate.karmada.io/claimed-by']}`;
  return undefined;
}

/**
 * The winning PropagationPolicy for a template (pkg/detector): a previous claim sticks while its policy
 * still matches (preemption is an alpha gate, off); otherwise the best PP of the template's namespace,
 * and only when there is none, the best CPP. Best = priority, then name > labelSelector > match-all,
 * then the alphabetically smaller policy name.
 */
export function matchPolicy(
  t: MatchableTemplate,
  policies: readonly Located<PropagationPolicy>[],
  previousClaim?: string,
): PolicyMatch {
  const skipped = skipReason(t);
  if (skipped) return { status: 'skipped', reason: skipped };

  const inScope = policiesInScope(policies, t.ref.namespace, PROPAGATION_SCOPE);
  const candidates = (kind: 'PropagationPolicy' | 'ClusterPropagationPolicy') => {
    const out: { policy: Located<PropagationPolicy>; implicit: ImplicitPriority }[] = [];
    for (const p of inScope) {
      if (p.object.kind !== kind) continue;
      // A PP only selects objects of its own namespace; cluster-scoped objects need a CPP.
      if (kind === 'PropagationPolicy' && (t.ref.namespace === '' || p.object.metadata.namespace !== t.ref.namespace))
        continue;
      const implicit = bestSelectorMatch(p.object.spec.resourceSelectors, { ...t.ref, labels: t.labels });
      if (implicit !== ImplicitPriority.NotMatched) out.push({ policy: p, implicit });
    }
    return out;
  };
  const pps = candidates('PropagationPolicy');
  const cpps = candidates('ClusterPropagationPolicy');

  if (previousClaim) {
    const claimed = [...pps, ...cpps].find((c) => policyKey(c.policy.object) === previousClaim);
    if (claimed)
      return {
        status: 'matched',
        policy: claimed.policy,
        reason: `claimed earlier by ${describePolicy(claimed.policy.object)}, which still matches (a claim sticks: Karmada's preemption is off by default)`,
      };
  }
  const pool = pps.length > 0 ? pps : cpps;
  if (pool.length === 0)
    return {
      status: 'unmatched',
      reason: `no PropagationPolicy in namespace ${t.ref.namespace || '(cluster-scoped)'} or ClusterPropagationPolicy selects ${describeRef(t.ref)}`,
    };
  pool.sort(
    (a, b) =>
      (b.policy.object.spec.priority ?? 0) - (a.policy.object.spec.priority ?? 0) ||
      b.implicit - a.implicit ||
      (a.policy.object.metadata.name < b.policy.object.metadata.name
        ? -1
        : a.policy.object.metadata.name > b.policy.object.metadata.name
          ? 1
          : 0),
  );
  const winner = pool[0]!;
  const why = [
    pps.length > 0 && cpps.length > 0 ? 'a PropagationPolicy beats every ClusterPropagationPolicy' : '',
    pool.length > 1
      ? `chosen among ${pool.length} matching policies by priority ${winner.policy.object.spec.priority ?? 0}, then ${IMPLICIT_NAMES[winner.implicit]} match, then name`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    status: 'matched',
    policy: winner.policy,
    reason: `${describePolicy(winner.policy.object)} selects it by ${IMPLICIT_NAMES[winner.implicit]}${why ? ` (${why})` : ''}`,
  };
}

/** A ClusterPropagationPolicy selects in every namespace; a PropagationPolicy in its own only. */
const PROPAGATION_SCOPE: PolicyScope<PropagationPolicy> = {
  clusterWide: (p) => p.kind === 'ClusterPropagationPolicy',
  namespaceOf: (p) => p.metadata.namespace,
};

const IMPLICIT_NAMES: Record<ImplicitPriority, string> = {
  0: 'nothing',
  1: 'match-all',
  2: 'labelSelector',
  3: 'name',
};

export function policyKey(p: PropagationPolicy): string {
  let key = policyKeys.get(p);
  if (key === undefined) {
    key = refKey({
      apiVersion: p.apiVersion,
      kind: p.kind,
      // kube-apiserver clears a cluster-scoped object's namespace: one a file gives a ClusterPropagationPolicy is no part of it.
      namespace: p.kind === 'ClusterPropagationPolicy' ? '' : (p.metadata.namespace ?? ''),
      name: p.metadata.name,
    });
    policyKeys.set(p, key);
  }
  return key;
}

/** Asked per template of every policy in scope: made once per policy object (parsed objects are never changed). */
const policyKeys = new WeakMap<PropagationPolicy, string>();

export function describePolicy(p: { kind: string; metadata: { name: string; namespace?: string } }): string {
  return p.metadata.namespace && !p.kind.startsWith('Cluster')
    ? `${p.kind} ${p.metadata.namespace}/${p.metadata.name}`
    : `${p.kind} ${p.metadata.name}`;
}
