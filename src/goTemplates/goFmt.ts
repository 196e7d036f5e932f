// Go's fmt as templates use it (print, printf, println, and every value an action prints): %v of maps as
// `map[k:v]` with keys in byte order, slices as `[a b]`, nil as `<nil>`, float64 as strconv's shortest %g
// (`1e+06`, `0.5`); printf's verbs, flags, width and precision, and fmt's `%!d(string=x)` words for a verb that does
// not fit its value.
import { byBytes } from '../patches/patchJsonText.ts';
import { goFormatFloat } from '../text/goFormatFloat.ts';
import { goQuote } from '../text/goQuote.ts';
import { type GoData, goTypeName, isUnsigned } from './goValues.ts';

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number | undefined;
  prec: number | undefined;
}

const noFlags = (): Flags => ({
  plus: false,
  minus: false,
  sharp: false,
  space: false,
  zero: false,
  width: undefined,
  prec: undefined,
});

/** fmt.Sprint: operands in their %v, a space between two that are not strings. */
export function sprint(args: readonly GoData[]): string {
  let out = '';
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) out += ' ';
    out += printArg(arg, 'v', noFlags(), 0);
    prevString = isString;
  });
  return out;
}

/** fmt.Sprintln: operands in their %v, spaces between all, and a newline. */
export function sprintln(args: readonly GoData[]): string {
  return `${args.map((arg) => printArg(arg, 'v', noFlags(), 0)).join(' ')}\n`;
}

/** %v of one value, as an action prints what its pipeline gave. */
export function formatValue(data: GoData): string {
  return printArg(data, 'v', noFlags(), 0);
}

