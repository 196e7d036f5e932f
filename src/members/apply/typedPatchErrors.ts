import { isDeepStrictEqual } from 'node:util';
import { fieldsOfType } from '../../api/builtinTypes.ts';
import {
  fieldShape,
  itemKey,
  type ListShape,
  listShape,
  type StructuralSchema,
  type ValueShape,
} from '../../api/listSemantics.ts';
import { ApiError } from '../ApiError.ts';
import { isPlainObject } from '../patches/plainObject.ts';
import type { KubeObject } from '../types.ts';

// Server-side apply types the applied configuration against the kind's schema before it merges anything
// (structuredmerge.go's Apply: ObjectToTyped of the patch, duplicates not allowed). That step, not field validation,
// refuses a field the type does not declare, whatever fieldValidation says, and a keyed list's item that cannot be
// keyed; it answers a plain error, so the client sees a 500 with no reason.

/** One of structured-merge-diff's ValidationErrors: the path it was found at (`.spec.ports`) and what it says. */
export interface TypedPatchError {
  path: string;
  message: string;
}

/**
 * The errors structured-merge-diff's validation finds in an applied configuration of `shape`, in document order
 * (Go walks an unstructured map in random order): fields the built-in type does not declare, keyed list items with
 * no key, null or non-object items, duplicate keys, and set items that are not scalars.
 */
export function typedPatchErrors(applied: KubeObject, shape: ValueShape): TypedPatchError[] {
  const errors: TypedPatchError[] = [];
  walkMap(applied, shape, '', errors);
  return errors;
}

/** The failure as the API server writes it (`failed to create typed patch object (ns/name; apps/v1, Kind=...)`). */
export function typedPatchFailure(applied: KubeObject, errors: readonly TypedPatchError[]): ApiError {
  const apiVersion = String(applied.apiVersion ?? '');
  // schema.GroupVersionKind's String(): a core kind's empty group still gets its slash.
  const groupVersion = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  const lines = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
  const text = lines.length === 1 ? lines[0] : ['errors:', ...lines.map((l) => `  ${l}`)].join('\n');
  const { namespace = '', name = '' } = applied.metadata ?? {};
  return new ApiError(
    500,
    '',
    `failed to create typed patch object (${namespace}/${name}; ${groupVersion}, Kind=${applied.kind}): ${text}`,
  );
}

function walkMap(value: unknown, shape: ValueShape, path: string, errors: TypedPatchError[]): void {
  if (!isPlainObject(value)) return;
  const declared = declaredFields(shape);
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (declared && !declared.has(key)) {
      errors.push({ path: at, message: 'field not declared in schema' });
      // visitMapItems stops at the first undeclared field of a map.
      return;
    }
    if (Array.isArray(child)) walkList(child, listShape(shape, key), at, errors);
    else walkMap(child, fieldShape(shape, key), at, errors);
  }
}

/**
 * The fields a map of this shape may hold, or undefined when it may hold any: a built-in type's, or a custom resource
 * schema node's properties (with apiVersion, kind and metadata at the root and in an embedded resource) unless it
 * preserves unknown fields or takes additional properties.
 */
function declaredFields(shape: ValueShape): { has(field: string): boolean } | undefined {
  if (shape?.of === 'type') return fieldsOfType(shape.type);
  if (shape?.of !== 'schema') return undefined;
  const node = shape.schema as StructuralSchema & Record<string, unknown>;
  const open = node.additionalProperties !== undefined && node.additionalProperties !== false;
  if (!node.properties || open || node['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
  const properties = node.properties;
  const resource = shape.root === true || node['x-kubernetes-embedded-resource'] === true;
  return { has: (field) => Object.hasOwn(properties, field) || (resource && TYPE_AND_OBJECT_META.has(field)) };
}

const TYPE_AND_OBJECT_META = new Set(['apiVersion', 'kind', 'metadata']);

function walkList(items: unknown[], list: ListShape, path: string, errors: TypedPatchError[]): void {
  const rule = list.apply;
  if (rule.list === 'atomic') {
    items.forEach((item, i) => walkItem(item, list, `${path}[${i}]`, errors));
    return;
  }
  const seen: unknown[] = [];
  for (const [i, item] of items.entries()) {
    const element = rule.list === 'map' ? keyedElement(item, rule) : setElement(item);
    if (typeof element === 'string') {
      // listItemToPathElement failing bails on the rest of the list.
      errors.push({ path, message: `element ${i}: ${element}` });
      return;
    }
    if (seen.some((s) => isDeepStrictEqual(s, element.identity)))
      errors.push({ path, message: `duplicate entries for key ${element.text}` });
    seen.push(element.identity);
    walkItem(item, list, `${path}${element.text}`, errors);
  }
}

function walkItem(item: unknown, list: ListShape, path: string, errors: TypedPatchError[]): void {
  if (Array.isArray(item)) return;
  walkMap(item, list.item, path, errors);
}

/** fieldpath.PathElement's String() of a value: Go's %q for a string, the number or bool as written. */
function valueText(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

type Element = { identity: unknown; text: string } | string;

/** keyedAssociativeListItemToPathElement: the item's key fields (a missing one its default), sorted by name. */
function keyedElement(item: unknown, rule: Extract<ListShape['apply'], { list: 'map' }>): Element {
  if (item === null) return 'associative list with keys may not have a null element';
  if (!isPlainObject(item)) return 'associative list with keys may not have non-map elements';
  const key = itemKey(item, rule);
  if (!key) {
    const missing = rule.keys.find((field) => (item[field] ?? rule.defaults[field]) == null);
    return `associative list with keys has an element that omits key field ${JSON.stringify(missing)} (and doesn't have default value)`;
  }
  const text = `[${Object.entries(key)
    .map(([field, value]) => `${field}=${valueText(value)}`)
    .join(',')}]`;
  return { identity: key, text };
}

/** setItemToPathElement: a set holds scalars only. */
function setElement(item: unknown): Element {
  if (isPlainObject(item)) return "associative list without keys has an element that's a map type";
  if (Array.isArray(item)) return 'not supported: associative list with lists as elements';
  if (item === null) return "associative list without keys has an element that's an explicit null";
  return { identity: item, text: `[=${valueText(item)}]` };
}
