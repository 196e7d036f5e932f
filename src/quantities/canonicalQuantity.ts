// Kubernetes resource quantities (k8s.io/apimachinery pkg/api/resource) as the API server stores and returns
// them: parsed exactly, rounded up to nano precision, and written back in canonical form, so `cpu: 0.5` reads
// back as "500m", `1000m` as "1", `1024Mi` as "1Gi", and a bare number as a string. ResourceLists (requests,
// limits, quotas) are also rounded up to milli precision (SetDefaults_ResourceList).

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** value = mantissa × 10^scale, written in `format`. */
export interface Quantity {
  mantissa: bigint;
  scale: number;
  format: Format;
}

const PATTERN = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** Divides away from zero (inf.RoundUp), so precision lost only ever makes the quantity larger in magnitude. */
function divideAwayFromZero(n: bigint, d: bigint): bigint {
  const q = n / d;
  return q * d === n ? q : q + (n < 0n ? -1n : 1n);
}

/** Rounds up to `scale` (e.g. -3 for milli) when the quantity is more precise than that. */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.scale >= scale) return q;
  return { ...q, mantissa: divideAwayFromZero(q.mantissa, pow10(scale - q.scale)), scale };
}

/** ParseQuantity: undefined when the text is not a quantity. */
export function parseQuantity(text: string): Quantity | undefined {
  const match = PATTERN.exec(text);
  if (!match || text === '') return undefined;
  const [, sign, whole = '', fraction = '', suffix = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  let scale = -fraction.length;
  let format: Format;
  if (suffix in BINARY_SUFFIXES) {
    mantissa *= 1024n ** BigInt(BINARY_SUFFIXES[suffix]!);
    format = 'BinarySI';
  } else if (suffix in DECIMAL_SUFFIXES) {
    scale += DECIMAL_SUFFIXES[suffix]!;
    format = 'DecimalSI';
  } else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    scale += Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else return undefined;
  if (sign === '-') mantissa = -mantissa;
  return roundUp({ mantissa, scale, format }, -9);
}

/** The canonical text of a quantity (Quantity.String / CanonicalizeBytes). */
export function formatQuantity(q: Quantity): string {
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const integral =
      q.scale >= 0
        ? q.mantissa * pow10(q.scale)
        : q.mantissa % pow10(-q.scale) === 0n
          ? q.mantissa / pow10(-q.scale)
          : undefined;
    // Below 1024 in magnitude, or not a whole number of bytes, binary suffixes would round: show it decimal.
    const small = q.scale >= 0 ? abs(q.mantissa * pow10(q.scale)) < 1024n : abs(q.mantissa) < 1024n * pow10(-q.scale);
    if (small || integral === undefined) format = 'DecimalSI';
    else {
      let amount = integral;
      let power = 0;
      while (amount % 1024n === 0n && power < BINARY_BY_POWER.length - 1) {
        amount /= 1024n;
        power++;
      }
      return `${amount}${BINARY_BY_POWER[power]}`;
    }
  }
  let amount = q.mantissa;
  let exponent = q.scale;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  const remainder = ((exponent % 3) + 3) % 3;
  amount *= pow10(remainder);
  exponent -= remainder;
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  const suffix = DECIMAL_BY_EXPONENT.get(exponent);
  return suffix === undefined ? `${amount}e${exponent}` : `${amount}${suffix}`;
}

/**
 * A quantity field as stored: strings and numbers become the canonical string (ResourceList entries also
 * rounded up to milli); anything that does not parse is left as it was.
 */
export function canonicalQuantity(value: unknown, resourceList: boolean): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = typeof value === 'number' ? numberText(value) : value;
  const q = text === undefined ? undefined : parseQuantity(text);
  if (!q) return value;
  return formatQuantity(resourceList ? roundUp(q, -3) : q);
}

/** A JSON number as the decimal text Go's decoder reads for it (no exponent for the common cases). */
function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [base, exp] = text.toLowerCase().split('e') as [string, string];
  return `${base}e${exp}`;
}

/** Canonicalizes every entry of a ResourceList (requests, limits, hard, capacity) in place. */
export function canonicalResourceList(list: unknown): void {
  if (list === null || typeof list !== 'object' || Array.isArray(list)) return;
  const entries = list as Record<string, unknown>;
  for (const key of Object.keys(entries)) entries[key] = canonicalQuantity(entries[key], true);
}

/** Quantity.Add: the exact sum, written in the format of `a` (of `b` when `a` is zero). */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  const mantissa = a.mantissa * pow10(a.scale - scale) + b.mantissa * pow10(b.scale - scale);
  return { mantissa, scale, format: a.mantissa === 0n ? b.format : a.format };
}

/** The quantity's exact value in nano units, for sums and comparisons. */
export function nanoValue(q: Quantity): bigint {
  return q.scale >= -9 ? q.mantissa * pow10(q.scale + 9) : q.mantissa / pow10(-9 - q.scale);
}
