import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';

/**
 * The bytes of a rendered manifest or binding: exactly what `yaml.stringify(value, YAML_OPTIONS)` gives,
 * which is the output branch's format (verify and every reader compare against it), but several times
 * faster. Rendering a fleet serialises every manifest once per cluster, and the generic stringifier
 * (document model, node tree, per-scalar schema tests) was a third of a cold render.
 *
 * Objects, arrays, numbers, booleans and null are laid out here; each distinct string is rendered once by
 * the yaml library itself and remembered, so quoting decisions (`"yes"`, `"0644"`, `"1:20"`, `'{"a":1}'`,
 * `"~"`) are the library's own, made with kubectl's schema and YAML 1.1's: kubectl, Argo CD and Flux read the
 * rendered branch as YAML 1.1, and must get back the string that was written. Whatever this layout does not cover — a string the library would write over
 * several lines (block literals), long keys, non-finite numbers, class instances, undefined in a list —
 * makes the whole document go through the library instead, so the result never differs.
 */
export const YAML_OPTIONS = { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false } as const;

export function manifestYaml(value: unknown): string {
  if (isPlainObject(value) || Array.isArray(value)) {
    const out: string[] = [];
    if (emitCollection(value, '', out)) return out.join('');
  }
  return stringify(value, YAML_OPTIONS);
}

/** yaml writes keys this long as explicit `? key` entries. */
const MAX_IMPLICIT_KEY = 1024;

/** Appends lines for a non-empty collection at `indent`, or a flow `{}` / `[]` line when empty. false: not covered. */
function emitCollection(value: Record<string, unknown> | unknown[], indent: string, out: string[]): boolean {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${indent}[]\n`);
      return true;
    }
    for (const item of value) {
      if (item === undefined || !emitItem(item, indent, out)) return false;
    }
    return true;
  }
  let any = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (v === undefined) continue; // yaml drops undefined map values
    const k = scalarString(key);
    if (k === undefined || k.length > MAX_IMPLICIT_KEY) return false;
    any = true;
    if (!emitEntry(`${indent}${k}:`, v, indent, out)) return false;
  }
  if (!any) out.push(`${indent}{}\n`);
  return true;
}

/** `key: scalar`, `key: {}`, or `key:` followed by the nested block (sequences indented too: indentSeq). */
function emitEntry(head: string, v: unknown, indent: string, out: string[]): boolean {
  if (isCollection(v)) {
    if (isEmpty(v)) {
      out.push(`${head} ${Array.isArray(v) ? '[]' : '{}'}\n`);
      return true;
    }
    out.push(`${head}\n`);
    return emitCollection(v, `${indent}  `, out);
  }
  const s = scalar(v);
  if (s === undefined) return false;
  out.push(`${head} ${s}\n`);
  return true;
}

/** One `- ` item: a nested block starts on the dash's line, indented two more below it. */
function emitItem(item: unknown, indent: string, out: string[]): boolean {
  if (isCollection(item) && !isEmpty(item)) {
    const start = out.length;
    const inner = `${indent}  `;
    if (!emitCollection(item, inner, out)) return false;
    out[start] = `${indent}- ${out[start]!.slice(inner.length)}`;
    return true;
  }
  if (isCollection(item)) {
    out.push(`${indent}- ${Array.isArray(item) ? '[]' : '{}'}\n`);
    return true;
  }
  const s = scalar(item);
  if (s === undefined) return false;
  out.push(`${indent}- ${s}\n`);
  return true;
}

function scalar(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return scalarString(v);
    case 'number':
      if (!Number.isFinite(v)) return undefined;
      return Object.is(v, -0) ? '-0' : JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      return v === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

/**
 * A string as the library writes it where it fits on one line; undefined when it would not (a block
 * scalar, or a document marker at the top). Single-line renderings are the same at the top level, as a
 * map value and as a key (lineWidth 0: nothing is folded), which is what lets one cache serve all three.
 */
const strings = new Map<string, string | null>();
const MAX_CACHED_STRINGS = 100_000;

/**
 * Names, labels and image references: a letter first (so never a number, `.inf` or `~`), then only
 * characters that mean nothing in a plain scalar where they stand. Only the null and boolean words of YAML 1.1
 * (go-yaml v2's list: `y`, `on`, `No`, …) then resolve to something other than a string.
 */
const PLAIN = /^[A-Za-z][A-Za-z0-9_./@:-]*$/;
const RESERVED = new Set([
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
]);
/** The yaml library's YAML 1.1 float pattern takes `e1` for a number (its digits are optional), so it quotes it. */
const EXPONENT_ONLY = /^[eE][-+]?[0-9]+$/;

/**
 * A UUID in its canonical form (permanent-id labels, resource uids): plain, as no YAML 1.1 or 1.2 type reads it (eight
 * hex digits then '-' is no number, date or time). Every binding carries its own, so each went to the library once.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function scalarString(s: string): string | undefined {
  if (PLAIN.test(s) && !s.endsWith(':') && !RESERVED.has(s) && !EXPONENT_ONLY.test(s)) return s;
  if (s.length === 36 && UUID.test(s)) return s;
  let text = strings.get(s);
  if (text === undefined) {
    const rendered = stringify(s, YAML_OPTIONS);
    const newline = rendered.indexOf('\n');
    text = newline === rendered.length - 1 ? rendered.slice(0, newline) : null;
    // Bounded: a long-running reconciler sees ever new strings (commit shas, image tags).
    if (strings.size >= MAX_CACHED_STRINGS) strings.clear();
    strings.set(s, text);
  }
  return text ?? undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function isCollection(v: unknown): v is Record<string, unknown> | unknown[] {
  return Array.isArray(v) || isPlainObject(v);
}

function isEmpty(v: Record<string, unknown> | unknown[]): boolean {
  if (Array.isArray(v)) return v.length === 0;
  for (const key in v) if (Object.hasOwn(v, key) && v[key] !== undefined) return false;
  return true;
}
