import { trackUpdate } from '../apply/trackUpdate.ts';
import { objectShape } from '../../api/listSemantics.ts';
import { hasMetrics } from '../metrics/buildMetrics.ts';
import { readPodUsage } from '../metrics/readMetrics.ts';
import { formatQuantity, nanoValue, parseQuantity } from '../../quantities/canonicalQuantity.ts';
import { groupVersionOf } from '../resources/ResourceRegistry.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  type Behavior,
  DEFAULT_DOWNSCALE_STABILIZATION_MS,
  type HpaHistory,
  normalizeDesiredReplicas,
  recordScaleEvent,
} from './hpaNormalize.ts';
import {
  type CalculatorOptions,
  calculateResourceReplicas,
  DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
  DEFAULT_INITIAL_READINESS_DELAY_MS,
  DEFAULT_TOLERANCE,
  MetricsError,
  type PodSample,
} from './hpaReplicaCalculator.ts';
import { recordEvent } from './recordEvent.ts';
import { PODS, setCondition, statusChanged, withoutZeroCounts } from './workloadPods.ts';
import { formatTime } from '../../time/formatTime.ts';

const HPAS = 'autoscaling/horizontalpodautoscalers';
/** The window each simulated sample covers (metrics-server's resolution; buildMetrics reports the same). */
const SAMPLE_WINDOW_MS = 15_000;
const MANAGER = 'kube-controller-manager';
/** The Events' source, as the HPA controller's recorder names it. */
const COMPONENT = 'horizontal-pod-autoscaler';

/** The HPA controller's flags, each defaulting to kube-controller-manager's; tests shorten them. */
export interface HpaControllerOptions {
  /** --horizontal-pod-autoscaler-sync-period: each HPA is synced this long after it appears, then this often. Default 15 s. */
  syncPeriodMs?: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization. Default 5 minutes. */
  downscaleStabilizationMs?: number;
  /** --horizontal-pod-autoscaler-tolerance. Default 0.1. */
  tolerance?: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period. Default 5 minutes. */
  cpuInitializationPeriodMs?: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay. Default 30 s. */
  initialReadinessDelayMs?: number;
  /** The controller's clock in ms (stabilization windows, scale events, condition times). Default: the member's clock. */
  now?: () => number;
}

type Json = any;

/** A LabelSelector (matchLabels and matchExpressions) against a label map. */
function selects(selector: Json, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabels &&
    (selector.matchExpressions ?? []).every((r: Json) => {
      const has = Object.hasOwn(labels, r.key);
      switch (r.operator) {
        case 'In':
          return has && (r.values ?? []).includes(labels[r.key]);
        case 'NotIn':
          return !has || !(r.values ?? []).includes(labels[r.key]);
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          return false;
      }
    })
  );
}

const toMilli = (text: unknown): number | undefined => {
  const q = typeof text === 'string' || typeof text === 'number' ? parseQuantity(String(text)) : undefined;
  // MilliValue rounds up, as resource.Quantity does.
  return q ? Number((nanoValue(q) + 999_999n) / 1_000_000n) : undefined;
};

/**
 * The horizontal pod autoscaler (pkg/controller/podautoscaler), autoscaling/v2 with Resource metrics (cpu,
 * memory; Utilization or AverageValue) read from the member's simulated metrics. Every HPA is synced one sync
 * period after it appears and then every period: its target's scale is read, the replica calculator proposes a
 * count, stabilization and the behavior's policies (or, without behavior, the downscale window and the
 * max(2×, 4) scale-up cap) normalize it, the target's replicas are written when they change, and status gets
 * currentReplicas, desiredReplicas, currentMetrics and the AbleToScale/ScalingActive/ScalingLimited conditions.
 */
