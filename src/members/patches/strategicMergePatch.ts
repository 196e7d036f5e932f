import { isDeepStrictEqual } from 'node:util';
import { ApiError, badRequest } from '../ApiError.ts';
import { fieldShape, listShape, type ListShape, type ValueShape } from '../../api/listSemantics.ts';
import { formatFloat64 } from '../../yaml/goYamlV2.ts';
import { isPlainObject } from './plainObject.ts';

/**
 * Strategic merge patch as kubectl sends it (kubectl patch, client-side apply, rollout restart): maps merge,
 * null deletes, associative lists merge by their key, other lists replace, and the directives `$patch`
 * (replace / delete / merge), `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`.
 */
export function strategicMergePatch(target: unknown, patch: unknown, shape: ValueShape): unknown {
  if (!isPlainObject(patch)) return patch;
  // A map the target lacks is taken as it is (removeDirectives): one holding a $patch is left out whatever it says.
  if (!isPlainObject(target) && '$patch' in patch) return undefined;
  if ('$patch' in patch) {
    if (patch.$patch === 'replace') {
      const { $patch: _ignored, ...rest } = patch;
      return stripDirectives(rest);
    }
    if (patch.$patch === 'delete') return undefined;
    // handleDirectiveInMergeMap: a map's $patch is replace or delete; merge is for lists' items only.
    throw unknownError(`unknown patch type: ${goFormat(patch.$patch, 's')} in map: ${goFormat(patch)}`);
  }
  if (isPlainObject(target)) checkDirectives(patch);
  const result: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  const retainKeys = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as string[]) : undefined;
  // A list named by $setElementOrder takes that order even when the patch leaves the list itself out (kubectl apply
  // reordering containers sends only the order), before any other key (mergePatchIntoOriginal).
  const ordered = new Set<string>();
  for (const [field, order] of Object.entries(patch)) {
    if (!field.startsWith(SET_ORDER) || !Array.isArray(order)) continue;
    const list = field.slice(SET_ORDER.length);
    ordered.add(list);
    const current = Array.isArray(result[list]) ? (result[list] as unknown[]) : undefined;
    const items = Array.isArray(patch[list]) ? (patch[list] as unknown[]) : undefined;
    if (!current && !items) continue;
    const rules = listShape(shape, list);
    const merged = !items
      ? current!
      : !current
        ? (stripDirectives(items.filter((i) => !(isPlainObject(i) && i.$patch))) as unknown[])
        : mergeList(current, items, rules);
    const key = mergeKeyOf(rules);
    result[list] = inOrder(
      merged,
      order,
      current && items && key ? liveAfterMerge(current, items, key) : (current ?? []),
      key,
    );
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith(SET_ORDER) || ordered.has(key)) continue;
    if (key.startsWith(DELETE_FROM)) {
      // Only a list deletes from a list: null removes the list itself, any other value leaves it as it is.
      const list = key.slice(DELETE_FROM.length);
      if (value === null) delete result[list];
      else if (Array.isArray(result[list]) && Array.isArray(value))
        result[list] = (result[list] as unknown[]).filter((item) => !value.some((v) => isDeepStrictEqual(v, item)));
      continue;
    }
    if (value === null) {
      delete result[key];
      continue;
    }
    if (Array.isArray(value)) {
      result[key] = mergeList(result[key], value, listShape(shape, key));
      continue;
    }
    const merged = strategicMergePatch(result[key], value, fieldShape(shape, key));
    if (merged === undefined) delete result[key];
    else result[key] = merged;
  }
  if (retainKeys) for (const key of Object.keys(result)) if (!retainKeys.includes(key)) delete result[key];
  return result;
}

const SET_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

/**
 * The directive keys of a map being merged, refused as apimachinery's mergeMap refuses them: a `$retainKeys` that is
 * not a list or leaves out a key the patch sets, a `$setElementOrder` that is not a list, and either list directive
 * without its `/<list>` (4xx, interpretStrategicMergePatchError; the rest are errors it passes on as 500s).
 */
