import { stringify } from 'yaml';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';

/**
 * The bytes of a rendered manifest or binding: what `yaml.stringify(value, YAML_OPTIONS)` gives (but for the
 * strings below), which is the output branch's format (verify and every reader compare against it), but several times
 * faster. Rendering a fleet serialises every manifest once per cluster, and the generic stringifier
 * (document model, node tree, per-scalar schema tests) was a third of a cold render.
 *
 * Objects, arrays, numbers, booleans and null are laid out here; each distinct string is rendered once by
 * the yaml library itself and remembered, so quoting decisions (`"yes"`, `"0644"`, `"1:20"`, `'{"a":1}'`,
 * `"~"`) are the library's own, made with kubectl's schema and YAML 1.1's: kubectl, Argo CD and Flux read the
 * rendered branch as YAML 1.1, and must get back the string that was written. A string the library would write raw
 * where some reader of the branch refuses or misreads it (controls, separators, a tab; NOT_RAW) is escaped here
 * instead. Whatever this layout does not cover — a string the library would write over several lines (block
 * literals), long keys, non-finite numbers, class instances, undefined in a list — makes the whole document go
 * through the library instead.
 */
export const YAML_OPTIONS = { ...GO_YAML_STRINGIFY_OPTIONS, lineWidth: 0, aliasDuplicateObjects: false } as const;

/**
 * `parts`: the lines of nested maps and lists laid out for earlier documents, by object, for documents that share them:
 * one template's manifest for each of its clusters shares every part no cluster changed (a ConfigMap's data, a
 * Deployment's pod template), which was laid out again for every cluster. A part is kept the second time it is
 * met (most parts of most documents are met once) and written as it was from the third. Valid only while those objects
 * do not change: the caller makes one per batch of documents it knows are not modified in between (a template's).
 */
export function manifestYaml(value: unknown, parts?: SharedParts): string {
  if (isPlainObject(value) || Array.isArray(value)) {
    const out: string[] = [];
    if (emitBlock(value, 0, undefined, out, parts)) return out.join('');
  }
  return libraryYaml(value);
}

/**
 * The library's layout of a whole document, with the strings NOT_RAW names (and one-line strings with a tab) written
 * as escaped() writes them: each is replaced by a token the library writes plain, and the token then by the string.
 */
function libraryYaml(value: unknown): string {
  // Most such documents (a ConfigMap holding files) need no escape: they are laid out without a copy.
  // One already holding the token's spelling is laid out as it is rather than risk a wrong swap.
  if (!someString(value, needsEscape) || someString(value, (s) => s.includes(TOKEN)))
    return stringify(value, YAML_OPTIONS);
  const special: string[] = [];
  const swapped = swapStrings(value, (s) => (needsEscape(s) ? `${TOKEN}${special.push(s) - 1}x` : s));
  return stringify(swapped, YAML_OPTIONS).replace(TOKENS, (_, i: string) => escaped(special[Number(i)]!));
}

function needsEscape(s: string): boolean {
  return NOT_RAW.test(s) || (s.includes('\t') && !s.includes('\n'));
}

/** Whether a string of plain objects and lists (key or value) passes `test`. */
function someString(value: unknown, test: (s: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((v) => someString(v, test));
  if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) if (test(k) || someString(v, test)) return true;
  return false;
}

const TOKEN = 'flotillaescapedstring';
const TOKENS = /flotillaescapedstring(\d+)x/g;

/** A copy of plain objects and lists with each string (key or value) passed through `swap`; anything else as it is. */
function swapStrings(value: unknown, swap: (s: string) => string): unknown {
  if (typeof value === 'string') return swap(value);
  if (Array.isArray(value)) return value.map((v) => swapStrings(v, swap));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[swap(k)] = swapStrings(v, swap);
    return out;
  }
  return value;
}

/** A nested collection met before: at which depth, and its text once met twice there. */
interface Part {
  depth: number;
  text: string | undefined;
}
export type SharedParts = Map<object, Part>;
const MAX_SHARED_DEPTH = 2;

/** Two spaces a level: made once, so that no line builds its indent (nor hashes a new string to look up its key). */
const INDENTS: string[] = [''];
function indentOf(depth: number): string {
  while (INDENTS.length <= depth) INDENTS.push(`${INDENTS[INDENTS.length - 1]!}  `);
  return INDENTS[depth]!;
}

