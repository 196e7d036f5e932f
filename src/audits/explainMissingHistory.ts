import { describeRef, parseRefKey, type ObjectRef } from '../api/kinds.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { suggestName } from '../text/suggestName.ts';
import { kindWords, type HistoryQuery } from './readObjectHistory.ts';

/**
 * Why an object has no history, from the templates the output branch's head indexes: a template no policy places
 * (worded as explain words it), one placed on other clusters than the one asked, one of another namespace, or none
 * of that name (with the name of the nearest one). Pure.
 */
export function explainMissingHistory(
  query: HistoryQuery & { typed: string; branch: string },
  templates: readonly (readonly [string, IndexEntry])[],
): string {
  const kinds = kindWords(query.kind);
  const ofKind = templates
    .map(([key, entry]) => ({ ref: parseRefKey(key), entry }))
    .filter(({ ref }) => kinds.includes(ref.kind.toLowerCase()));
  const named = ofKind.filter(({ ref }) => ref.name === query.name);
  const namespace = query.namespace ?? 'default';
  const here = named.find(
    ({ ref }) => ref.namespace === namespace || (query.namespace === undefined && ref.namespace === ''),
  );
  const head = `flotilla: ${query.typed}${query.namespace ? ` in namespace ${query.namespace}` : ''}${query.cluster ? ` on ${query.cluster}` : ''} never appears on ${query.branch}`;
  if (here) return `${head}: ${whyUnplaced(here.ref, here.entry, query)}\n`;
  const others = named.filter(({ ref }) => ref.namespace !== '');
  if (others.length) {
    const where = namespacesOf(others).map((ns) => {
      const clusters = [
        ...new Set(others.filter(({ ref }) => ref.namespace === ns).flatMap(({ entry }) => entry.clusters)),
      ];
      return `namespace ${ns} (placed on ${clusters.length ? clusters.sort().join(', ') : 'no cluster'})`;
    });
    const namespaces = namespacesOf(others);
    const fix = namespaces.length === 1 ? `pass -n ${namespaces[0]}` : `pass -n with one of ${namespaces.join(', ')}`;
    return `${head}: no template of that name is in namespace ${namespace}; it is a template in ${where.join(' and ')}; fix: ${fix}\n`;
  }
  const guess = suggestName(
    query.name,
    ofKind
      .filter(({ ref }) => query.namespace === undefined || ref.namespace === query.namespace)
      .map(({ ref }) => ref.name),
  );
  const sameName = templates.map(([key]) => parseRefKey(key)).filter((ref) => ref.name === query.name);
  const hint = guess
    ? `; did you mean ${query.typed.split('/')[0]}/${guess}?`
    : sameName.length
      ? `; templates of that name: ${sameName.map(describeRef).join(', ')}`
      : '';
  return `${head}: its newest render holds no template of that kind and name${hint}\n`;
}

function whyUnplaced(ref: ObjectRef, entry: IndexEntry, query: HistoryQuery & { typed: string }): string {
  const template = `${describeRef(ref)} (${entry.file})`;
  const explain = `flotilla explain ${query.typed}${query.namespace ? ` -n ${query.namespace}` : ''}`;
  if (!entry.policy && entry.clusters.length === 0)
    return `${template} is a template, but no PropagationPolicy in namespace ${ref.namespace || '(cluster-scoped)'} or ClusterPropagationPolicy selects it, so no cluster gets it; fix: add a policy whose resourceSelectors match it (${explain} shows the placement)`;
  const by = entry.policy ? ` by ${describeRef(parseRefKey(entry.policy))}` : '';
  if (entry.clusters.length === 0) return `${template} is selected${by} but placed on no cluster; ${explain} says why`;
  if (query.cluster && !entry.clusters.includes(query.cluster))
    return `${template} is placed${by} on ${entry.clusters.join(', ')}, not on ${query.cluster}; fix: name one of those with --cluster, or widen the placement`;
  return `${template} is placed${by} on ${entry.clusters.join(', ')}, yet no output commit of the branch changed it`;
}

function namespacesOf(found: readonly { ref: ObjectRef }[]): string[] {
  return [...new Set(found.map(({ ref }) => ref.namespace))].sort();
}
