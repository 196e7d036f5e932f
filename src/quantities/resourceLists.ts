import type { ResourceList } from '../api/cluster.ts';
import { parseQuantity, quantityMilliValue, quantityValue, type Quantity } from './parseQuantity.ts';

// Sums of resource lists, kept exact, and printed the way Kubernetes prints them.

export function addResources(into: Map<string, Quantity>, list: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(list)) {
    const q = parseQuantity(value);
    if (!q) continue;
    const current = into.get(name);
    into.set(name, current ? { num: current.num * q.den + q.num * current.den, den: current.den * q.den } : q);
  }
}

export function compareQuantities(a: Quantity, b: Quantity): number {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Karmada's Resource.ResourceList (pkg/util/resource.go) as its Quantities print: cpu as millicores in DecimalSI;
 * memory, ephemeral-storage and hugepages-* in BinarySI; pods and every other resource in DecimalSI.
 */
export function formatResourceList(list: Map<string, Quantity>): ResourceList {
  const out: ResourceList = {};
  for (const name of [...list.keys()].sort()) {
    const q = list.get(name)!;
    if (name === 'cpu') out[name] = decimalSI(quantityMilliValue(q), -3);
    else if (BINARY_SI.has(name) || name.startsWith('hugepages-')) out[name] = binarySI(quantityValue(q));
    else out[name] = decimalSI(quantityValue(q), 0);
  }
  return out;
}

const BINARY_SI = new Set(['memory', 'ephemeral-storage']);
const DECIMAL_SUFFIXES = new Map([
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);

/**
 * value × 10^exponent as Quantity.String prints a DecimalSI amount (AsCanonicalBytes): every factor of ten taken out
 * of the mantissa, then the exponent brought down to a multiple of three, so 1000 is "1k" and 1500 is "1500".
 */
function decimalSI(value: bigint, exponent: number): string {
  if (value === 0n) return '0';
  let mantissa = value;
  let e = exponent;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    e++;
  }
  const over = ((e % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(over);
  e -= over;
  return `${mantissa}${DECIMAL_SUFFIXES.get(e) ?? `e${e}`}`;
}

/**
 * A BinarySI amount as Quantity.String prints it (CanonicalizeBytes): under 1024 it is printed as DecimalSI (1000 is
 * "1k"); otherwise with the largest binary suffix that divides it, or none.
 */
function binarySI(value: bigint): string {
  if (value > -1024n && value < 1024n) return decimalSI(value, 0);
  for (const [suffix, shift] of [
    ['Ei', 60n],
    ['Pi', 50n],
    ['Ti', 40n],
    ['Gi', 30n],
    ['Mi', 20n],
    ['Ki', 10n],
  ] as const) {
    const unit = 1n << shift;
    if (value % unit === 0n) return `${value / unit}${suffix}`;
  }
  return String(value);
}
