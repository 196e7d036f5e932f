import { parseAllDocuments } from 'yaml';
import { documentValue, DocumentValueError } from './documentValue.ts';
import { GO_YAML_PARSE_OPTIONS, resolvePlainScalar } from './goYamlSchema.ts';

/**
 * A reader for the plain block YAML nearly every manifest is written in — block mappings and sequences
 * (compact ones too), plain and quoted one-line scalars, literal blocks (`|`, `|-`), one-line flow collections of
 * scalars (`[a, b]`, `{k: v}`),
 * comments and `---` — several times faster than the yaml library, whose document model a cold render paid
 * for on every file of the fleet. Anything outside that subset (anchors, aliases, tags, nested or multi-line
 * flow collections, folded or multi-line scalars, tabs, CR line ends, duplicate keys, keys that are not
 * strings, anything the library would call an error) makes it give up on the whole text, and the caller
 * parses it with the library. For every text it accepts, the values are those of the library path
 * (parseAllDocuments with GO_YAML_TAGS, then documentValue): kubectl's reading, go-yaml v2 + sigs.k8s.io/yaml.
 * test/documents/blockYaml.test.ts holds both to that on every YAML file of the project, Karmada's samples and
 * thousands of generated texts; test/documents/kubectlYaml.test.ts holds the library path to real kubectl.
 */

export interface BlockDocument {
  /** The document's value; null for a document with no content (a `---` with nothing after it). */
  value: unknown;
  /** 1-based line and column where the content starts (for an empty document: just after its `---`). */
  line: number;
  column: number;
}

/** The documents of `text`, or undefined when it leaves the subset (parse it with the yaml library). */
export function parseBlockYaml(text: string): BlockDocument[] | undefined {
  if (UNSUPPORTED_CHARACTERS.test(text)) return undefined;
  try {
    return new BlockReader(text).documents();
  } catch (err) {
    if (err === OUTSIDE) return undefined;
    throw err;
  }
}

/**
 * Tabs, CR, control characters and the Unicode line breaks: each has rules of its own (tab indentation is an
 * error, CR ends lines, NEL/LS/PS fold) that the subset leaves to the library.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it matches
const UNSUPPORTED_CHARACTERS = /[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]/;

/** Thrown (one shared object, no stack) when the text leaves the subset; caught in parseBlockYaml only. */
const OUTSIDE = Object.freeze({ outside: true });

// biome-ignore lint/suspicious/noConstEnum: file-local, so tsc and tsx (esbuild) inline it the same way
const enum Line {
  Content,
  Blank,
  DocumentStart,
}

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;
const QUOTE = 34;
const APOSTROPHE = 39;

class BlockReader {
  readonly #lines: string[];
  readonly #indent: Int32Array;
  readonly #kind: Uint8Array;
  #pos = 0;

