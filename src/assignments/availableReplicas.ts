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
  const pods = freeOf('pods', summary.allocatable, summary.allocated, summary.allocating);
  if (pods === undefined || quantityValue(pods) <= 0n) return 0;
  let max = quantityValue(pods);
  if (req.resourceRequest !== undefined) {
    for (const [name, raw] of Object.entries(req.resourceRequest)) {
      const request = parseQuantity(raw);
      if (!request || quantityValue(request) <= 0n) continue;
      const free = freeOf(name, summary.allocatable, summary.allocated, summary.allocating);
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
