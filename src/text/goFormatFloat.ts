// strconv.FormatFloat(v, fmt, prec, 64) over the exact decimal value of the float64, as Go's fmt prints floats (the
// Go templates' printf and gopher-lua's string.format both reach it).

interface Decimal {
  /** Significant digits, no leading or trailing zeros; '' for zero. */
  d: string;
  /** Where the decimal point goes relative to d. */
  dp: number;
}

/** Every decimal digit of a finite double (it has finitely many). */
function exactDecimal(v: number): Decimal {
  if (v === 0) return { d: '', dp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(v));
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent: number;
  if (exponentBits === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  let digits: string;
  let dp: number;
  if (exponent >= 0) {
    digits = (mantissa << BigInt(exponent)).toString();
    dp = digits.length;
  } else {
    // mantissa / 2^-exponent = mantissa * 5^-exponent / 10^-exponent
    digits = (mantissa * 5n ** BigInt(-exponent)).toString();
    dp = digits.length + exponent;
  }
  return { d: digits.replace(/0+$/, ''), dp };
}

/** decimal.Round: to nd digits, half to even on an exact tie. */
function roundDecimal(a: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= a.d.length) return nd < 0 ? { d: '', dp: 0 } : a;
  const next = a.d.charCodeAt(nd) - 48;
  const up = next > 5 || (next === 5 && (nd + 1 < a.d.length || (nd > 0 && (a.d.charCodeAt(nd - 1) - 48) % 2 === 1)));
  if (!up) {
    const d = a.d.slice(0, nd).replace(/0+$/, '');
    return { d, dp: d === '' ? 0 : a.dp };
  }
  let i = nd - 1;
  while (i >= 0 && a.d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: a.dp + 1 };
  return { d: a.d.slice(0, i) + String.fromCharCode(a.d.charCodeAt(i) + 1), dp: a.dp };
}

/** The shortest digits that read back as v, as strconv's Ryu and JavaScript's number printing both find them. */
function shortestDecimal(v: number): Decimal {
  if (v === 0) return { d: '', dp: 0 };
  const [mantissa, exponent] = Math.abs(v).toExponential().split('e') as [string, string];
  const d = mantissa.replace('.', '').replace(/0+$/, '');
  return { d, dp: Number(exponent) + 1 };
}

const digitAt = (d: Decimal, i: number): string => (i >= 0 && i < d.d.length ? (d.d[i] as string) : '0');

function fmtE(neg: boolean, d: Decimal, prec: number, fmt: 'e' | 'E'): string {
  let out = neg ? '-' : '';
  out += d.d.length === 0 ? '0' : digitAt(d, 0);
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) out += digitAt(d, i);
  }
  const exp = d.d.length === 0 ? 0 : d.dp - 1;
  out += `${fmt}${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return out;
}

function fmtF(neg: boolean, d: Decimal, prec: number): string {
  let out = neg ? '-' : '';
  if (d.dp > 0) for (let i = 0; i < d.dp; i++) out += digitAt(d, i);
  else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) out += digitAt(d, d.dp + i);
  }
  return out;
}

/**
 * strconv.FormatFloat(v, fmt, prec, 64); prec -1 is the shortest text that reads back as v. fmt's %F is 'f' here,
 * as fmt passes it on.
 */
export function goFormatFloat(v: number, fmt: 'e' | 'E' | 'f' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  const shortest = prec < 0;
  let digs: Decimal;
  if (shortest) {
    digs = shortestDecimal(v);
    prec =
      fmt === 'e' || fmt === 'E'
        ? digs.d.length - 1
        : fmt === 'f'
          ? Math.max(digs.d.length - digs.dp, 0)
          : digs.d.length;
  } else {
    const exact = exactDecimal(v);
    if (fmt === 'e' || fmt === 'E') digs = roundDecimal(exact, prec + 1);
    else if (fmt === 'f') digs = roundDecimal(exact, exact.dp + prec);
    else {
      if (prec === 0) prec = 1;
      digs = roundDecimal(exact, prec);
    }
  }
  if (fmt === 'e' || fmt === 'E') return fmtE(neg, digs, prec, fmt);
  if (fmt === 'f') return fmtF(neg, digs, prec);
  let eprec = prec;
  if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
  if (shortest) eprec = 6;
  const exp = digs.dp - 1;
  if (exp < -4 || exp >= eprec) {
    if (prec > digs.d.length) prec = digs.d.length;
    return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E');
  }
  if (prec > digs.dp) prec = digs.d.length;
  return fmtF(neg, digs, Math.max(prec - digs.dp, 0));
}
