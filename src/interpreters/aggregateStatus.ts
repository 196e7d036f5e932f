import type { AggregatedStatusItem, FullyAppliedCondition } from '../branches/status/statusFiles.ts';
import { mergeLoadBalancerIngress } from './mergeLoadBalancerIngress.ts';
import { STATUS_ZERO_VALUES } from '../api/statusZeroValues.ts';
import { STATUS_COUNTERS } from '../api/statusCounters.ts';

type Obj = Record<string, unknown>;

// pkg/util/helper/workstatus.go: the FullyApplied condition's reasons and messages.
export const FULLY_APPLIED_SUCCESS_REASON = 'FullyAppliedSuccess';
export const FULLY_APPLIED_FAILED_REASON = 'FullyAppliedFailed';
export const FULLY_APPLIED_SUCCESS_MESSAGE = 'All works have been successfully applied';
export const FULLY_APPLIED_FAILED_MESSAGE = 'Failed to apply all works, see status.aggregatedStatus for details';

/**
 * Counters summed over members, per apiVersion/kind (aggregatestatus.go). Karmada writes the typed status back, so a
 * counter tagged omitempty in the Kubernetes type is gone at 0 and only the others (STATUS_ZERO_VALUES) stay.
 */
const SUMMED: Readonly<Record<string, readonly string[]>> = STATUS_COUNTERS;

const n = (s: Obj, f: string) => (typeof s[f] === 'number' ? (s[f] as number) : 0);
const isTrue = (s: Obj, type: string) =>
  (Array.isArray(s.conditions) ? (s.conditions as Obj[]) : []).some((c) => c?.type === type && c?.status === 'True');
const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

/**
 * The template's status from its members' reflected statuses, as Karmada's AggregateStatus does per apiVersion/kind
 * (default/native/aggregatestatus.go). `previous` is the template status the last aggregation wrote: a finished Job
 * keeps it, and a Job's startTime, once set, stays. Undefined for kinds Karmada does not aggregate (their template
 * status is left alone).
 */