  constructor(text: string) {
    const lines = text.split('\n');
    this.#lines = lines;
    this.#indent = new Int32Array(lines.length);
    this.#kind = new Uint8Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let k = 0;
      while (line.charCodeAt(k) === SPACE) k++;
      this.#indent[i] = k;
      if (k === line.length || line.charCodeAt(k) === HASH) this.#kind[i] = Line.Blank;
      else if (
        k === 0 &&
        (line.startsWith('---') || line.startsWith('...')) &&
        (line.length === 3 || line.charCodeAt(3) === SPACE)
      ) {
        // `--- # comment` only: content after the marker, and `...` document ends, are the library's.
        if (line[0] === '.' || !isBlankOrComment(line, 3)) throw OUTSIDE;
        this.#kind[i] = Line.DocumentStart;
      } else if (k === 0 && line.charCodeAt(0) === 37 /* % directive */) throw OUTSIDE;
      else this.#kind[i] = Line.Content;
    }
  }

  documents(): BlockDocument[] {
    const docs: BlockDocument[] = [];
    let p = this.#next();
    if (p < this.#lines.length && this.#kind[p] !== Line.DocumentStart) docs.push(this.#document(p));
    for (;;) {
      p = this.#next();
      if (p >= this.#lines.length) return docs;
      this.#pos = p + 1;
      const q = this.#next();
      if (q >= this.#lines.length || this.#kind[q] === Line.DocumentStart)
        docs.push({ value: null, line: p + 1, column: 4 });
      else docs.push(this.#document(q));
    }
  }

  #document(p: number): BlockDocument {
    const value = this.#node(-1);
    const q = this.#next();
    if (q < this.#lines.length && this.#kind[q] !== Line.DocumentStart) throw OUTSIDE;
    return { value, line: p + 1, column: this.#indent[p]! + 1 };
  }

  /** The next line with content (or a `---`) from the cursor, which moves there; lines.length at the end. */
  #next(): number {
    let p = this.#pos;
    while (p < this.#lines.length && this.#kind[p] === Line.Blank) p++;
    this.#pos = p;
    return p;
  }

  /** Indentation of the next content line; -1 at the end of the document. */
  #nextIndent(): number {
    const p = this.#next();
    return p >= this.#lines.length || this.#kind[p] === Line.DocumentStart ? -1 : this.#indent[p]!;
  }

  /** The node starting on the cursor's line (indented more than `parent`). */
  #node(parent: number): unknown {
    const line = this.#lines[this.#pos]!;
    const col = this.#indent[this.#pos]!;
    if (isSequenceEntry(line, col)) return this.#sequence(col);
    if (keyAt(line, col)) return this.#mapping(col);
    return this.#value(line, col, parent, false);
  }

  /** A block mapping whose first key starts at column `indent` of the cursor's line (after `- ` when compact). */
  #mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let first = true; ; first = false) {
      if (!first) {
        const next = this.#nextIndent();
        if (next < indent) return out;
        if (next > indent) throw OUTSIDE;
      }
      const line = this.#lines[this.#pos]!;
      const key = keyAt(line, indent);
      if (!key) throw OUTSIDE; // a scalar or `- ` where a key belongs: the library reports it
      if (Object.hasOwn(out, key.key)) throw OUTSIDE; // duplicate key: an error with uniqueKeys
      out[key.key] = this.#value(line, skipSpaces(line, key.end), indent, true);
    }
  }

  /** A block sequence whose first `-` is at column `indent` of the cursor's line. */
  #sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (let first = true; ; first = false) {
      if (!first) {
        const next = this.#nextIndent();
        if (next < indent) return out;
        if (next > indent) throw OUTSIDE;
        if (!isSequenceEntry(this.#lines[this.#pos]!, indent)) return out; // the parent mapping's next key
      }
      const line = this.#lines[this.#pos]!;
      const col = skipSpaces(line, indent + 1);
      if (col < line.length && isSequenceEntry(line, col)) out.push(this.#sequence(col));
      else if (col < line.length && line.charCodeAt(col) !== HASH && keyAt(line, col)) out.push(this.#mapping(col));
      else out.push(this.#value(line, col, indent, false));
    }
  }

  /**
   * The value starting at column `col` of the cursor's line, belonging to a node at indentation `parent`:
   * nothing (then the block on the next lines, or null), a scalar, `[]`/`{}` or a literal block. Moves the
   * cursor past it. `compactSequence`: a mapping value, which may be a sequence at the mapping's own indentation.
   */
  #value(line: string, col: number, parent: number, compactSequence: boolean): unknown {
    if (col >= line.length || line.charCodeAt(col) === HASH) {
      this.#pos++;
      const next = this.#nextIndent();
      if (next > parent) return this.#node(parent);
      if (compactSequence && next === parent && isSequenceEntry(this.#lines[this.#pos]!, next))
        return this.#sequence(next);
      return null;
    }
    const c = line.charCodeAt(col);
    let value: unknown;
    if (c === 124 /* | */) return this.#literal(line, col, parent);
    if (c === QUOTE || c === APOSTROPHE) {
      const quoted = c === QUOTE ? doubleQuoted(line, col) : singleQuoted(line, col);
      if (!isBlankOrComment(line, quoted.end)) throw OUTSIDE;
      value = quoted.value;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      const flow = c === 91 ? flowSequence(line, col) : flowMapping(line, col);
      if (!isBlankOrComment(line, flow.end)) throw OUTSIDE;
      value = flow.value;
    } else {
      value = plainScalar(line, col);
    }
    this.#pos++;
    // A more indented line after a one-line scalar continues it (multi-line plain) or is an error: the library's.
    if (this.#nextIndent() > parent) throw OUTSIDE;
    return value;
  }

  /** `|` or `|-` at column `col`; the content is the following lines indented more than `parent`. */
  #literal(line: string, col: number, parent: number): string {
    let h = col + 1;
    const strip = line.charCodeAt(h) === DASH;
    if (strip) h++;
    if (parent < 0 || !isBlankOrComment(line, h)) throw OUTSIDE; // keep (+), explicit indentation, a document of its own
    const lines = this.#lines;
    let k = this.#pos + 1;
    // The content's indentation is that of its first non-blank line; blank lines before it may not be longer.
    let longestLeadingBlank = 0;
    while (k < lines.length && isSpaces(lines[k]!))
      longestLeadingBlank = Math.max(longestLeadingBlank, lines[k++]!.length);
    const contentIndent = k < lines.length ? this.#indent[k]! : -1;
    const body: string[] = [];
    if (contentIndent > parent) {
      if (longestLeadingBlank > contentIndent) throw OUTSIDE;
      for (let b = this.#pos + 1; b < k; b++) body.push('');
      for (; k < lines.length; k++) {
        const text = lines[k]!;
        if (isSpaces(text)) {
          if (text.length > contentIndent) throw OUTSIDE; // spaces that are content: the library's
          body.push('');
        } else if (this.#indent[k]! >= contentIndent) body.push(text.slice(contentIndent));
        else break;
      }
      // Ran into the end of a text without a final newline: how the last line break counts is the library's.
      if (k === lines.length && lines[lines.length - 1] !== '') throw OUTSIDE;
    } else if (longestLeadingBlank > parent + 1) throw OUTSIDE;
    let last = body.length;
    while (last > 0 && body[last - 1] === '') last--;
    this.#pos = k;
    if (this.#nextIndent() > parent) throw OUTSIDE;
    if (last === 0) return '';
    const text = body.slice(0, last).join('\n');
    return strip ? text : `${text}\n`;
  }
}

function isSequenceEntry(line: string, col: number): boolean {
  return line.charCodeAt(col) === DASH && (col + 1 === line.length || line.charCodeAt(col + 1) === SPACE);
}

function skipSpaces(line: string, col: number): number {
  while (line.charCodeAt(col) === SPACE) col++;
  return col;
}

function isSpaces(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) !== SPACE) return false;
  return true;
}

/** Only spaces from `col`, then optionally a comment that follows at least one space (or starts the line). */
function isBlankOrComment(line: string, col: number): boolean {
  const k = skipSpaces(line, col);
  return k === line.length || (line.charCodeAt(k) === HASH && (k > col || col === 0));
}

/** Characters that cannot start a plain scalar (quotes and flow brackets are read before this is asked). */
const INDICATORS = new Set([...'[]{},#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));

/**
 * The implicit key starting at `col` (plain or quoted, then `:` and a space or the line's end), or undefined
 * when the line holds no key there. A key the subset cannot keep as the library does (not a string once
 * resolved, the merge key, `__proto__`, very long) throws OUTSIDE.
 */
function keyAt(line: string, col: number): { key: string; end: number } | undefined {
  const c = line.charCodeAt(col);
  if (c === QUOTE || c === APOSTROPHE) {
    const quoted = c === QUOTE ? doubleQuoted(line, col) : singleQuoted(line, col);
    const k = skipSpaces(line, quoted.end);
    if (line.charCodeAt(k) !== COLON || (k + 1 < line.length && line.charCodeAt(k + 1) !== SPACE)) return undefined;
    return checkedKey(quoted.value, k + 1);
  }
  if (INDICATORS.has(c)) return undefined;
  if (
    (c === DASH || c === 63 /* ? */ || c === COLON) &&
    (col + 1 === line.length || line.charCodeAt(col + 1) === SPACE)
  )
    return undefined;
  let colon = line.indexOf(':', col);
  while (colon >= 0 && colon + 1 < line.length && line.charCodeAt(colon + 1) !== SPACE)
    colon = line.indexOf(':', colon + 1);
  if (colon < 0) return undefined;
  const hash = line.indexOf(' #', col);
  if (hash >= 0 && hash < colon) return undefined;
  const key = line.slice(col, colon).trimEnd();
  // `yes:`, `1:`, `~:` become "true", "1" or an error for kubectl: the library path's.
  if (typeof resolvePlainScalar(key) !== 'string') throw OUTSIDE;
  return checkedKey(key, colon + 1);
}

function checkedKey(key: string, end: number): { key: string; end: number } {
  if (key === '<<' || key === '__proto__' || key.length > 1000) throw OUTSIDE;
  return { key, end };
}

/** A plain scalar from `col` to a comment or the line's end, resolved by the core schema. */
function plainScalar(line: string, col: number): unknown {
  const c = line.charCodeAt(col);
  if (INDICATORS.has(c)) throw OUTSIDE;
  if (
    (c === DASH || c === 63 /* ? */ || c === COLON) &&
    (col + 1 === line.length || line.charCodeAt(col + 1) === SPACE)
  )
    throw OUTSIDE;
  const hash = line.indexOf(' #', col);
  const text = line.slice(col, hash < 0 ? line.length : hash).trimEnd();
  // `a: b: c` and `a: b:` are errors (a mapping cannot start inside a value).
  if (text.includes(': ') || text.endsWith(':')) throw OUTSIDE;
  return resolvePlain(text);
}

/** kubectl's value of a plain scalar; `.inf` and `.nan`, which kubectl refuses, are the library path's to report. */
function resolvePlain(text: string): unknown {
  const value = resolvePlainScalar(text);
  if (typeof value === 'number' && !Number.isFinite(value)) throw OUTSIDE;
  return value;
}

/**
 * `[a, "b", 1]` closed on the same line, its items scalars (nothing nested, no empty item, no trailing comma);
 * end is the column after the `]`.
 */
function flowSequence(line: string, col: number): { value: unknown[]; end: number } {
  const value: unknown[] = [];
  let k = skipSpaces(line, col + 1);
  if (line.charCodeAt(k) === 93 /* ] */) return { value, end: k + 1 };
  for (;;) {
    const item = flowScalar(line, k, 93);
    value.push(item.value);
    k = skipSpaces(line, item.end);
    const c = line.charCodeAt(k);
    if (c === 93) return { value, end: k + 1 };
    if (c !== 44 /* , */) throw OUTSIDE;
    k = skipSpaces(line, k + 1);
  }
}

/**
 * `{a: 1, "b": "x"}` closed on the same line: string keys (plain ones followed by `: `, quoted ones by `:`) and
 * scalar values, no key twice; end is the column after the `}`.
 */
function flowMapping(line: string, col: number): { value: Record<string, unknown>; end: number } {
  const value: Record<string, unknown> = {};
  let k = skipSpaces(line, col + 1);
  if (line.charCodeAt(k) === 125 /* } */) return { value, end: k + 1 };
  for (;;) {
    const c = line.charCodeAt(k);
    let key: string;
    if (c === QUOTE || c === APOSTROPHE) {
      const quoted = c === QUOTE ? doubleQuoted(line, k) : singleQuoted(line, k);
      key = quoted.value;
      k = skipSpaces(line, quoted.end);
      if (line.charCodeAt(k) !== COLON) throw OUTSIDE;
      k++;
    } else {
      const colon = line.indexOf(': ', k);
      if (colon < 0) throw OUTSIDE;
      key = line.slice(k, colon).trimEnd();
      if (!isFlowPlain(key) || typeof resolvePlainScalar(key) !== 'string') throw OUTSIDE;
      k = colon + 1;
    }
    checkedKey(key, k);
    if (Object.hasOwn(value, key)) throw OUTSIDE;
    const item = flowScalar(line, skipSpaces(line, k), 125);
    value[key] = item.value;
    k = skipSpaces(line, item.end);
    const d = line.charCodeAt(k);
    if (d === 125) return { value, end: k + 1 };
    if (d !== 44 /* , */) throw OUTSIDE;
    k = skipSpaces(line, k + 1);
  }
}

/** A quoted or plain scalar inside a flow collection closed by `close`; end is the column after it. */
function flowScalar(line: string, col: number, close: number): { value: unknown; end: number } {
  const c = line.charCodeAt(col);
  if (c === QUOTE || c === APOSTROPHE) {
    const quoted = c === QUOTE ? doubleQuoted(line, col) : singleQuoted(line, col);
    return { value: quoted.value, end: quoted.end };
  }
  let k = col;
  while (k < line.length && line.charCodeAt(k) !== 44 && line.charCodeAt(k) !== close) k++;
  const text = line.slice(col, k).trimEnd();
  if (text === '' || !isFlowPlain(text)) throw OUTSIDE;
  return { value: resolvePlain(text), end: k };
}

/** A plain scalar the flow subset keeps: no indicator at its start, no `:`, `#` or bracket anywhere. */
function isFlowPlain(text: string): boolean {
  if (text === '' || INDICATORS.has(text.charCodeAt(0))) return false;
  const c = text.charCodeAt(0);
  if ((c === DASH || c === 63) /* ? */ && (text.length === 1 || text.charCodeAt(1) === SPACE)) return false;
  return !/[:#[\]{},]/.test(text);
}

/** `'…'` closed on the same line (`''` is a quote); end is the column after the closing quote. */
function singleQuoted(line: string, col: number): { value: string; end: number } {
  let value = '';
  let from = col + 1;
  for (;;) {
    const q = line.indexOf("'", from);
    if (q < 0) throw OUTSIDE; // continues on the next line
    value += line.slice(from, q);
    if (line.charCodeAt(q + 1) !== APOSTROPHE) return { value, end: q + 1 };
    value += "'";
    from = q + 2;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** `"…"` closed on the same line, escapes decoded; end is the column after the closing quote. */
function doubleQuoted(line: string, col: number): { value: string; end: number } {
  let value = '';
  let from = col + 1;
  for (let k = from; ; k++) {
    if (k >= line.length) throw OUTSIDE; // continues on the next line
    const c = line.charCodeAt(k);
    if (c === QUOTE) return { value: value + line.slice(from, k), end: k + 1 };
    if (c !== 92 /* \ */) continue;
    value += line.slice(from, k);
    const e = line[k + 1];
    if (e === undefined) throw OUTSIDE; // an escaped line break
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      value += simple;
      k++;
    } else {
      const digits = HEX_DIGITS[e];
      const hex = digits ? line.slice(k + 2, k + 2 + digits) : '';
      if (!digits || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw OUTSIDE;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw OUTSIDE;
      value += String.fromCodePoint(code);
      k += 1 + digits;
    }
    from = k + 1;
  }
}

/**
 * One YAML document's value as kubectl reads it (null for none; it throws on bad YAML, several documents, or a
 * value kubectl cannot carry as JSON): the block reader where it can, the library otherwise. For Flotilla's own
 * files (rendered manifests, bindings, status) read back on every sync and apply, which are always plain block
 * YAML, and the other YAML files a user hands Flotilla (kubeconfigs, plans).
 */
export function parseYamlValue(text: string): unknown {
  // As kubectl's line reader: the last line ends with a line break too.
  if (text.length > 0 && !text.endsWith('\n')) text += '\n';
  const block = parseBlockYaml(text);
  if (block && block.length <= 1) return block[0]?.value ?? null;
  const docs = parseAllDocuments(text, { ...GO_YAML_PARSE_OPTIONS, uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length === 0) return null;
  if (docs.length > 1) throw new Error('Source contains multiple documents; a single YAML document is expected here');
  const doc = docs[0]!;
  if (doc.errors[0]) throw doc.errors[0];
  return documentValue(doc, DEFAULT_MAX_ALIAS_COUNT);
}

const DEFAULT_MAX_ALIAS_COUNT = 1000;

/**
 * Every document of a YAML stream as kubectl reads it, for the read views over a branch: empty documents, and
 * documents kubectl could not read (validate reports those, with their position), are left out.
 */
export function parseYamlValues(text: string): unknown[] {
  if (text.length > 0 && !text.endsWith('\n')) text += '\n';
  const block = parseBlockYaml(text);
  if (block) return block.map((d) => d.value).filter((v) => v !== null);
  const docs = parseAllDocuments(text, { ...GO_YAML_PARSE_OPTIONS, uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) continue;
    try {
      const value = documentValue(doc, DEFAULT_MAX_ALIAS_COUNT);
      if (value !== null) out.push(value);
    } catch (err) {
      if (!(err instanceof DocumentValueError)) throw err;
    }
  }
  return out;
}