function emitCollection(
  value: Record<string, unknown> | unknown[],
  depth: number,
  first: string | undefined,
  out: string[],
  parts: SharedParts | undefined,
): boolean {
  if (parts === undefined || depth > MAX_SHARED_DEPTH) return emitBlock(value, depth, first, out, parts);
  const part = parts.get(value);
  if (part === undefined) {
    parts.set(value, { depth, text: undefined });
    return emitBlock(value, depth, first, out, parts);
  }
  if (part.depth !== depth) return emitBlock(value, depth, first, out, parts);
  if (part.text === undefined) {
    const own: string[] = [];
    if (!emitBlock(value, depth, undefined, own, undefined)) return false;
    part.text = own.join('');
  }
  out.push(first === undefined ? part.text : first + part.text.slice(2 * depth));
  return true;
}

/** yaml writes keys this long as explicit `? key` entries. */
const MAX_IMPLICIT_KEY = 1024;

/** indent + key + `:` by depth and key (property names, whose hashes V8 keeps): the same few keys, line after line. */
const heads: Map<string, string | null>[] = [];

function headOf(depth: number, key: string): string | null {
  const byKey = (heads[depth] ??= new Map());
  let head = byKey.get(key);
  if (head === undefined) {
    const k = scalarString(key);
    head = k === undefined || k.length > MAX_IMPLICIT_KEY ? null : `${indentOf(depth)}${k}:`;
    if (byKey.size >= MAX_CACHED_STRINGS) byKey.clear();
    byKey.set(key, head);
  }
  return head;
}

/**
 * Appends the lines of a collection at `depth`, its first line starting with `first` instead of the indent when
 * given (a list item's dash), or a flow `{}` / `[]` line when empty. false: not covered.
 */
