import { Schema, type ScalarTag, type Tags } from 'yaml';

/**
 * How kubectl reads a plain (unquoted) scalar: go-yaml v2's `resolve()` (YAML 1.1, `resolve.go` on the v2 branch,
 * vendored unchanged as sigs.k8s.io/yaml/goyaml.v2), then sigs.k8s.io/yaml's conversion to JSON (`yaml.go`,
 * `convertToJSONableObject`), then the JSON decoder of unstructured objects. Flotilla reads user YAML with this
 * so a manifest means on the members what it means to `kubectl apply -f`: `0400` is 256, `yes` is true.
 *
 * It is neither YAML 1.2 (`0644` is an int there only as `0o644`) nor the yaml library's 1.1 schema (which
 * reads `1:20` as 80 and `2001-12-14` as a date; go-yaml v2 leaves both strings).
 */

/** A plain scalar's value as kubectl sees it: null, a boolean, a number (ints and floats alike), or the text. */
export function resolvePlainScalar(text: string): null | boolean | number | string {
  if (text === '') return null;
  const c = text.charCodeAt(0);
  // go-yaml's resolveTable: only these first characters can make anything but a string.
  if ((c >= 48 && c <= 57) /* 0-9 */ || c === PLUS || c === MINUS) {
    if (c !== 48 && c <= 57 && text.length < 16 && isDecimalDigits(text)) return Number(text); // the common case: 3, 8080
    const word = SIGNED_WORDS.get(text);
    if (word !== undefined) return word;
    const n = goNumber(text);
    return n === undefined ? text : n.value === 0 ? 0 : n.value; // JSON has no -0
  }
  if (c === DOT) {
    const word = WORDS.get(text);
    if (word !== undefined) return word;
    const n = goDotFloat(text);
    return n === undefined ? text : n;
  }
  if (WORD_START[c] === 1) {
    const word = WORDS.get(text);
    if (word !== undefined) return word;
  }
  return text;
}

/**
 * The exact decimal of a plain scalar go-yaml reads as an int64 or uint64 beyond 2^53, where a JavaScript number
 * may not hold it (1234567890123456789 would be carried as 1234567890123456800) or holds it but no longer says it
 * was an int (-9223372036854775808 prints as -9223372036854776000); undefined for anything else.
 */
export function unsafeInteger(text: string): string | undefined {
  const c = text.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === PLUS || c === MINUS)) return undefined;
  const n = goNumber(text);
  if (!n || n.float || Number.isSafeInteger(n.value)) return undefined;
  return n.exact;
}

/**
 * The JSON key kubectl makes of a plain scalar key (sigs.k8s.io/yaml turns non-string keys into strings:
 * `1` -> "1", `yes` -> "true", `0644` -> "420", `1e6` -> "1e+06"), or an explanation when it has none (a
 * null key, an unsigned 64-bit one): kubectl fails on the file.
 */
export function plainKeyString(text: string): { key: string } | { error: string } {
  const c = text.charCodeAt(0);
  const digitOrSign = (c >= 48 && c <= 57) || c === PLUS || c === MINUS;
  if (text !== '' && !digitOrSign && c !== DOT && WORD_START[c] !== 1) return { key: text };
  const value = resolvePlainScalar(text);
  if (value === null)
    return { error: `the key \`${text}\` is null in YAML 1.1, and kubectl cannot make a JSON key of null` };
  if (typeof value === 'boolean') return { key: String(value) };
  if (typeof value === 'string') return { key: value };
  const n = c === DOT ? undefined : goNumber(text);
  if (!n) return { key: formatFloat32(value) }; // .5, .inf, -.Inf: floats
  if (n.unsigned)
    return { error: `the key \`${text}\` is an unsigned 64-bit integer, which kubectl cannot make a JSON key of` };
  return { key: n.float ? formatFloat32(n.value) : n.exact }; // -0.0 is "-0", as Go formats it
}

/** The scalar's value as a JSON key: what sigs.k8s.io/yaml makes of an already resolved (e.g. tagged) key. */
export function keyStringOf(value: unknown): { key: string } | { error: string } {
  if (typeof value === 'string') return { key: value };
  if (typeof value === 'boolean') return { key: String(value) };
  if (typeof value === 'number')
    return {
      key: Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? String(value) : formatFloat32(value),
    };
  if (value === null || value === undefined)
    return { error: 'a null key has no JSON form, and kubectl refuses the file' };
  return { error: 'a key that is a list or a mapping has no JSON form, and kubectl refuses the file' };
}

