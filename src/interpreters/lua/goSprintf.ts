// string.format as gopher-lua has it (strFormat): the format and the Lua values go to Go's fmt.Sprintf as they
// are, each value printing itself through its Format or String method. Strings here are byte strings, one char per
// byte, as Lua and Go strings are bytes.

import { goFormatFloat } from '../../text/goFormatFloat.ts';

/** A Lua value as Sprintf sees it; a reference is a table, function, coroutine or userdata. */
export type GoFormatArg =
  | { kind: 'number'; value: number }
  | { kind: 'string'; bytes: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'reference'; goType: string; text: string };

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  plusV: boolean;
  sharpV: boolean;
  wid: number | undefined;
  prec: number | undefined;
}

const clearFlags = (): Flags => ({
  plus: false,
  minus: false,
  sharp: false,
  space: false,
  zero: false,
  plusV: false,
  sharpV: false,
  wid: undefined,
  prec: undefined,
});

const MIN_INT64 = -(2n ** 63n);
const MAX_RUNE = 0x10ffff;
const RUNE_ERROR = 0xfffd;

/** Go's int64(f) on amd64: toward zero, math.MinInt64 for what int64 cannot hold. */
function goInt64(v: number): bigint {
  if (Number.isNaN(v) || v >= 2 ** 63 || v < -(2 ** 63)) return MIN_INT64;
  return BigInt(Math.trunc(v));
}

/** LNumber.String: an integral value as an integer, any other as %v prints a float64. */
function numberString(v: number): string {
  const i = goInt64(v);
  if (Number(i) === v) return i.toString();
  return goFormatFloat(v, 'g', -1);
}

/** utf8.DecodeRuneInString over a byte string: [rune, width], RuneError of width 1 for a bad byte. */
function decodeRune(s: string, at: number): [number, number] {
  const b = s.charCodeAt(at);
  if (b < 0x80) return [b, 1];
  const width = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (width === 0 || at + width > s.length) return [RUNE_ERROR, 1];
  const second = s.charCodeAt(at + 1);
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return [RUNE_ERROR, 1];
  let rune = b & (width === 2 ? 0x1f : width === 3 ? 0x0f : 0x07);
  for (let k = 1; k < width; k++) {
    const next = s.charCodeAt(at + k);
    if (k > 1 && (next < 0x80 || next > 0xbf)) return [RUNE_ERROR, 1];
    rune = (rune << 6) | (next & 0x3f);
  }
  return [rune, width];
}

/** utf8.EncodeRune: a surrogate or a rune past U+10FFFF is RuneError. */
function encodeRune(rune: number): string {
  const r = rune > MAX_RUNE || (rune >= 0xd800 && rune <= 0xdfff) || rune < 0 ? RUNE_ERROR : rune;
  return Buffer.from(String.fromCodePoint(r), 'utf8').toString('latin1');
}

function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += decodeRune(s, i)[1]) n++;
  return n;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(rune: number): boolean {
  if (rune === 0x20) return true;
  if (rune > MAX_RUNE || (rune >= 0xd800 && rune <= 0xdfff)) return false;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(String.fromCodePoint(rune));
}

