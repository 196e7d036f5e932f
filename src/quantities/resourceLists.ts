import type { ResourceList } from '../api/cluster.ts';
import { formatQuantity } from './canonicalQuantity.ts';
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
    if (name === 'cpu') out[name] = formatQuantity({ mantissa: quantityMilliValue(q), scale: -3, format: 'DecimalSI' });
    else
      out[name] = formatQuantity({
        mantissa: quantityValue(q),
        scale: 0,
        format: BINARY_SI.has(name) || name.startsWith('hugepages-') ? 'BinarySI' : 'DecimalSI',
      });
  }
  return out;
}

const BINARY_SI = new Set(['memory', 'ephemeral-storage']);
