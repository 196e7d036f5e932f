import { isDeepStrictEqual } from 'node:util';
import { fieldShape, itemKey, type ListShape, listShape, type ValueShape } from '../../api/listSemantics.ts';
import { isPlainObject } from '../patches/plainObject.ts';

/**
 * Merges an applied configuration into the live value of `shape` the way server-side apply does: maps merge,
 * map lists merge item by item on their keys, set lists union, other lists and scalars are replaced.
 * Removing fields the applier dropped is a separate step (see serverSideApply).
 */
export function mergeApplied(live: unknown, applied: unknown, shape: ValueShape): unknown {
  if (!isPlainObject(applied)) return structuredClone(applied);
  const result: Record<string, unknown> = isPlainObject(live) ? { ...live } : {};
  for (const [key, value] of Object.entries(applied)) {
    if (value === null) delete result[key];
    else if (Array.isArray(value)) result[key] = mergeList(result[key], value, listShape(shape, key));
    else result[key] = mergeApplied(result[key], value, fieldShape(shape, key));
  }
  return result;
}

function mergeList(live: unknown, applied: unknown[], list: ListShape): unknown[] {
  const { apply } = list;
  if (!Array.isArray(live) || apply.list === 'atomic') return structuredClone(applied);
  if (apply.list === 'set') {
    const merged = [...live];
    for (const item of applied) if (!merged.some((m) => isDeepStrictEqual(m, item))) merged.push(item);
    return merged;
  }
  const keyOf = (item: unknown) => (isPlainObject(item) ? itemKey(item, apply) : undefined);
  if (!applied.every((item) => keyOf(item) !== undefined)) return structuredClone(applied);
  const merged = [...live];
  const keys = merged.map(keyOf);
  for (const item of applied) {
    const key = keyOf(item);
    const index = keys.findIndex((k) => isDeepStrictEqual(k, key));
    if (index >= 0) merged[index] = mergeApplied(merged[index], item, list.item);
    else {
      merged.push(structuredClone(item));
      keys.push(key);
    }
  }
  return merged;
}
