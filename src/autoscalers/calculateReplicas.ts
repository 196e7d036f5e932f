/**
 * Kubernetes' replica calculation for a Resource metric with an AverageUtilization target, as Karmada's
 * FederatedHPA runs it over the pods of all target clusters (pkg/controllers/federatedhpa/replica_calculator.go
 * GetResourceReplicas, metrics/utilization.go GetResourceUtilizationRatio). Pure: the pods and their usage are read
 * by the caller.
 */

/** The Kubernetes controller manager's --horizontal-pod-autoscaler-tolerance. */
export const DEFAULT_TOLERANCE = 0.1;
/** karmada-controller-manager's --horizontal-pod-autoscaler-cpu-initialization-period. */
export const DEFAULT_CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** karmada-controller-manager's --horizontal-pod-autoscaler-initial-readiness-delay. */
export const DEFAULT_INITIAL_READINESS_DELAY_MS = 30_000;

/** What decides which pods count for a metric: its resource (only CPU reads readiness), the time and the flags. */
export interface PodReadiness {
  /** What the requests are of, for the message naming a container without one. Default cpu. */
  resource?: string;
  /** The time of the calculation, ms; absent, long after every pod started. */
  now?: number;
  cpuInitializationPeriodMs?: number;
  initialReadinessDelayMs?: number;
}

/** A pod of the workload, as the calculation needs it. */
export interface ScaledPod {
  /** Unique across clusters (e.g. `member1/web-abc`): metrics are matched to pods by it. */
  name: string;
  phase: string;
  /** Set when the pod has a deletionTimestamp. */
  deleting?: boolean;
  /** The Ready condition's status; undefined when the pod has none: counted unready for CPU. */
  ready?: 'True' | 'False' | 'Unknown';
  /** status.startTime, ms since the epoch; undefined when the pod has none: counted unready for CPU. */
  startTime?: number;
  /** The Ready condition's lastTransitionTime, ms since the epoch; undefined when the condition has none. */
  readySince?: number;
  /** Its PodMetrics sample: when it ends and the window it covers, ms. */
  sample?: { timestamp: number; windowMs: number };
  /** Sum of the containers' requests for the resource, in milli-units; undefined when a container has none. */
  requestMilli?: number;
  /** The container without a request for the resource, for the message, when `requestMilli` is undefined. */
  requestlessContainer?: string;
}

export interface ResourceReplicas {
  replicas: number;
  /** Current average utilization, percent of request (an integer, as Kubernetes reports it). */
  utilization: number;
  /** Average usage per pod with a metric, in milli-units. */
  averageMilli: number;
}

export type CalculationResult = { ok: true; value: ResourceReplicas } | { ok: false; reason: string; message: string };

function utilizationRatio(
  usage: Map<string, number>,
  requests: Map<string, number>,
  target: number,
): { ratio: number; utilization: number; averageMilli: number } | undefined {
  let usageTotal = 0;
  let requestTotal = 0;
  let entries = 0;
  for (const [pod, value] of usage) {
    const request = requests.get(pod);
    if (request === undefined) continue;
    usageTotal += value;
    requestTotal += request;
    entries++;
  }
  if (requestTotal === 0) return undefined;
  // Kubernetes truncates utilization to an integer percentage before the ratio.
  const utilization = Math.trunc((usageTotal * 100) / requestTotal);
  return { ratio: utilization / target, utilization, averageMilli: Math.trunc(usageTotal / entries) };
}

/** What both calculations answer when the selector matches no pod (replica_calculator.go). */
const NO_PODS: CalculationResult = {
  ok: false,
  reason: 'FailedGetResourceMetric',
  message: 'no pods returned by selector while calculating replica count',
};

/**
 * Desired replicas for `targetUtilization` percent. Pods deleting or Failed are ignored; Pending or not Ready pods
 * are unready (their usage dropped; counted as 0 when scaling up); pods without a metric are missing (counted at
 * 100% of request when scaling down, 0 when scaling up). Within the tolerance, or when the corrections reverse the
 * direction, the current count stays.
 */
export function calculateResourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  pods: readonly ScaledPod[],
  usageMilli: ReadonlyMap<string, number>,
  tolerance = DEFAULT_TOLERANCE,
  calibration = 1,
  readiness: PodReadiness = {},
): CalculationResult {
  if (pods.length === 0) return NO_PODS;
  const resource = readiness.resource ?? 'cpu';
  const metrics = new Map(usageMilli);
  const { unready, missing, ignored, readyCount } = groupPods(pods, metrics, readiness);
  for (const name of [...ignored, ...unready]) metrics.delete(name);
  const requests = new Map<string, number>();
  for (const pod of pods) {
    if (pod.requestMilli === undefined)
      return {
        ok: false,
        reason: 'FailedGetResourceMetric',
        message: `missing request for ${resource} in ${pod.requestlessContainer !== undefined ? `container ${pod.requestlessContainer}` : 'a container'} of Pod ${pod.name}`,
      };
    requests.set(pod.name, pod.requestMilli);
  }
  if (metrics.size === 0)
    return { ok: false, reason: 'FailedGetResourceMetric', message: 'did not receive metrics for any ready pods' };
  const first = utilizationRatio(metrics, requests, targetUtilization);
  if (!first)
    return { ok: false, reason: 'FailedGetResourceMetric', message: 'no metrics returned matched known pods' };
  const { ratio, utilization, averageMilli } = first;
  const keep = { ok: true as const, value: { replicas: currentReplicas, utilization, averageMilli } };
  const scaleUpWithUnready = unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && missing.size === 0) {
    if (Math.abs(1 - ratio) <= tolerance) return keep;
    return { ok: true, value: { replicas: Math.ceil((ratio * readyCount) / calibration), utilization, averageMilli } };
  }
  if (ratio < 1) {
    const fallback = Math.max(100, targetUtilization);
    for (const name of missing) metrics.set(name, Math.trunc(((requests.get(name) ?? 0) * fallback) / 100));
  } else if (ratio > 1) for (const name of missing) metrics.set(name, 0);
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, 0);
  const second = utilizationRatio(metrics, requests, targetUtilization);
  if (!second)
    return { ok: false, reason: 'FailedGetResourceMetric', message: 'no metrics returned matched known pods' };
  const newRatio = second.ratio;
  if (Math.abs(1 - newRatio) <= tolerance || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return keep;
  const replicas = Math.ceil((newRatio * metrics.size) / calibration);
  if ((newRatio < 1 && replicas > currentReplicas) || (newRatio > 1 && replicas < currentReplicas)) return keep;
  return { ok: true, value: { replicas, utilization, averageMilli } };
}

