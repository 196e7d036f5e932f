import { isPlainObject, isSetList, listMergeKey } from '../patches/listMergeKeys.ts';
import { isDeepStrictEqual } from 'node:util';

/**
 * Merges an applied configuration into the live object the way server-side apply does: maps merge,
 * associative lists merge item by item on their key, set lists union, other lists and scalars are replaced.
 * Removing fields the applier dropped is a separate step (see serverSideApply).
 */
export function mergeApplied(live: unknown, applied: unknown, field?: string): unknown {
  if (isPlainObject(applied)) {
    const result: Record<string, unknown> = isPlainObject(live) ? { ...live } : {};
    for (const [key, value] of Object.entries(applied)) {
      if (value === null) delete result[key];
      else result[key] = mergeApplied(result[key], value, key);
    }
    return result;
  }
  if (Array.isArray(applied) && Array.isArray(live)) {
    if (isSetList(field)) {
      const merged = [...live];
      for (const item of applied) if (!merged.some((m) => isDeepStrictEqual(m, item))) merged.push(item);
      return merged;
    }
    const key = listMergeKey(field, applied);
    if (key && applied.every((item) => isPlainObject(item) && item[key] !== undefined)) {
      const merged = [...live];
      for (const item of applied as Record<string, unknown>[]) {
        const index = merged.findIndex((m) => isPlainObject(m) && isDeepStrictEqual(m[key], item[key]));
        if (index >= 0) merged[index] = mergeApplied(merged[index], item, field);
        else merged.push(structuredClone(item));
      }
      return merged;
    }
  }
  return structuredClone(applied);
}
