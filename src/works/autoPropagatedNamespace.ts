import type { Template } from '../api/model.ts';
import { isSkippedNamespace } from '../bindings/matchPolicy.ts';

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
