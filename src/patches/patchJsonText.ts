// A JSON patch applied to JSON text the way Karmada's fieldOverrider applies one (evanphx/json-patch v5 on the raw
// bytes): what the patch does not touch comes out as it went in, compacted. evanphx keeps every value as its raw
// text until an operation goes into it, and keeps each object's key order; a parse-and-stringify would instead round
// integers past 2^53 (a 64-bit id), write 1.0 as 1, unescape "\u00e9", and move a key like "10" before "b".
import { isDeepStrictEqual } from 'node:util';
import { applyJsonPatch, type JsonPatchOperation } from './jsonPatch.ts';

export type TextPatchResult = { ok: true; text: string } | { ok: false; index?: number; message: string };

/**
 * Applies the operations to the JSON document `text`. The patch itself runs on the parsed document (every rule and
 * error of applyJsonPatch); the result is then written back over the original text: a value equal to the one it
 * replaces keeps its original text, an object its original key order (keys it gains go last, as evanphx appends
 * them), and only new values are written afresh, as Go's encoder writes them.
 */
export function applyJsonPatchToText(text: string, operations: readonly JsonPatchOperation[]): TextPatchResult {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `invalid JSON document: ${(error as Error).message}` };
  }
  const result = applyJsonPatch(document, operations);
  if (!result.ok) return { ok: false, index: result.index, message: result.message };
  return { ok: true, text: writeOver(text.trim(), result.document) };
}

/** JSON.stringify plus the escapes Go's encoding/json adds: <, >, & and the JavaScript line separators. */
export function stringifyJsonLikeGo(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, goEscape);
}

function goEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `value` written as JSON, reusing the text of `raw` (one JSON value) wherever it still says the same. */
function writeOver(raw: string, value: unknown): string {
  if (isDeepStrictEqual(JSON.parse(raw), value)) return compact(raw);
  if (raw.startsWith('{') && isPlainObject(value)) {
    const members = splitMembers(raw, '{', '}');
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const [keyText, valueText] of members) {
      const key = JSON.parse(keyText) as string;
      if (seen.has(key) || !Object.hasOwn(value, key)) continue;
      seen.add(key);
      parts.push(`${stringifyJsonLikeGo(key)}:${writeOver(valueText, value[key])}`);
    }
    for (const key of Object.keys(value))
      if (!seen.has(key)) parts.push(`${stringifyJsonLikeGo(key)}:${stringifyJsonLikeGo(value[key])}`);
    return `{${parts.join(',')}}`;
  }
  if (raw.startsWith('[') && Array.isArray(value)) {
    // Elements in order: each new element takes the text of the next original one when it says the same (an insert or
    // a removal shifts the rest, which still keep their text).
    const items = splitMembers(raw, '[', ']').map(([, itemText]) => itemText);
    let next = 0;
    const parts = value.map((item, index) => {
      for (let i = next; i < items.length; i++) {
        if (isDeepStrictEqual(JSON.parse(items[i]!), item)) {
          next = i + 1;
          return compact(items[i]!);
        }
      }
      // Changed in place (as many items as before): what it holds may still keep part of its text.
      const before = items.length === value.length ? items[index] : undefined;
      return before !== undefined ? writeOver(before, item) : stringifyJsonLikeGo(item);
    });
    return `[${parts.join(',')}]`;
  }
  return stringifyJsonLikeGo(value);
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
