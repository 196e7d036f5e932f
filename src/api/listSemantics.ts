import { builtinTypeOf, fieldsOfType } from './builtinTypes.ts';
import { LIST_FIELDS, LIST_KEY_DEFAULTS } from './listSemantics.generated.ts';

// kube-apiserver merges a list by what its type says of it, not by the field's name: a container's `ports` are keyed
// on containerPort and protocol (53/UDP and 53/TCP are two items), a Service's on port and protocol, an EndpointSlice's
// and a ServiceAccount's imagePullSecrets are replaced whole. Strategic merge patch reads the Go types' patch tags,
// server-side apply their OpenAPI list types, and for a custom resource its CRD's structural schema.

/** A CRD's structural schema node, as far as list merging reads it. */
export interface StructuralSchema {
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  default?: unknown;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
}

/** Where a value sits in an object, as far as merging its lists goes. */
export type ValueShape =
  /** An object of a built-in type (a client-node model name). */
  | { readonly of: 'type'; readonly type: string }
  /** A map whose values are objects of a built-in type. */
  | { readonly of: 'typeMap'; readonly type: string }
  /** A node of a custom resource's schema; `root` for the object itself, whose metadata is ObjectMeta. */
  | { readonly of: 'schema'; readonly schema: StructuralSchema; readonly root?: boolean }
  /** Nothing known (a free-form map, a field no type declares): every list in it is atomic. */
  | undefined;

/** How strategic merge patch merges a list: replaced whole, as a set of values, or item by item on a key. */
export type PatchRule =
  | { readonly merge: 'replace' }
  | { readonly merge: 'set' }
  | { readonly merge: 'key'; readonly key: string };

/** How server-side apply merges a list (its OpenAPI list type); a map's keys are listed sorted, as FieldsV1 writes them. */
export type ApplyRule =
  | { readonly list: 'atomic' }
  | { readonly list: 'set' }
  | { readonly list: 'map'; readonly keys: readonly string[]; readonly defaults: Readonly<Record<string, unknown>> };

export interface ListShape {
  readonly patch: PatchRule;
  readonly apply: ApplyRule;
  /** The shape of each item. */
  readonly item: ValueShape;
}

const ATOMIC: ListShape = { patch: { merge: 'replace' }, apply: { list: 'atomic' }, item: undefined };
const OBJECT_META: ValueShape = { of: 'type', type: 'V1ObjectMeta' };

/** The shape of a whole object: its built-in type, or its CRD version's schema. */
export function objectShape(apiVersion: string, kind: string, schema?: StructuralSchema): ValueShape {
  const type = builtinTypeOf(apiVersion, kind);
  if (type) return { of: 'type', type };
  return { of: 'schema', schema: schema ?? {}, root: true };
}

/** The shape of the value of a map field that is not a list. */
export function fieldShape(shape: ValueShape, field: string): ValueShape {
  if (!shape) return undefined;
  if (shape.of === 'typeMap') return { of: 'type', type: shape.type };
  if (shape.of === 'type') {
    const declared = fieldsOfType(shape.type).get(field);
    if (!declared || declared.shape === '[') return undefined;
    return declared.shape === '{' ? { of: 'typeMap', type: declared.type } : { of: 'type', type: declared.type };
  }
  if (shape.root && field === 'metadata') return OBJECT_META;
  const node = schemaField(shape.schema, field);
  return node ? { of: 'schema', schema: node } : undefined;
}

/** How the list in a map field merges, and its items' shape. */
export function listShape(shape: ValueShape, field: string): ListShape {
  if (!shape || shape.of === 'typeMap') return ATOMIC;
  if (shape.of === 'type') return builtinListShape(shape.type, field);
  const node = schemaField(shape.schema, field);
  if (!node) return ATOMIC;
  let known = schemaLists.get(node);
  if (!known) schemaLists.set(node, (known = schemaListShape(node)));
  return known;
}

/** A CRD schema's list node, read once: every write of a custom resource asks it of each of its lists. */
const schemaLists = new WeakMap<StructuralSchema, ListShape>();

function schemaListShape(node: StructuralSchema): ListShape {
  const item: ValueShape = node.items ? { of: 'schema', schema: node.items } : undefined;
  const listType = node['x-kubernetes-list-type'] ?? 'atomic';
  // Custom resources take no strategic merge patch (kube-apiserver answers 415), so `patch` is never read for them.
  if (listType !== 'map') return { patch: ATOMIC.patch, apply: { list: listType }, item };
  const keys = [...(node['x-kubernetes-list-map-keys'] ?? [])].sort();
  const defaults: Record<string, unknown> = {};
  for (const key of keys) {
    const declared = node.items?.properties?.[key]?.default;
    if (declared !== undefined) defaults[key] = declared;
  }
  return { patch: ATOMIC.patch, apply: { list: 'map', keys, defaults }, item };
}

/**
 * The key of a map list's item (its key fields, sorted, a missing one taking its declared default), as FieldsV1 writes
 * it after `k:`; undefined when a key field is missing with no default.
 */
export function itemKey(
  item: Record<string, unknown>,
  rule: Extract<ApplyRule, { list: 'map' }>,
): Record<string, unknown> | undefined {
  const key: Record<string, unknown> = {};
  for (const field of rule.keys) {
    const value = item[field] ?? rule.defaults[field];
    if (value === undefined || value === null) return undefined;
    key[field] = value;
  }
  return key;
}

function schemaField(schema: StructuralSchema, field: string): StructuralSchema | undefined {
  const declared = schema.properties?.[field];
  if (declared) return declared;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** A built-in type's list fields, by type then field, each read once from the tables. */
const builtinShapes = new Map<string, Map<string, ListShape>>();

function builtinListShape(type: string, field: string): ListShape {
  let fields = builtinShapes.get(type);
  if (!fields) builtinShapes.set(type, (fields = new Map()));
  let known = fields.get(field);
  if (!known) {
    const declared = fieldsOfType(type).get(field);
    const item: ValueShape = declared?.shape === '[' ? { of: 'type', type: declared.type } : undefined;
    const rules = (LIST_FIELDS[type] ?? '').split(' ').find((entry) => entry.startsWith(`${field}=`));
    if (!rules) known = { ...ATOMIC, item };
    else {
      const [patch, apply] = rules.slice(field.length + 1).split('/') as [string, string];
      known = { patch: patchRule(patch), apply: applyRule(apply, item?.type), item };
    }
    fields.set(field, known);
  }
  return known;
}

function patchRule(text: string): PatchRule {
  if (text === 'merge') return { merge: 'set' };
  if (text.startsWith('merge:')) return { merge: 'key', key: text.slice('merge:'.length) };
  return { merge: 'replace' };
}

function applyRule(text: string, itemType: string | undefined): ApplyRule {
  if (text === 'set') return { list: 'set' };
  if (!text.startsWith('map:')) return { list: 'atomic' };
  const keys = text.slice('map:'.length).split(',').sort();
  const defaults: Record<string, unknown> = {};
  for (const entry of (itemType && LIST_KEY_DEFAULTS[itemType]?.split(' ')) || []) {
    const [field, value] = entry.split('=') as [string, string];
    // `name=` is a declared default of "" (a LocalObjectReference's name): an item without one is keyed on "".
    if (keys.includes(field) && value !== undefined) defaults[field] = value;
  }
  return { list: 'map', keys, defaults };
}
