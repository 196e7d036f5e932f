// Karmada's cluster status controller grades each member node by what it has free (getAllocatableModelings,
// pkg/modeling): the estimator then counts whole nodes of each grade instead of summing the cluster's free resources.
import type { ResourceModel } from '../api/cluster.ts';
import { addPodRequest, type RequestSum } from '../interpreters/podRequests.ts';
import { parseQuantity, type Quantity } from '../quantities/parseQuantity.ts';
import { addResources, compareQuantities } from '../quantities/resourceLists.ts';

type Obj = Record<string, unknown>;
export interface AllocatableModeling {
  grade: number;
  count: number;
}

const ZERO: Quantity = { num: 0n, den: 1n };

/**
 * How many nodes fall in each grade of `models` (in the models' order, every grade listed), undefined without models
 * or when the first model names a resource twice (Karmada's InitSummary error). A node's grade is the highest whose
 * minimum it reaches in every resource the first model names; a node with no pod left to schedule ends the count, as
 * Karmada's loop breaks there.
 */
export function allocatableModelings(
  models: readonly ResourceModel[] | undefined,
  nodes: readonly Obj[],
  pods: readonly Obj[],
): AllocatableModeling[] | undefined {
  if (!models?.length) return undefined;
  const names: string[] = [];
  const minimums = models.map((m) => {
    const byName = new Map<string, Quantity>();
    for (const r of m.ranges) {
      // InitSummary takes the names of the first model whose range count differs from what it has so far.
      if (names.length !== m.ranges.length) names.push(r.name);
      byName.set(r.name, parseQuantity(r.min) ?? ZERO);
    }
    return byName;
  });
  if (names.length !== 0 && names.length !== minimums[0]!.size) return undefined;
  const ladders = names.map((name) => minimums.map((m) => m.get(name) ?? ZERO));

  // A running sum per node, in list order, as Karmada adds each node's pods into one Resource.
  const used = new Map<string, RequestSum>();
  for (const pod of pods) {
    const spec = (pod.spec ?? {}) as Obj & { nodeName?: string };
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') continue;
    let sum = used.get(spec.nodeName);
    if (!sum) used.set(spec.nodeName, (sum = new Map()));
    addPodRequest(sum, spec);
    sum.set('pods', (sum.get('pods') ?? 0n) + 1n);
  }

  const counts = models.map(() => 0);
  for (const node of nodes) {
    const name = (node.metadata as { name?: string } | undefined)?.name ?? '';
    const allocatable = ((node.status as { allocatable?: Record<string, string | number> } | undefined)?.allocatable ??
      {}) as Record<string, string | number>;
    const free = nodeAvailable(allocatable, used.get(name));
    if (!free) break;
    let grade = Number.MAX_SAFE_INTEGER;
    names.forEach((resource, i) => {
      grade = Math.min(grade, lastAtMost(ladders[i]!, free.get(resource) ?? ZERO));
    });
    if (grade >= 0 && grade < counts.length) counts[grade]!++;
  }
  return models.map((m, i) => ({ grade: m.grade, count: counts[i]! }));
}

/** getNodeAvailable: allocatable less what its pods request; undefined when no pod fits on it any more. */
function nodeAvailable(
  allocatable: Record<string, string | number>,
  used: RequestSum | undefined,
): Map<string, Quantity> | undefined {
  const free = new Map<string, Quantity>();
  addResources(free, allocatable);
  if (!used || ![...used.values()].some((amount) => amount > 0n)) return free;
  const pods = (free.get('pods')?.num ?? 0n) / (free.get('pods')?.den ?? 1n) - (used.get('pods') ?? 0n);
  if (pods <= 0n) return undefined;
  for (const [name, amount] of used) {
    const have = free.get(name);
    // Resource keeps cpu in millicores and the rest in whole units.
    const den = name === 'cpu' ? 1000n : 1n;
    if (have) free.set(name, { num: have.num * den - amount * have.den, den: have.den * den });
  }
  return free;
}

/** searchLastLessElement: the last index whose value is at most `target` by Karmada's binary search; -1 if none. */
function lastAtMost(values: readonly Quantity[], target: Quantity): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const mid = low + ((high - low) >> 1);
    const atMid = compareQuantities(values[mid]!, target);
    const next = mid !== values.length - 1 ? compareQuantities(values[mid + 1]!, target) : 0;
    if (atMid < 1) {
      if (mid === values.length - 1 || next === 1) return mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return -1;
}
