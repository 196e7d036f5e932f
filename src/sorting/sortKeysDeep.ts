type Obj = Record<string, unknown>;

/**
 * A JSON value with every object's keys in sorted order, as Go's encoding/json writes a map: how Kubernetes stores
 * reflected status, and how kubectl prints an object it holds as unstructured. Pure.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    // fromEntries makes each key an own property: an assignment would take a `__proto__` key for the prototype.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeysDeep((value as Obj)[k])]),
    );
  }
  return value;
}
