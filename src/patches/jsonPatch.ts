import { isDeepStrictEqual } from 'node:util';
import { cloneParsedValue } from './cloneParsedValue.ts';
import { setDataKey } from '../yaml/setDataKey.ts';
// RFC 6901 JSON Pointer and RFC 6902 JSON Patch, with the behaviour of evanphx/json-patch (default options),
// the library both Karmada's overrides and kube-apiserver's JSON patches go through:
// - a missing parent, or a remove/replace of a missing key or index, fails; add never creates parents;
// - add on an existing member replaces it (so `add` of a map replaces the whole map);
// - array indices may be negative and count from the end (-1 is the last element); `-` appends on add;
// - an omitted value is written as null; the empty path "" means the whole document;
// - a path without its leading "/" loses its first segment (patchPathPointer).
// Pure: the input document is never mutated; values are copied in.

export type JsonPatchOperator = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

export interface JsonPatchOperation {
  op: JsonPatchOperator;
  path: string;
  value?: unknown;
  /** For move and copy. */
  from?: string;
}

export type JsonPatchResult = { ok: true; document: unknown } | { ok: false; index: number; message: string };

type JsonObject = Record<string, unknown>;

/** Splits a pointer into unescaped reference tokens (`~1` -> `/`, then `~0` -> `~`); undefined when malformed. */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~[01]/g, (seq) => (seq === '~1' ? '/' : '~')));
}

/**
 * The pointer a patch operation's path means to evanphx/json-patch, whose findObject takes every segment after the
 * first "/" and ignores what comes before it: "metadata/x" means "/x" (at the root), "a/metadata/x" "/metadata/x".
 * Undefined for a path with no "/" at all (other than ""), which names nothing.
 */
export function patchPathPointer(path: string): string | undefined {
  if (path === '') return '';
  const slash = path.indexOf('/');
  return slash < 0 ? undefined : path.slice(slash);
}

/** Escapes one reference token for use in a pointer. */
export function escapeJsonPointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Reads the value a pointer names, as go-openapi/jsonpointer's Get does (Karmada's fieldOverrider path): an array
 * token is read with Go's strconv.Atoi, so `+0`, `-0` and `007` name elements, and must land in the array.
 */
export function getByJsonPointer(
  document: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false; message: string } {
  const tokens = parseJsonPointer(pointer);
  if (!tokens) return { found: false, message: `JSON pointer "${pointer}" must be empty or start with /` };
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = pointerArrayIndex(token, current.length);
      if (index === undefined) return { found: false, message: `index "${token}" is out of range in "${pointer}"` };
      current = current[index];
    } else if (isObject(current)) {
      if (!Object.hasOwn(current, token)) return { found: false, message: `key "${token}" not found in "${pointer}"` };
      current = current[token];
    } else {
      return { found: false, message: `"${pointer}" goes through a value that is neither an object nor an array` };
    }
  }
  return { found: true, value: current };
}

/** Applies the operations in order to a copy of the document; the first failing one stops the patch. */
export function applyJsonPatch(document: unknown, operations: readonly JsonPatchOperation[]): JsonPatchResult {
  let doc = cloneParsedValue(document);
  for (const [index, operation] of operations.entries()) {
    const step = applyOperation(doc, operation);
    if (!step.ok) return { ok: false, index, message: step.message };
    doc = step.document;
  }
  return { ok: true, document: doc };
}

type Step = { ok: true; document: unknown } | { ok: false; message: string };

function applyOperation(doc: unknown, operation: JsonPatchOperation): Step {
  const { op, path } = operation;
  if (op === 'move' || op === 'copy' || op === 'test') return applyComposite(doc, operation);
  const value = operation.value === undefined ? null : cloneParsedValue(operation.value);
  const pointer = patchPathPointer(path);
  const tokens = pointer === undefined ? undefined : parseJsonPointer(pointer);
  if (!tokens) return fail(`${op} operation does not apply: doc is missing path "${path}"`);
  if (tokens.length === 0) return applyToRoot(op, value, path);

  const parent = findParent(doc, tokens.slice(0, -1));
  if (parent === undefined) return fail(`${op} operation does not apply: doc is missing path "${path}"`);
  const key = tokens[tokens.length - 1] as string;

  if (Array.isArray(parent)) {
    const message = patchArray(parent, op, key, value);
    return message ? fail(`${op} operation on "${path}": ${message}`) : { ok: true, document: doc };
  }
  const present = Object.hasOwn(parent, key);
  switch (op) {
    case 'add':
      setDataKey(parent, key, value);
      break;
    case 'replace':
      if (!present) return fail(`replace operation does not apply: doc is missing key "${path}"`);
      setDataKey(parent, key, value);
      break;
    case 'remove':
      if (!present) return fail(`remove operation does not apply: doc is missing key "${path}"`);
      delete parent[key];
      break;
    default:
      return fail(`unsupported operation "${String(op)}"`);
  }
  return { ok: true, document: doc };
}

