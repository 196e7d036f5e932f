import type { Template } from '../documents/model.ts';
import { isSkippedNamespace } from '../bindings/matchPolicy.ts';

/**
 * Karmada's namespace sync (controllers/namespace): every Namespace goes to every cluster with no
 * policy, except reserved ones and those labelled namespace.karmada.io/skip-auto-propagation=true.
 */
export function autoPropagatedNamespace(t: Pick<Template, 'ref' | 'labels'>): { propagate: boolean; reason: string } {
  if (t.ref.apiVersion !== 'v1' || t.ref.kind !== 'Namespace') return { propagate: false, reason: '' };
  const name = t.ref.name;
  if (name === 'default' || isSkippedNamespace(name)) return { propagate: false, reason: `namespace ${name} is never auto-propagated` };
  // Karmada lower-cases the value first: "True" and "TRUE" skip too.
  const skip = t.labels['namespace.karmada.io/skip-auto-propagation'];
  if (typeof skip === 'string' && skip.toLowerCase() === 'true') {
    return { propagate: false, reason: `labelled namespace.karmada.io/skip-auto-propagation=${skip}` };
  }
  return { propagate: true, reason: 'Namespaces are propagated to every cluster without a policy (Karmada namespace sync)' };
}