/** Pods the calculation counts: ready with a metric, unready (Pending, not Ready), missing a metric, ignored. */
/**
 * replica_calculator.go groupPods: deleted and Failed pods are ignored, Pending ones unready, those without a sample
 * missing. Readiness counts for CPU only: inside its initialization period a pod is unready until it is Ready and
 * one sample window has passed since it turned Ready; after it, only a pod Ready=False that never became Ready is.
 */
function groupPods(pods: readonly ScaledPod[], metrics: ReadonlyMap<string, number>, readiness: PodReadiness) {
  const cpu = (readiness.resource ?? 'cpu') === 'cpu';
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  let readyCount = 0;
  for (const pod of pods) {
    if (pod.deleting || pod.phase === 'Failed') ignored.add(pod.name);
    else if (pod.phase === 'Pending') unready.add(pod.name);
    else if (!metrics.has(pod.name)) missing.add(pod.name);
    else if (cpu && cpuUnready(pod, readiness)) unready.add(pod.name);
    else readyCount++;
  }
  return { unready, missing, ignored, readyCount };
}

function cpuUnready(pod: ScaledPod, readiness: PodReadiness): boolean {
  if (pod.ready === undefined || pod.startTime === undefined) return true;
  // A condition or sample without a time has Go's zero time there: before every start and every sample.
  const since = pod.readySince ?? Number.NEGATIVE_INFINITY;
  const now = readiness.now ?? Number.POSITIVE_INFINITY;
  if (pod.startTime + (readiness.cpuInitializationPeriodMs ?? DEFAULT_CPU_INITIALIZATION_PERIOD_MS) > now)
    return (
      pod.ready === 'False' || (pod.sample?.timestamp ?? Number.NEGATIVE_INFINITY) < since + (pod.sample?.windowMs ?? 0)
    );
  return (
    pod.ready === 'False' &&
    pod.startTime + (readiness.initialReadinessDelayMs ?? DEFAULT_INITIAL_READINESS_DELAY_MS) > since
  );
}

/** Average usage over the pods with a metric, and its ratio to the target (metricsclient.GetMetricUsageRatio). */
function usageRatio(
  metrics: ReadonlyMap<string, number>,
  targetMilli: number,
): { ratio: number; averageMilli: number } {
  let total = 0;
  for (const v of metrics.values()) total += v;
  const averageMilli = Math.trunc(total / metrics.size);
  return { ratio: averageMilli / targetMilli, averageMilli };
}

/**
 * Desired replicas for a Resource metric with an AverageValue target (`targetMilli` per pod, in milli-units):
 * Kubernetes' GetRawResourceReplicas and calcPlainMetricReplicas. No requests are needed; missing pods count at the
 * target when scaling down. `utilization` is 0 (not a percentage target).
 */
export function calculateAverageValueReplicas(
  currentReplicas: number,
  targetMilli: number,
  pods: readonly ScaledPod[],
  usageMilli: ReadonlyMap<string, number>,
  tolerance = DEFAULT_TOLERANCE,
  calibration = 1,
  readiness: PodReadiness = {},
): CalculationResult {
  if (pods.length === 0) return NO_PODS;
  if (targetMilli <= 0)
    return { ok: false, reason: 'FailedGetResourceMetric', message: 'the target averageValue must be positive' };
  const metrics = new Map(usageMilli);
  const { unready, missing, ignored, readyCount } = groupPods(pods, metrics, readiness);
  for (const name of [...ignored, ...unready]) metrics.delete(name);
  for (const name of metrics.keys()) if (!pods.some((p) => p.name === name)) metrics.delete(name);
  if (metrics.size === 0)
    return { ok: false, reason: 'FailedGetResourceMetric', message: 'did not receive metrics for any ready pods' };
  const { ratio, averageMilli } = usageRatio(metrics, targetMilli);
  const keep = { ok: true as const, value: { replicas: currentReplicas, utilization: 0, averageMilli } };
  const scaleUpWithUnready = unready.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && missing.size === 0) {
    if (Math.abs(1 - ratio) <= tolerance) return keep;
    return {
      ok: true,
      value: { replicas: Math.ceil((ratio * readyCount) / calibration), utilization: 0, averageMilli },
    };
  }
  // At exactly the target the missing pods stay out of the average (neither branch of calcPlainMetricReplicas).
  if (ratio < 1) for (const name of missing) metrics.set(name, targetMilli);
  else if (ratio > 1) for (const name of missing) metrics.set(name, 0);
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, 0);
  const newRatio = usageRatio(metrics, targetMilli).ratio;
  if (Math.abs(1 - newRatio) <= tolerance || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return keep;
  const replicas = Math.ceil((newRatio * metrics.size) / calibration);
  if ((newRatio < 1 && replicas > currentReplicas) || (newRatio > 1 && replicas < currentReplicas)) return keep;
  return { ok: true, value: { replicas, utilization: 0, averageMilli } };
}