/** move, copy and test, built from a read plus add/remove (as evanphx does). */
function applyComposite(doc: unknown, operation: JsonPatchOperation): Step {
  const { op, path } = operation;
  if (op === 'test') {
    const got = getByJsonPointer(doc, patchPathPointer(path) ?? path);
    const want = operation.value === undefined ? null : operation.value;
    if (!got.found || !isDeepStrictEqual(got.value, want))
      return fail(`test failed: "${path}" does not hold the expected value`);
    return { ok: true, document: doc };
  }
  if (operation.from === undefined) return fail(`${op} operation needs "from"`);
  const source = getByJsonPointer(doc, patchPathPointer(operation.from) ?? operation.from);
  if (!source.found) return fail(`${op} operation does not apply: ${source.message}`);
  let current = doc;
  if (op === 'move') {
    const removed = applyOperation(current, { op: 'remove', path: operation.from });
    if (!removed.ok) return removed;
    current = removed.document;
  }
  return applyOperation(current, { op: 'add', path, value: source.value });
}

function applyToRoot(op: JsonPatchOperator, value: unknown, path: string): Step {
  switch (op) {
    case 'add':
      return { ok: true, document: value };
    case 'replace':
      if (isObject(value) || Array.isArray(value)) return { ok: true, document: value };
      return fail('replace operation value must be object or array when the path is the whole document');
    case 'remove':
      return fail(`remove operation does not apply: cannot remove the whole document (path "${path}")`);
    default:
      return fail(`unsupported operation "${String(op)}"`);
  }
}

/** Walks every token but the last; each step must exist and land on an object or an array. */
function findParent(doc: unknown, tokens: readonly string[]): JsonObject | unknown[] | undefined {
  let current = doc;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      const index = arrayIndex(token, current.length);
      if (index === undefined || index >= current.length) return undefined;
      current = current[index];
    } else if (isObject(current)) {
      if (!Object.hasOwn(current, token)) return undefined;
      current = current[token];
    } else {
      return undefined;
    }
  }
  return Array.isArray(current) || isObject(current) ? current : undefined;
}

/** Returns an error message, or undefined when the array was patched in place. */
function patchArray(array: unknown[], op: JsonPatchOperator, key: string, value: unknown): string | undefined {
  if (op === 'add') {
    if (key === '-') {
      array.push(value);
      return undefined;
    }
    // Insert positions run from 0 to length; negative ones count back from length + 1.
    const index = arrayIndex(key, array.length + 1);
    if (index === undefined) return `"${key}" is not a proper array index`;
    if (index > array.length) return `index ${key} is out of range`;
    array.splice(index, 0, value);
    return undefined;
  }
  const index = arrayIndex(key, array.length);
  if (index === undefined) return `"${key}" is not a proper array index`;
  if (index >= array.length) return `index ${key} is out of range`;
  if (op === 'replace') array[index] = value;
  else array.splice(index, 1);
  return undefined;
}

/** An element of an array of `size` by go-openapi/jsonpointer: Go's strconv.Atoi syntax, from 0 to size - 1. */
export function pointerArrayIndex(token: string, size: number): number | undefined {
  const index = atoi(token);
  return index !== undefined && index >= 0 && index < size ? index : undefined;
}

/** Go's strconv.Atoi syntax; a negative index counts from `size` (and must not go below 0). */
export function arrayIndex(token: string, size: number): number | undefined {
  const index = atoi(token);
  if (index === undefined || index >= 0) return index;
  return index < -size ? undefined : index + size;
}

/** The number Go's strconv.Atoi reads (an optional sign, then digits), `-0` as 0; undefined for anything else. */
function atoi(token: string): number | undefined {
  return /^[+-]?[0-9]+$/.test(token) ? Number(token) + 0 : undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): Step {
  return { ok: false, message };
}
