// A JSON patch applied to JSON text the way Karmada's fieldOverrider applies one (evanphx/json-patch v5 on the raw
// bytes). evanphx keeps every value as its raw text until an operation walks into it, keeps each object's key order
// (a key it adds goes last), and writes a value an operation puts in as that operation's text, which is the value as
// karmada-apiserver stored the policy: keys sorted, compact. A parse-and-stringify would instead round integers past
// 2^53 (a 64-bit id), write 1.0 as 1, unescape "\u00e9" and move a key like "10" before "b"; a diff of the result
// against the input would keep the old text or key order of a value an operation replaced.
import {
  applyJsonPatch,
  arrayIndex,
  parseJsonPointer,
  patchPathPointer,
  type JsonPatchOperation,
} from './jsonPatch.ts';

export type TextPatchResult = { ok: true; text: string } | { ok: false; index?: number; message: string };

/**
 * Applies the operations to the JSON document `text`. Each operation runs on the parsed document first (every rule
 * and error of applyJsonPatch) and is then replayed on the text tree (textTree below), which gives the result.
 */
export function applyJsonPatchToText(text: string, operations: readonly JsonPatchOperation[]): TextPatchResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `invalid JSON document: ${(error as Error).message}` };
  }
  const refused = documentRefusal(document, text.startsWith('['));
  if (refused) return { ok: false, message: refused };
  let root: TextNode = { text: text.trim() };
  for (const [index, operation] of operations.entries()) {
    const refusedValue = rootValueRefusal(operation);
    if (refusedValue) return { ok: false, index, message: refusedValue };
    const result = applyJsonPatch(document, [operation]);
    if (!result.ok) return { ok: false, index, message: result.message };
    document = result.document;
    root = replay(root, operation);
  }
  return { ok: true, text: writeNode(root) };
}

/**
 * evanphx/json-patch reads a document as an array only when its text starts with "[", and as an object otherwise:
 * an array after whitespace, a string, a number or a boolean fails before any operation.
 */
export function documentRefusal(document: unknown, textStartsWithBracket: boolean): string | undefined {
  if (document === null || isPlainObject(document) || (Array.isArray(document) && textStartsWithBracket))
    return undefined;
  return Array.isArray(document)
    ? 'Karmada\'s JSON patch reads a document as an array only when its first character is "[", and this one starts with whitespace: remove what comes before "["'
    : `Karmada's JSON patch patches an object or an array, and the document is a ${typeof document}`;
}

/** An add at the root ("") reads its value the way a document is read: a string, number or boolean fails. */
export function rootValueRefusal(operation: JsonPatchOperation): string | undefined {
  if (operation.op !== 'add' || patchPathPointer(operation.path) !== '') return undefined;
  const value = operation.value;
  if (value === undefined || value === null || typeof value === 'object') return undefined;
  return `an add at the whole document needs an object or an array as its value, not ${JSON.stringify(value)}`;
}

/** JSON.stringify plus the escapes Go's encoding/json adds: <, >, & and the JavaScript line separators. */
export function stringifyJsonLikeGo(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, goEscape);
}

/**
 * A JSON value as karmada-apiserver stores it inside a custom resource (an apiextensions JSON field of an unstructured
 * object, written by Go's encoding/json): compact, every map's keys in byte order, Go's escapes.
 */
export function storedJsonText(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(storedJsonText).join(',')}]`;
  // Written out here, not through an object: JavaScript would put keys like "10" first whatever order they are given.
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort(byBytes)
      .map((k) => `${stringifyJsonLikeGo(k)}:${storedJsonText(value[k])}`)
      .join(',')}}`;
  return stringifyJsonLikeGo(value);
}

/** Go compares strings by their UTF-8 bytes (sort.Strings, a map's keys in json.Marshal). */
export function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function goEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * evanphx's lazy node: a value's text (trimmed) until an operation walks into it, then its members, each a node
 * again. A member that is JSON null is the text "null".
 */
interface TextNode {
  text?: string;
  /** Members in evanphx's order: a Map keeps a key where it was when set again and puts a new one last. */
  object?: Map<string, TextNode>;
  array?: TextNode[];
}

/** The operation, which the parsed document took, on the text tree; returns the (possibly new) root. */
function replay(root: TextNode, operation: JsonPatchOperation): TextNode {
  const tokens = parseJsonPointer(patchPathPointer(operation.path) ?? '') ?? [];
  const valueNode = (): TextNode => ({ text: storedJsonText(operation.value) });
  if (operation.op === 'test') return root;
  if (tokens.length === 0) return operation.op === 'add' || operation.op === 'replace' ? valueNode() : root;
  let moved: TextNode | undefined;
  if (operation.op === 'move' || operation.op === 'copy') {
    const fromTokens = parseJsonPointer(patchPathPointer(operation.from ?? '') ?? '') ?? [];
    const source = locate(root, fromTokens);
    moved = operation.op === 'copy' ? { text: writeNode(source.get()) } : source.get();
    if (operation.op === 'move') source.remove();
  }
  const target = locate(root, tokens);
  switch (operation.op) {
    case 'add':
    case 'move':
    case 'copy':
      target.add(moved ?? valueNode());
      break;
    case 'replace':
      target.set(valueNode());
      break;
    case 'remove':
      target.remove();
      break;
  }
  return root;
}

