import type { KubeObject } from '../types.ts';

// The HPA's replica calculator for Resource metrics (k8s pkg/controller/podautoscaler/replica_calculator.go),
// pure: pods, their samples and their requests in; a replica count out. Unready and missing pods are handled
// the way Kubernetes does, so a scale-up is not inflated by pods still starting and a scale-down is not
// deepened by pods without samples.

/** --horizontal-pod-autoscaler-tolerance default. */
export const DEFAULT_TOLERANCE = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period default (5 minutes). */
export const DEFAULT_CPU_INITIALIZATION_PERIOD_MS = 300_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay default (30 s). */
export const DEFAULT_INITIAL_READINESS_DELAY_MS = 30_000;

/** One pod's sample of a resource, in milli units (millicores, millibytes), as metrics-server reported it. */
export interface PodSample {
  milliValue: number;
  /** ms since epoch */
  timestamp: number;
  windowMs: number;
}

export interface CalculatorOptions {
  tolerance: number;
  cpuInitializationPeriodMs: number;
  initialReadinessDelayMs: number;
  /** ms since epoch */
  now: number;
}

export interface ResourceReplicas {
  replicas: number;
  /** Average utilization in percent of requests (Utilization targets only). */
  utilization?: number;
  /** Average usage per pod in milli units. */
  rawAverage: number;
}

export class MetricsError extends Error {}

interface PodGroups {
  readyPodCount: number;
  unready: Set<string>;
  missing: Set<string>;
  ignored: Set<string>;
}

const readyCondition = (pod: KubeObject): any => (pod.status?.conditions ?? []).find((c: any) => c.type === 'Ready');

/**
 * groupPods: deleted and failed pods are ignored, pending pods count as unready, pods without a sample are
 * missing; for CPU, a pod inside its initialization period counts as unready until it is Ready and one sample
 * window has passed since it turned Ready, and after that period only a pod that never became Ready does.
 */
export function groupPods(
  pods: KubeObject[],
  samples: Map<string, PodSample>,
  resource: string,
  options: CalculatorOptions,
): PodGroups {
  const groups: PodGroups = { readyPodCount: 0, unready: new Set(), missing: new Set(), ignored: new Set() };
  for (const pod of pods) {
    const name = pod.metadata.name!;
    if (pod.metadata.deletionTimestamp || pod.status?.phase === 'Failed') {
      groups.ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      groups.unready.add(name);
      continue;
    }
    const sample = samples.get(name);
    if (!sample) {
      groups.missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const condition = readyCondition(pod);
      const start = pod.status?.startTime ? Date.parse(pod.status.startTime) : undefined;
      let unready: boolean;
      if (!condition || start === undefined) unready = true;
      else {
        const transition = Date.parse(condition.lastTransitionTime ?? pod.status.startTime);
        if (start + options.cpuInitializationPeriodMs > options.now) {
          unready = condition.status === 'False' || sample.timestamp < transition + sample.windowMs;
        } else {
          unready = condition.status === 'False' && start + options.initialReadinessDelayMs > transition;
        }
      }
      if (unready) {
        groups.unready.add(name);
        continue;
      }
    }
    groups.readyPodCount++;
  }
  return groups;
}

/** GetResourceUtilizationRatio: integer percent of the summed requests, then its ratio to the target. */
function utilizationRatio(
  values: Map<string, number>,
  requests: Map<string, number>,
  target: number,
): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let entries = 0;
  for (const [name, value] of values) {
    const request = requests.get(name);
    if (request === undefined) continue;
    metricsTotal += value;
    requestsTotal += request;
    entries++;
  }
  if (requestsTotal === 0) throw new MetricsError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / target, utilization, rawAverage: Math.trunc(metricsTotal / entries) };
}

/** GetMetricUsageRatio: the plain average against an AverageValue target. */
function usageRatio(values: Map<string, number>, target: number): { ratio: number; rawAverage: number } {
  let total = 0;
  for (const value of values.values()) total += value;
  const rawAverage = Math.trunc(total / values.size);
  return { ratio: rawAverage / target, rawAverage };
}

export interface ResourceTarget {
  /** Percent of requests, for a Utilization target. */
  averageUtilization?: number;
  /** Milli units per pod, for an AverageValue target. */
  averageValueMilli?: number;
}

/**
 * GetResourceReplicas / GetRawResourceReplicas. `requests` holds each pod's summed container requests in milli
 * units (required for a Utilization target). Throws MetricsError when there is nothing to compute from.
 */
export function calculateResourceReplicas(
  currentReplicas: number,
  pods: KubeObject[],
  samples: Map<string, PodSample>,
  requests: Map<string, number>,
  resource: string,
  target: ResourceTarget,
  options: CalculatorOptions,
): ResourceReplicas {
  if (pods.length === 0) throw new MetricsError('no pods returned by selector while calculating replica count');
  const groups = groupPods(pods, samples, resource, options);
  const values = new Map<string, number>();
  for (const [name, sample] of samples) {
    if (!groups.ignored.has(name) && !groups.unready.has(name) && pods.some((p) => p.metadata.name === name))
      values.set(name, sample.milliValue);
  }
  if (values.size === 0) throw new MetricsError('did not receive metrics for targeted pods (pods might be unready)');

  const utilizationTarget = target.averageUtilization;
  const compute = (v: Map<string, number>) =>
    utilizationTarget !== undefined
      ? utilizationRatio(v, requests, utilizationTarget)
      : { ...usageRatio(v, target.averageValueMilli!), utilization: undefined };
  const first = compute(values);
  const result = (replicas: number): ResourceReplicas => ({
    replicas,
    rawAverage: first.rawAverage,
    ...(first.utilization !== undefined ? { utilization: first.utilization } : {}),
  });

  const scaleUpWithUnready = groups.unready.size > 0 && first.ratio > 1.0;
  if (!scaleUpWithUnready && groups.missing.size === 0) {
    if (Math.abs(1.0 - first.ratio) <= options.tolerance) return result(currentReplicas);
    return result(Math.ceil(first.ratio * groups.readyPodCount));
  }
  if (groups.missing.size > 0) {
    for (const name of groups.missing) {
      // On a scale-down a pod without a sample counts as using its full request (or the target), on a scale-up as idle.
      if (first.ratio < 1.0) {
        values.set(
          name,
          utilizationTarget !== undefined
            ? Math.trunc(((requests.get(name) ?? 0) * Math.max(100, utilizationTarget)) / 100)
            : target.averageValueMilli!,
        );
      } else if (first.ratio > 1.0) values.set(name, 0);
    }
  }
  if (scaleUpWithUnready) for (const name of groups.unready) values.set(name, 0);
  const next = compute(values);
  if (
    Math.abs(1.0 - next.ratio) <= options.tolerance ||
    (first.ratio < 1.0 && next.ratio > 1.0) ||
    (first.ratio > 1.0 && next.ratio < 1.0)
  ) {
    return result(currentReplicas);
  }
  const replicas = Math.ceil(next.ratio * values.size);
  if ((next.ratio < 1.0 && replicas > currentReplicas) || (next.ratio > 1.0 && replicas < currentReplicas))
    return result(currentReplicas);
  return result(replicas);
}
