import { resolvePlainScalar } from './goYamlSchema.ts';

/**
 * sigs.k8s.io/yaml's `JSONToYAML` (yaml.go): the bytes Karmada writes back after a fieldOverrider's `yaml` ops
 * (pkg/util/overridemanager/overridemanager.go, applyRawYAMLPatch). The patched JSON is read by go-yaml v2 into an
 * interface{} and written by go-yaml v2's `yaml.Marshal`, so this follows that encoder and its libyaml emitter
 * (go.yaml.in/yaml/v2 encode.go, emitterc.go, sorter.go, resolve.go) rule for rule rather than a general YAML
 * writer: long scalars fold at spaces past column 80, keys sort with numbers inside them compared as numbers, a
 * float is written as strconv's shortest 'g' form (1e-05, 1.5000005e+06), a string that would read back as
 * something else is double-quoted, one that cannot be plain is single-quoted, a tab or a non-BMP character forces
 * double quotes with escapes, a multi-line string is a literal block unless a trailing space or special character
 * forbids it, and a key over 128 bytes or with a line break takes the `? ` form.
 *
 * The value is JSON-shaped (null, booleans, numbers, bigint for 64-bit integers, strings, arrays, plain objects): a
 * number is typed as go-yaml types the JSON text Go's encoding/json writes for it, so 2.0 is the int 2 and a float
 * of 1e20 stays a float. It fails where Karmada's does, go-yaml not reading back the JSON encoding/json wrote: a
 * character its reader refuses and encoding/json leaves as it is (DEL, C1 controls, U+FFFE, U+FFFF), a key longer
 * than 1022 characters as JSON or with a NEL in it, a NEL before a document marker in a string.
 *
 * Go's key order is not a total order for some key sets (`10`, `901a`, `9x` form a cycle), where Go's own output
 * changes from run to run with its map iteration order; this writes them in one fixed order.
 */
export function jsonToGoYaml(value: unknown): { ok: true; text: string } | { ok: false; message: string } {
  const reread = throughJsonText(value);
  if (!reread.ok) return reread;
  const emitter = new Emitter();
  emitter.node(reread.value, false, false);
  emitter.writeIndent(); // DOCUMENT-END
  return { ok: true, text: emitter.text() };
}

/**
 * Whether go-yaml's reader (readerc.go) refuses the text: it takes tab, CR, LF, printable ASCII, NEL and the rest
 * of Unicode but surrogates, U+FFFE and U+FFFF; anything else fails the whole document with "control characters
 * are not allowed".
 */
