import { builtinTypeOf, fieldsOfType as fieldsOf, karmadaTypeOf, type NestedField as Field } from './builtinTypes.ts';
import { OMITTED_WHEN_EMPTY } from './listSemantics.generated.ts';

// kube-apiserver decodes a built-in kind into its Go type, field names compared case-sensitively. A field the type
// does not declare (`replica:` for `replicas:`, `resource:` in a container, `resources:` one level too shallow) is
// refused under kubectl's default strict field validation ("strict decoding error: unknown field") and silently
// dropped under the API's default (Warn): either way it never takes effect. Custom resources are not checked here.

/** A field of a built-in kind that its type does not declare. */
export interface UnknownField {
  /** From the object's root to the field. */
  path: (string | number)[];
  /** The Kubernetes type that lacks it, without its version: `DeploymentSpec`, `Container`. */
  type: string;
  /** The fields that type declares. */
  fields: readonly string[];
}

/** The fields of a built-in object its Kubernetes type does not declare, in document order; none for other kinds. */
export function unknownFields(object: unknown, apiVersion: string, kind: string): UnknownField[] {
  return unknownFieldsOf(object, builtinTypeOf(apiVersion, kind));
}

/** The same for the Karmada kinds of karmadaCrdFields.ts, whose CRD schemas prune and strictly refuse the same way. */
export function unknownKarmadaFields(object: unknown, apiVersion: string, kind: string): UnknownField[] {
  return unknownFieldsOf(object, karmadaTypeOf(apiVersion, kind));
}

function unknownFieldsOf(object: unknown, type: string | undefined): UnknownField[] {
  const found: UnknownField[] = [];
  if (type)
    eachField(object, type, [], (_, key, field, at, parent) => {
      if (field === undefined)
        found.push({ path: [...parent, key], type: typeName(at), fields: [...fieldsOf(at).keys()] });
    });
  return found;
}

/**
 * Visits every field of an object of `type`, depth first in document order, with what the type declares of it
 * (undefined: nothing); the values of declared object, list and map fields are visited with their own types, after
 * their field (which `visit` may remove). `parent` is the path to `object`.
 */
export function eachField(
  value: unknown,
  type: string,
  parent: (string | number)[],
  visit: (
    object: Record<string, unknown>,
    key: string,
    field: Field | null | undefined,
    type: string,
    parent: (string | number)[],
  ) => void,
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const object = value as Record<string, unknown>;
  const fields = fieldsOf(type);
  for (const key of Object.keys(object)) {
    const field = fields.get(key);
    visit(object, key, field, type, parent);
    const child = object[key];
    if (!field || child === null || typeof child !== 'object') continue;
    if (field.shape === '[') {
      if (Array.isArray(child)) child.forEach((item, i) => eachField(item, field.type, [...parent, key, i], visit));
    } else if (field.shape === '{') {
      if (!Array.isArray(child))
        for (const [k, item] of Object.entries(child)) eachField(item, field.type, [...parent, key, k], visit);
    } else eachField(child, field.type, [...parent, key], visit);
  }
}

/** `V1DeploymentSpec` → `DeploymentSpec`, `CoreV1EndpointPort` → `EndpointPort`, `KarmadaLuaScript` → `LuaScript`. */
export function typeName(type: string): string {
  return type.replace(/^Karmada(?=[A-Z])|^(?:[A-Z][a-z]+)*?V\d+(?:alpha\d+|beta\d+)?(?=[A-Z])/, '');
}

/** A field path as kube-apiserver's strict decoding writes it: `spec.template.spec.containers[0].resource`. */
export function fieldPathText(path: readonly (string | number)[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : text ? `.${part}` : part;
  return text;
}

/** kube-apiserver's 400 for a body with unknown fields under strict field validation. */
export function strictDecodingError(
  kind: string,
  version: string,
  unknown: readonly Pick<UnknownField, 'path'>[],
): string {
  const fields = unknown.map((u) => `unknown field "${fieldPathText(u.path)}"`).join(', ');
  return `${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${fields}`;
}

/**
 * Removes the fields a built-in object sets to null, as decoding into its Go type does (a null pointer or slice is
 * omitted when the object is written back): kube-apiserver never stores nor returns `nodePort: null` or `env: null`.
 * Values of free-form maps (labels, data) are left alone.
 */
export function dropNullFields(object: unknown, apiVersion: string, kind: string): void {
  const type = builtinTypeOf(apiVersion, kind);
  if (type)
    eachField(object, type, [], (parent, key, field) => {
      if (field !== undefined && parent[key] === null) delete parent[key];
    });
}

const omittedWhenEmpty = new Map<string, ReadonlySet<string>>();

/**
 * Removes what a built-in object's Go fields tagged omitempty hold empty or zero (`labels: {}`, `env: []`,
 * `workingDir: ""`, `minReadySeconds: 0`): decoded into its Go type and written back, kube-apiserver's object has
 * none of them. Pointers (`replicas: 0`, `storageClassName: ""`), objects (`emptyDir: {}`) and free-form values are
 * left alone.
 */
export function dropEmptyFields(object: unknown, apiVersion: string, kind: string): void {
  const type = builtinTypeOf(apiVersion, kind);
  if (type) eachField(object, type, [], dropIfEmpty);
}

/**
 * A value of a built-in type (`V1Toleration`, `V1NodeSelector`) as Go marshals it once decoded into that type: its
 * declared fields that are null and its omitempty fields that are empty or zero left out, as dropNullFields and
 * dropEmptyFields do, on a copy whose keys keep their order.
 */
export function marshalledAs(value: unknown, type: string): unknown {
  const copy = structuredClone(value);
  eachField(copy, type, [], (parent, key, field, at) => {
    if (field !== undefined && parent[key] === null) delete parent[key];
    else dropIfEmpty(parent, key, field, at);
  });
  return copy;
}

function dropIfEmpty(parent: Record<string, unknown>, key: string, field: Field | null | undefined, at: string): void {
  if (field === undefined) return;
  let omitted = omittedWhenEmpty.get(at);
  if (!omitted) omittedWhenEmpty.set(at, (omitted = new Set((OMITTED_WHEN_EMPTY[at] ?? '').split(' '))));
  if (!omitted.has(key)) return;
  const value = parent[key];
  if (value === '' || value === 0 || value === false) delete parent[key];
  else if (Array.isArray(value) ? value.length === 0 : isEmptyMap(value)) delete parent[key];
}

const isEmptyMap = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && Object.keys(value as object).length === 0;