function emitBlock(
  value: Record<string, unknown> | unknown[],
  depth: number,
  first: string | undefined,
  out: string[],
  parts: SharedParts | undefined,
): boolean {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${first ?? indentOf(depth)}[]\n`);
      return true;
    }
    for (const item of value) {
      if (item === undefined || !emitItem(item, depth, first ?? indentOf(depth), out, parts)) return false;
      first = undefined;
    }
    return true;
  }
  let any = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (v === undefined) continue; // yaml drops undefined map values
    const head = headOf(depth, key);
    if (head === null) return false;
    if (!emitEntry(first === undefined ? head : first + head.slice(2 * depth), v, depth, out, parts)) return false;
    any = true;
    first = undefined;
  }
  if (!any) out.push(`${first ?? indentOf(depth)}{}\n`);
  return true;
}

/** `key: scalar`, `key: {}`, or `key:` followed by the nested block (sequences indented too: indentSeq). */
function emitEntry(head: string, v: unknown, depth: number, out: string[], parts: SharedParts | undefined): boolean {
  if (isCollection(v)) {
    if (isEmpty(v)) {
      out.push(`${head} ${Array.isArray(v) ? '[]' : '{}'}\n`);
      return true;
    }
    out.push(`${head}\n`);
    return emitCollection(v, depth + 1, undefined, out, parts);
  }
  const s = scalar(v);
  if (s === undefined) return false;
  out.push(`${head} ${s}\n`);
  return true;
}

/** One `- ` item after `dash` (the list's indent, or the prefix of its first line): a nested block starts on its line. */
function emitItem(item: unknown, depth: number, dash: string, out: string[], parts: SharedParts | undefined): boolean {
  if (isCollection(item) && !isEmpty(item)) return emitCollection(item, depth + 1, `${dash}- `, out, parts);
  if (isCollection(item)) {
    out.push(`${dash}- ${Array.isArray(item) ? '[]' : '{}'}\n`);
    return true;
  }
  const s = scalar(item);
  if (s === undefined) return false;
  out.push(`${dash}- ${s}\n`);
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
 * A string as it is written where it fits on one line; undefined when it would not (a block scalar, or a document
 * marker at the top). Single-line renderings are the same at the top level, as a map value and as a key (lineWidth 0:
 * nothing is folded), which is what lets one cache serve all three.
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
  // Most strings are plain, told by their characters (a little faster than looking them up); the others are looked up.
  if (isPlain(s)) return s;
  // Two shapes that are mostly met once each (a template's dependencies, its applied overrides, a replica count), where
  // a call to the library (~40 µs) cost more than laying the manifest out: written as it writes them, without asking.
  if (DIGITS.test(s)) return `"${s}"`;
  if (JSON_TEXT.test(s) && s.includes('"') && !s.includes("'")) return `'${s}'`;
  // Shapes every binding and most manifests hold (its condition's message, resource quantities, the managed-label
  // lists, the source commit, probe paths, the quoted words): asking the library for the first of them cost a render
  // its first ~6 ms, and each new commit sha ~40 µs more.
  if (RESERVED.has(s)) return `"${s}"`;
  if (QUANTITY.test(s) || (SHA.test(s) && HEX_LETTER.test(s)) || (WORDS.test(s) && !EXPONENT_ONLY.test(s))) return s;
  let text = strings.get(s);
  if (text === undefined) {
    const rendered = NOT_RAW.test(s) ? undefined : stringify(s, YAML_OPTIONS);
    const newline = rendered?.indexOf('\n');
    text = rendered === undefined ? escaped(s) : newline === rendered.length - 1 ? rendered.slice(0, newline) : null;
    // A tab is raw in a block literal (a script, an nginx.conf: kept readable) and in quotes, but not in a plain scalar.
    if (text && s.includes('\t') && text.charCodeAt(0) !== 34 && text.charCodeAt(0) !== 39) text = escaped(s);
    // Bounded: a long-running reconciler sees ever new strings (commit shas, image tags).
    if (strings.size >= MAX_CACHED_STRINGS) strings.clear();
    strings.set(s, text);
  }
  return text ?? undefined;
}

/**
 * A resource quantity with a suffix (`500m`, `4Gi`, `1.5E`): no YAML 1.1 or 1.2 type ends in one of these letters (an
 * exponent needs digits after it), so every reader takes it as the string it is.
 */
const QUANTITY = /^[0-9]+(?:\.[0-9]+)?(?:[KMGTPE]i|[mkMGTPE])$/;
/** A commit sha; with a hex letter other than `b` and `e` it can be no binary integer (`0b…`) or float (`1e5`). */
const SHA = /^[0-9a-f]{40}$/;
const HEX_LETTER = /[acdf]/;
/**
 * Words of PLAIN's characters (and `,`) separated by single spaces, starting with a letter or `/`: a sentence (a
 * condition's message), a comma-separated list of label keys, a path. Without `:` or `#` nothing in it starts a
 * mapping value or a comment, and a space inside, a `,` or a leading `/` makes it no number, boolean, null or date.
 */
const WORDS = /^[A-Za-z/][A-Za-z0-9_./@,-]*(?: [A-Za-z0-9_./@,-]+)*$/;

/** Digits alone: an integer to every YAML reader, so the library double-quotes it (it has nothing to escape). */
const DIGITS = /^[0-9]+$/;
/**
 * JSON text on one line of printable ASCII (Karmada's annotations: dependencies, applied overrides, placements): it
 * starts with an indicator, so the library quotes it, in single quotes when it holds double quotes and no single one.
 */
const JSON_TEXT = /^[[{][\x20-\x7e]*$/;

/**
 * Characters the yaml library writes raw that readers of the branch do not take raw: DEL and the C1 controls, U+FEFF,
 * U+FFFE and U+FFFF (go-yaml, so kubectl and Flux: "control characters are not allowed"), NEL, the line and paragraph
 * separators (line breaks to a YAML 1.1 reader: kubectl reads `a\u0085b` as `a b`); and `=` alone, which PyYAML (the
 * official Python client's reader) resolves to a tag it cannot construct. Such a string is written double-quoted with
 * escapes every YAML reader decodes; so is a one-line string with a tab, at which PyYAML stops in a plain scalar.
 */
const NOT_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|^=$/;

function escaped(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code === 0x85) return '\\N';
    if (code === 0x2028) return '\\L';
    if (code === 0x2029) return '\\P';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Written as it is, with no quotes: the patterns above. */
function isPlain(s: string): boolean {
  if (PLAIN.test(s) && !s.endsWith(':') && !RESERVED.has(s) && !EXPONENT_ONLY.test(s)) return true;
  return s.length === 36 && UUID.test(s);
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
