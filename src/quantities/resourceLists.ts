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

/** CPU in cores or millicores ("4", "3500m"); everything else as an integer, with a binary suffix when exact ("32Gi"). */
export function formatResourceList(list: Map<string, Quantity>): ResourceList {
  const out: ResourceList = {};
  for (const name of [...list.keys()].sort()) {
    const q = list.get(name)!;
    if (name === 'cpu') {
      const milli = quantityMilliValue(q);
      out[name] = milli % 1000n === 0n ? String(milli / 1000n) : `${milli}m`;
      continue;
    }
    const value = quantityValue(q);
    let text = String(value);
    for (const [suffix, shift] of [
      ['Ei', 60n],
      ['Pi', 50n],
      ['Ti', 40n],
      ['Gi', 30n],
      ['Mi', 20n],
      ['Ki', 10n],
    ] as const) {
      const unit = 1n << shift;
      if (value !== 0n && value % unit === 0n) {
        text = `${value / unit}${suffix}`;
        break;
      }
    }
    out[name] = text;
  }
  return out;
}