interface Slot {
  get(): TextNode;
  set(node: TextNode): void;
  add(node: TextNode): void;
  remove(): void;
}

/** The place the last token names in the container the others lead to (which applyJsonPatch found there). */
function locate(root: TextNode, tokens: readonly string[]): Slot {
  let container = root;
  for (const token of tokens.slice(0, -1)) container = childOf(container, token);
  const key = tokens[tokens.length - 1] as string;
  const object = openObject(container);
  if (object) {
    return {
      get: () => object.get(key) as TextNode,
      set: (node) => void object.set(key, node),
      add: (node) => void object.set(key, node),
      remove: () => void object.delete(key),
    };
  }
  const items = openArray(container);
  const at = (size: number) => arrayIndex(key, size) as number;
  return {
    get: () => items[at(items.length)] as TextNode,
    set: (node) => void (items[at(items.length)] = node),
    add: (node) => void (key === '-' ? items.push(node) : items.splice(at(items.length + 1), 0, node)),
    remove: () => void items.splice(at(items.length), 1),
  };
}

function childOf(container: TextNode, token: string): TextNode {
  const object = openObject(container);
  if (object) return object.get(token) as TextNode;
  const items = openArray(container);
  return items[arrayIndex(token, items.length) as number] as TextNode;
}

function openObject(node: TextNode): TextNode['object'] {
  if (!node.object && node.text?.startsWith('{')) {
    node.object = new Map();
    for (const [keyText, valueText] of splitMembers(node.text, '{', '}'))
      node.object.set(JSON.parse(keyText) as string, { text: valueText });
  }
  return node.object;
}

function openArray(node: TextNode): TextNode[] {
  if (!node.array && node.text?.startsWith('[')) {
    node.array = splitMembers(node.text, '[', ']').map(([, itemText]) => ({ text: itemText }));
  }
  // applyJsonPatch walked the same path on the parsed document: what is not an object here is an array.
  return node.array ?? [];
}

function writeNode(node: TextNode): string {
  if (node.object)
    return `{${[...node.object].map(([key, member]) => `${stringifyJsonLikeGo(key)}:${writeNode(member)}`).join(',')}}`;
  if (node.array) return `[${node.array.map(writeNode).join(',')}]`;
  return compact(node.text ?? 'null');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The members of an object (key text, value text) or the items of an array ('', item text) of valid JSON text,
 * each value's text exactly as written (surrounding whitespace trimmed).
 */
function splitMembers(raw: string, open: '{' | '[', close: '}' | ']'): [string, string][] {
  const out: [string, string][] = [];
  let i = skipSpace(raw, 1);
  if (raw[i] === close) return out;
  for (;;) {
    let keyText = '';
    if (open === '{') {
      const keyEnd = endOfValue(raw, i);
      keyText = raw.slice(i, keyEnd);
      i = skipSpace(raw, skipSpace(raw, keyEnd) + 1); // past ':'
    }
    const end = endOfValue(raw, i);
    out.push([keyText, raw.slice(i, end)]);
    i = skipSpace(raw, end);
    if (raw[i] === close) return out;
    i = skipSpace(raw, i + 1); // past ','
  }
}

function skipSpace(raw: string, i: number): number {
  while (i < raw.length && (raw[i] === ' ' || raw[i] === '\t' || raw[i] === '\n' || raw[i] === '\r')) i++;
  return i;
}

/** Where the JSON value starting at `i` ends (the text is valid JSON: JSON.parse read it). */
function endOfValue(raw: string, i: number): number {
  const c = raw[i];
  if (c === '"') {
    for (let j = i + 1; ; j++) {
      if (raw[j] === '\\') j++;
      else if (raw[j] === '"') return j + 1;
    }
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; ; j++) {
      const d = raw[j];
      if (d === '"') j = endOfValue(raw, j) - 1;
      else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
  }
  let j = i;
  while (j < raw.length && !/[\s,}\]]/.test(raw[j]!)) j++;
  return j;
}

/** The value's text without insignificant whitespace, with Go's escapes (json.Compact, as json.Marshal emits raw JSON). */
function compact(raw: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') {
      const end = endOfValue(raw, i);
      out += raw.slice(from, i) + raw.slice(i, end).replace(/[<>&\u2028\u2029]/g, goEscape);
      i = end - 1;
      from = end;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      out += raw.slice(from, i);
      from = i + 1;
    }
  }
  return out + raw.slice(from);
}
