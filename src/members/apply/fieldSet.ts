import { isDeepStrictEqual } from 'node:util';
import { isPlainObject, isSetList, listMergeKey } from '../patches/listMergeKeys.ts';
import type { KubeObject } from '../types.ts';

// Field sets in the FieldsV1 vocabulary: a path is a list of tokens `f:<field>`, `k:<json key>` (an item of
// an associative list), `v:<json value>` (an item of a set list) and a final `.` meaning "the item itself".
// Paths are stored as JSON strings so they can live in a Set.

export type FieldSet = Set<string>;

/** Metadata fields a manager can own; the rest (name, uid, resourceVersion...) belong to the server. */
const OWNABLE_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** The fields an object (or applied configuration) sets, for the main resource or the status subresource. */
export function fieldsOf(object: KubeObject, scope: 'main' | 'status'): FieldSet {
  const out: FieldSet = new Set();
  if (scope === 'status') {
    if (object.status !== undefined) walk(object.status, ['f:status'], 'status', out);
    return out;
  }
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'status' || value === null) continue;
    if (key === 'metadata') {
      for (const field of OWNABLE_METADATA) {
        const v = (value as Record<string, unknown>)[field];
        if (v !== undefined && v !== null) walk(v, ['f:metadata', `f:${field}`], field, out);
      }
      continue;
    }
    walk(value, [`f:${key}`], key, out);
  }
  return out;
}

function itemKeyToken(item: Record<string, unknown>, key: string): string {
  return `k:${JSON.stringify({ [key]: item[key] })}`;
}

function walk(value: unknown, path: string[], field: string | undefined, out: FieldSet): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== null);
    if (entries.length === 0) out.add(JSON.stringify(path));
    for (const [k, v] of entries) walk(v, [...path, `f:${k}`], k, out);
    return;
  }
  if (Array.isArray(value)) {
    if (isSetList(field) && value.every((v) => !isPlainObject(v))) {
      for (const item of value) out.add(JSON.stringify([...path, `v:${JSON.stringify(item)}`]));
      return;
    }
    const key = listMergeKey(field, value);
    if (key && value.length > 0 && value.every((item) => isPlainObject(item) && item[key] !== undefined)) {
      for (const item of value as Record<string, unknown>[]) {
        const itemPath = [...path, itemKeyToken(item, key)];
        out.add(JSON.stringify([...itemPath, '.']));
        for (const [k, v] of Object.entries(item)) if (v !== null) walk(v, [...itemPath, `f:${k}`], k, out);
      }
      return;
    }
  }
  out.add(JSON.stringify(path));
}

/** The value at a path, or undefined when absent. `.` paths resolve to the list item. */
export function valueAt(object: unknown, path: string[]): unknown {
  let node: unknown = object;
  for (const token of path) {
    if (token === '.') return node;
    if (node === undefined || node === null) return undefined;
    if (token.startsWith('f:')) node = isPlainObject(node) ? node[token.slice(2)] : undefined;
    else if (token.startsWith('k:')) node = Array.isArray(node) ? findItem(node, token) : undefined;
    else if (token.startsWith('v:')) {
      const wanted = JSON.parse(token.slice(2));
      node = Array.isArray(node) && node.some((v) => isDeepStrictEqual(v, wanted)) ? wanted : undefined;
    }
  }
  return node;
}

function findItem(list: unknown[], token: string): unknown {
  const keys = JSON.parse(token.slice(2)) as Record<string, unknown>;
  return list.find(
    (item) => isPlainObject(item) && Object.entries(keys).every(([k, v]) => isDeepStrictEqual(item[k], v)),
  );
}

/** Removes the field (or list item) at a path from `object`, in place. Missing paths are ignored. */
export function removeAt(object: unknown, path: string[]): void {
  const tokens = path[path.length - 1] === '.' ? path.slice(0, -1) : path;
  const last = tokens[tokens.length - 1];
  if (!last) return;
  const parent = valueAt(object, tokens.slice(0, -1));
  if (last.startsWith('f:') && isPlainObject(parent)) delete parent[last.slice(2)];
  else if (last.startsWith('k:') && Array.isArray(parent)) {
    const item = findItem(parent, last);
    const index = parent.indexOf(item);
    if (index >= 0) parent.splice(index, 1);
  } else if (last.startsWith('v:') && Array.isArray(parent)) {
    const wanted = JSON.parse(last.slice(2));
    const index = parent.findIndex((v) => isDeepStrictEqual(v, wanted));
    if (index >= 0) parent.splice(index, 1);
  }
}

/** FieldSet → the nested FieldsV1 object stored in managedFields. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const encoded of [...set].sort()) {
    let node = root;
    for (const token of JSON.parse(encoded) as string[]) {
      node[token] ??= {};
      node = node[token] as Record<string, unknown>;
    }
  }
  return root;
}

/** FieldsV1 → FieldSet: every node without children is a leaf path; `.` marks an owned list item. */
export function fromFieldsV1(tree: Record<string, unknown>): FieldSet {
  const out: FieldSet = new Set();
  const visit = (node: Record<string, unknown>, path: string[]) => {
    const children = Object.keys(node);
    if (children.length === 0 && path.length > 0) out.add(JSON.stringify(path));
    for (const child of children) visit((node[child] ?? {}) as Record<string, unknown>, [...path, child]);
  };
  visit(tree, []);
  return out;
}