function checkDirectives(patch: Record<string, unknown>): void {
  if ('$retainKeys' in patch) {
    const retained = patch.$retainKeys;
    if (!Array.isArray(retained)) throw badRequest('invalid patch format of retainKeys');
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || key === '$retainKeys' || key.startsWith('$deleteFromPrimitiveList')) continue;
      if (key.startsWith('$setElementOrder')) continue;
      if (!retained.includes(key)) throw badRequest('invalid patch format of retainKeys');
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$setElementOrder')) {
      if (!Array.isArray(value)) throw unknownError(`expected a []interface {}, but received a ${goTypeName(value)}`);
      if (!key.startsWith(SET_ORDER)) throw badRequest('invalid patch format of setElementOrder list');
    } else if (key.startsWith('$deleteFromPrimitiveList') && !key.startsWith(DELETE_FROM))
      throw badRequest('invalid patch format of primitive list');
  }
}

/** The items of a merged list of maps, held to mergeSliceWithSpecialElements' and mergeSliceWithoutSpecialElements' rules. */
function checkListItems(items: unknown[], key: string): void {
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const directive = item.$patch;
    if (directive === undefined || directive === 'delete') {
      if (!(key in item)) throw unknownError(`map: ${goFormat(item)} does not contain declared merge key: ${key}`);
    } else if (directive === 'merge') throw unknownError('merging lists cannot yet be specified in the patch');
    else if (directive !== 'replace')
      throw unknownError(`unknown patch type: ${goFormat(directive, 's')} in map: ${goFormat(item)}`);
  }
}

/** An error the API server passes on without an API status: a 500 whose reason is unknown. */
const unknownError = (message: string) => new ApiError(500, '', message);

/** reflect.TypeOf(v).String() of a value decoded from JSON, integers kept as int64. */
function goTypeName(value: unknown): string {
  if (value === null) return '%!s(<nil>)';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  return isPlainObject(value) ? 'map[string]interface {}' : '[]interface {}';
}