export function goYamlReaderRefuses(text: string): boolean {
  return READER_REFUSES.test(text);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const READER_REFUSES = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/;

/** libyaml's defaults, which go-yaml v2's Marshal does not change. */
const BEST_INDENT = 2;
const BEST_WIDTH = 80;
/** check_simple_key: a longer key (in UTF-8 bytes) is written as `? key`. */
const MAX_SIMPLE_KEY_BYTES = 128;

// biome-ignore lint/suspicious/noConstEnum: file-local, so tsc and tsx (esbuild) inline it the same way
const enum Style {
  Plain,
  SingleQuoted,
  DoubleQuoted,
  Literal,
}

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/**
 * The emitter state of emitterc.go for the events go-yaml's encoder sends for one implicit document of block
 * collections. A flow collection only ever holds nothing here (an empty one is `[]`/`{}`), so flow items, anchors,
 * tags and folded scalars never occur.
 */
class Emitter {
  #out: string[] = [];
  #column = 0;
  #whitespace = true;
  #indention = true;
  #indent = -1;
  readonly #indents: number[] = [];
  #mappingContext = false;
  #simpleKeyContext = false;

  text(): string {
    return this.#out.join('');
  }

  node(value: unknown, mapping: boolean, simpleKey: boolean): void {
    this.#mappingContext = mapping;
    this.#simpleKeyContext = simpleKey;
    if (Array.isArray(value)) {
      if (value.length === 0) this.#emptyFlow('[', ']');
      else this.#blockSequence(value);
    } else if (typeof value === 'object' && value !== null && typeof value !== 'bigint') {
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).filter((k) => object[k] !== undefined);
      if (keys.length === 0) this.#emptyFlow('{', '}');
      else this.#blockMapping(object, keys);
    } else {
      const [text, style] = scalarEvent(value);
      const cps = codePoints(text);
      this.#scalar(cps, analyzeScalar(cps), style);
    }
  }

  /** JSON gives no flow collections but empty ones, `[]` and `{}`: nothing is ever written inside a flow level. */
  #emptyFlow(open: string, close: string): void {
    this.#writeIndicator(open, true, true, false);
    this.#writeIndicator(close, false, false, false);
  }

  #blockSequence(items: readonly unknown[]): void {
    // A sequence that is a mapping's value on the key's line (indention false after `key:`) is not indented.
    this.#increaseIndent(false, this.#mappingContext && !this.#indention);
    for (const item of items) {
      this.writeIndent();
      this.#writeIndicator('-', true, false, true);
      this.node(item === undefined ? null : item, false, false);
    }
    this.#popIndent();
  }

  #blockMapping(object: Record<string, unknown>, keys: string[]): void {
    this.#increaseIndent(false, false);
    for (const key of keys.sort(compareKeys)) {
      this.writeIndent();
      const [text, style] = scalarEvent(key);
      const cps = codePoints(text);
      const analysis = analyzeScalar(cps);
      if (!analysis.multiline && utf8Length(cps) <= MAX_SIMPLE_KEY_BYTES) {
        this.#mappingContext = true;
        this.#simpleKeyContext = true;
        this.#scalar(cps, analysis, style);
        this.#writeIndicator(':', false, false, false);
      } else {
        this.#writeIndicator('?', true, false, true);
        this.#mappingContext = true;
        this.#simpleKeyContext = false;
        this.#scalar(cps, analysis, style);
        this.writeIndent();
        this.#writeIndicator(':', true, false, true);
      }
      this.node(object[key], true, false);
    }
    this.#popIndent();
  }

  /** yaml_emitter_select_scalar_style, then the writer of the chosen style one indentation step in. */
  #scalar(cps: readonly number[], a: ScalarAnalysis, requested: Style): void {
    let style = requested;
    if (this.#simpleKeyContext && a.multiline) style = Style.DoubleQuoted;
    if (style === Style.Plain) {
      if (!a.blockPlainAllowed) style = Style.SingleQuoted;
      if (cps.length === 0 && this.#simpleKeyContext) style = Style.SingleQuoted;
    }
    if (style === Style.SingleQuoted && !a.singleQuotedAllowed) style = Style.DoubleQuoted;
    if (style === Style.Literal && (!a.blockAllowed || this.#simpleKeyContext)) style = Style.DoubleQuoted;
    this.#increaseIndent(true, false);
    const allowBreaks = !this.#simpleKeyContext;
    if (style === Style.Plain) this.#writePlain(cps, allowBreaks);
    else if (style === Style.SingleQuoted) this.#writeSingleQuoted(cps, allowBreaks);
    else if (style === Style.DoubleQuoted) this.#writeDoubleQuoted(cps, allowBreaks);
    else this.#writeLiteral(cps);
    this.#popIndent();
  }

  #increaseIndent(flow: boolean, indentless: boolean): void {
    this.#indents.push(this.#indent);
    if (this.#indent < 0) this.#indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.#indent += BEST_INDENT;
  }

  #popIndent(): void {
    this.#indent = this.#indents.pop() ?? -1;
  }

  #put(ascii: string): void {
    this.#out.push(ascii);
    this.#column++;
  }

  #putBreak(): void {
    this.#out.push('\n');
    this.#column = 0;
  }

  #write(cp: number): void {
    this.#out.push(String.fromCodePoint(cp));
    this.#column++;
  }

  #writeBreak(cp: number): void {
    if (cp === LF) this.#putBreak();
    else {
      this.#write(cp);
      this.#column = 0;
    }
  }

  writeIndent(): void {
    const indent = Math.max(this.#indent, 0);
    if (!this.#indention || this.#column > indent || (this.#column === indent && !this.#whitespace)) this.#putBreak();
    while (this.#column < indent) this.#put(' ');
    this.#whitespace = true;
    this.#indention = true;
  }

  #writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.#whitespace) this.#put(' ');
    for (const ch of indicator) this.#put(ch);
    this.#whitespace = isWhitespace;
    this.#indention = this.#indention && isIndention;
  }

  #writePlain(cps: readonly number[], allowBreaks: boolean): void {
    if (!this.#whitespace) this.#put(' ');
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i]!;
      if (c === SPACE) {
        if (allowBreaks && !spaces && this.#column > BEST_WIDTH && cps[i + 1] !== SPACE) this.writeIndent();
        else this.#write(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.#putBreak();
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.#write(c);
        this.#indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.#whitespace = false;
    this.#indention = false;
  }

  #writeSingleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.#writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i]!;
      if (c === SPACE) {
        if (allowBreaks && !spaces && this.#column > BEST_WIDTH && i > 0 && i < cps.length - 1 && cps[i + 1] !== SPACE)
          this.writeIndent();
        else this.#write(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === LF) this.#putBreak();
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === QUOTE) this.#put("'");
        this.#write(c);
        this.#indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.#writeIndicator("'", false, false, false);
    this.#whitespace = false;
    this.#indention = false;
  }

  #writeDoubleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.#writeIndicator('"', true, false, false);
    // libyaml's is_bom looks at the value's first bytes whatever the position, so a value that starts with a BOM
    // has every character escaped.
    const startsWithBom = cps[0] === BOM;
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i]!;
      if (!isPrintable(c) || startsWithBom || isBreak(c) || c === DQUOTE || c === BACKSLASH) {
        this.#put('\\');
        const short = SHORT_ESCAPES.get(c);
        if (short !== undefined) this.#put(short);
        else {
          const [letter, digits] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
          this.#put(letter);
          for (const h of c.toString(16).toUpperCase().padStart(digits, '0')) this.#put(h);
        }
        spaces = false;
      } else if (c === SPACE) {
        if (allowBreaks && !spaces && this.#column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent();
          if (cps[i + 1] === SPACE) this.#put('\\');
        } else this.#write(c);
        spaces = true;
      } else {
        this.#write(c);
        spaces = false;
      }
    }
    this.#writeIndicator('"', false, false, false);
    this.#whitespace = false;
    this.#indention = false;
  }

  #writeLiteral(cps: readonly number[]): void {
    this.#writeIndicator('|', true, false, false);
    if (cps[0] === SPACE || isBreak(cps[0]!)) this.#writeIndicator(String(BEST_INDENT), false, false, false);
    const last = cps.length - 1;
    const chomp = !isBreak(cps[last]!) ? '-' : last === 0 || isBreak(cps[last - 1]!) ? '+' : '';
    if (chomp) this.#writeIndicator(chomp, false, false, false);
    this.#putBreak();
    this.#indention = true;
    this.#whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.#write(c);
        this.#indention = false;
        breaks = false;
      }
    }
  }
}

