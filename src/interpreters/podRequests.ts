import type { ResourceList } from '../api/cluster.ts';
import { parseQuantity, type Quantity } from '../quantities/parseQuantity.ts';
import { addResources, compareQuantities, formatResourceList } from '../quantities/resourceLists.ts';

type Obj = Record<string, unknown>;

/**
 * A pod's effective requests, as the scheduler counts them: the sum over app containers, raised to the largest
 * init container where that is bigger, plus pod overhead.
 */
export function podRequests(podSpec: Obj): ResourceList {
  const spec = podSpec as { containers?: Obj[]; initContainers?: Obj[]; overhead?: Record<string, string | number> };
  const sum = new Map<string, Quantity>();
  for (const c of spec.containers ?? []) addResources(sum, requestsOf(c));
  for (const c of spec.initContainers ?? []) {
    for (const [name, value] of Object.entries(requestsOf(c))) {
      const q = parseQuantity(value);
      const current = sum.get(name);
      if (q && (!current || compareQuantities(q, current) > 0)) sum.set(name, q);
    }
  }
  addResources(sum, spec.overhead ?? {});
  return formatResourceList(sum);
}

function requestsOf(container: Obj): Record<string, string | number> {
  return ((container.resources as { requests?: Record<string, string | number> } | undefined)?.requests) ?? {};
}
