// The general replica estimator (Karmada pkg/estimator/client/general.go + core/util.go#calAvailableReplicas):
// how many more replicas of this workload a cluster can take, from its status.resourceSummary.
import type { Cluster, ResourceList, ResourceModel } from '../api/cluster.ts';
import { isScalarResourceName } from '../interpreters/podRequests.ts';
import type { SchedulingRequest } from './types.ts';
import {
  parseQuantity,
  quantityMilliValue,
  quantityValue,
  subtractQuantity,
  type Quantity,
} from '../quantities/parseQuantity.ts';

/**
 * Free replicas for `req` on `cluster`: with collected resource modelings, the replicas whole nodes of each grade
 * take (capped by free pods); otherwise min over pods and every requested resource of
 * (allocatable - allocated - allocating) / request, CPU in milli-units. A cluster with a status but no
 * resourceSummary has room for 0; a cluster Flotilla knows nothing about (no status) is unlimited, which,
 * as in Karmada, is capped at the requested replicas. Non-workloads (replicas 0) are not estimated: 0.
 */
export function availableReplicas(cluster: Cluster, req: SchedulingRequest): number {
  if (req.replicas <= 0) return 0;
  if (!cluster.status) return req.replicas;
  const summary = cluster.status.resourceSummary;
  if (!summary) return 0;
  const pods = freeIn(summary, 'pods');
  if (pods === undefined || quantityValue(pods) <= 0n) return 0;
  let max = quantityValue(pods);
  // Only a binding without replicaRequirements skips the models: a node claim alone (a nodeSelector, no requests)
  // still counts 110 pods per model node.
  if (req.resourceRequest === undefined && !req.replicaRequirements) return Number(max);
  const request = req.resourceRequest ?? {};
  // Karmada's CustomizedClusterResourceModeling (beta, on): collected modelings count whole nodes of each grade.
  const byModels = summary.allocatableModelings?.length
    ? replicasOnModelNodes(cluster.spec.resourceModels, summary.allocatableModelings, request)
    : undefined;
  if (byModels !== undefined) return Math.min(Number(byModels), Number(max));
  for (const [name, raw] of Object.entries(request)) {
    const needed = requestQuantity(raw);
    if (!needed || quantityValue(needed) <= 0n) continue;
    const free = freeIn(summary, name);
    if (free === undefined || quantityValue(free) <= 0n) return 0;
    const fits =
      name === 'cpu'
        ? quantityMilliValue(free) / quantityMilliValue(needed)
        : quantityValue(free) / quantityValue(needed);
    if (fits < max) max = fits;
  }
  return Number(max);
}

type Summary = NonNullable<NonNullable<Cluster['status']>['resourceSummary']>;

/** A virtual node of each grade holds 110 pods, as a Kubernetes node does by default (buildModelNodes). */
const PODS_PER_MODEL_NODE = 110n;

/**
 * getMaximumReplicasBasedOnResourceModels: each counted node of a grade is a virtual node holding that grade's minimum
 * of every resource, and one replica at a time goes to the first node it fits (so each node takes as many whole
 * replicas as its minimums allow). Undefined (the summary decides) without models in the spec or with a negative count.
 */
function replicasOnModelNodes(
  models: readonly ResourceModel[] | undefined,
  modelings: readonly { grade: number; count: number }[],
  request: ResourceList,
): bigint | undefined {
  if (!models?.length) return undefined;
  const counts = new Map<number, bigint>();
  for (const m of modelings) {
    if (m.count < 0) return undefined;
    counts.set(m.grade, (counts.get(m.grade) ?? 0n) + BigInt(m.count));
  }
  // A grade defined twice keeps its last definition, and a range named twice its last minimum (Go map writes).
  const minimums = new Map<number, Map<string, string | number>>();
  for (const m of models) minimums.set(m.grade, new Map(m.ranges.map((r) => [r.name, r.min])));
  let total = 0n;
  for (const [grade, mins] of minimums) {
    const count = counts.get(grade) ?? 0n;
    if (count === 0n) continue;
    total += count * perModelNode(mins, request);
  }
  return total;
}

/** util.Resource.MaxDivided of one model node by one replica's requests. */
function perModelNode(mins: ReadonlyMap<string, string | number>, request: ResourceList): bigint {
  let fits = PODS_PER_MODEL_NODE;
  for (const [name, raw] of Object.entries(request)) {
    const need = requestQuantity(raw);
    if (!need) continue;
    const counted = name === 'memory' || name === 'ephemeral-storage' || isScalarResourceName(name);
    if (name !== 'cpu' && !counted) continue;
    const wanted = name === 'cpu' ? quantityMilliValue(need) : quantityValue(need);
    if (wanted <= 0n) continue;
    const min = mins.get(name);
    const held = min === undefined ? undefined : parseQuantity(min);
    const has = held ? (name === 'cpu' ? quantityMilliValue(held) : quantityValue(held)) : 0n;
    const n = has / wanted;
    if (n < fits) fits = n;
  }
  return fits;
}

/**
 * freeOf, worked out once per resource summary and resource: a scheduling pass asks it of every cluster for every
 * workload, and parsing the same quantities again each time was most of the estimator's cost. A summary is never
 * changed in place (a new cluster state makes new objects), so what it answered once stays true.
 */
const freeBySummary = new WeakMap<Summary, Map<string, Quantity | undefined>>();
function freeIn(summary: Summary, name: string): Quantity | undefined {
  let known = freeBySummary.get(summary);
  if (!known) freeBySummary.set(summary, (known = new Map()));
  if (known.has(name)) return known.get(name);
  const free = freeOf(name, summary.allocatable, summary.allocated, summary.allocating);
  known.set(name, free);
  return free;
}

/** A workload's requests repeat across the fleet ("100m", "128Mi"): each text is parsed once (a bounded memo). */
const requests = new Map<string | number, Quantity | undefined>();
function requestQuantity(raw: string | number): Quantity | undefined {
  if (requests.has(raw)) return requests.get(raw);
  const q = parseQuantity(raw);
  if (requests.size >= 4096) requests.clear();
  requests.set(raw, q);
  return q;
}

/** allocatable - allocated - allocating for one resource; undefined when allocatable does not list it. */
function freeOf(
  name: string,
  allocatable?: ResourceList,
  allocated?: ResourceList,
  allocating?: ResourceList,
): Quantity | undefined {
  const total = quantityOf(allocatable, name);
  if (!total) return undefined;
  let free = total;
  const used = quantityOf(allocated, name);
  if (used) free = subtractQuantity(free, used);
  const pending = quantityOf(allocating, name);
  if (pending) free = subtractQuantity(free, pending);
  return free;
}

function quantityOf(list: ResourceList | undefined, name: string): Quantity | undefined {
  const raw = list?.[name];
  return raw === undefined ? undefined : parseQuantity(raw);
}