/** strconv.Quote (AppendQuoteASCII when asciiOnly). */
function quote(s: string, asciiOnly: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; ) {
    const [rune, width] = decodeRune(s, i);
    if (width === 1 && rune === RUNE_ERROR) {
      out += `\\x${s.charCodeAt(i).toString(16).padStart(2, '0')}`;
      i++;
      continue;
    }
    i += width;
    if (rune === 0x22 || rune === 0x5c) out += `\\${String.fromCharCode(rune)}`;
    else if (rune < 0x80 ? isPrint(rune) : !asciiOnly && isPrint(rune)) out += encodeRune(rune);
    else {
      const named: Record<number, string> = { 7: 'a', 8: 'b', 12: 'f', 10: 'n', 13: 'r', 9: 't', 11: 'v' };
      const name = named[rune];
      if (name !== undefined) out += `\\${name}`;
      else if (rune < 0x20 || rune === 0x7f) out += `\\x${rune.toString(16).padStart(2, '0')}`;
      else if (rune < 0x10000) out += `\\u${rune.toString(16).padStart(4, '0')}`;
      else out += `\\U${rune.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/** strconv.CanBackquote. */
function canBackquote(s: string): boolean {
  for (let i = 0; i < s.length; ) {
    const [rune, width] = decodeRune(s, i);
    i += width;
    if (width > 1) {
      if (rune === 0xfeff) return false;
      continue;
    }
    if (rune === RUNE_ERROR) return false;
    if ((rune < 0x20 && rune !== 9) || rune === 0x60 || rune === 0x7f) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// fmt's printer

/** strconv.ParseInt(s, 0, 64) or ParseFloat(s, 64) succeeding, after the trim parseNumber does. */
function parsesAsGoNumber(text: string): boolean {
  let s = text.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
  if (s.includes('_')) {
    // underscoreOK: each underscore between two digits, or right after a base prefix.
    const unsigned = s.replace(/^[+-]/, '').replace(/^0([xXbBoO])_/, '0$1');
    const digit = /^0[xX]/.test(unsigned) ? '[0-9a-fA-F]' : '[0-9]';
    if (!new RegExp(`^([^_]|(?<=${digit})_(?=${digit}))*$`).test(unsigned)) return false;
    s = s.replaceAll('_', '');
  }
  if (/^[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO]?[0-7]+|[1-9][0-9]*|0)$/.test(s)) {
    const body = s.replace(/^[+-]/, '');
    const value = body.length > 1 && body[0] === '0' && /^[0-7]+$/.test(body) ? BigInt(`0o${body}`) : BigInt(body);
    if (value <= 2n ** 63n - (s.startsWith('-') ? 0n : 1n)) return true;
  }
  if (/^[+-]?(inf|infinity|nan)$/i.test(s)) return true;
  if (/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(s)) return Number.isFinite(Number(s));
  if (/^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+$/.test(s)) return true;
  return false;
}

const GO_TYPES: Record<GoFormatArg['kind'], string> = {
  number: 'lua.LNumber',
  string: 'lua.LString',
  boolean: 'lua.LBool',
  nil: '*lua.LNilType',
  reference: '',
};

class Printer {
  buf = '';
  f: Flags = clearFlags();

  private writePadding(n: number): void {
    if (n > 0) this.buf += (this.f.zero ? '0' : ' ').repeat(n);
  }

  private pad(s: string): void {
    if (this.f.wid === undefined || this.f.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.f.wid - runeCount(s);
    if (!this.f.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  private truncate(s: string): string {
    if (this.f.prec === undefined) return s;
    let n = this.f.prec;
    for (let i = 0; i < s.length; i += decodeRune(s, i)[1]) if (--n < 0) return s.slice(0, i);
    return s;
  }

  private withoutZero(write: () => void): void {
    const zero = this.f.zero;
    this.f.zero = false;
    write();
    this.f.zero = zero;
  }

  private fmtInteger(value: bigint, base: number, verb: string, upper: boolean): void {
    const negative = value < 0n;
    let u = negative ? -value : value;
    if (u < 0n) u += 2n ** 64n;
    let prec = 0;
    if (this.f.prec !== undefined) {
      prec = this.f.prec;
      if (prec === 0 && u === 0n) {
        this.withoutZero(() => this.writePadding(this.f.wid ?? 0));
        return;
      }
    } else if (this.f.zero && this.f.wid !== undefined) {
      prec = this.f.wid;
      if (negative || this.f.plus || this.f.space) prec--;
    }
    let digits = u.toString(base);
    if (upper) digits = digits.toUpperCase();
    if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
    if (this.f.sharp) {
      if (base === 2) digits = `0b${digits}`;
      else if (base === 8 && digits[0] !== '0') digits = `0${digits}`;
      else if (base === 16) digits = `0${upper ? 'X' : 'x'}${digits}`;
    }
    if (verb === 'O') digits = `0o${digits}`;
    const sign = negative ? '-' : this.f.plus ? '+' : this.f.space ? ' ' : '';
    this.withoutZero(() => this.pad(sign + digits));
  }

  private fmtFloat(v: number, verb: 'e' | 'E' | 'f' | 'g' | 'G', defaultPrec: number): void {
    let num = goFormatFloat(v, verb, this.f.prec ?? defaultPrec);
    if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
    if (this.f.space && num[0] === '+' && !this.f.plus) num = ` ${num.slice(1)}`;
    if (num[1] === 'I' || num[1] === 'N') {
      if (num[1] === 'N' && !this.f.space && !this.f.plus) num = num.slice(1);
      this.withoutZero(() => this.pad(num));
      return;
    }
    if (this.f.sharp) {
      let digits = verb === 'g' || verb === 'G' ? (this.f.prec ?? defaultPrec) : 0;
      if ((verb === 'g' || verb === 'G') && digits === -1) digits = 6;
      let tail = '';
      let body = num;
      const e = body.search(/[eE]/);
      if (e >= 0) {
        tail = body.slice(e);
        body = body.slice(0, e);
      }
      let sawNonzero = false;
      for (let i = 1; i < body.length; i++) {
        if (body[i] === '.') continue;
        if (body[i] !== '0') sawNonzero = true;
        if (sawNonzero) digits--;
      }
      if (!body.includes('.')) {
        if (body.length === 2 && body[1] === '0') digits--;
        body += '.';
      }
      if (digits > 0) body += '0'.repeat(digits);
      num = body + tail;
    }
    if (this.f.plus || num[0] !== '+') {
      if (this.f.zero && this.f.wid !== undefined && this.f.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.f.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  private fmtSx(s: string, upper: boolean): void {
    const digits = upper ? '0123456789ABCDEF' : '0123456789abcdef';
    let length = s.length;
    if (this.f.prec !== undefined && this.f.prec < length) length = this.f.prec;
    let width = 2 * length;
    if (width <= 0) {
      if (this.f.wid !== undefined) this.writePadding(this.f.wid);
      return;
    }
    if (this.f.space) {
      if (this.f.sharp) width *= 2;
      width += length - 1;
    } else if (this.f.sharp) width += 2;
    const wid = this.f.wid ?? 0;
    if (wid > width && !this.f.minus) this.writePadding(wid - width);
    const prefix = `0${upper ? 'X' : 'x'}`;
    if (this.f.sharp) this.buf += prefix;
    for (let i = 0; i < length; i++) {
      if (this.f.space && i > 0) {
        this.buf += ' ';
        if (this.f.sharp) this.buf += prefix;
      }
      const c = s.charCodeAt(i);
      this.buf += (digits[c >> 4] as string) + (digits[c & 15] as string);
    }
    if (wid > width && this.f.minus) this.writePadding(wid - width);
  }

  private fmtQ(s: string): void {
    const t = this.truncate(s);
    if (this.f.sharp && canBackquote(t)) this.pad(`\`${t}\``);
    else this.pad(quote(t, this.f.plus));
  }

  private badVerb(verb: string, goType: string, printValue: () => void): void {
    this.buf += `%!${verb}(${goType}=`;
    printValue();
    this.buf += ')';
  }

  private printInt(v: bigint, verb: string): void {
    switch (verb) {
      case 'v':
      case 'd':
        return this.fmtInteger(v, 10, verb, false);
      case 'b':
        return this.fmtInteger(v, 2, verb, false);
      case 'o':
      case 'O':
        return this.fmtInteger(v, 8, verb, false);
      case 'x':
        return this.fmtInteger(v, 16, verb, false);
      case 'X':
        return this.fmtInteger(v, 16, verb, true);
      case 'c': {
        const u = v < 0n ? v + 2n ** 64n : v;
        return this.pad(encodeRune(u > BigInt(MAX_RUNE) ? RUNE_ERROR : Number(u)));
      }
      case 'U': {
        const u = v < 0n ? v + 2n ** 64n : v;
        let text = `U+${u
          .toString(16)
          .toUpperCase()
          .padStart(Math.max(4, this.f.prec ?? 0), '0')}`;
        if (this.f.sharp && u <= BigInt(MAX_RUNE) && isPrint(Number(u))) text += ` '${encodeRune(Number(u))}'`;
        return this.withoutZero(() => this.pad(text));
      }
      default:
        return this.badVerb(verb, 'int64', () => this.fmtInteger(v, 10, 'v', false));
    }
  }

  private printFloat(v: number, verb: string): void {
    switch (verb) {
      case 'v':
        return this.fmtFloat(v, 'g', -1);
      case 'g':
      case 'G':
        return this.fmtFloat(v, verb, -1);
      case 'e':
      case 'E':
      case 'f':
        return this.fmtFloat(v, verb, 6);
      case 'F':
        return this.fmtFloat(v, 'f', 6);
      default:
        return this.badVerb(verb, 'float64', () => this.fmtFloat(v, 'g', -1));
    }
  }

  private printString(s: string, verb: string): void {
    switch (verb) {
      case 'v':
        return this.f.sharpV ? this.fmtQ(s) : this.pad(this.truncate(s));
      case 's':
        return this.pad(this.truncate(s));
      case 'x':
      case 'X':
        return this.fmtSx(s, verb === 'X');
      case 'q':
        return this.fmtQ(s);
      default:
        return this.badVerb(verb, 'string', () => this.pad(this.truncate(s)));
    }
  }

  /** LNumber.Format. */
  private printNumber(v: number, verb: string): void {
    if (verb === 'q' || verb === 's') return this.printString(numberString(v), verb);
    if ('bcdoxXU'.includes(verb)) return this.printInt(goInt64(v), verb);
    if ('eEfFgG'.includes(verb)) return this.printFloat(v, verb);
    if (verb === 'i') return this.printInt(goInt64(v), 'd');
    const i = goInt64(v);
    if (Number(i) === v) this.printInt(i, verb);
    else this.printFloat(v, verb);
  }

  printArg(arg: GoFormatArg, verb: string): void {
    const goType = arg.kind === 'reference' ? arg.goType : GO_TYPES[arg.kind];
    if (verb === 'T') return this.pad(this.truncate(goType));
    if (verb === 'w' || (verb === 'p' && arg.kind !== 'reference' && arg.kind !== 'nil')) {
      // Neither reaches the value's own methods: the error text shows its Go kind printed with %v.
      return this.badVerb(verb, goType, () => {
        if (arg.kind === 'number') this.fmtFloat(arg.value, 'g', -1);
        else if (arg.kind === 'string') this.pad(this.truncate(arg.bytes));
        else if (arg.kind === 'boolean') this.pad(arg.value ? 'true' : 'false');
        else if (arg.kind === 'nil') this.buf += '&{}';
        else this.pad(arg.text);
      });
    }
    const stringVerb = verb === 'v' || verb === 's' || verb === 'x' || verb === 'X' || verb === 'q';
    switch (arg.kind) {
      case 'number':
        return this.printNumber(arg.value, verb);
      case 'string':
        if (verb === 'd' || verb === 'i') {
          // LString.Format prints a numeric string as it is and anything else as the number 0.
          if (parsesAsGoNumber(arg.bytes)) return this.printString(arg.bytes, 's');
          return this.printNumber(0, 'd');
        }
        return this.printString(arg.bytes, verb);
      case 'boolean': {
        const text = arg.value ? 'true' : 'false';
        if (stringVerb) return this.printString(text, verb);
        if (verb === 't') return this.pad(text);
        return this.badVerb(verb, goType, () => this.pad(text));
      }
      case 'nil':
        if (stringVerb) return this.printString('nil', verb);
        this.buf += '&{}';
        return;
      case 'reference':
        if (stringVerb) return this.printString(arg.text, verb);
        return this.badVerb(verb, goType, () => this.pad(arg.text));
    }
  }
}

