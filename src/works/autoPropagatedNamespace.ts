import type { ConfigModel, Template } from '../api/model.ts';
import { describePolicy, isSkippedNamespace } from '../bindings/matchPolicy.ts';
import type { Problem } from '../errors/problem.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';

/**
 * Karmada's namespace sync (controllers/namespace): every Namespace goes to every cluster with no
 * policy, except reserved ones and those labelled namespace.karmada.io/skip-auto-propagation=true.
 */
export function autoPropagatedNamespace(t: Pick<Template, 'ref' | 'labels'>): {
  propagate: boolean;
  reason: string;
  skippedByLabel?: true;
} {
  if (t.ref.apiVersion !== 'v1' || t.ref.kind !== 'Namespace') return { propagate: false, reason: '' };
  const name = t.ref.name;
  if (name === 'default' || isSkippedNamespace(name))
    return { propagate: false, reason: `namespace ${name} is never auto-propagated` };
  // Karmada lower-cases the value first: "True" and "TRUE" skip too.
  const skip = t.labels['namespace.karmada.io/skip-auto-propagation'];
  if (typeof skip === 'string' && skip.toLowerCase() === 'true') {
    return {
      propagate: false,
      reason: `labelled namespace.karmada.io/skip-auto-propagation=${skip}`,
      skippedByLabel: true,
    };
  }
  return {
    propagate: true,
    reason: 'Namespaces are propagated to every cluster without a policy (Karmada namespace sync)',
  };
}

/**
 * Karmada's namespace sync stops at the skip label but deletes nothing: the Works it made earlier stay, so clusters
 * that have the namespace keep it (no longer updated) and only clusters that did not have it stop getting it. A
 * reason when that applies (a Namespace that went everywhere last time, now skipped, and no policy places it).
 */
export function keptAfterSkip(
  t: Pick<Template, 'ref' | 'labels'>,
  previous: { policy?: string; clusters: readonly string[] } | undefined,
  placedByPolicy: () => boolean,
): string | undefined {
  if (!previous || previous.policy || previous.clusters.length === 0) return undefined;
  const ns = autoPropagatedNamespace(t);
  if (!ns.skippedByLabel || placedByPolicy()) return undefined;
  return `${ns.reason}: clusters that have it keep it, unchanged, and others do not get it (Karmada namespace sync)`;
}

/**
 * The clusters that keep, as they were, the copy namespace sync made of a Namespace labelled skip-auto-propagation that
 * a policy now places only where `placed` says. Karmada's namespace sync left those Works; its binding controller takes over
 * the one of each cluster its ClusterResourceBinding targets (same Work name), and removes only Works it took over, so
 * a cluster keeps namespace sync's copy until the binding has placed the Namespace there once. Clusters no longer
 * registered lost theirs with their execution namespace.
 */
export function namespaceSyncCopies(
  t: Pick<Template, 'ref' | 'labels'>,
  previous: { policy?: string; clusters: readonly string[]; namespaceSync?: readonly string[] } | undefined,
  placed: (cluster: string) => boolean,
  registered: (cluster: string) => boolean,
): string[] {
  if (!previous || !autoPropagatedNamespace(t).skippedByLabel) return [];
  // Without a policy, every cluster it was on got it from namespace sync.
  const before = previous.policy ? (previous.namespaceSync ?? []) : previous.clusters;
  return before.filter((c) => !placed(c) && registered(c));
}

/**
 * ClusterPropagationPolicies that select a Namespace namespace sync sends everywhere (pure, whole commit): Karmada's
 * detector still binds it, but its namespace controller puts the Namespace on every cluster anyway, and Flotilla
 * places it by auto-propagation only; either way the policy's placement decides nothing. Karmada's namespace guide
 * disables the controller for this; the per-Namespace way is the skip label.
 */
export function shadowedNamespacePolicies(model: Pick<ConfigModel, 'templates' | 'propagationPolicies'>): Problem[] {
  const namespaces = [...model.templates.values()].filter((t) => autoPropagatedNamespace(t).propagate);
  const problems: Problem[] = [];
  if (namespaces.length === 0) return problems;
  for (const { object: policy, source } of model.propagationPolicies) {
    if (policy.kind !== 'ClusterPropagationPolicy') continue;
    const selected = namespaces.filter(
      (t) =>
        bestSelectorMatch(policy.spec.resourceSelectors, { ...t.ref, labels: t.labels }) !==
        ImplicitPriority.NotMatched,
    );
    if (selected.length === 0) continue;
    const names = selected.map((t) => t.ref.name).sort();
    problems.push({
      ...source,
      code: 'NAMESPACE_AUTO_PROPAGATED',
      severity: 'warning',
      message: `${describePolicy(policy)} selects Namespace ${names.join(', ')}, which namespace auto-propagation sends to every cluster whatever a policy says (Karmada's namespace sync controller): its placement has no effect there`,
      fix: `label the Namespace namespace.karmada.io/skip-auto-propagation: "true" to place it by this policy only (clusters that have it already keep their copy until the policy places it there; Karmada's guide disables its namespace controller instead), or drop it from the policy's resourceSelectors`,
    });
  }
  return problems;
}
