// A custom resource decoded and validated as kube-apiserver's apiextensions does it, against its CRD version's
// structural schema (the checks themselves are src/crdSchemas'): the decoder's pruning of unknown fields and of
// nulls, then its defaulting (pkg/apiserver/customresource_handler.go, schemaCoercingDecoder and
// unstructuredDefaulter), which runs on every decode, of a request body and of a stored object alike; and the
// strategy's validation (pkg/registry/customresource/strategy.go, validator.go). CEL rules are not evaluated.
import { compileSchema, type CompiledSchema } from '../../crdSchemas/compileCrdSchema.ts';
import {
  type Path,
  unknownFieldPaths,
  validateCustomResource,
  validateCustomResourceStatusUpdate,
  validateCustomResourceUpdate,
} from '../../crdSchemas/checkCustomResource.ts';
import { fieldPathText } from '../../api/unknownFields.ts';
import { defaultCustomResource } from '../../crdSchemas/defaultCustomResource.ts';
import type { FieldError } from '../ApiError.ts';
import type { KubeObject, ResourceType } from '../types.ts';

/** Compiled once per served version's schema object: every write and read of its objects asks for it. */
const compiled = new WeakMap<object, CompiledSchema>();

/** The structural schema a custom resource type's objects are decoded with; undefined for a built-in kind. */
export function customResourceSchema(rt: ResourceType): CompiledSchema | undefined {
  if (!rt.crd) return undefined;
  // A version without a schema keeps every field, as a schema that preserves unknown fields does.
  const source = (rt.schema ?? PRESERVE_ALL) as Record<string, unknown>;
  let schema = compiled.get(source);
  if (!schema) compiled.set(source, (schema = compileSchema(source)));
  return schema;
}

const PRESERVE_ALL = { 'x-kubernetes-preserve-unknown-fields': true };

/**
 * The object as the decoder leaves it, in place: the fields its schema does not declare removed, non-nullable nulls
 * without a default dropped and the defaults applied. Returns the removed fields in the order the strict decoder
 * names them: the metadata's (decoded from JSON with sorted keys), then pruning's, which it sorts.
 */
export function decodeCustomResource(object: KubeObject, schema: CompiledSchema): Path[] {
  const found = unknownFieldPaths(object, schema);
  for (const path of found) removeField(object, path);
  const rootMeta = (p: Path) => p.length === 2 && p[0] === 'metadata';
  const sortedText = (a: Path, b: Path) => {
    const [x, y] = [fieldPathText(a), fieldPathText(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const unknown = [...found.filter(rootMeta), ...found.filter((p) => !rootMeta(p)).sort(sortedText)];
  defaultInPlace(object, schema);
  return unknown;
}

/** The schema's defaults applied in place (and non-nullable nulls dropped), as the defaulter does to any object. */
export function defaultInPlace(object: KubeObject, schema: CompiledSchema): void {
  const defaulted = defaultCustomResource(object, schema);
  if (defaulted === object) return;
  for (const key of Object.keys(object)) delete object[key];
  Object.assign(object, defaulted);
}

/**
 * The strategy's schema validation of a whole object, as the 422's field errors: on create, or (given the stored
 * object it replaces, decoded) on update, where errors in what the update leaves as it was are ratcheted away.
 */
export function customResourceErrors(object: KubeObject, schema: CompiledSchema, previous?: KubeObject): FieldError[] {
  const found = previous
    ? validateCustomResourceUpdate(object, previous, schema)
    : validateCustomResource(object, schema);
  return found.map((e) => toFieldError(e.path, e.message));
}

/**
 * The status strategy's validation (ValidateStatusUpdate) of `object`, the stored `previous` with the written status:
 * only status, against the schema's status property, and nothing of it when the object has no status.
 */
export function customResourceStatusErrors(
  object: KubeObject,
  previous: KubeObject,
  schema: CompiledSchema,
): FieldError[] {
  return validateCustomResourceStatusUpdate(object, previous, schema).map((e) => toFieldError(e.path, e.message));
}

/** field.Error's parts from the module's full text (`spec.size: Required value`). */
function toFieldError(path: Path, message: string): FieldError {
  const named = fieldPathText(path);
  const field = message.startsWith(`${named}: `) ? named : message.slice(0, Math.max(0, message.indexOf(': ')));
  const body = message.slice(field.length + 2);
  return { type: errorType(body), field, body };
}

function errorType(body: string): FieldError['type'] {
  if (body.startsWith('Required value')) return 'FieldValueRequired';
  if (body.startsWith('Unsupported value')) return 'FieldValueNotSupported';
  if (body.startsWith('Too long')) return 'FieldValueTooLong';
  if (body.startsWith('Too many')) return 'FieldValueTooMany';
  if (body.startsWith('Duplicate value')) return 'FieldValueDuplicate';
  if (body.startsWith('Forbidden')) return 'FieldValueForbidden';
  return 'FieldValueInvalid';
}

function removeField(object: unknown, path: Path): void {
  let at = object;
  for (const part of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return;
    at = (at as Record<string | number, unknown>)[part];
  }
  if (at !== null && typeof at === 'object' && !Array.isArray(at)) delete (at as Record<string, unknown>)[path.at(-1)!];
}

/**
 * A stored object as the storage codec decodes it: a custom resource is pruned and defaulted by its CRD's schema of
 * now (so one stored before a default was added reads with it), on a copy when that changes it.
 */
export function readStored(rt: ResourceType, object: KubeObject): KubeObject;
export function readStored(rt: ResourceType, object: KubeObject | undefined): KubeObject | undefined;
export function readStored(rt: ResourceType, object: KubeObject | undefined): KubeObject | undefined {
  const schema = customResourceSchema(rt);
  if (!schema || !object) return object;
  if (unknownFieldPaths(object, schema).length === 0) return defaultCustomResource(object, schema);
  const copy = structuredClone(object);
  decodeCustomResource(copy, schema);
  return copy;
}
