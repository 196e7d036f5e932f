import type { ObjectRef } from '../api/kinds.ts';

/** What `get` asks of a Karmada kind listed from its templates (readListing's ListingQuery, the fields read here). */
export interface TemplateListingQuery {
  name?: string;
  namespace?: string;
  allNamespaces: boolean;
  now: Date;
}

/**
 * The views `get` lists for a query: those of its namespace (default when none is named) unless -A, of its name when
 * one is given, in namespace/name order as kubectl lists them. Pure.
 */
export function pickListed<T extends { template: { ref: ObjectRef } }>(
  views: readonly T[],
  q: TemplateListingQuery,
): T[] {
  const namespace = q.namespace ?? 'default';
  return views
    .filter((v) => q.allNamespaces || v.template.ref.namespace === namespace)
    .filter((v) => q.name === undefined || v.template.ref.name === q.name)
    .sort((a, b) =>
      `${a.template.ref.namespace}/${a.template.ref.name}`.localeCompare(
        `${b.template.ref.namespace}/${b.template.ref.name}`,
      ),
    );
}