const PLUS = 43;
const MINUS = 45;
const DOT = 46;

/** First characters of the words in WORDS (go-yaml's `yYnNtTfFoO~`, and `.` for `.inf`/`.nan`). */
const WORD_START = new Uint8Array(128);
for (const ch of 'yYnNtTfFoO~.') WORD_START[ch.charCodeAt(0)] = 1;

/** go-yaml v2's resolveMap, every spelling it lists and no other (`yEs` is a string). */
const WORDS = new Map<string, null | boolean | number>();
for (const w of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) WORDS.set(w, true);
for (const w of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) WORDS.set(w, false);
for (const w of ['~', 'null', 'Null', 'NULL']) WORDS.set(w, null);
for (const w of ['.nan', '.NaN', '.NAN']) WORDS.set(w, NaN);
for (const w of ['.inf', '.Inf', '.INF']) WORDS.set(w, Infinity);
const SIGNED_WORDS = new Map<string, number>();
for (const w of ['+.inf', '+.Inf', '+.INF']) SIGNED_WORDS.set(w, Infinity);
for (const w of ['-.inf', '-.Inf', '-.INF']) SIGNED_WORDS.set(w, -Infinity);

function isDecimalDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseInt(s, 0, 64) syntax: sign, then 0x/0o/0b, a leading 0 (octal), or decimal. */
const GO_INT = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
/** go-yaml's yamlStyleFloat, applied to the text without underscores. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

interface GoNumber {
  /** The number JSON carries (ints beyond 2^53 lose digits, as in any JavaScript reader). */
  value: number;
  float: boolean;
  /** Above int64: go-yaml makes it a uint64, which sigs.k8s.io/yaml cannot use as a key. */
  unsigned: boolean;
  /** Decimal digits of an int, exact: what a key becomes. */
  exact: string;
}

/**
 * go-yaml v2's `case 'D', 'S'` for a text starting with a digit or a sign: underscores dropped, then
 * ParseInt(…, 0, 64), ParseUint(…, 0, 64), yamlStyleFloat + ParseFloat, then its own `0b` fallback. A float
 * outside float64's range is a ParseFloat error there, so the text stays a string. (Timestamps come first in
 * go-yaml, but it hands them to an interface{} as their text, and no timestamp reads as a number.)
 */
function goNumber(text: string): GoNumber | undefined {
  const plain = text.includes('_') ? text.replaceAll('_', '') : text;
  const int = goParseInt(plain, GO_INT);
  if (int !== undefined) return int;
  if (YAML_STYLE_FLOAT.test(plain)) {
    const value = parseFloat(plain);
    if (Number.isFinite(value)) return { value, float: true, unsigned: false, exact: '' };
  }
  if (plain.startsWith('0b')) return goParseInt(plain.slice(2), BINARY_DIGITS);
  return undefined;
}

/** ParseInt(s, 2, 64) then ParseUint(s, 2, 64), as go-yaml tries what follows `0b` (a sign included). */
const BINARY_DIGITS = /^([+-]?)([01]+)$/;

function goParseInt(plain: string, syntax: RegExp): GoNumber | undefined {
  const m = syntax.exec(plain);
  if (!m) return undefined;
  const sign = m[1];
  let magnitude: bigint;
  if (syntax === BINARY_DIGITS) magnitude = BigInt(`0b${m[2]}`);
  else {
    const [, , hex, oct, bin, legacyOct, dec] = m;
    magnitude =
      hex !== undefined
        ? BigInt(`0x${hex}`)
        : oct !== undefined
          ? BigInt(`0o${oct}`)
          : bin !== undefined
            ? BigInt(`0b${bin}`)
            : legacyOct !== undefined
              ? legacyOct === ''
                ? 0n
                : BigInt(`0o${legacyOct}`)
              : BigInt(dec!);
  }
  const n = sign === '-' ? -magnitude : magnitude;
  if (n >= INT64_MIN && n <= INT64_MAX)
    return { value: Number(n) || 0, float: false, unsigned: false, exact: String(n) };
  // ParseUint takes no sign.
  if (sign === '' && n <= UINT64_MAX) return { value: Number(n), float: false, unsigned: true, exact: String(n) };
  return undefined;
}

/**
 * `case '.'`: strconv.ParseFloat on the text as written, which takes underscores between digits (`.5_5` is
 * 0.55) and nothing but a decimal fraction with an optional exponent here.
 */
