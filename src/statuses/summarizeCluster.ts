import type { APIEnablement, ClusterStatus, ResourceList, ResourceModel } from '../api/cluster.ts';
import { allocatableModelings } from './allocatableModelings.ts';
import { addPodRequest, requestList, type RequestSum } from '../interpreters/podRequests.ts';
import {
  addQuantity,
  formatQuantity,
  parseQuantity as parseCanonicalQuantity,
  type Quantity as CanonicalQuantity,
} from '../quantities/canonicalQuantity.ts';

type Obj = Record<string, unknown>;

/**
 * nodeSummary and resourceSummary.allocatable from the Nodes; allocated (bound pods not terminated) and allocating
 * (unbound pods, whatever their phase) from the Pods; with the Cluster's resource models, allocatableModelings (nodes per grade).
 */
export function summarizeResources(
  nodes: readonly Obj[],
  pods: readonly Obj[],
  resourceModels?: readonly ResourceModel[],
): Pick<ClusterStatus, 'nodeSummary' | 'resourceSummary'> {
  let readyNum = 0;
  const allocatable = new Map<string, CanonicalQuantity>();
  for (const node of nodes) {
    const status = (node.status ?? {}) as {
      conditions?: { type: string; status: string }[];
      allocatable?: Record<string, string | number>;
    };
    // helper.NodeReady: the first Ready condition decides.
    if ((status.conditions ?? []).find((c) => c.type === 'Ready')?.status === 'True') readyNum++;
    addAllocatable(allocatable, status.allocatable ?? {});
  }
  // Each a running sum over its pods in list order, as getAllocatedResource and getAllocatingResource add them.
  const allocated: RequestSum = new Map();
  const allocating: RequestSum = new Map();
  let boundPods = 0n;
  let pendingPods = 0n;
  for (const pod of pods) {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    const bound = Boolean((pod.spec as { nodeName?: string } | undefined)?.nodeName);
    // Karmada's getAllocatingResource looks at no phase: an unbound pod that failed still counts as allocating.
    if (bound && (phase === 'Succeeded' || phase === 'Failed')) continue;
    addPodRequest(bound ? allocated : allocating, (pod.spec ?? {}) as Obj);
    if (bound) boundPods++;
    else pendingPods++;
  }
  allocated.set('pods', (allocated.get('pods') ?? 0n) + boundPods);
  allocating.set('pods', (allocating.get('pods') ?? 0n) + pendingPods);
  const modelings = allocatableModelings(resourceModels, nodes, pods);
  const pending = requestedList(allocating);
  const bound = requestedList(allocated);
  return {
    // Karmada's NodeSummary and ResourceSummary leave out zero counts and empty lists (omitempty).
    nodeSummary: { ...(nodes.length > 0 ? { totalNum: nodes.length } : {}), ...(readyNum > 0 ? { readyNum } : {}) },
    resourceSummary: {
      ...(allocatable.size > 0 ? { allocatable: formatSums(allocatable) } : {}),
      ...(pending ? { allocating: pending } : {}),
      ...(bound ? { allocated: bound } : {}),
      ...(modelings ? { allocatableModelings: modelings } : {}),
    },
  };
}

/**
 * getClusterAllocatable: every node's allocatable added with Quantity.Add, so each sum keeps the format of the first
 * node's quantity ("64G" twice is "128G"), not Resource's formats.
 */
function addAllocatable(into: Map<string, CanonicalQuantity>, list: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(list)) {
    const q = parseCanonicalQuantity(String(value));
    if (!q) continue;
    const current = into.get(name);
    into.set(name, current ? addQuantity(current, q) : q);
  }
}

function formatSums(sums: Map<string, CanonicalQuantity>): ResourceList {
  return Object.fromEntries([...sums.keys()].sort().map((name) => [name, formatQuantity(sums.get(name)!)]));
}

/** Resource.ResourceList: only amounts above zero, and no list at all when nothing is left (omitempty). */
function requestedList(sum: RequestSum): ResourceList | undefined {
  const list = requestList(sum);
  return Object.keys(list).length > 0 ? list : undefined;
}

/** Every groupVersion the member serves with its resources (subresources left out), sorted: stable bytes in Git. */
export function buildApiEnablements(
  lists: ReadonlyMap<string, readonly { name: string; kind: string }[]>,
): APIEnablement[] {
  return [...lists.keys()].sort().map((groupVersion) => ({
    groupVersion,
    resources: lists
      .get(groupVersion)!
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ name: r.name, kind: r.kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  }));
}
