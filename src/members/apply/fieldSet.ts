import { isDeepStrictEqual } from 'node:util';
import {
  type ApplyRule,
  fieldShape,
  itemKey,
  type ListShape,
  listShape,
  type ValueShape,
} from '../../api/listSemantics.ts';
import { isPlainObject } from '../patches/plainObject.ts';
import type { KubeObject } from '../types.ts';

// Field sets in the FieldsV1 vocabulary: a path is a list of tokens `f:<field>`, `k:<json key>` (an item of
// an associative list), `v:<json value>` (an item of a set list) and a final `.` meaning "the item itself".
// Paths are stored as JSON strings so they can live in a Set.

export type FieldSet = Set<string>;

/** Metadata fields a manager can own; the rest (name, uid, resourceVersion...) belong to the server. */
const OWNABLE_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** The fields an object (or applied configuration) of `shape` sets, for the main resource or the status subresource. */
export function fieldsOf(object: KubeObject, scope: 'main' | 'status', shape: ValueShape): FieldSet {
  const out: FieldSet = new Set();
  if (scope === 'status') {
    if (object.status !== undefined) walkField(object.status, ['f:status'], shape, 'status', out);
    return out;
  }
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'status' || value === null) continue;
    if (key === 'metadata') {
      const meta = fieldShape(shape, 'metadata');
      for (const field of OWNABLE_METADATA) {
        const v = (value as Record<string, unknown>)[field];
        if (v !== undefined && v !== null) walkField(v, ['f:metadata', `f:${field}`], meta, field, out);
      }
      continue;
    }
    walkField(value, [`f:${key}`], shape, key, out);
  }
  return out;
}

/** The `k:` token of a map list's item; undefined when a key field is missing with no default. */
function itemKeyToken(item: Record<string, unknown>, rule: MapRule): string | undefined {
  const key = itemKey(item, rule);
  return key && `k:${JSON.stringify(key)}`;
}

type MapRule = Extract<ApplyRule, { list: 'map' }>;

/** The value of `field` of a map of `parent` shape. */
function walkField(value: unknown, path: string[], parent: ValueShape, field: string, out: FieldSet): void {
  if (Array.isArray(value)) walkList(value, path, listShape(parent, field), out);
  else walkMap(value, path, fieldShape(parent, field), out);
}

function walkMap(value: unknown, path: string[], shape: ValueShape, out: FieldSet): void {
  if (!isPlainObject(value)) {
    out.add(JSON.stringify(path));
    return;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== null);
  if (entries.length === 0) out.add(JSON.stringify(path));
  for (const [k, v] of entries) walkField(v, [...path, `f:${k}`], shape, k, out);
}

function walkList(value: unknown[], path: string[], list: ListShape, out: FieldSet): void {
  const { apply } = list;
  if (apply.list === 'set' && value.every((v) => !isPlainObject(v) && !Array.isArray(v))) {
    for (const item of value) out.add(JSON.stringify([...path, `v:${JSON.stringify(item)}`]));
    return;
  }
  if (apply.list === 'map' && value.length > 0) {
    const tokens = value.map((item) => (isPlainObject(item) ? itemKeyToken(item, apply) : undefined));
    if (tokens.every((t) => t !== undefined)) {
      value.forEach((item, i) => {
        const itemPath = [...path, tokens[i]!];
        out.add(JSON.stringify([...itemPath, '.']));
        for (const [k, v] of Object.entries(item as Record<string, unknown>))
          if (v !== null) walkField(v, [...itemPath, `f:${k}`], list.item, k, out);
      });
      return;
    }
  }
  out.add(JSON.stringify(path));
}

/** What a path leads to: the value there, the shape of the map holding it or it, and the list shape for a list. */
interface Position {
  node: unknown;
  shape: ValueShape;
  list: ListShape | undefined;
}

function follow(object: unknown, path: string[], shape: ValueShape): Position {
  const at: Position = { node: object, shape, list: undefined };
  for (const token of path) {
    if (token === '.' || at.node === undefined || at.node === null) break;
    if (token.startsWith('f:')) {
      const field = token.slice(2);
      at.node = isPlainObject(at.node) ? at.node[field] : undefined;
      if (Array.isArray(at.node)) at.list = listShape(at.shape, field);
      else at.shape = fieldShape(at.shape, field);
    } else if (token.startsWith('k:')) {
      at.node = Array.isArray(at.node) && at.list ? findItem(at.node, token, at.list) : undefined;
      at.shape = at.list?.item;
    } else if (token.startsWith('v:')) {
      const wanted = JSON.parse(token.slice(2));
      at.node = Array.isArray(at.node) && at.node.some((v) => isDeepStrictEqual(v, wanted)) ? wanted : undefined;
    }
  }
  return at;
}

/** The value at a path of an object of `shape`, or undefined when absent. `.` paths resolve to the list item. */
export function valueAt(object: unknown, path: string[], shape: ValueShape): unknown {
  return follow(object, path, shape).node;
}

function findItem(items: unknown[], token: string, list: ListShape): unknown {
  const rule = list.apply;
  if (rule.list !== 'map') return undefined;
  return items.find((item) => isPlainObject(item) && itemKeyToken(item, rule) === token);
}

/** Removes the field (or list item) at a path from an object of `shape`, in place. Missing paths are ignored. */
export function removeAt(object: unknown, path: string[], shape: ValueShape): void {
  const tokens = path[path.length - 1] === '.' ? path.slice(0, -1) : path;
  const last = tokens[tokens.length - 1];
  if (!last) return;
  const { node: parent, list } = follow(object, tokens.slice(0, -1), shape);
  if (last.startsWith('f:') && isPlainObject(parent)) delete parent[last.slice(2)];
  else if (last.startsWith('k:') && Array.isArray(parent) && list) {
    const index = parent.indexOf(findItem(parent, last, list));
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
