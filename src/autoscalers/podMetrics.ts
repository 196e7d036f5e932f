/**
 * A pod's request and usage of one resource, over all its containers (a Resource metric) or one of them (a
 * ContainerResource metric), as Karmada's FederatedHPA reads them (pkg/controllers/federatedhpa/
 * replica_calculator.go calculatePodRequests, metrics/client.go getPodMetrics and getContainerMetrics). Pure.
 */

/** A container's requests (from the pod's spec) or usage (from its PodMetrics), in milli-units by resource. */
export interface ContainerAmounts {
  name: string;
  amounts: ReadonlyMap<string, number>;
}

export type PodRequest = { ok: true; milli: number } | { ok: false; container: string };

/**
 * The pod's request of `resource`: summed over its containers, or `container`'s alone. A container that is read and
 * has no such request fails the metric; a pod without the named container requests 0.
 */
export function podRequest(containers: readonly ContainerAmounts[], resource: string, container?: string): PodRequest {
  let milli = 0;
  for (const c of containers) {
    if (container !== undefined && c.name !== container) continue;
    const request = c.amounts.get(resource);
    if (request === undefined) return { ok: false, container: c.name };
    milli += request;
  }
  return { ok: true, milli };
}

export type PodUsage = { ok: true; milli: number | undefined } | { ok: false; message: string };

/**
 * The pod's usage of `resource` from its PodMetrics; `milli` undefined when it has none (the pod then counts as
 * missing its metric). Over all containers, one without the usage (or none at all) makes the pod's metric missing;
 * for `container`, a pod whose metrics lack that container fails the whole metric.
 */
export function podUsage(
  pod: string,
  containers: readonly ContainerAmounts[],
  resource: string,
  container?: string,
): PodUsage {
  if (container !== undefined) {
    const c = containers.find((x) => x.name === container);
    if (!c) return { ok: false, message: `container ${container} not present in metrics for pod ${pod}` };
    return { ok: true, milli: c.amounts.get(resource) };
  }
  if (containers.length === 0) return { ok: true, milli: undefined };
  let milli = 0;
  for (const c of containers) {
    const usage = c.amounts.get(resource);
    if (usage === undefined) return { ok: true, milli: undefined };
    milli += usage;
  }
  return { ok: true, milli };
}