const GO_DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;

function goDotFloat(text: string): number | undefined {
  if (!GO_DOT_FLOAT.test(text)) return undefined;
  const value = parseFloat(text.replaceAll('_', ''));
  return Number.isFinite(value) ? value : undefined;
}

/**
 * strconv.FormatFloat(v, 'g', -1, 32), which sigs.k8s.io/yaml uses for float keys: the shortest digits that
 * read back as the same float32, exponent form from 1e+06 and below 1e-04, and `.inf`/`-.inf`/`.nan`.
 */
export function formatFloat32(v: number): string {
  const f = Math.fround(v);
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  let shortest = f.toPrecision(9);
  for (let p = 1; p < 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) {
      shortest = s;
      break;
    }
  }
  const n = Number(shortest);
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** A RegExp whose `test` is a function: the yaml library asks tags for `test.test(text)` and nothing else. */
function predicate(fn: (text: string) => boolean): RegExp {
  const re = /(?:)/;
  re.test = fn;
  return re;
}

const core = new Schema({ schema: 'core' }).tags as ScalarTag[];
const yaml11 = new Schema({ schema: 'yaml-1.1' }).tags as ScalarTag[];
const coreTag = (tag: string, format?: string) =>
  core.find((t) => t.tag === `tag:yaml.org,2002:${tag}` && t.format === format)!;

const isInt = (text: string) => {
  const v = resolvePlainScalar(text);
  return typeof v === 'number' && text.charCodeAt(0) !== DOT && goNumber(text)?.float === false;
};
const isNumber = (text: string) => typeof resolvePlainScalar(text) === 'number';

/** go-yaml's ints and floats, resolved by resolvePlainScalar; written back the way the core schema writes numbers. */
const goInt: ScalarTag = {
  ...coreTag('int'),
  test: predicate(isInt),
  resolve: (text) => resolvePlainScalar(text),
};
const goFloat: ScalarTag = {
  ...coreTag('float', undefined),
  // Also what an explicit `!!float 1` asks for: go-yaml turns an int into a float there.
  test: predicate(isNumber),
  resolve: (text) => resolvePlainScalar(text),
};
const trueTag = yaml11.find((t) => t.tag === 'tag:yaml.org,2002:bool' && t.identify?.(true))!;
const falseTag = yaml11.find((t) => t.tag === 'tag:yaml.org,2002:bool' && t.identify?.(false))!;

/**
 * The yaml library's tags for kubectl's reading: collections and strings of the core schema, go-yaml v2's null,
 * booleans (the yaml library's 1.1 spellings are exactly go-yaml's) and numbers, and `<<` merge keys.
 */
export const GO_YAML_TAGS = (tags: Tags): Tags => [
  ...tags.filter(
    (t) => typeof t === 'object' && ['map', 'seq', 'str'].some((name) => t.tag === `tag:yaml.org,2002:${name}`),
  ),
  coreTag('null'),
  trueTag,
  falseTag,
  goInt,
  goFloat,
];

/** Parse options for user YAML and for Flotilla's own files read back: kubectl's scalars, nothing logged. */
export const GO_YAML_PARSE_OPTIONS = {
  schema: 'core',
  customTags: GO_YAML_TAGS,
  merge: true,
  logLevel: 'error',
} as const;

/**
 * Stringify options for every YAML file Flotilla writes: strings that go-yaml v2 or any YAML 1.1 reader (the
 * yaml library's 1.1 schema: `1:20`, `2001-12-14`, `0b1`) would read as something else are quoted, so kubectl,
 * Argo CD, Flux, PyYAML and Flotilla itself all read back the string that was written.
 */
export const GO_YAML_STRINGIFY_OPTIONS = {
  schema: 'core',
  customTags: GO_YAML_TAGS,
  compat: 'yaml-1.1',
  logLevel: 'error',
} as const;

/**
 * A whole document for Flotilla's own `-o yaml` reports: keys in the report's order, a long message on one line (kubectl
 * folds at 80 columns, through go-yaml: src/yaml/goYamlV2.ts writes that form where bytes must match Karmada's) and no
 * anchors or aliases where a value appears twice (`&a1` / `*a1`), which kubectl never writes and few readers expect.
 */
export const GO_YAML_DOCUMENT_OPTIONS = {
  ...GO_YAML_STRINGIFY_OPTIONS,
  lineWidth: 0,
  aliasDuplicateObjects: false,
} as const;
