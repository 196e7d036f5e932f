import { atTemplate } from '../api/templatePlace.ts';
import { refKey } from '../api/kinds.ts';
import type { ConfigModel, Template } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import { isSkippedNamespace, matchPolicy } from './matchPolicy.ts';

/**
 * Namespaces that placed templates live in and that no Namespace of the commit creates: Karmada refuses such a
 * template at its own API server, and a member without the namespace refuses the object when it is applied. One
 * warning per namespace, at its first such template (a namespace made on every member beforehand is fine, hence not
 * an error). `default` exists everywhere; Karmada's skipped namespaces (kube-*, karmada-*) propagate nothing. Needs
 * the whole commit, as findIdlePolicies does.
 */
export function findUncreatedNamespaces(
  model: ConfigModel,
  /** Whether the commit has this Namespace's template; by default, whether the model holds it (a whole commit's). */
  hasTemplate: (key: string) => boolean = (key) => model.templates.has(key),
): Problem[] {
  const first = new Map<string, Template>();
  for (const t of model.templates.values()) {
    const ns = t.ref.namespace;
    if (!ns || ns === 'default' || isSkippedNamespace(ns) || first.has(ns)) continue;
    if (hasTemplate(refKey({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name: ns }))) continue;
    if (matchPolicy(t, model.propagationPolicies).status !== 'matched') continue;
    first.set(ns, t);
  }
  return [...first]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ns, t]) => ({
      ...atTemplate(
        t,
        `namespace ${ns} holds placed objects (${t.ref.kind} ${ns}/${t.ref.name} first), but no Namespace in this commit creates it: a member without it refuses them, and Karmada would refuse them at its API server`,
      ),
      code: 'NAMESPACE_NOT_IN_COMMIT' as const,
      severity: 'warning' as const,
      fix: `add a Namespace ${ns} (apiVersion: v1, kind: Namespace, metadata.name: ${ns}) to the commit, or make sure every member has it before this is applied`,
    }));
}