const LF = 0x0a;
const SPACE = 0x20;
const DQUOTE = 0x22;
const QUOTE = 0x27;
const BACKSLASH = 0x5c;
const BOM = 0xfeff;

const SHORT_ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

/** libyaml's is_printable, which leaves out tabs, C1 controls, the BOM and everything beyond the BMP. */
function isPrintable(c: number): boolean {
  return (
    c === LF || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== BOM)
  );
}

function isBreak(c: number): boolean {
  return c === 0x0d || c === LF || c === 0x85 || c === 0x2028 || c === 0x2029;
}

const isBlank = (c: number | undefined) => c === SPACE || c === 0x09;
const isBlankOrBreak = (c: number) => isBlank(c) || isBreak(c) || c === 0;

/** yaml_emitter_analyze_scalar: which styles can carry the text unchanged. */
function analyzeScalar(cps: readonly number[]): ScalarAnalysis {
  if (cps.length === 0)
    return {
      multiline: false,
      blockPlainAllowed: true,
      singleQuotedAllowed: true,
      blockAllowed: false,
    };
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  const [c0, c1, c2] = cps;
  if (cps.length >= 3 && ((c0 === 0x2d && c1 === 0x2d && c2 === 0x2d) || (c0 === 0x2e && c1 === 0x2e && c2 === 0x2e))) {
    blockIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]);
    const ch = String.fromCodePoint(c);
    if (i === 0) {
      // Only block context is ever written (JSON gives no non-empty flow collections): libyaml's flow indicators
      // decide nothing here.
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':') && followedByWhitespace) blockIndicators = true;
      else if (ch === '-' && followedByWhitespace) blockIndicators = true;
    } else if (ch === ':' && followedByWhitespace) blockIndicators = true;
    else if (ch === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c)) specialCharacters = true;
    if (c === SPACE) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrBreak(c);
  }
  const a: ScalarAnalysis = {
    multiline: lineBreaks,
    blockPlainAllowed: true,
    singleQuotedAllowed: true,
    blockAllowed: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    a.blockPlainAllowed = false;
  }
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) {
    a.blockPlainAllowed = false;
  }
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

