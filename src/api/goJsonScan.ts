import { fieldPathText } from './unknownFields.ts';

/**
 * A request body read the way kube-apiserver's decoders read JSON: Go encoding/json's syntax check (its scanner's
 * first error, in its own words, byte by byte) and sigs.k8s.io/json's strict walk, which names every object key
 * met again in the same object by its field path. JavaScript's JSON.parse reports neither the same way.
 */
export interface GoJsonScan {
  /** Go's SyntaxError text, undefined when the body is valid JSON. */
  syntaxError?: string;
  /** Keys met twice in one object, each once, in document order, with the byte offset of the repeat. */
  duplicates: FieldOccurrence[];
  /** Byte offset of each field path's first key, to order strict errors as the decoder meets them. */
  firstSeen: Map<string, number>;
}

export interface FieldOccurrence {
  path: (string | number)[];
  offset: number;
}

// Go's scanner refuses nesting deeper than this (maxNestingDepth).
const MAX_DEPTH = 10000;

type Frame = { kind: 'object'; seen: Set<string>; key?: string } | { kind: 'array'; index: number };

const LITERALS: Record<string, string> = { t: 'true', f: 'false', n: 'null' };

export function scanGoJson(bytes: Uint8Array): GoJsonScan {
  const duplicates: FieldOccurrence[] = [];
  const reported = new Set<string>();
  const firstSeen = new Map<string, number>();
  const frames: Frame[] = [];
  const pathHere = () => frames.map((f) => (f.kind === 'object' ? (f.key ?? '') : f.index));
  let state = 'value';
  let literal = '';
  let literalAt = 0;
  let hexLeft = 0;
  let keyStart = -1;
  // Where a scalar or string ends: what follows is the container's separator or the end of the document.
  const endValue = () => {
    state = frames.length === 0 ? 'top' : frames[frames.length - 1]!.kind === 'object' ? 'objectValue' : 'arrayValue';
  };
  const fail = (c: number, context: string): GoJsonScan => ({
    syntaxError: `invalid character ${quoteChar(c)} ${context}`,
    duplicates: [],
    firstSeen: new Map(),
  });
  const endKey = (end: number) => {
    const frame = frames[frames.length - 1] as Extract<Frame, { kind: 'object' }>;
    const key = JSON.parse(Buffer.from(bytes.subarray(keyStart, end + 1)).toString('utf8')) as string;
    const path = [...pathHere().slice(0, -1), key];
    const text = fieldPathText(path);
    if (frame.seen.has(key)) {
      if (!reported.has(text)) duplicates.push({ path, offset: keyStart });
      reported.add(text);
    } else frame.seen.add(key);
    if (!firstSeen.has(text)) firstSeen.set(text, keyStart);
    frame.key = key;
    keyStart = -1;
  };

  // Each byte is fed once; a state that ends a number hands the same byte on to what follows, as Go's does.
  const step = (c: number, at: number): GoJsonScan | undefined => {
    const space = c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    const digit = c >= 0x30 && c <= 0x39;
    switch (state) {
      case 'valueOrEmpty':
        if (space) return undefined;
        if (c === 0x5d) {
          frames.pop();
          endValue();
          return undefined;
        }
        state = 'value';
        return step(c, at);
      case 'value':
        if (space) return undefined;
        if (c === 0x7b || c === 0x5b) {
          if (frames.length >= MAX_DEPTH) return fail(c, 'exceeded max depth');
          frames.push(c === 0x7b ? { kind: 'object', seen: new Set() } : { kind: 'array', index: 0 });
          state = c === 0x7b ? 'keyOrEmpty' : 'valueOrEmpty';
          return undefined;
        }
        if (c === 0x22) state = 'string';
        else if (c === 0x2d) state = 'neg';
        else if (c === 0x30) state = 'zero';
        else if (digit) state = 'int';
        else if (c === 0x74 || c === 0x66 || c === 0x6e) {
          literal = LITERALS[String.fromCharCode(c)]!;
          literalAt = 1;
          state = 'literal';
        } else return fail(c, 'looking for beginning of value');
        return undefined;
      case 'keyOrEmpty':
        if (space) return undefined;
        if (c === 0x7d) {
          frames.pop();
          endValue();
          return undefined;
        }
        state = 'key';
        return step(c, at);
      case 'key':
        if (space) return undefined;
        if (c !== 0x22) return fail(c, 'looking for beginning of object key string');
        keyStart = at;
        state = 'string';
        return undefined;
      case 'afterKey':
        if (space) return undefined;
        if (c !== 0x3a) return fail(c, 'after object key');
        state = 'value';
        return undefined;
      case 'objectValue':
        if (space) return undefined;
        if (c === 0x2c) {
          state = 'key';
          return undefined;
        }
        if (c === 0x7d) {
          frames.pop();
          endValue();
          return undefined;
        }
        return fail(c, 'after object key:value pair');
      case 'arrayValue': {
        if (space) return undefined;
        const frame = frames[frames.length - 1] as Extract<Frame, { kind: 'array' }>;
        if (c === 0x2c) {
          frame.index++;
          state = 'value';
          return undefined;
        }
        if (c === 0x5d) {
          frames.pop();
          endValue();
          return undefined;
        }
        return fail(c, 'after array element');
      }
      case 'top':
        return space ? undefined : fail(c, 'after top-level value');
      case 'string':
        if (c === 0x22) {
          if (keyStart >= 0) {
            endKey(at);
            state = 'afterKey';
          } else endValue();
        } else if (c === 0x5c) state = 'escape';
        else if (c < 0x20) return fail(c, 'in string literal');
        return undefined;
      case 'escape':
        if (c === 0x75) {
          hexLeft = 4;
          state = 'hex';
        } else if ('bfnrt\\/"'.includes(String.fromCharCode(c))) state = 'string';
        else return fail(c, 'in string escape code');
        return undefined;
      case 'hex':
        if (!(digit || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)))
          return fail(c, 'in \\u hexadecimal character escape');
        if (--hexLeft === 0) state = 'string';
        return undefined;
      case 'neg':
        if (c === 0x30) state = 'zero';
        else if (digit) state = 'int';
        else return fail(c, 'in numeric literal');
        return undefined;
      case 'int':
        if (digit) return undefined;
        state = 'zero';
        return step(c, at);
      case 'zero':
        if (c === 0x2e) state = 'dot';
        else if (c === 0x65 || c === 0x45) state = 'exponent';
        else {
          endValue();
          return step(c, at);
        }
        return undefined;
      case 'dot':
        if (!digit) return fail(c, 'after decimal point in numeric literal');
        state = 'fraction';
        return undefined;
      case 'fraction':
        if (digit) return undefined;
        if (c === 0x65 || c === 0x45) state = 'exponent';
        else {
          endValue();
          return step(c, at);
        }
        return undefined;
      case 'exponent':
        if (c === 0x2b || c === 0x2d) {
          state = 'exponentSign';
          return undefined;
        }
        state = 'exponentSign';
        return step(c, at);
      case 'exponentSign':
        if (!digit) return fail(c, 'in exponent of numeric literal');
        state = 'exponentDigits';
        return undefined;
      case 'exponentDigits':
        if (digit) return undefined;
        endValue();
        return step(c, at);
      default: {
        // Inside true, false or null: the next letter is the only byte allowed.
        const expected = literal[literalAt]!;
        if (c !== expected.charCodeAt(0)) return fail(c, `in literal ${literal} (expecting '${expected}')`);
        if (++literalAt === literal.length) endValue();
        return undefined;
      }
    }
  };

  for (let at = 0; at < bytes.length; at++) {
    const failed = step(bytes[at]!, at);
    if (failed) return failed;
  }
  // At the end Go's scanner is fed one space: a value cut short inside a literal, number or escape fails on it.
  if (state !== 'top') {
    const failed = step(0x20, bytes.length);
    if (failed) return failed;
    if (state !== 'top') return { syntaxError: 'unexpected end of JSON input', duplicates: [], firstSeen: new Map() };
  }
  return { duplicates, firstSeen };
}

/** Go's quoteChar: the byte as the rune of that number, quoted as strconv.Quote would, in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 92: '\\' }; // 92 is the backslash
  if (named[c]) return `'\\${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // C1 controls, the no-break space and the soft hyphen are not printable to strconv.IsPrint.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}