/** parsenum: digits up to end, none past 10^6. */
function parseNum(s: string, start: number, end: number): [number | undefined, number] {
  if (start >= end) return [undefined, end];
  let num = 0;
  let isNum = false;
  let i = start;
  for (; i < end && s[i]! >= '0' && s[i]! <= '9'; i++) {
    if (num > 1e6) return [undefined, end];
    num = num * 10 + s.charCodeAt(i) - 48;
    isNum = true;
  }
  return [isNum ? num : undefined, i];
}

/**
 * gopher-lua's strFormat: as many arguments as the format has non-%% percent signs go to fmt.Sprintf. The text is
 * built outside the hook's memory limit, so a result past `maxBytes` (widths of up to 10^6 each, hundreds of verbs) is
 * refused before it can take the process's memory.
 */
export function luaStringFormat(
  format: string,
  given: readonly GoFormatArg[],
  maxBytes = Number.POSITIVE_INFINITY,
): string {
  const npat = format.split('%').length - 1 - (format.split('%%').length - 1);
  const a = given.slice(0, Math.max(0, Math.min(npat, given.length)));
  const p = new Printer();
  const end = format.length;
  let argNum = 0;
  let afterIndex = false;
  let reordered = false;
  let goodArgNum = true;
  const argNumber = (i: number): [number, number, boolean] => {
    if (i >= end || format[i] !== '[') return [argNum, i, false];
    reordered = true;
    let index = 0;
    let wid = 1;
    let ok = false;
    if (end - i >= 3) {
      for (let k = i + 1; k < end; k++) {
        if (format[k] === ']') {
          const [n, newi] = parseNum(format, i + 1, k);
          wid = k - i + 1;
          if (n !== undefined && newi === k) {
            index = n - 1;
            ok = true;
          }
          break;
        }
      }
    }
    if (ok && index >= 0 && index < a.length) return [index, i + wid, true];
    goodArgNum = false;
    return [argNum, i + wid, ok];
  };
  // The next argument by `verb`; %v reads # and + as Go-syntax and field names (doPrintf's two paths alike).
  const printNext = (verb: string) => {
    if (verb === 'v') {
      p.f.sharpV = p.f.sharp;
      p.f.sharp = false;
      p.f.plusV = p.f.plus;
      p.f.plus = false;
    }
    p.printArg(a[argNum] as GoFormatArg, verb);
    argNum++;
  };
  for (let i = 0; i < end; ) {
    if (p.buf.length > maxBytes)
      throw new Error(
        `string.format: the result passes ${maxBytes} bytes, the memory a hook may use; format fewer or narrower values`,
      );
    goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++;
    p.f = clearFlags();
    let simple = false;
    for (; i < end; i++) {
      const c = format[i] as string;
      if (c === '#') p.f.sharp = true;
      else if (c === '0') p.f.zero = !p.f.minus;
      else if (c === '+') p.f.plus = true;
      else if (c === '-') {
        p.f.minus = true;
        p.f.zero = false;
      } else if (c === ' ') p.f.space = true;
      else {
        if (c >= 'a' && c <= 'z' && argNum < a.length) {
          printNext(c);
          i++;
          simple = true;
        }
        break;
      }
    }
    if (simple) continue;
    [argNum, i, afterIndex] = argNumber(i);
    if (i < end && format[i] === '*') {
      i++;
      // A Lua number is a float64, never the int Sprintf wants for a width.
      if (argNum < a.length) argNum++;
      p.buf += '%!(BADWIDTH)';
      afterIndex = false;
    } else {
      [p.f.wid, i] = parseNum(format, i, end);
      if (afterIndex && p.f.wid !== undefined) goodArgNum = false;
    }
    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      [argNum, i, afterIndex] = argNumber(i);
      if (i < end && format[i] === '*') {
        i++;
        if (argNum < a.length) argNum++;
        p.f.prec = undefined;
        p.buf += '%!(BADPREC)';
        afterIndex = false;
      } else {
        [p.f.prec, i] = parseNum(format, i, end);
        p.f.prec ??= 0;
      }
    }
    if (!afterIndex) [argNum, i, afterIndex] = argNumber(i);
    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }
    const [rune, size] = decodeRune(format, i);
    const verb = rune < 0x80 ? String.fromCharCode(rune) : encodeRune(rune);
    i += size;
    if (verb === '%') p.buf += '%';
    else if (!goodArgNum) p.buf += `%!${verb}(BADINDEX)`;
    else if (argNum >= a.length) p.buf += `%!${verb}(MISSING)`;
    else printNext(verb);
  }
  if (!reordered && argNum < a.length) {
    p.f = clearFlags();
    p.buf += '%!(EXTRA ';
    a.slice(argNum).forEach((arg, k) => {
      if (k > 0) p.buf += ', ';
      p.buf += `${arg.kind === 'reference' ? arg.goType : GO_TYPES[arg.kind]}=`;
      p.printArg(arg, 'v');
    });
    p.buf += ')';
  }
  return p.buf;
}