/** The scalar text and requested style encode.go gives a value (stringv, intv, uintv, floatv, boolv, nilv). */
function scalarEvent(value: unknown): [string, Style] {
  if (value === null || value === undefined) return ['null', Style.Plain];
  if (typeof value === 'boolean') return [value ? 'true' : 'false', Style.Plain];
  if (typeof value === 'bigint') return [value.toString(), Style.Plain];
  if (typeof value === 'number') return [numberText(value), Style.Plain];
  const s = String(value);
  if (s.includes('\n')) return [s, Style.Literal];
  // Plain only when it reads back as the same string (resolve() says !!str) and is no YAML 1.1 base-60 float.
  const canUsePlain = typeof resolvePlainScalar(s) === 'string' && !isGoTimestamp(s) && !isBase60Float(s);
  return [s, canUsePlain ? Style.Plain : Style.DoubleQuoted];
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * A number as go-yaml types and writes it after the JSON round trip: encoding/json writes a float64 without an
 * exponent from 1e-6 to below 1e21 (shortest digits, so an integral float is written as an integer); go-yaml reads
 * such integer text as int64 or uint64 when it fits, and anything else as a float64, which Marshal writes with
 * strconv.FormatFloat(f, 'g', -1, 64).
 */
function numberText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Number.POSITIVE_INFINITY) return '.inf';
  if (n === Number.NEGATIVE_INFINITY) return '-.inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    const digits = BigInt(String(n)); // String() of such a number is Go's 'f' form, e.g. 12345678901234567000
    if (digits >= INT64_MIN && digits <= UINT64_MAX) return digits.toString();
  }
  return formatFloat64(n);
}

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits, exponent form below 1e-4 and from 1e+06. */
export function formatFloat64(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exponent] = n.toExponential().split('e') as [string, string];
  const e = Number(exponent);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** Go strings are UTF-8: encoding/json writes a lone surrogate as U+FFFD. */
function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

function utf8Length(cps: readonly number[]): number {
  let n = 0;
  for (const c of cps) n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  return n;
}

/**
 * What go-yaml makes of the JSON text encoding/json writes for the value, as far as it is not the value itself:
 * a raw NEL (U+0085, which encoding/json does not escape) is a line break to YAML 1.1, folded inside the quoted
 * string like any other; a key whose quoted JSON runs past 1024 characters, or that spans lines, is no longer a
 * simple key; and its reader refuses a few characters encoding/json leaves as they are.
 */
function throughJsonText(value: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: reread(value) };
  } catch (err) {
    if (err instanceof JsonTextError) return { ok: false, message: err.message };
    throw err;
  }
}

class JsonTextError extends Error {}

function reread(value: unknown): unknown {
  if (typeof value === 'string') return rereadString(value);
  if (Array.isArray(value)) return value.map((item) => reread(item === undefined ? null : item));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const k = wellFormed(key);
    checkCharacters(k);
    if (k.includes(NEL) || quotedJsonLength(k) > MAX_FLOW_KEY_CHARS)
      throw new JsonTextError("yaml: did not find expected ',' or '}'");
    setOwn(out, k, reread(item));
  }
  return out;
}

/** Characters from the start of a simple key to its `:` past which go-yaml's scanner drops the key (stale). */
const MAX_FLOW_KEY_CHARS = 1024;
const NEL = '\u0085';

function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * go-yaml's reader refuses (readerc.go: "control characters are not allowed") what encoding/json writes as it is:
 * DEL, the C1 controls but NEL, U+FFFE and U+FFFF. The controls below U+0020 it escapes, and go-yaml reads those.
 */
function checkCharacters(s: string): void {
  if (/[\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/.test(s)) throw new JsonTextError('yaml: control characters are not allowed');
}

/** yaml_parser_scan_flow_scalar's folding of the line breaks in a double-quoted scalar: here only NELs. */
function rereadString(raw: string): string {
  const s = wellFormed(raw);
  checkCharacters(s);
  if (!s.includes(NEL)) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    if (s[i] !== ' ' && s[i] !== NEL) {
      out += s[i++];
      continue;
    }
    let whitespace = '';
    let leadingBreak = false;
    let trailingBreaks = '';
    for (; s[i] === ' ' || s[i] === NEL; i++) {
      if (s[i] === ' ') {
        if (!leadingBreak) whitespace += ' ';
      } else if (!leadingBreak) leadingBreak = true;
      else trailingBreaks += '\n';
    }
    if (!leadingBreak) out += whitespace;
    else {
      // A document marker at the start of a line ends the document, even inside quotes.
      const marker = s.slice(i, i + 3);
      if (s[i - 1] === NEL && (marker === '---' || marker === '...') && (s[i + 3] === ' ' || s[i + 3] === NEL))
        throw new JsonTextError('yaml: found unexpected document indicator');
      out += trailingBreaks === '' ? ' ' : trailingBreaks;
    }
  }
  return out;
}

