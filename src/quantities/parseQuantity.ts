// Kubernetes resource quantities ("500m", "2", "4Gi", "1e3") as exact rationals, so that rounding
// matches resource.Quantity: Value() and MilliValue() round up.

/** An exact quantity: num / den, den > 0. */
export interface Quantity {
  num: bigint;
  den: bigint;
}

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

/** Parses a quantity; undefined when the text is not one. Numbers are read as their decimal text. */
export function parseQuantity(input: string | number): Quantity | undefined {
  const text = typeof input === 'number' ? numberText(input) : input.trim();
  if (text === undefined) return undefined;
  const m = QUANTITY.exec(text);
  if (!m) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent, suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let num = BigInt((whole || '0') + fraction);
  let den = 10n ** BigInt(fraction.length);
  let power10 = 0;
  if (exponent !== undefined) power10 = Number(exponent.slice(1));
  else if (suffix in BINARY_SUFFIX) num *= 2n ** BigInt(BINARY_SUFFIX[suffix] as number);
  else power10 = DECIMAL_SUFFIX[suffix] ?? 0;
  if (power10 >= 0) num *= 10n ** BigInt(power10);
  else den *= 10n ** BigInt(-power10);
  if (sign === '-') num = -num;
  return { num, den };
}

function numberText(n: number): string | undefined {
  if (!Number.isFinite(n)) return undefined;
  return String(n);
}

export function subtractQuantity(a: Quantity, b: Quantity): Quantity {
  return { num: a.num * b.den - b.num * a.den, den: a.den * b.den };
}

/** resource.Quantity.Value(): the integer value, rounded up. */
export function quantityValue(q: Quantity): bigint {
  return ceilDiv(q.num, q.den);
}

/** resource.Quantity.MilliValue(): the value in thousandths, rounded up. */
export function quantityMilliValue(q: Quantity): bigint {
  return ceilDiv(q.num * 1000n, q.den);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b; // truncates toward zero
  return a % b !== 0n && a > 0n === b > 0n ? q + 1n : q;
}

/** A quantity as a plain number of base units ("500m" → 0.5, "1Gi" → 1073741824); undefined when not one. */
export function quantityNumber(value: unknown): number | undefined {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? Number(quantityMilliValue(q)) / 1000 : undefined;
}