export function horizontalPodAutoscalerController(
  deps: ControllerDeps,
  options: HpaControllerOptions = {},
): Controller {
  const { store, registry } = deps;
  const syncPeriodMs = options.syncPeriodMs ?? 15_000;
  const downscaleStabilizationMs = options.downscaleStabilizationMs ?? DEFAULT_DOWNSCALE_STABILIZATION_MS;
  const now = options.now ?? (() => Date.parse(deps.now()));
  const timers = new Map<string, NodeJS.Timeout>();
  const histories = new Map<string, HpaHistory>();
  const hpaType = () => registry.byResourceKey(HPAS)!;
  const iso = (ms: number) => formatTime(new Date(ms));

  function arm(key: string): void {
    if (timers.has(key)) return;
    const timer = setTimeout(() => {
      timers.delete(key);
      const [namespace, name] = splitKey(key);
      if (!store.get(HPAS, namespace, name)) {
        histories.delete(key);
        return;
      }
      try {
        sync(key);
      } catch (error) {
        // A timer has no work queue to report to; the next period retries, as the real controller requeues.
        process.stderr.write(`horizontal-pod-autoscaler ${key}: ${(error as Error)?.stack ?? error}\n`);
      } finally {
        arm(key);
      }
    }, syncPeriodMs);
    timer.unref();
    timers.set(key, timer);
  }

  function sync(key: string): void {
    const [namespace, name] = splitKey(key);
    const hpa = store.get(HPAS, namespace, name);
    if (!hpa || hpa.metadata.deletionTimestamp) return;
    const at = now();
    const stamp = iso(at);
    let conditions = hpa.status?.conditions;
    const condition = (type: string, status: 'True' | 'False', reason: string, message: string) => {
      conditions = setCondition(conditions, type, status, reason, message, stamp);
    };
    const writeStatus = (status: Json) => {
      // autoscaling/v2 tags currentReplicas omitempty (v1 always writes it: hpaVersions.ts).
      const next = withoutZeroCounts({ ...status, conditions }, ['currentReplicas']);
      for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
      if (statusChanged(hpa, next)) store.update(hpaType(), { ...structuredClone(hpa), status: next });
    };

    const ref = hpa.spec?.scaleTargetRef ?? {};
    const group = String(ref.apiVersion ?? '').includes('/') ? String(ref.apiVersion).split('/')[0]! : '';
    const rt = registry.byKind(group, ref.kind ?? '');
    const target = rt?.subresources.includes('scale')
      ? store.get(`${rt.group}/${rt.plural}`, namespace, ref.name ?? '')
      : undefined;
    if (!rt || !target) {
      const what = rt
        ? `${rt.plural}${rt.group ? `.${rt.group}` : ''} "${ref.name}" not found`
        : `no matches for kind "${ref.kind}" in group "${group}"`;
      condition(
        'AbleToScale',
        'False',
        'FailedGetScale',
        `the HPA controller was unable to get the target's current scale: ${what}`,
      );
      recordEvent(store, registry, hpa, COMPONENT, 'Warning', 'FailedGetScale', what, stamp);
      writeStatus({
        ...(hpa.status ?? {}),
        currentReplicas: hpa.status?.currentReplicas ?? 0,
        desiredReplicas: hpa.status?.desiredReplicas ?? 0,
      });
      return;
    }
    condition(
      'AbleToScale',
      'True',
      'SucceededGetScale',
      "the HPA controller was able to get the target's current scale",
    );
    const currentReplicas: number = target.spec?.replicas ?? 1;
    const minReplicas: number = hpa.spec?.minReplicas ?? 1;
    const maxReplicas: number = hpa.spec?.maxReplicas ?? minReplicas;
    let desiredReplicas = 0;
    let metricStatuses: Json[] | undefined;
    let rescaleReason = '';

    if (currentReplicas === 0 && minReplicas !== 0) {
      condition(
        'ScalingActive',
        'False',
        'ScalingDisabled',
        'scaling is disabled since the replica count of the target is zero',
      );
    } else if (currentReplicas > maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      const pods = store.list(PODS, namespace).filter((p) => selects(target.spec?.selector, p.metadata.labels ?? {}));
      const computed = computeForMetrics(hpa.spec?.metrics ?? [], currentReplicas, pods, at);
      metricStatuses = computed.statuses;
      if (computed.error) {
        condition(
          'ScalingActive',
          'False',
          computed.error.reason,
          `the HPA was unable to compute the replica count: ${computed.error.detail}`,
        );
        recordEvent(store, registry, hpa, COMPONENT, 'Warning', computed.error.reason, computed.error.detail, stamp);
        writeStatus({
          ...(hpa.status ?? {}),
          currentReplicas,
          desiredReplicas: hpa.status?.desiredReplicas ?? 0,
          currentMetrics: metricStatuses,
        });
        return;
      }
      condition(
        'ScalingActive',
        'True',
        'ValidMetricFound',
        `the HPA was able to successfully calculate a replica count from ${computed.metricName}`,
      );
      const normalized = normalizeDesiredReplicas({
        currentReplicas,
        desiredReplicas: computed.replicas,
        minReplicas,
        maxReplicas,
        behavior: behaviorOf(hpa.spec?.behavior),
        history: histories.get(key) ?? { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] },
        now: at,
        downscaleStabilizationMs,
      });
      histories.set(key, normalized.history);
      condition(
        'AbleToScale',
        normalized.ableToScale.status,
        normalized.ableToScale.reason,
        normalized.ableToScale.message,
      );
      condition(
        'ScalingLimited',
        normalized.scalingLimited.status,
        normalized.scalingLimited.reason,
        normalized.scalingLimited.message,
      );
      desiredReplicas = normalized.replicas;
      rescaleReason =
        desiredReplicas > currentReplicas ? `${computed.metricName} above target` : 'All metrics below target';
    }

    const rescale = rescaleReason !== '' && desiredReplicas !== currentReplicas;
    if (rescale) {
      const next = structuredClone(target);
      next.spec = { ...next.spec, replicas: desiredReplicas };
      next.metadata.managedFields = trackUpdate(
        target,
        next,
        MANAGER,
        groupVersionOf(rt),
        stamp,
        objectShape(groupVersionOf(rt), rt.kind, rt.schema),
        // The HPA controller writes replicas through the scale subresource (scaleNamespacer.Update).
        'scale',
      );
      store.update(rt, next, 'main');
      condition(
        'AbleToScale',
        'True',
        'SucceededRescale',
        `the HPA controller was able to update the target scale to ${desiredReplicas}`,
      );
      recordEvent(
        store,
        registry,
        hpa,
        COMPONENT,
        'Normal',
        'SuccessfulRescale',
        `New size: ${desiredReplicas}; reason: ${rescaleReason}`,
        stamp,
      );
      histories.set(
        key,
        recordScaleEvent(
          histories.get(key) ?? { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] },
          behaviorOf(hpa.spec?.behavior),
          currentReplicas,
          desiredReplicas,
          at,
        ),
      );
    }
    writeStatus({
      ...(hpa.status?.observedGeneration !== undefined ? { observedGeneration: hpa.status.observedGeneration } : {}),
      currentReplicas,
      desiredReplicas: rescaleReason === '' && desiredReplicas === 0 ? 0 : desiredReplicas,
      currentMetrics: metricStatuses,
      lastScaleTime: rescale ? stamp : hpa.status?.lastScaleTime,
    });
  }

  /** computeReplicasForMetrics: the largest proposal of the metrics that could be computed. */
  function computeForMetrics(
    specs: Json[],
    currentReplicas: number,
    pods: KubeObject[],
    at: number,
  ): { replicas: number; metricName: string; statuses: Json[]; error?: { reason: string; detail: string } } {
    let replicas = 0;
    let metricName = '';
    let invalid = 0;
    let firstError: { reason: string; detail: string } | undefined;
    const statuses: Json[] = [];
    for (const spec of specs) {
      const result = computeForMetric(spec, currentReplicas, pods, at);
      if ('error' in result) {
        invalid++;
        firstError ??= result.error;
        statuses.push({ type: '' });
        continue;
      }
      statuses.push(result.status);
      if (replicas === 0 || result.replicas > replicas) {
        replicas = result.replicas;
        metricName = result.name;
      }
    }
    if (invalid >= specs.length || (invalid > 0 && replicas < currentReplicas)) {
      return {
        replicas: -1,
        metricName,
        statuses,
        error: firstError ?? {
          reason: 'InvalidMetricSourceType',
          detail: 'the HPA has no metrics to compute a replica count from',
        },
      };
    }
    return { replicas, metricName, statuses };
  }

  function computeForMetric(
    spec: Json,
    currentReplicas: number,
    pods: KubeObject[],
    at: number,
  ): { replicas: number; name: string; status: Json } | { error: { reason: string; detail: string } } {
    if (spec?.type !== 'Resource') {
      const type = String(spec?.type ?? '');
      return {
        error: {
          reason: `FailedGet${type}Metric`,
          detail: `unable to get metric for ${type} metric source: the member emulator serves only resource metrics (metrics.k8s.io), no custom or external metrics API`,
        },
      };
    }
    const resource: string = spec.resource?.name ?? '';
    const target = spec.resource?.target ?? {};
    const fail = (detail: string) => ({ error: { reason: 'FailedGetResourceMetric', detail } });
    if (resource !== 'cpu' && resource !== 'memory')
      return fail(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
    const samples = new Map<string, PodSample>();
    for (const pod of pods) {
      if (!hasMetrics(pod)) continue;
      const usage = readPodUsage(store, pod);
      const milli = resource === 'cpu' ? Number((usage.cpu + 999_999n) / 1_000_000n) : Number(usage.memory) * 1000;
      samples.set(pod.metadata.name!, {
        milliValue: milli,
        timestamp: Math.floor(at / 1000) * 1000,
        windowMs: SAMPLE_WINDOW_MS,
      });
    }
    if (samples.size === 0)
      return fail(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
    const utilization = target.type === 'Utilization' ? target.averageUtilization : undefined;
    const averageValueMilli = target.type === 'AverageValue' ? toMilli(target.averageValue) : undefined;
    if (utilization === undefined && averageValueMilli === undefined)
      return fail(`invalid resource metric source: neither a utilization target nor a value target was set`);
    const requests = new Map<string, number>();
    if (utilization !== undefined) {
      for (const pod of pods) {
        let sum = 0;
        for (const c of pod.spec?.containers ?? []) {
          const request = toMilli(c.resources?.requests?.[resource]);
          if (request === undefined)
            return fail(
              `failed to get ${resource} utilization: missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`,
            );
          sum += request;
        }
        requests.set(pod.metadata.name!, sum);
      }
    }
    const calculator: CalculatorOptions = {
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      cpuInitializationPeriodMs: options.cpuInitializationPeriodMs ?? DEFAULT_CPU_INITIALIZATION_PERIOD_MS,
      initialReadinessDelayMs: options.initialReadinessDelayMs ?? DEFAULT_INITIAL_READINESS_DELAY_MS,
      now: at,
    };
    try {
      const result = calculateResourceReplicas(
        currentReplicas,
        pods,
        samples,
        requests,
        resource,
        {
          ...(utilization !== undefined
            ? { averageUtilization: utilization }
            : { averageValueMilli: averageValueMilli! }),
        },
        calculator,
      );
      const averageValue = formatQuantity({ mantissa: BigInt(result.rawAverage), scale: -3, format: 'DecimalSI' });
      return {
        replicas: result.replicas,
        name:
          utilization !== undefined
            ? `${resource} resource utilization (percentage of request)`
            : `${resource} resource`,
        status: {
          type: 'Resource',
          resource: {
            name: resource,
            current: {
              ...(result.utilization !== undefined ? { averageUtilization: result.utilization } : {}),
              averageValue,
            },
          },
        },
      };
    } catch (error) {
      if (error instanceof MetricsError) return fail(`failed to get ${resource} utilization: ${error.message}`);
      throw error;
    }
  }

  return {
    name: 'horizontal-pod-autoscaler',
    keysFor(event: StoreEvent): string[] {
      if (event.resource !== HPAS) return [];
      const key = keyOf(event.object.metadata.namespace, event.object.metadata.name!);
      if (event.type === 'DELETED') {
        const timer = timers.get(key);
        if (timer) clearTimeout(timer);
        timers.delete(key);
        histories.delete(key);
      } else arm(key);
      return [];
    },
    // Syncs run from the per-HPA timers, as the real controller's rate-limited queue releases an HPA once a period.
    reconcile: () => undefined,
    initialKeys(): string[] {
      for (const hpa of store.list(HPAS)) arm(keyOf(hpa.metadata.namespace, hpa.metadata.name!));
      return [];
    },
    stop(): void {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** The HPA's behavior as the normalizer reads it; absent stays absent (Kubernetes then uses the controller's flags). */
function behaviorOf(behavior: Json): Behavior | undefined {
  if (!behavior || typeof behavior !== 'object') return undefined;
  return behavior as Behavior;
}