/** One value under one verb (`%s` of a map prints each element with %s), as Go's errors print values. */
export function formatVerb(data: GoData, verb: string): string {
  return printArg(data, verb, noFlags(), 0);
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly GoData[]): string {
  let out = '';
  let argNum = 0;
  let i = 0;
  let reordered = false;
  let goodArgNum = true;
  // An explicit argument index, [n], sets the operand the next width, precision or verb takes.
  const argIndex = () => {
    if (format[i] !== '[') return;
    reordered = true;
    const close = format.indexOf(']', i);
    const n = close < 0 ? Number.NaN : Number(format.slice(i + 1, close));
    if (close < 0 || !/^\d+$/.test(format.slice(i + 1, close)) || n < 1 || n > args.length) {
      goodArgNum = false;
      i = close < 0 ? i + 1 : close + 1;
      return;
    }
    argNum = n - 1;
    i = close + 1;
  };
  const end = format.length;
  while (i < end) {
    const percent = format.indexOf('%', i);
    if (percent < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    const flags = noFlags();
    goodArgNum = true;
    flagLoop: for (; i < end; i++) {
      switch (format[i]) {
        case '#':
          flags.sharp = true;
          break;
        case '0':
          flags.zero = !flags.minus;
          break;
        case '+':
          flags.plus = true;
          break;
        case '-':
          flags.minus = true;
          flags.zero = false;
          break;
        case ' ':
          flags.space = true;
          break;
        default:
          break flagLoop;
      }
    }
    let badWidth = false;
    argIndex();
    if (format[i] === '*') {
      i++;
      const w = intArg(args[argNum]);
      argNum++;
      if (w === undefined) badWidth = true;
      else if (w < 0) {
        flags.minus = true;
        flags.zero = false;
        flags.width = -w;
      } else flags.width = w;
    } else {
      const m = /^\d+/.exec(format.slice(i));
      if (m) {
        flags.width = Number(m[0]);
        i += m[0].length;
      }
    }
    if (badWidth) out += '%!(BADWIDTH)';
    if (format[i] === '.') {
      i++;
      argIndex();
      if (format[i] === '*') {
        i++;
        const p = intArg(args[argNum]);
        argNum++;
        if (p === undefined || p < 0) out += '%!(BADPREC)';
        else flags.prec = p;
      } else {
        const m = /^\d+/.exec(format.slice(i));
        flags.prec = m ? Number(m[0]) : 0;
        if (m) i += m[0].length;
      }
    }
    argIndex();
    if (i >= end) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') out += '%';
    else if (!goodArgNum) out += `%!${verb}(BADINDEX)`;
    else if (argNum >= args.length) out += `%!${verb}(MISSING)`;
    else {
      // %+v is %v: the plus flag is for structs' field names, which these values do not have.
      if (verb === 'v') flags.plus = false;
      out += printArg(args[argNum]!, verb, flags, 0);
      argNum++;
    }
  }
  if (!reordered && argNum < args.length)
    out += `%!(EXTRA ${args
      .slice(argNum)
      .map((a) => (a === null ? '<nil>' : `${goTypeName(a)}=${formatValue(a)}`))
      .join(', ')})`;
  return out;
}

function intArg(arg: GoData | undefined): number | undefined {
  return arg !== undefined && arg !== null && typeof arg === 'object' && arg.kind === 'int'
    ? Number(arg.value)
    : undefined;
}

function printArg(data: GoData, verb: string, flags: Flags, depth: number): string {
  if (verb === 'T' && depth === 0) return pad(goTypeName(data), flags);
  if (data === null) {
    // An element that is nil prints as <nil> whatever the verb; an operand only with %v.
    if (depth > 0 || verb === 'v') return pad('<nil>', flags);
    return badVerb(verb, data);
  }
  if (typeof data === 'boolean') return verb === 't' || verb === 'v' ? pad(String(data), flags) : badVerb(verb, data);
  if (typeof data === 'string') return fmtString(data, verb, flags);
  switch (data.kind) {
    case 'int':
      return fmtInteger(data.value, isUnsigned(data.type), verb, flags) ?? badVerb(verb, data);
    case 'float64':
      return fmtFloat(data.value, verb, flags) ?? badVerb(verb, data);
    case 'map':
      return `map[${[...data.entries.keys()]
        .sort(byBytes)
        .map((k) => `${printArg(k, verb, flags, depth + 1)}:${printArg(data.entries.get(k)!, verb, flags, depth + 1)}`)
        .join(' ')}]`;
    case 'slice':
      return `[${data.items.map((item) => printArg(item, verb, flags, depth + 1)).join(' ')}]`;
  }
}

function badVerb(verb: string, data: GoData): string {
  return data === null ? `%!${verb}(<nil>)` : `%!${verb}(${goTypeName(data)}=${formatValue(data)})`;
}

/** Padding to the width, in characters: spaces (zeros with the 0 flag) on the left, or on the right with -. */
function pad(s: string, flags: Flags, zero = flags.zero): string {
  const width = flags.width ?? 0;
  const n = [...s].length;
  if (n >= width) return s;
  const padding = (zero && !flags.minus ? '0' : ' ').repeat(width - n);
  return flags.minus ? s + padding : padding + s;
}

function fmtString(s: string, verb: string, flags: Flags): string {
  switch (verb) {
    case 'v':
    case 's':
      return pad(flags.prec === undefined ? s : [...s].slice(0, flags.prec).join(''), flags);
    case 'q':
      return pad(flags.sharp && !/[`\p{Cc}]/u.test(s) ? `\`${s}\`` : goQuote(s), flags);
    case 'x':
    case 'X': {
      const prefix = flags.sharp ? (verb === 'X' ? '0X' : '0x') : '';
      const bytes = [...Buffer.from(s, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
      let hex = flags.space ? bytes.map((b) => prefix + b).join(' ') : prefix + bytes.join('');
      if (verb === 'X') hex = hex.toUpperCase();
      return pad(hex, flags);
    }
    default:
      return badVerb(verb, s);
  }
}

function fmtInteger(value: bigint, unsigned: boolean, verb: string, flags: Flags): string | undefined {
  switch (verb) {
    case 'c':
      return pad(runeText(value), flags);
    case 'q':
      return pad(quoteRune(value), flags);
    case 'U': {
      const hex = `U+${value
        .toString(16)
        .toUpperCase()
        .padStart(Math.max(4, flags.prec ?? 0), '0')}`;
      return pad(flags.sharp ? `${hex} '${runeText(value)}'` : hex, flags, false);
    }
  }
  const base = { v: 10, d: 10, b: 2, o: 8, O: 8, x: 16, X: 16 }[verb];
  if (base === undefined) return undefined;
  const negative = value < 0n && !unsigned;
  let digits = (negative ? -value : value).toString(base);
  if (verb === 'X') digits = digits.toUpperCase();
  let prec = 0;
  if (flags.prec !== undefined) {
    prec = flags.prec;
    if (prec === 0 && value === 0n) return pad('', flags, false);
  } else if (flags.zero && flags.width !== undefined) {
    prec = flags.width;
    if (negative || flags.plus || flags.space) prec--;
  }
  digits = digits.padStart(prec, '0');
  if (flags.sharp) {
    if (verb === 'b') digits = `0b${digits}`;
    else if (verb === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
    else if (verb === 'x') digits = `0x${digits}`;
    else if (verb === 'X') digits = `0X${digits}`;
  }
  if (verb === 'O') digits = `0o${digits}`;
  const sign = negative ? '-' : flags.plus ? '+' : flags.space ? ' ' : '';
  return pad(sign + digits, flags, false);
}

function runeText(value: bigint): string {
  const n = Number(value);
  return n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
}

function quoteRune(value: bigint): string {
  const ch = runeText(value);
  if (ch === "'") return "'\\''";
  if (ch === '"') return `'"'`;
  return `'${goQuote(ch).slice(1, -1)}'`;
}

/** fmt's float verbs over strconv.FormatFloat: %v and %g shortest unless a precision is given, %e and %f with 6. */
function fmtFloat(v: number, verb: string, flags: Flags): string | undefined {
  let format: 'e' | 'E' | 'f' | 'g' | 'G';
  let prec: number;
  switch (verb) {
    case 'v':
      format = 'g';
      prec = -1;
      break;
    case 'g':
    case 'G':
      format = verb;
      prec = -1;
      break;
    case 'e':
    case 'E':
    case 'f':
      format = verb;
      prec = 6;
      break;
    case 'F':
      format = 'f';
      prec = 6;
      break;
    default:
      return undefined;
  }
  if (flags.prec !== undefined) prec = flags.prec;
  let num = goFormatFloat(v, format, prec);
  if (num[0] !== '-' && num[0] !== '+') num = `+${num}`;
  if (flags.space && num[0] === '+' && !flags.plus) num = ` ${num.slice(1)}`;
  if (num[1] === 'I' || num[1] === 'N') {
    if (num[1] === 'N' && !flags.space && !flags.plus) num = num.slice(1);
    return pad(num, flags, false);
  }
  if (flags.plus || num[0] !== '+') {
    const width = flags.width ?? 0;
    if (flags.zero && width > num.length) return num[0] + '0'.repeat(width - num.length) + num.slice(1);
    return pad(num, flags);
  }
  return pad(num.slice(1), flags);
}
