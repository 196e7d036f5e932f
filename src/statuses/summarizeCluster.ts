import type { APIEnablement, ClusterStatus, ResourceList } from '../api/cluster.ts';
import { parseQuantity, quantityMilliValue, quantityValue, type Quantity } from '../assignments/parseQuantity.ts';

type Obj = Record<string, unknown>;

/** nodeSummary and resourceSummary.allocatable from the Nodes; allocated (bound pods) and allocating (pending pods) from the Pods. */
export function summarizeResources(nodes: readonly Obj[], pods: readonly Obj[]): Pick<ClusterStatus, 'nodeSummary' | 'resourceSummary'> {
  let readyNum = 0;
  const allocatable = new Map<string, Quantity>();
  for (const node of nodes) {
    const status = (node.status ?? {}) as { conditions?: { type: string; status: string }[]; allocatable?: Record<string, string | number> };
    if ((status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')) readyNum++;
    addAll(allocatable, status.allocatable ?? {});
  }
  const allocated = new Map<string, Quantity>();
  const allocating = new Map<string, Quantity>();
  for (const pod of pods) {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const bound = Boolean((pod.spec as { nodeName?: string } | undefined)?.nodeName);
    const into = bound ? allocated : allocating;
    addAll(into, podRequests(pod));
    addAll(into, { pods: 1 });
  }
  return {
    nodeSummary: { totalNum: nodes.length, readyNum },
    resourceSummary: { allocatable: formatList(allocatable), allocating: formatList(allocating), allocated: formatList(allocated) },
  };
}

/**
 * A pod's effective requests, as the scheduler counts them: the sum over app containers, raised to the largest
 * init container where that is bigger, plus pod overhead.
 */
export function podRequests(pod: Obj): Record<string, string | number> {
  const spec = (pod.spec ?? {}) as { containers?: Obj[]; initContainers?: Obj[]; overhead?: Record<string, string | number> };
  const sum = new Map<string, Quantity>();
  for (const c of spec.containers ?? []) addAll(sum, requestsOf(c));
  for (const c of spec.initContainers ?? []) {
    for (const [name, value] of Object.entries(requestsOf(c))) {
      const q = parseQuantity(value);
      const current = sum.get(name);
      if (q && (!current || compare(q, current) > 0)) sum.set(name, q);
    }
  }
  addAll(sum, spec.overhead ?? {});
  return formatList(sum);
}

/** Every groupVersion the member serves with its resources (subresources left out), sorted: stable bytes in Git. */
export function buildApiEnablements(lists: ReadonlyMap<string, readonly { name: string; kind: string }[]>): APIEnablement[] {
  return [...lists.keys()].sort().map((groupVersion) => ({
    groupVersion,
    resources: lists
      .get(groupVersion)!
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ name: r.name, kind: r.kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  }));
}

function requestsOf(container: Obj): Record<string, string | number> {
  return ((container.resources as { requests?: Record<string, string | number> } | undefined)?.requests) ?? {};
}

function addAll(into: Map<string, Quantity>, list: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(list)) {
    const q = parseQuantity(value);
    if (!q) continue;
    const current = into.get(name);
    into.set(name, current ? { num: current.num * q.den + q.num * current.den, den: current.den * q.den } : q);
  }
}

function compare(a: Quantity, b: Quantity): number {
  const d = a.num * b.den - b.num * a.den;
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/** CPU in cores or millicores ("4", "3500m"); everything else as an integer, with a binary suffix when exact ("32Gi"). */
function formatList(list: Map<string, Quantity>): ResourceList {
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
    for (const [suffix, shift] of [['Ei', 60n], ['Pi', 50n], ['Ti', 40n], ['Gi', 30n], ['Mi', 20n], ['Ki', 10n]] as const) {
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
