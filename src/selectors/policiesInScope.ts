import type { Located } from '../api/model.ts';

/** How a kind of policy is scoped: whether one is cluster-wide, and else which namespace's objects it selects. */
export interface PolicyScope<T> {
  clusterWide(policy: T): boolean;
  namespaceOf(policy: T): string | undefined;
}

interface ScopeIndex {
  length: number;
  clusterWide: number[];
  byNamespace: Map<string | undefined, number[]>;
}

const indexes = new WeakMap<readonly unknown[], Map<PolicyScope<never>, ScopeIndex>>();

/**
 * The policies that can select an object of `namespace`, in the list's order: every cluster-wide one and those of
 * that namespace (a namespaced policy selects only its own namespace's objects). The list is indexed once, so
 * matching 10,000 templates against 1,000 policies looks at a handful each instead of every policy every time.
 * Matching itself (selectors, priority) stays with the caller.
 */
export function policiesInScope<T>(
  policies: readonly Located<T>[],
  namespace: string,
  scope: PolicyScope<T>,
): Located<T>[] {
  const index = indexOf(policies, scope);
  const own = index.byNamespace.get(namespace) ?? [];
  const wide = index.clusterWide;
  // Merge two ascending position lists: the caller sees the policies in their original order.
  const out: Located<T>[] = [];
  let i = 0;
  let j = 0;
  while (i < own.length || j < wide.length) {
    const next = j >= wide.length || (i < own.length && own[i]! < wide[j]!) ? own[i++]! : wide[j++]!;
    out.push(policies[next]!);
  }
  return out;
}

function indexOf<T>(policies: readonly Located<T>[], scope: PolicyScope<T>): ScopeIndex {
  let byScope = indexes.get(policies);
  if (!byScope) indexes.set(policies, (byScope = new Map()));
  const cached = byScope.get(scope as PolicyScope<never>);
  if (cached && cached.length === policies.length) return cached;
  const index: ScopeIndex = { length: policies.length, clusterWide: [], byNamespace: new Map() };
  policies.forEach((p, position) => {
    if (scope.clusterWide(p.object)) index.clusterWide.push(position);
    else {
      const ns = scope.namespaceOf(p.object);
      const list = index.byNamespace.get(ns);
      if (list) list.push(position);
      else index.byNamespace.set(ns, [position]);
    }
  });
  byScope.set(scope as PolicyScope<never>, index);
  return index;
}