/** Go's fmt of a decoded JSON value under %v (`verb` 's': under %s): maps with sorted keys, lists space-separated. */
function goFormat(value: unknown, verb: 'v' | 's' = 'v'): string {
  if (value === null) return verb === 's' ? '%!s(<nil>)' : '<nil>';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map((v) => goFormat(v, verb)).join(' ')}]`;
  if (isPlainObject(value))
    return `map[${Object.keys(value)
      .sort()
      .map((k) => `${k}:${goFormat(value[k], verb)}`)
      .join(' ')}]`;
  const text = typeof value === 'number' ? goNumber(value) : String(value);
  return verb === 's' ? `%!s(${goTypeName(value)}=${text})` : text;
}

/** An int64 as digits; a float64 as %g with the shortest digits. */
function goNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : formatFloat64(value);
}

/** The merge key of a list of maps; '' for a merged list of scalars; undefined for a list the patch replaces. */
function mergeKeyOf(list: ListShape): string | undefined {
  const { patch } = list;
  return patch.merge === 'key' ? patch.key : patch.merge === 'set' ? '' : undefined;
}

/**
 * apimachinery's mergeSlice: a merged list's items that the patch names come in the patch's order, and the server's
 * other items keep theirs, each placed before the first patch item the live list had after it. So a container the
 * patch adds comes first, and a patch `[c, a]` over `[a, b, c]` gives `[b, c, a]`.
 */
function mergeList(current: unknown, patchItems: unknown[], list: ListShape): unknown[] {
  const existing = Array.isArray(current) ? current : [];
  const key = mergeKeyOf(list);
  if (key === undefined) return patchItems.filter((item) => !(isPlainObject(item) && item.$patch)).map(stripDirectives);
  if (key === '') {
    const merged: unknown[] = [];
    for (const item of [...existing, ...patchItems])
      if (!merged.some((m) => isDeepStrictEqual(m, item))) merged.push(item);
    return inOrder(merged, patchItems, existing, key);
  }
  if (Array.isArray(current)) checkListItems(patchItems, key);
  if (patchItems.some((item) => isPlainObject(item) && item.$patch === 'replace'))
    return patchItems.filter((item) => !(isPlainObject(item) && item.$patch)).map(stripDirectives);
  const keyOf = (item: unknown) => (isPlainObject(item) ? item[key] : undefined);
  let original = existing;
  const items: Record<string, unknown>[] = [];
  for (const item of patchItems) {
    if (!isPlainObject(item)) continue;
    if (item.$patch === 'delete') original = original.filter((r) => !isDeepStrictEqual(keyOf(r), item[key]));
    else items.push(item);
  }
  const result = [...original];
  for (const item of items) {
    const index = result.findIndex((r) => keyOf(r) !== undefined && isDeepStrictEqual(keyOf(r), item[key]));
    if (index >= 0) result[index] = strategicMergePatch(result[index], item, list.item);
    else result.push(strategicMergePatch(undefined, item, list.item));
  }
  return inOrder(result, items, original, key);
}

/**
 * The live order apimachinery compares against once a patch list was merged in: its mergeSlice deletes and appends
 * in the live list's own array (Go slices share it), so the positions of the live list's length then hold the
 * items left after `$patch: delete`, the first items appended, and stale copies. The upstream case "add map and
 * delete map from merging list" ([1, 2, 4] with [3, {1: delete}], order [2, 3]: [2, 4, 3]) depends on it.
 */
function liveAfterMerge(live: unknown[], patchItems: unknown[], key: string): unknown[] {
  const keyOf = (item: unknown) => (isPlainObject(item) ? item[key] : undefined);
  const shared = [...live];
  let length = live.length;
  for (const item of patchItems) {
    if (!isPlainObject(item) || item.$patch !== 'delete') continue;
    for (let at = shared.findIndex((r, i) => i < length && isDeepStrictEqual(keyOf(r), item[key])); at >= 0; ) {
      shared.copyWithin(at, at + 1, length);
      length--;
      at = shared.findIndex((r, i) => i < length && isDeepStrictEqual(keyOf(r), item[key]));
    }
  }
  const kept = shared.slice(0, length);
  for (const item of patchItems) {
    if (!isPlainObject(item) || item.$patch) continue;
    if (kept.some((r) => isDeepStrictEqual(keyOf(r), item[key]))) continue;
    kept.push(item);
    // Appended in place while the array has room (its capacity is the live list's length), then in a new one.
    if (length < live.length) shared[length] = item;
    length++;
  }
  return shared;
}

/**
 * normalizeElementOrder: the items `order` names, sorted as it lists them, merged with the rest, sorted as the live
 * list had them; a live item goes before a named one only when the live list had it before that one.
 */
function inOrder(merged: unknown[], order: unknown[], live: unknown[], key: string | undefined): unknown[] {
  const keyValue = (item: unknown) => (key ? (isPlainObject(item) ? item[key] : undefined) : item);
  const indexIn = (list: unknown[], item: unknown) => {
    const value = keyValue(item);
    return list.findIndex((other) => isDeepStrictEqual(keyValue(other), value));
  };
  const named: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const item of merged) (indexIn(order, item) >= 0 ? named : serverOnly).push(item);
  const sortBy = (list: unknown[], by: unknown[]) =>
    list
      .map((item, i) => ({ item, i, at: indexIn(by, item) }))
      .sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : 0) || a.i - b.i)
      .map((x) => x.item);
  const right = sortBy(named, order);
  const left = sortBy(serverOnly, live);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(live, left[i]);
      const ri = indexIn(live, right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!k.startsWith('$')) out[k] = stripDirectives(v);
  return out;
}
