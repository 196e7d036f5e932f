import type { ResourceSelector } from '../api/policy.ts';
import { matchLabelSelector } from '../labels/matchLabelSelector.ts';

/** Karmada's implicit priorities (pkg/util/selector.go#ResourceSelectorPriority). */
export const ImplicitPriority = {
  NotMatched: 0,
  MatchAll: 1,
  LabelSelector: 2,
  Name: 3,
} as const;
export type ImplicitPriority = (typeof ImplicitPriority)[keyof typeof ImplicitPriority];

export interface SelectableObject {
  apiVersion: string;
  kind: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
  labels?: Readonly<Record<string, string>>;
}

/**
 * How specifically one selector matches an object: apiVersion and kind must be equal, a set namespace
 * must be equal, then a set name wins over the labelSelector (which is then ignored).
 */
export function matchResourceSelector(selector: ResourceSelector, obj: SelectableObject): ImplicitPriority {
  if (selector.apiVersion !== obj.apiVersion || selector.kind !== obj.kind) return ImplicitPriority.NotMatched;
  if (selector.namespace && selector.namespace !== obj.namespace) return ImplicitPriority.NotMatched;
  if (selector.name) return selector.name === obj.name ? ImplicitPriority.Name : ImplicitPriority.NotMatched;
  if (selector.labelSelector) {
    return matchLabelSelector(selector.labelSelector, obj.labels)
      ? ImplicitPriority.LabelSelector
      : ImplicitPriority.NotMatched;
  }
  return ImplicitPriority.MatchAll;
}

/** The best implicit priority over a list of selectors (a policy matches if any selector does). */
export function bestSelectorMatch(
  selectors: readonly ResourceSelector[] | undefined,
  obj: SelectableObject,
): ImplicitPriority {
  let best: ImplicitPriority = ImplicitPriority.NotMatched;
  for (const s of selectors ?? []) {
    const p = matchResourceSelector(s, obj);
    if (p > best) best = p;
  }
  return best;
}
