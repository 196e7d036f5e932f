import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, isSetList, listMergeKey } from './listMergeKeys.ts';

/**
 * Strategic merge patch as kubectl sends it (kubectl patch, client-side apply, rollout restart): maps merge,
 * null deletes, associative lists merge by their key, other lists replace, and the directives `$patch`
 * (replace / delete / merge), `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  if (patch.$patch === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return stripDirectives(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  const retainKeys = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as string[]) : undefined;
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const list = key.slice('$deleteFromPrimitiveList/'.length);
      const current = Array.isArray(result[list]) ? (result[list] as unknown[]) : [];
      result[list] = current.filter((item) => !(value as unknown[]).some((v) => isDeepStrictEqual(v, item)));
      continue;
    }
    if (value === null) {
      delete result[key];
      continue;
    }
    if (Array.isArray(value)) {
      const order = patch[`$setElementOrder/${key}`];
      result[key] = mergeList(result[key], value, key, Array.isArray(order) ? order : undefined);
      continue;
    }
    const merged = strategicMergePatch(result[key], value);
    if (merged === undefined) delete result[key];
    else result[key] = merged;
  }
  if (retainKeys) for (const key of Object.keys(result)) if (!retainKeys.includes(key)) delete result[key];
  return result;
}

function mergeList(current: unknown, patchItems: unknown[], field: string, order: unknown[] | undefined): unknown[] {
  const existing = Array.isArray(current) ? current : [];
  if (isSetList(field)) {
    const merged = [...existing];
    for (const item of patchItems) if (!merged.some((m) => isDeepStrictEqual(m, item))) merged.push(item);
    return merged;
  }
  const key = listMergeKey(field, [...patchItems, ...existing]);
  const replaceDirective = patchItems.find((item) => isPlainObject(item) && item.$patch === 'replace');
  if (!key || replaceDirective) {
    return patchItems.filter((item) => !(isPlainObject(item) && item.$patch)).map(stripDirectives);
  }
  const keyOf = (item: unknown) => (isPlainObject(item) ? item[key] : undefined);
  const result: unknown[] = existing.map((item) => item);
  for (const item of patchItems) {
    if (!isPlainObject(item)) continue;
    const index = result.findIndex((r) => keyOf(r) !== undefined && isDeepStrictEqual(keyOf(r), item[key]));
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
      continue;
    }
    if (index >= 0) result[index] = strategicMergePatch(result[index], item);
    else result.push(strategicMergePatch(undefined, item));
  }
  if (!order) return result;
  // $setElementOrder lists the final order by key; items it does not name keep their relative place at the end.
  const rank = (item: unknown) => {
    const at = order.findIndex((o) => isPlainObject(o) && isDeepStrictEqual(o[key], keyOf(item)));
    return at < 0 ? order.length : at;
  };
  return result
    .map((item, i) => ({ item, i }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i)
    .map((x) => x.item);
}

function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!k.startsWith('$')) out[k] = stripDirectives(v);
  return out;
}
