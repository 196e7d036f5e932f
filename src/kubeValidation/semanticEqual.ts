import { isObject } from './fieldViolations.ts';

/**
 * The Go maps among the fields update rules compare (metadata's, a pod spec's node selector and overhead, a container's
 * resource limits and requests, a label selector's matchLabels): an empty one decodes to what an absent one does.
 */
const MAP_FIELDS = new Set(['labels', 'annotations', 'nodeSelector', 'matchLabels', 'overhead', 'limits', 'requests']);

/**
 * apimachinery's Semantic.DeepEqual on decoded JSON: an empty list, or an empty map, equals an absent one, as Go's nil
 * and empty slices and maps do to it; an empty struct is still not a nil pointer.
 */
export function semanticEqual(a: unknown, b: unknown, key = ''): boolean {
  const absent = (v: unknown) => v === undefined || v === null;
  const empty = (v: unknown) =>
    absent(v) ||
    (Array.isArray(v) && v.length === 0) ||
    (MAP_FIELDS.has(key) && isObject(v) && Object.keys(v).length === 0);
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => semanticEqual(v, b[i]));
  if (isObject(a) && isObject(b))
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => semanticEqual(a[k], b[k], k));
  return a === b;
}
