// The general replica estimator (Karmada pkg/estimator/client/general.go + core/util.go#calAvailableReplicas):
// how many more replicas of this workload a cluster can take, from its status.resourceSummary.
import type { Cluster, ResourceList } from '../api/cluster.ts';
import type { SchedulingRequest } from './types.ts';
import {
  parseQuantity,
  quantityMilliValue,
  quantityValue,
  subtractQuantity,
  type Quantity,
} from '../quantities/parseQuantity.ts';

/**
 * Free replicas for `req` on `cluster`: min over pods and every requested resource of
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
  if (req.resourceRequest !== undefined) {
    for (const [name, raw] of Object.entries(req.resourceRequest)) {
      const request = requestQuantity(raw);
      if (!request || quantityValue(request) <= 0n) continue;
      const free = freeIn(summary, name);
      if (free === undefined || quantityValue(free) <= 0n) return 0;
      const fits =
        name === 'cpu'
          ? quantityMilliValue(free) / quantityMilliValue(request)
          : quantityValue(free) / quantityValue(request);
      if (fits < max) max = fits;
    }
  }
  return Number(max);
}

type Summary = NonNullable<NonNullable<Cluster['status']>['resourceSummary']>;

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