export function aggregateStatus(
  apiVersion: string,
  kind: string,
  items: readonly AggregatedStatusItem[],
  previous?: Obj,
): Obj | undefined {
  const key = `${apiVersion}/${kind}`;
  const statuses = items.map((i) => i.status).filter((s): s is Obj => Boolean(s));
  const summed = SUMMED[key];
  if (summed) {
    const zero = STATUS_ZERO_VALUES[key] ?? {};
    const out: Obj = {};
    for (const f of summed) {
      const total = statuses.reduce((acc, s) => acc + n(s, f), 0);
      if (total !== 0 || f in zero) out[f] = total;
    }
    // aggregateHorizontalPodAutoscalerStatus replaces the whole status: its currentMetrics (null) is written too.
    for (const [f, v] of Object.entries(zero)) if (!(f in out)) out[f] = v;
    return out;
  }
  switch (key) {
    case 'v1/Service':
      // Only LoadBalancer Services reflect a status; with none reflected the template's status is left alone.
      if (statuses.length === 0) return undefined;
      return loadBalancerStatus(statuses);
    case 'networking.k8s.io/v1/Ingress':
      return loadBalancerStatus(statuses);
    case 'policy/v1/PodDisruptionBudget': {
      const out: Obj = {};
      for (const f of ['currentHealthy', 'desiredHealthy', 'expectedPods', 'disruptionsAllowed'])
        out[f] = statuses.reduce((acc, s) => acc + n(s, f), 0);
      // Pod names are only unique within a member: Karmada prefixes them with the cluster.
      const disrupted = new Map<string, unknown>();
      for (const i of items) {
        const pods = i.status?.disruptedPods;
        if (pods && typeof pods === 'object')
          for (const [pod, at] of Object.entries(pods)) disrupted.set(`${i.clusterName}/${pod}`, at);
      }
      // A Go map's JSON keys are in byte order, which the cluster prefix does not follow (`a-b/…` before `a/…`).
      if (disrupted.size > 0)
        out.disruptedPods = Object.fromEntries([...disrupted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      return out;
    }
    case 'batch/v1/Job':
      return jobStatus(items, previous);
    case 'batch/v1/CronJob':
      return cronJobStatus(statuses);
    case 'v1/Pod':
      return items.length === 0 ? undefined : podStatus(items);
    case 'v1/PersistentVolume':
      return persistentVolumeStatus(items);
    case 'v1/PersistentVolumeClaim': {
      // Bound unless a member says otherwise; the last non-Bound phase wins, and Lost ends the search.
      let phase = 'Bound';
      for (const s of statuses) {
        if (s.phase === 'Lost') {
          phase = 'Lost';
          break;
        }
        if (s.phase !== 'Bound') phase = typeof s.phase === 'string' ? s.phase : '';
      }
      return phase ? { phase } : {};
    }
    default:
      return undefined;
  }
}

function loadBalancerStatus(statuses: readonly Obj[]): Obj {
  const ingress = mergeLoadBalancerIngress(
    statuses.map((s) => (s.loadBalancer as { ingress?: unknown } | undefined)?.ingress),
  );
  return { loadBalancer: ingress.length ? { ingress } : {} };
}

/**
 * helper.ParsingJobStatus: counters summed; Failed names the members where the Job failed; Complete (and
 * SuccessCriteriaMet when every member met it) once every member completed; startTime the earliest once every member
 * started, completionTime the latest once every member completed. A Job the last aggregation found finished keeps
 * that status. Condition times are left out: Karmada stamps them with the time of each aggregation.
 */
function jobStatus(items: readonly AggregatedStatusItem[], previous: Obj | undefined): Obj {
  if (previous && (isTrue(previous, 'Complete') || isTrue(previous, 'Failed'))) return previous;
  const statuses = items.map((i) => i.status).filter((s): s is Obj => Boolean(s));
  // JobStatus tags its counters omitempty: a 0 is not written.
  const out: Obj = {};
  for (const f of ['active', 'succeeded', 'failed']) {
    const total = statuses.reduce((a, s) => a + n(s, f), 0);
    if (total !== 0) out[f] = total;
  }
  const failedOn: string[] = [];
  let completed = 0;
  let criteriaMet = 0;
  let started = 0;
  let finishedAt = 0;
  let startTime: string | undefined;
  let completionTime: string | undefined;
  for (const i of items) {
    const s = i.status;
    if (!s) continue;
    // GetJobFinishedStatus: the first Complete or Failed condition that is True.
    const finished = (Array.isArray(s.conditions) ? (s.conditions as Obj[]) : []).find(
      (c) => (c?.type === 'Complete' || c?.type === 'Failed') && c?.status === 'True',
    );
    if (finished?.type === 'Complete') completed++;
    else if (finished?.type === 'Failed') failedOn.push(i.clusterName);
    if (isTrue(s, 'SuccessCriteriaMet')) criteriaMet++;
    if (typeof s.startTime === 'string') {
      started++;
      if (startTime === undefined || time(s.startTime) < time(startTime)) startTime = s.startTime;
    }
    if (typeof s.completionTime === 'string') {
      finishedAt++;
      if (completionTime === undefined || time(completionTime) < time(s.completionTime))
        completionTime = s.completionTime;
    }
  }
  const conditions: Obj[] = [];
  if (failedOn.length > 0)
    conditions.push({
      type: 'Failed',
      status: 'True',
      reason: 'JobFailed',
      message: `Job executed failed in member clusters ${failedOn.join(',')}`,
    });
  if (completed > 0 && completed === items.length) {
    conditions.push({ type: 'Complete', status: 'True', reason: 'Completed', message: 'Job completed' });
    if (criteriaMet === items.length)
      conditions.push({
        type: 'SuccessCriteriaMet',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'All member clusters have met success criteria',
      });
  }
  if (conditions.length > 0) out.conditions = conditions;
  const keptStart =
    typeof previous?.startTime === 'string'
      ? previous.startTime
      : started > 0 && started === items.length
        ? startTime
        : undefined;
  if (keptStart) out.startTime = keptStart;
  if (completionTime && finishedAt === items.length) out.completionTime = completionTime;
  return out;
}

/** aggregateCronJobStatus: the members' active Jobs together, the latest schedule and success times. */
function cronJobStatus(statuses: readonly Obj[]): Obj {
  const active: unknown[] = [];
  let lastScheduleTime: string | undefined;
  let lastSuccessfulTime: string | undefined;
  for (const s of statuses) {
    if (Array.isArray(s.active)) active.push(...s.active);
    if (
      typeof s.lastScheduleTime === 'string' &&
      (lastScheduleTime === undefined || time(lastScheduleTime) < time(s.lastScheduleTime))
    )
      lastScheduleTime = s.lastScheduleTime;
    if (
      typeof s.lastSuccessfulTime === 'string' &&
      (lastSuccessfulTime === undefined || time(lastSuccessfulTime) < time(s.lastSuccessfulTime))
    )
      lastSuccessfulTime = s.lastSuccessfulTime;
  }
  return {
    ...(active.length ? { active } : {}),
    ...(lastScheduleTime ? { lastScheduleTime } : {}),
    ...(lastSuccessfulTime ? { lastSuccessfulTime } : {}),
  };
}

/**
 * aggregatePodStatus: the worst phase (Failed, then Pending — a member with no status yet counts as Pending —, then
 * Running, then Succeeded) and every member's container readiness and state.
 */
function podStatus(items: readonly AggregatedStatusItem[]): Obj {
  const phases = new Set<string>();
  const containerStatuses: Obj[] = [];
  const initContainerStatuses: Obj[] = [];
  // A corev1.ContainerStatus with only Ready and State set, as its JSON has it: name, ready, restartCount, image and
  // imageID have no omitempty, and state and lastState are structs, which omitempty never leaves out.
  const brief = (c: Obj) => ({
    name: '',
    state: c?.state && typeof c.state === 'object' ? c.state : {},
    lastState: {},
    ready: c?.ready === true,
    restartCount: 0,
    image: '',
    imageID: '',
  });
  for (const i of items) {
    if (!i.status) {
      phases.add('Pending');
      continue;
    }
    phases.add(String(i.status.phase ?? ''));
    for (const c of Array.isArray(i.status.containerStatuses) ? (i.status.containerStatuses as Obj[]) : [])
      containerStatuses.push(brief(c));
    for (const c of Array.isArray(i.status.initContainerStatuses) ? (i.status.initContainerStatuses as Obj[]) : [])
      initContainerStatuses.push(brief(c));
  }
  const phase = ['Failed', 'Pending', 'Running', 'Succeeded'].find((p) => phases.has(p));
  return {
    ...(phase ? { phase } : {}),
    ...(containerStatuses.length ? { containerStatuses } : {}),
    ...(initContainerStatuses.length ? { initContainerStatuses } : {}),
  };
}

/** aggregatePersistentVolumeStatus: the worst phase, Failed > Pending (no status yet) > Available > Bound > Released. */
function persistentVolumeStatus(items: readonly AggregatedStatusItem[]): Obj {
  const phases = new Set(items.map((i) => (i.status ? String(i.status.phase ?? '') : 'Pending')));
  const phase = ['Failed', 'Pending', 'Available', 'Bound', 'Released'].find((p) => phases.has(p));
  return phase ? { phase } : {};
}

/**
 * Karmada's FullyApplied condition (generateFullyAppliedCondition): True when every cluster the binding targets (its
 * result, requiredBy, graceful eviction tasks) reported the object applied, and no other cluster reported it. Without
 * the targets, the entries at hand are all there is to judge. The texts are Karmada's own, fixed: which cluster holds
 * it back is in aggregatedStatus, and `describe` lists the targets that have not reported.
 */
export function fullyApplied(
  items: readonly AggregatedStatusItem[],
  targets?: ReadonlySet<string>,
): FullyAppliedCondition {
  const reported = new Set(items.map((i) => i.clusterName));
  const complete = targets
    ? targets.size > 0 && targets.size === reported.size && [...reported].every((c) => targets.has(c))
    : items.length > 0;
  if (complete && items.every((i) => i.applied))
    return {
      type: 'FullyApplied',
      status: 'True',
      reason: FULLY_APPLIED_SUCCESS_REASON,
      message: FULLY_APPLIED_SUCCESS_MESSAGE,
    };
  return {
    type: 'FullyApplied',
    status: 'False',
    reason: FULLY_APPLIED_FAILED_REASON,
    message: FULLY_APPLIED_FAILED_MESSAGE,
  };
}