/** The characters of a key as encoding/json quotes it (Go 1.22 and later: \b and \f are short escapes). */
function quotedJsonLength(key: string): number {
  let n = 2;
  for (const ch of key) {
    const c = ch.codePointAt(0)!;
    if (c === DQUOTE || c === BACKSLASH || c === 0x08 || c === 0x09 || c === LF || c === 0x0c || c === 0x0d) n += 2;
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) n += 6;
    else n += 1;
  }
  return n;
}

// ---- sorter.go ----

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (c: number) =>
  c < 0x80 ? (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) : LETTER.test(String.fromCodePoint(c));
const isDigit = (c: number) => (c < 0x80 ? c >= 0x30 && c <= 0x39 : DIGIT.test(String.fromCodePoint(c)));

function compareKeys(a: string, b: string): number {
  const ar = codePoints(a);
  const br = codePoints(b);
  return keyLess(ar, br) ? -1 : keyLess(br, ar) ? 1 : 0;
}

/**
 * keyList.Less for two string keys: rune by rune, letters after other characters, and runs of digits compared
 * as (wrapping int64) numbers, so `k8` sorts before `k10` and `a_1` after `a.1`.
 */
function keyLess(ar: readonly number[], br: readonly number[]): boolean {
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i]!;
    const bc = br[i]!;
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ac === 0x30 || bc === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]! - 0x30));
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]! - 0x30));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ac < bc;
  }
  return ar.length < br.length;
}

// ---- resolve.go's timestamps and encode.go's base-60 floats: strings Marshal quotes ----

/** encode.go's base60float, which Marshal still quotes for older YAML 1.1 readers. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

function isBase60Float(s: string): boolean {
  return BASE60_FLOAT.test(s);
}

type LayoutPart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction' | 'zone' | { literal: string };

const DATE: LayoutPart[] = ['year', { literal: '-' }, 'month', { literal: '-' }, 'day'];
const CLOCK: LayoutPart[] = ['hour', { literal: ':' }, 'minute', { literal: ':' }, 'second', 'fraction'];

/** resolve.go's allowedTimestampFormats, as the parts Go's time.Parse reads them in. */
const TIMESTAMP_LAYOUTS: LayoutPart[][] = [
  [...DATE, { literal: 'T' }, ...CLOCK, 'zone'],
  [...DATE, { literal: 't' }, ...CLOCK, 'zone'],
  [...DATE, { literal: ' ' }, ...CLOCK],
  DATE,
];

/** resolve.go's parseTimestamp: a string Marshal must quote, as a plain one would read back as a time. */
export function isGoTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
  if (i !== 4 || i === s.length || s[i] !== '-') return false;
  return TIMESTAMP_LAYOUTS.some((layout) => parsesAs(s, layout));
}

const isAsciiDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;

/** time.Parse's getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isAsciiDigit(s, 0)) return undefined;
  if (!isAsciiDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** time.Parse for one layout, as far as it accepts or refuses the text (the time itself is not needed). */
function parsesAs(text: string, layout: readonly LayoutPart[]): boolean {
  let value = text;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const part of layout) {
    if (typeof part === 'object') {
      if (part.literal === ' ') {
        // A space in the layout takes any run of spaces.
        if (value.length > 0 && value[0] !== ' ') return false;
        value = value.replace(/^ +/, '');
      } else if (value[0] !== part.literal) return false;
      else value = value.slice(1);
      continue;
    }
    if (part === 'year') {
      if (value.length < 4 || !/^[0-9]{4}/.test(value)) return false;
      year = Number(value.slice(0, 4));
      value = value.slice(4);
    } else if (part === 'fraction') {
      if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isAsciiDigit(value, 1))
        value = value.replace(/^[.,][0-9]+/, '');
    } else if (part === 'zone') {
      if (value[0] === 'Z') value = value.slice(1);
      else {
        if (value.length < 6 || value[3] !== ':') return false;
        const hh = getnum(value.slice(1, 3), true);
        const mm = getnum(value.slice(4, 6), true);
        if (!hh || !mm || (value[0] !== '+' && value[0] !== '-') || hh[0] > 24 || mm[0] > 60) return false;
        value = value.slice(6);
      }
    } else {
      const got = getnum(value, false);
      if (!got) return false;
      const [n, rest] = got;
      value = rest;
      if (part === 'month') {
        if (n < 1 || n > 12) return false;
        month = n;
      } else if (part === 'day') day = n;
      else if (part === 'hour' ? n > 23 : n > 59) return false;
    }
  }
  if (value.length > 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= days;
}
