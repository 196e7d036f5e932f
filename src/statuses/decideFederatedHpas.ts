// Karmada's FederatedHPA controller (pkg/controllers/federatedhpa), on the status side: for each FederatedHPA in the
// source, read the pods of its workload and their metrics.k8s.io PodMetrics from the workload's Ready target
// clusters, compute the replicas (autoscalers/), and record the decision on the status branch
// (branches/status/autoscalerDecisions.ts) when the count changes. The render then gives the workload that count.
import { parseDuration } from '../time/parseDuration.ts';
import { defaultPlural, groupOf, parseRefKey, refKey } from '../api/kinds.ts';
import type { FileObjects, Template } from '../api/model.ts';
import {
  calculateAverageValueReplicas,
  calculateResourceReplicas,
  DEFAULT_TOLERANCE,
  type ScaledPod,
} from '../autoscalers/calculateReplicas.ts';
import { podRequest, podUsage, type ContainerAmounts } from '../autoscalers/podMetrics.ts';
import { ambiguousSelectorMessage, type AutoscalerSelector } from '../autoscalers/ambiguousSelector.ts';
import { hpaConditions, mergeHpaConditions, type Evaluation, type HpaCondition } from '../autoscalers/hpaConditions.ts';
import { decideReplicas, type ScalingHistory } from '../autoscalers/normalizeReplicas.ts';
import { DEFAULT_CPU_UTILIZATION, scalingBehavior } from '../autoscalers/scalingBehavior.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import {
  evaluateCronRules,
  fhpaLimitsAfterRule,
  heldFhpaLimits,
  nextRuleRun,
  recordExecution,
  type CronRule,
  type RuleHistory,
} from '../autoscalers/cronRules.ts';
import {
  autoscalerPath,
  cronAutoscalerPath,
  serializeCronAutoscaler,
  type CronAutoscalerFile,
  FEDERATED_HPA_API_VERSION,
  MISSING_TARGET,
  serializeAutoscalerDecision,
  type AutoscalerDecisionFile,
  type SeenMetric,
} from '../branches/status/autoscalerDecisions.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { resolveResource, resourcePath } from '../deliveries/resolveResource.ts';
import { sendRequest, type RetryPolicy } from '../deliveries/sendRequest.ts';
import { loadSource } from '../outputs/loadSource.ts';
import { sourceLimitsOf, type RenderLimits, type SourceLimits } from '../outputs/sourceLimits.ts';
import { lastGoodTemplates, renderHistoryAt } from '../outputs/lastGoodKarmada.ts';
import { formatQuantity } from '../quantities/canonicalQuantity.ts';
import { parseQuantity, quantityMilliValue } from '../quantities/parseQuantity.ts';
import { formatTime } from '../time/formatTime.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { formatLabelSelector } from '../labels/formatLabelSelector.ts';
import type { LabelSelector } from '../api/policy.ts';

const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/** Karmada's --horizontal-pod-autoscaler-sync-period. */
export const DEFAULT_AUTOSCALER_SYNC_PERIOD_MS = 15_000;

export interface AutoscalerOptions {
  /** How often each FederatedHPA is evaluated. Default 15 s. */
  syncPeriodMs?: number;
  /** The scale-down stabilization a behavior without its own window uses. Default 300 s. */
  downscaleStabilizationMs?: number;
  tolerance?: number;
  /** For CPU, how long after its start a pod counts only once Ready for a sample window. Default 5 min. */
  cpuInitializationPeriodMs?: number;
  /** For CPU, a pod Ready=False that turned so this soon after its start never became Ready. Default 30 s. */
  initialReadinessDelayMs?: number;
}

/**
 * What the controller keeps between passes, as Karmada keeps it in memory: each FederatedHPA's last evaluation and
 * its recommendations and scale events. A new process starts from the decision files (scale events only).
 */
export interface AutoscalerMemory {
  lastEvaluated: Map<string, number>;
  history: Map<string, ScalingHistory>;
  /** Each CronFederatedHPA's last look: rules that fired since run at the next pass (none before the first look). */
  cronLastLook: Map<string, number>;
  /** The FederatedHPAs, CronFederatedHPAs and their targets of the last source commit read. */
  source?: {
    commit: string;
    /** The render whose history gave the last valid definitions of those invalid in `commit`. */
    rendered: string;
    fhpas: Template[];
    crons: Template[];
    templates: Map<string, Template>;
    /** Status paths of FederatedHPAs and CronFederatedHPAs that are invalid in this commit: their files are kept. */
    held: Set<string>;
  };
}

export function newAutoscalerMemory(): AutoscalerMemory {
  return { lastEvaluated: new Map(), history: new Map(), cronLastLook: new Map() };
}

export interface AutoscalerEdits {
  /** Status branch path → new text, or null to delete. */
  edits: Map<string, string | null>;
  /** One line per changed decision, for the status commit message. */
  lines: string[];
}

export interface DecideInput {
  repo: GitRepo;
  sourceCommit: string;
  renderedCommit: string;
  /** The decisions on the status branch now, by path. */
  existing: ReadonlyMap<string, AutoscalerDecisionFile>;
  /** The CronFederatedHPA statuses on the status branch now, by path. */
  existingCrons?: ReadonlyMap<string, CronAutoscalerFile>;
  clusters: ReadonlyMap<string, KubeTarget>;
  /** Clusters whose Ready condition is True this pass. */
  ready: ReadonlySet<string>;
  now: Date;
  memory: AutoscalerMemory;
  options?: AutoscalerOptions;
  /** --max-source-files and --max-output-bytes: the source is read within the limits its renders read it with. */
  limits?: RenderLimits;
}

const isAutoscalerKey = (key: string): boolean => {
  const ref = parseRefKey(key);
  return (
    ref.apiVersion === FEDERATED_HPA_API_VERSION && (ref.kind === 'FederatedHPA' || ref.kind === 'CronFederatedHPA')
  );
};

async function sourceObjects(
  repo: GitRepo,
  commit: string,
  renderedCommit: string,
  memory: AutoscalerMemory,
  limits: SourceLimits,
) {
  if (memory.source?.commit === commit && memory.source.rendered === renderedCommit) return memory.source;
  const loaded = await loadSource(repo, (await readCommitInfo(repo, commit)).tree, null, undefined, limits);
  const templates = new Map(loaded.model.templates);
  // Karmada's webhook refuses an invalid update, so the last valid object goes on scaling: here the definition of the
  // most recent render whose commit held it valid (the rendered branch's history, as the render keeps a policy's), and
  // validate reports the problem. One with none (invalid since it was added) keeps its last decision or status as is.
  const files = [...loaded.touchedFiles.values()].filter((f): f is FileObjects => f !== null);
  const lastGood = await lastGoodTemplates(repo, await renderHistoryAt(repo, renderedCommit), files, isAutoscalerKey);
  for (const [key, { template: t }] of lastGood) {
    if (templates.has(key)) continue; // defined validly elsewhere now
    const ref = { ...t.ref, namespace: t.ref.namespace ?? 'default' };
    const labels = ((t.manifest.metadata ?? {}) as { labels?: Record<string, string> }).labels ?? {};
    templates.set(key, { ref, labels, manifest: t.manifest, source: t.source });
  }
  const ofKind = (kind: string) =>
    [...templates.values()].filter((t) => t.ref.apiVersion === FEDERATED_HPA_API_VERSION && t.ref.kind === kind);
  const held = new Set<string>();
  for (const key of loaded.model.held) {
    const ref = parseRefKey(key);
    if (!isAutoscalerKey(key) || templates.has(key)) continue;
    held.add(
      ref.kind === 'FederatedHPA'
        ? autoscalerPath(ref.namespace, ref.name)
        : cronAutoscalerPath(ref.namespace, ref.name),
    );
  }
  memory.source = {
    commit,
    rendered: renderedCommit,
    fhpas: ofKind('FederatedHPA'),
    crons: ofKind('CronFederatedHPA'),
    templates,
    held,
  };
  return memory.source;
}

/**
 * Karmada drops a deleted FederatedHPA's recommendations and scale events and stops a deleted CronFederatedHPA's
 * jobs: one added again later starts afresh (its window from its first evaluation, no rule run made up for the time
 * it was gone). One invalid in this commit is not deleted (the last valid object keeps its place), so it keeps them.
 */
function forgetDeleted(memory: AutoscalerMemory, present: readonly Template[], held: ReadonlySet<string>): void {
  const keys = new Set(present.map((t) => refKey(t.ref)));
  const kept = (key: string) => {
    if (keys.has(key)) return true;
    const ref = parseRefKey(key);
    const path =
      ref.kind === 'CronFederatedHPA'
        ? cronAutoscalerPath(ref.namespace, ref.name)
        : autoscalerPath(ref.namespace, ref.name);
    return held.has(path);
  };
  for (const map of [memory.history, memory.lastEvaluated, memory.cronLastLook])
    for (const key of [...map.keys()]) if (!kept(key)) map.delete(key);
}

/** The decisions to commit this pass: changed counts, and files of FederatedHPAs no longer in the source removed. */
export async function decideFederatedHpas(input: DecideInput): Promise<AutoscalerEdits> {
  const { memory, now } = input;
  const out: AutoscalerEdits = { edits: new Map(), lines: [] };
  const { fhpas, crons, templates, held } = await sourceObjects(
    input.repo,
    input.sourceCommit,
    input.renderedCommit,
    memory,
    sourceLimitsOf(input.limits),
  );
  forgetDeleted(memory, [...fhpas, ...crons], held);
  // CronFederatedHPAs first: a rule that sets a FederatedHPA's min or max counts in the same pass.
  const limits = new Map<string, { minReplicas?: number; maxReplicas?: number }>();
  const existingCrons = input.existingCrons ?? new Map<string, CronAutoscalerFile>();
  const wantedCrons = new Set(crons.map((c) => cronAutoscalerPath(c.ref.namespace, c.ref.name)));
  for (const path of existingCrons.keys())
    if (!wantedCrons.has(path) && !held.has(path)) {
      out.edits.set(path, null);
      out.lines.push(`${path}: its CronFederatedHPA is gone`);
    }
  for (const cron of crons) {
    const path = cronAutoscalerPath(cron.ref.namespace, cron.ref.name);
    const file = runCron(input, cron, existingCrons.get(path), out.lines, templates);
    if (!file) continue;
    const text = serializeCronAutoscaler(file);
    if (!existingCrons.has(path) || serializeCronAutoscaler(existingCrons.get(path)!) !== text)
      out.edits.set(path, text);
    const a = file.applied;
    const fhpaKey = refKey({ ...file.scaleTargetRef, namespace: cron.ref.namespace });
    const target = templates.get(fhpaKey);
    if (
      a &&
      target &&
      file.scaleTargetRef.apiVersion === FEDERATED_HPA_API_VERSION &&
      file.scaleTargetRef.kind === 'FederatedHPA'
    )
      limits.set(fhpaKey, heldFhpaLimits(a, gitFhpaLimits(target)));
  }
  const wanted = new Set(fhpas.map((f) => autoscalerPath(f.ref.namespace, f.ref.name)));
  for (const path of input.existing.keys())
    if (!wanted.has(path) && !held.has(path)) {
      out.edits.set(path, null);
      out.lines.push(`${path}: its FederatedHPA is gone; the workload has Git's replicas again`);
    }
  const period = input.options?.syncPeriodMs ?? DEFAULT_AUTOSCALER_SYNC_PERIOD_MS;
  const selectors = autoscalerSelectors(fhpas, templates);
  for (const fhpa of fhpas) {
    const key = refKey(fhpa.ref);
    const last = memory.lastEvaluated.get(key);
    if (last !== undefined && now.getTime() < last + period) continue;
    memory.lastEvaluated.set(key, now.getTime());
    const path = autoscalerPath(fhpa.ref.namespace, fhpa.ref.name);
    const decided = await decideOne(input, fhpa, templates, input.existing.get(path), limits.get(key), selectors);
    if (!decided) continue;
    out.edits.set(path, decided.text);
    out.lines.push(decided.line);
  }
  return out;
}

interface FhpaSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: {
    type?: string;
    resource?: {
      name?: string;
      target?: { type?: string; averageUtilization?: number; averageValue?: string | number };
    };
    containerResource?: {
      name?: string;
      container?: string;
      target?: { type?: string; averageUtilization?: number; averageValue?: string | number };
    };
    pods?: { metric?: { name?: string } };
  }[];
  behavior?: unknown;
}

async function decideOne(
  input: DecideInput,
  fhpa: Template,
  templates: ReadonlyMap<string, Template>,
  existing: AutoscalerDecisionFile | undefined,
  cronLimits: { minReplicas?: number; maxReplicas?: number } | undefined,
  selectors: readonly AutoscalerSelector[],
): Promise<{ text: string; line: string } | undefined> {
  // A CronFederatedHPA rule's targetMin/MaxReplicas replace the FederatedHPA's, as Karmada's ScaleFHPA updates them.
  const spec = { ...((fhpa.manifest.spec ?? {}) as FhpaSpec), ...(cronLimits ?? {}) };
  const target = spec.scaleTargetRef;
  if (!target?.apiVersion || !target.kind || !target.name || typeof spec.maxReplicas !== 'number') return undefined;
  const targetKey = refKey({
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: fhpa.ref.namespace,
    name: target.name,
  });
  const workload = templates.get(targetKey);
  if (!workload)
    return missingTarget(fhpa, { apiVersion: target.apiVersion, kind: target.kind, name: target.name }, existing);
  const inGit = (workload.manifest.spec as { replicas?: unknown } | undefined)?.replicas;
  // Karmada's FederatedHPA starts from the template's spec.replicas, which a user's edit also writes: the decision
  // holds while Git's count is the one it was made over, and an edit in Git since is where the next one starts. A
  // workload added again after it was missing is a new template, starting from its own count.
  const gitReplicas = typeof inGit === 'number' ? inGit : 1;
  const holds =
    existing !== undefined &&
    existing.ableToScale !== MISSING_TARGET &&
    (existing.gitReplicas === undefined || existing.gitReplicas === gitReplicas);
  const currentReplicas = holds ? existing.desiredReplicas : gitReplicas;
  const minReplicas = spec.minReplicas ?? 1;
  // Karmada's default metric, and the only kind read here: CPU (or another resource) utilization.
  const metricSpecs = spec.metrics?.length
    ? spec.metrics
    : [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
        },
      ];
  const clusters = await targetClusters(input.repo, input.renderedCommit, parseRefKey(targetKey));
  const readyTargets = (clusters ?? []).filter((c) => input.ready.has(c) && input.clusters.has(c));
  const selector = podSelector(workload);
  const key = refKey(fhpa.ref);
  const time = formatTime(input.now);
  const base = {
    apiVersion: FEDERATED_HPA_API_VERSION as typeof FEDERATED_HPA_API_VERSION,
    kind: 'FederatedHPA' as const,
    metadata: { namespace: fhpa.ref.namespace, name: fhpa.ref.name },
    scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
    currentReplicas,
    gitReplicas,
  };
  /** A decision that keeps the count, written only when its conditions changed (or there is no file yet). */
  // Karmada leaves status.currentMetrics as the last computed ones when it computes none (setCurrentReplicasInStatus).
  const held = (evaluation: Evaluation, reason: string) => {
    const conditions = mergeHpaConditions(existing?.conditions, hpaConditions(evaluation));
    if (existing?.gitReplicas === gitReplicas && sameConditions(existing.conditions, conditions)) return undefined;
    const file: AutoscalerDecisionFile = {
      ...base,
      desiredReplicas: currentReplicas,
      reason,
      ableToScale: conditions.find((c) => c.type === 'AbleToScale')!.reason,
      metrics: existing?.metrics ?? [],
      // Karmada's setStatus moves lastScaleTime only on a rescale: a count held from the start has none.
      ...(existing?.lastScaleTime ? { lastScaleTime: existing.lastScaleTime } : {}),
      ...(existing?.scaleUpEvents ? { scaleUpEvents: existing.scaleUpEvents } : {}),
      ...(existing?.scaleDownEvents ? { scaleDownEvents: existing.scaleDownEvents } : {}),
      conditions,
    };
    const why = conditions.find((c) => c.status === 'False')!;
    return {
      text: serializeAutoscalerDecision(file),
      line: `FederatedHPA ${fhpa.ref.namespace}/${fhpa.ref.name}: ${target.kind} ${target.name} keeps ${currentReplicas} replicas (${why.type}=False ${why.reason}: ${why.message})`,
    };
  };
  // Karmada finds the workload's binding by its policy's permanent-id label, then the binding's clusters.
  if (clusters === undefined)
    return held(
      {
        kind: 'no-scale',
        reason: 'FailedGetBinding',
        message: `the HPA controller was unable to get the binding by scaleTargetRef: ${Object.keys(workload.labels).length === 0 ? 'target resource has no label' : 'no label of policy permanent-id found'}`,
      },
      'no policy propagates the workload',
    );
  if (clusters.length === 0)
    return held(
      {
        kind: 'no-scale',
        reason: 'FailedGetTargetClusters',
        message:
          'the HPA controller was unable to get the target clusters from binding: binding has no schedulable clusters',
      },
      'the workload is scheduled to no cluster',
    );
  // Karmada reads the workload's scale in each target cluster first: the members' spec.replicas summed calibrate
  // the calculation (a Duplicated workload runs the template's count in every cluster), and none means no scale.
  const memberReplicas = await readMemberReplicas(input, readyTargets, fhpa.ref.namespace, {
    apiVersion: target.apiVersion,
    kind: target.kind,
    name: target.name,
  });
  if (memberReplicas === 0)
    return held(
      {
        kind: 'no-scale',
        message: 'failed to get replicas in any of clusters, possibly because all of clusters are not ready',
      },
      'the workload runs in no Ready target cluster',
    );
  const calibration = currentReplicas > 0 ? memberReplicas / currentReplicas : 1;
  // Karmada's recordInitialRecommendation: the first evaluation in a process that reads the scale (a new
  // FederatedHPA, or any after a restart) starts its recommendations with the current count, so a scale-down waits
  // out the stabilization window from then, even when no metric gives a count yet.
  const initial = [{ at: input.now.getTime(), replicas: currentReplicas }];
  const history = input.memory.history.get(key) ?? {
    recommendations: initial,
    scaleUpEvents: (existing?.scaleUpEvents ?? []).map((e) => ({ at: Date.parse(e.time), change: e.change })),
    scaleDownEvents: (existing?.scaleDownEvents ?? []).map((e) => ({ at: Date.parse(e.time), change: e.change })),
  };
  if (!input.memory.history.has(key)) input.memory.history.set(key, history);
  // A count outside [min, max] is brought inside without reading a metric (reconcileAutoscaler): no pods, no
  // selector check, and ScalingActive stays as it was.
  const outOfRange = currentReplicas > spec.maxReplicas || currentReplicas < minReplicas;
  const pods = selector && !outOfRange ? await readPods(input, readyTargets, fhpa.ref.namespace, selector) : undefined;
  const ambiguous =
    selector && pods
      ? ambiguousSelectorMessage(
          selector,
          fhpa.ref.namespace,
          pods.pods.map((p) => p.labels),
          selectors,
        )
      : undefined;
  if (ambiguous)
    return held(
      { kind: 'ambiguous-selector', message: ambiguous },
      'its pods are selected by another FederatedHPA too',
    );

  let metricReplicas: number | undefined;
  let metricName: string | undefined;
  let invalid: { reason: string; message: string } | undefined;
  let invalidCount = 0;
  const seen: SeenMetric[] = [];
  const tolerance = input.options?.tolerance ?? DEFAULT_TOLERANCE;
  for (const m of outOfRange ? [] : metricSpecs) {
    const failed = (reason: string, message: string) => {
      invalidCount++;
      invalid ??= { reason, message };
    };
    if (m.type !== 'Resource' && m.type !== 'ContainerResource') {
      // Only metrics.k8s.io is read: Pods, Object and External metrics need a custom or external metrics API.
      const kind = m.type ?? 'unknown';
      failed(
        `FailedGet${kind}Metric`,
        `unable to get ${kind} metric${m.pods?.metric?.name ? ` ${m.pods.metric.name}` : ''}: the custom and external metrics APIs are not read`,
      );
      continue;
    }
    // A ContainerResource metric reads one container's request and usage, from the same metrics.k8s.io.
    const source = m.type === 'Resource' ? m.resource : m.containerResource;
    const container = m.type === 'ContainerResource' ? (m.containerResource?.container ?? '') : undefined;
    const reason = `FailedGet${m.type}Metric`;
    const resource = source?.name;
    const t = source?.target;
    if (!resource || !pods) {
      failed(reason, pods ? 'the metric names no resource' : 'the workload has no pod selector');
      continue;
    }
    // Karmada's metrics client fails first when metrics.k8s.io lists no PodMetrics at all (no pod sampled yet).
    if (pods.usage.size === 0) {
      failed(
        reason,
        `failed to get ${resource} utilization: unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`,
      );
      continue;
    }
    const usage = new Map<string, number>();
    let unreadable: string | undefined;
    for (const [name, containers] of pods.usage) {
      // Karmada's metrics client names a pod by its namespace, not its cluster.
      const pod = `${fhpa.ref.namespace}/${name.slice(name.indexOf('/') + 1)}`;
      const read = podUsage(pod, containers, resource, container);
      if (!read.ok) unreadable ??= read.message;
      else if (read.milli !== undefined) usage.set(name, read.milli);
    }
    if (unreadable !== undefined) {
      failed(
        reason,
        `failed to get ${resource} utilization: unable to get metrics for resource ${resource}: failed to get container metrics: ${unreadable}`,
      );
      continue;
    }
    const scaled = pods.pods.map(({ containers, labels: _labels, ...p }) => {
      const request = podRequest(containers, resource, container);
      return { ...p, ...(request.ok ? { requestMilli: request.milli } : { requestlessContainer: request.container }) };
    });
    const readiness = {
      resource,
      now: input.now.getTime(),
      ...(input.options?.cpuInitializationPeriodMs !== undefined
        ? { cpuInitializationPeriodMs: input.options.cpuInitializationPeriodMs }
        : {}),
      ...(input.options?.initialReadinessDelayMs !== undefined
        ? { initialReadinessDelayMs: input.options.initialReadinessDelayMs }
        : {}),
    };
    // Which target is set decides, not its type (computeStatusForResourceMetricGeneric): averageValue, else
    // averageUtilization.
    const targetMilli = t?.averageValue !== undefined ? milli(t.averageValue) : undefined;
    const byValue = targetMilli !== undefined;
    const result = byValue
      ? calculateAverageValueReplicas(currentReplicas, targetMilli, scaled, usage, tolerance, calibration, readiness)
      : typeof t?.averageUtilization === 'number'
        ? calculateResourceReplicas(
            currentReplicas,
            t.averageUtilization,
            scaled,
            usage,
            tolerance,
            calibration,
            readiness,
          )
        : undefined;
    if (!result) {
      failed(
        reason,
        `invalid resource metric source for ${resource}: neither an average utilization target nor an average value (usage) target was set`,
      );
      continue;
    }
    if (!result.ok) {
      failed(reason, `failed to get ${resource} utilization: ${result.message}`);
      continue;
    }
    seen.push({
      resource,
      ...(container !== undefined ? { container } : {}),
      ...(byValue
        ? { targetAverageValue: String(t!.averageValue) }
        : { targetUtilization: t!.averageUtilization!, currentUtilization: result.value.utilization }),
      // Karmada's status holds resource.NewMilliQuantity(raw, DecimalSI): 1000m reads "1", 64Mi of memory "67108864".
      currentAverageValue: formatQuantity({
        mantissa: BigInt(result.value.averageMilli),
        scale: -3,
        format: 'DecimalSI',
      }),
      pods: podsByCluster(scaled),
    });
    // The largest proposal over the metrics wins (computeReplicasForMetrics).
    if (metricReplicas === undefined || result.value.replicas > metricReplicas) {
      metricReplicas = result.value.replicas;
      metricName = byValue
        ? `${resource} resource`
        : `${resource}${container !== undefined ? ' container' : ''} resource utilization (percentage of request)`;
    }
  }
  // Karmada's computeReplicasForMetrics: all metrics invalid, or some invalid and the rest would scale down, is no
  // count at all; the count stays and ScalingActive says why.
  const metricsFailed =
    invalid !== undefined &&
    (invalidCount >= metricSpecs.length || (metricReplicas !== undefined && metricReplicas < currentReplicas));
  const decision = decideReplicas({
    minReplicas,
    maxReplicas: spec.maxReplicas,
    behavior: scalingBehavior(spec.behavior),
    currentReplicas,
    memberReplicas,
    metricReplicas: metricsFailed ? undefined : metricReplicas,
    ...(metricName && !metricsFailed ? { metricName } : {}),
    now: input.now.getTime(),
    history,
    ...(input.options?.downscaleStabilizationMs !== undefined
      ? { downscaleStabilizationMs: input.options.downscaleStabilizationMs }
      : {}),
  });
  if ('error' in decision)
    return held(
      {
        kind: 'metric-failed',
        reason: invalid?.reason ?? 'FailedGetResourceMetric',
        message: invalid?.message ?? decision.error,
      },
      'no metric gave a replica count: the workload keeps its replicas',
    );
  input.memory.history.set(key, decision.history);
  const conditions = mergeHpaConditions(
    existing?.conditions,
    hpaConditions({
      kind: 'decided',
      ableToScale: decision.ableToScale,
      scalingLimited: decision.scalingLimited,
      rescale: decision.rescale,
      desiredReplicas: decision.desiredReplicas,
      ...(metricName && !metricsFailed ? { metricName } : {}),
    }),
  );
  // No commit when neither the count nor the conditions change: metrics that move alone make no commit.
  if (
    existing?.gitReplicas === gitReplicas &&
    existing.desiredReplicas === decision.desiredReplicas &&
    sameConditions(existing.conditions, conditions)
  )
    return undefined;
  const file: AutoscalerDecisionFile = {
    ...base,
    desiredReplicas: decision.desiredReplicas,
    reason: decision.reason || 'the workload keeps its replicas',
    ableToScale: decision.ableToScale,
    ...(decision.scalingLimited ? { scalingLimited: decision.scalingLimited } : {}),
    metrics: seen,
    ...(decision.rescale
      ? { lastScaleTime: time }
      : existing?.lastScaleTime
        ? { lastScaleTime: existing.lastScaleTime }
        : {}),
    ...(decision.history.scaleUpEvents.length
      ? {
          scaleUpEvents: decision.history.scaleUpEvents.map((e) => ({
            time: formatTime(new Date(e.at)),
            change: e.change,
          })),
        }
      : {}),
    ...(decision.history.scaleDownEvents.length
      ? {
          scaleDownEvents: decision.history.scaleDownEvents.map((e) => ({
            time: formatTime(new Date(e.at)),
            change: e.change,
          })),
        }
      : {}),
    conditions,
  };
  const metricsText = seen
    .map(
      (m) =>
        `${m.resource}${m.container !== undefined ? ` of container ${m.container}` : ''} ${m.targetAverageValue === undefined ? `${m.currentUtilization}% of request (target ${m.targetUtilization}%)` : `${m.currentAverageValue} per pod (target ${m.targetAverageValue})`} over ${Object.entries(
          m.pods,
        )
          .map(([c, n]) => `${n} pod(s) in ${c}`)
          .join(', ')}`,
    )
    .join('; ');
  const line =
    existing && currentReplicas === decision.desiredReplicas
      ? `FederatedHPA ${fhpa.ref.namespace}/${fhpa.ref.name}: ${target.kind} ${target.name} keeps ${decision.desiredReplicas} replicas (${conditions.map((c) => `${c.type}=${c.status} ${c.reason}`).join(', ')}${metricsText ? `; ${metricsText}` : ''})`
      : `FederatedHPA ${fhpa.ref.namespace}/${fhpa.ref.name}: ${target.kind} ${target.name} ${currentReplicas} -> ${decision.desiredReplicas} replicas (${file.reason}${metricsText ? `; ${metricsText}` : ''})`;
  return { text: serializeAutoscalerDecision(file), line };
}

/**
 * A FederatedHPA whose scaleTargetRef names no workload in the source commit: Karmada's controller cannot get the
 * target, sets AbleToScale False FailedGetScaleTargetRef with the API server's NotFound and leaves the rest of the
 * status as it was. Written only when that changes the conditions.
 */
function missingTarget(
  fhpa: Template,
  target: { apiVersion: string; kind: string; name: string },
  existing: AutoscalerDecisionFile | undefined,
): { text: string; line: string } | undefined {
  const group = groupOf(target.apiVersion);
  const notFound = `${defaultPlural(target.kind)}${group ? `.${group}` : ''} "${target.name}" not found`;
  const conditions = mergeHpaConditions(existing?.conditions, [
    {
      type: 'AbleToScale',
      status: 'False',
      reason: MISSING_TARGET,
      message: `the HPA controller was unable to get the target reference object: ${notFound}`,
    },
  ]);
  if (existing && sameConditions(existing.conditions, conditions)) return undefined;
  const { namespace, name } = fhpa.ref;
  // What Karmada's status had (replicas, metrics, last scale) stays; a new FederatedHPA's is all zero.
  const file: AutoscalerDecisionFile = {
    apiVersion: FEDERATED_HPA_API_VERSION,
    kind: 'FederatedHPA',
    metadata: { namespace, name },
    scaleTargetRef: target,
    currentReplicas: existing?.currentReplicas ?? 0,
    ...(existing?.gitReplicas !== undefined ? { gitReplicas: existing.gitReplicas } : {}),
    desiredReplicas: existing?.desiredReplicas ?? 0,
    reason: `the config repo has no ${target.kind} ${namespace}/${target.name}`,
    ableToScale: MISSING_TARGET,
    ...(existing?.scalingLimited ? { scalingLimited: existing.scalingLimited } : {}),
    metrics: existing?.metrics ?? [],
    ...(existing?.lastScaleTime ? { lastScaleTime: existing.lastScaleTime } : {}),
    ...(existing?.scaleUpEvents ? { scaleUpEvents: existing.scaleUpEvents } : {}),
    ...(existing?.scaleDownEvents ? { scaleDownEvents: existing.scaleDownEvents } : {}),
    conditions,
  };
  return {
    text: serializeAutoscalerDecision(file),
    line: `FederatedHPA ${namespace}/${name}: ${notFound}: the config repo has no ${target.kind} ${namespace}/${target.name}; add it, or point spec.scaleTargetRef (${fhpa.source.file}:${fhpa.source.line}) at a workload that is there`,
  };
}

/** Same condition types, statuses and reasons (messages with counts in them do not make a commit of their own). */
function sameConditions(a: readonly HpaCondition[] | undefined, b: readonly HpaCondition[]): boolean {
  const key = (list: readonly HpaCondition[]) => list.map((c) => `${c.type}=${c.status}/${c.reason}`).join(',');
  return key(a ?? []) === key(b);
}

/**
 * The workload's spec.replicas summed over the Ready target clusters that have it (Karmada's multi-cluster scale);
 * 0 when none does. A cluster that cannot be read counts as not having it, as Karmada skips it.
 */
async function readMemberReplicas(
  input: DecideInput,
  clusters: readonly string[],
  namespace: string,
  target: { apiVersion: string; kind: string; name: string },
): Promise<number> {
  const counts = await mapLimit([...clusters], 4, async (cluster) => {
    const kube = input.clusters.get(cluster)!;
    try {
      const resource = await resolveResource(kube, target.apiVersion, target.kind, READ_RETRY);
      if (!resource) return 0;
      const res = await sendRequest(
        kube,
        { method: 'GET', path: resourcePath(target.apiVersion, resource, namespace, target.name), timeoutMs: 10_000 },
        READ_RETRY,
      );
      const replicas = (res.body as { spec?: { replicas?: unknown } } | undefined)?.spec?.replicas;
      return res.status === 200 && typeof replicas === 'number' ? replicas : 0;
    } catch {
      return 0;
    }
  });
  return counts.reduce((a, b) => a + b, 0);
}

function podsByCluster(pods: readonly ScaledPod[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of pods) {
    const cluster = p.name.slice(0, p.name.indexOf('/'));
    out[cluster] = (out[cluster] ?? 0) + 1;
  }
  return out;
}

/** The workload's target clusters in the rendered commit (its binding's spec.clusters); undefined without a binding. */
async function targetClusters(
  repo: GitRepo,
  renderedCommit: string,
  ref: ReturnType<typeof parseRefKey>,
): Promise<string[] | undefined> {
  const path = bindingPath(ref);
  const texts = await readTextFiles(repo, (await readCommitInfo(repo, renderedCommit)).tree, [path]);
  const text = texts.get(path);
  if (!text) return undefined;
  const binding = parseYamlValue(text) as { spec?: { clusters?: { name?: string }[] } } | null;
  return (binding?.spec?.clusters ?? []).flatMap((c) => (c.name ? [c.name] : []));
}

/**
 * The workload's spec.selector (matchLabels and matchExpressions) as a label selector string, as the scale
 * subresource's status.selector gives it to Karmada; undefined without one, or with an empty one.
 */
function podSelector(workload: Template): string | undefined {
  const selector = (workload.manifest.spec as { selector?: LabelSelector } | undefined)?.selector;
  const text = selector && typeof selector === 'object' ? formatLabelSelector(selector) : '';
  return text === '' ? undefined : text;
}

/** Each FederatedHPA's target workload's pod selector (the scale's status.selector Karmada registers for it). */
function autoscalerSelectors(
  fhpas: readonly Template[],
  templates: ReadonlyMap<string, Template>,
): AutoscalerSelector[] {
  return fhpas.flatMap((fhpa) => {
    const target = ((fhpa.manifest.spec ?? {}) as FhpaSpec).scaleTargetRef;
    if (!target?.apiVersion || !target.kind || !target.name) return [];
    const workload = templates.get(
      refKey({ apiVersion: target.apiVersion, kind: target.kind, namespace: fhpa.ref.namespace, name: target.name }),
    );
    const selector = (workload?.manifest.spec as { selector?: LabelSelector } | undefined)?.selector;
    if (!selector || typeof selector !== 'object' || podSelector(workload!) === undefined) return [];
    return [{ key: `${fhpa.ref.namespace}/${fhpa.ref.name}`, namespace: fhpa.ref.namespace, selector }];
  });
}

interface ReadPod extends Omit<ScaledPod, 'requestMilli'> {
  /** Its containers' requests. */
  containers: ContainerAmounts[];
  labels: Record<string, string>;
}

interface PodsAndUsage {
  pods: ReadPod[];
  /** Pod name (`<cluster>/<pod>`) → its PodMetrics' containers' usage. */
  usage: Map<string, ContainerAmounts[]>;
}

/** An RFC 3339 time as ms since the epoch; undefined when absent or unreadable. */
function epochMs(value: unknown): number | undefined {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

function milli(value: unknown): number | undefined {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? Number(quantityMilliValue(q)) : undefined;
}

/** A container's requests or usage as milli-units by resource; unreadable quantities are left out. */
function amounts(list: Record<string, unknown> | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [resource, value] of Object.entries(list ?? {})) {
    const v = milli(value);
    if (v !== undefined) out.set(resource, v);
  }
  return out;
}

/**
 * The workload's pods and their PodMetrics in each Ready target cluster (Karmada lists them through each member's
 * informer and metrics API). A cluster whose pods cannot be read gives none; one without metrics gives pods only,
 * which the calculation counts as missing.
 */
async function readPods(
  input: DecideInput,
  clusters: readonly string[],
  namespace: string,
  selector: string,
): Promise<PodsAndUsage> {
  const out: PodsAndUsage = { pods: [], usage: new Map() };
  await mapLimit([...clusters], 4, async (cluster) => {
    const kube = input.clusters.get(cluster)!;
    const get = async (path: string) => {
      try {
        const res = await sendRequest(
          kube,
          { method: 'GET', path, query: { labelSelector: selector }, timeoutMs: 10_000 },
          READ_RETRY,
        );
        const items = (res.body as { items?: unknown } | undefined)?.items;
        return res.status === 200 && Array.isArray(items) ? (items as Record<string, unknown>[]) : undefined;
      } catch {
        return undefined;
      }
    };
    const pods = await get(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`);
    if (!pods) return;
    const metrics = (await get(`/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods`)) ?? [];
    for (const pod of pods) {
      const meta = (pod.metadata ?? {}) as {
        name?: string;
        deletionTimestamp?: string;
        labels?: Record<string, string>;
      };
      const status = (pod.status ?? {}) as {
        phase?: string;
        startTime?: string;
        conditions?: { type?: string; status?: string; lastTransitionTime?: string }[];
      };
      const containers = ((pod.spec as { containers?: unknown[] } | undefined)?.containers ?? []) as {
        name?: string;
        resources?: { requests?: Record<string, unknown> };
      }[];
      const condition = status.conditions?.find((c) => c.type === 'Ready');
      const ready = condition?.status;
      const startTime = epochMs(status.startTime);
      const readySince = epochMs(condition?.lastTransitionTime);
      out.pods.push({
        name: `${cluster}/${meta.name}`,
        phase: status.phase ?? 'Pending',
        ...(meta.deletionTimestamp ? { deleting: true } : {}),
        ...(ready === 'True' || ready === 'False' || ready === 'Unknown' ? { ready } : {}),
        ...(startTime !== undefined ? { startTime } : {}),
        ...(readySince !== undefined ? { readySince } : {}),
        containers: containers.map((c) => ({ name: c.name ?? '', amounts: amounts(c.resources?.requests) })),
        labels: meta.labels ?? {},
      });
    }
    const byName = new Map(out.pods.map((p) => [p.name, p]));
    for (const m of metrics) {
      const name = (m.metadata as { name?: string } | undefined)?.name;
      const containers = (m.containers ?? []) as { name?: string; usage?: Record<string, unknown> }[];
      if (!name) continue;
      const timestamp = epochMs(m.timestamp);
      const window = typeof m.window === 'string' ? parseDuration(m.window) : 0;
      const scaled = byName.get(`${cluster}/${name}`);
      if (scaled && timestamp !== undefined)
        scaled.sample = { timestamp, windowMs: window instanceof Error ? 0 : window };
      out.usage.set(
        `${cluster}/${name}`,
        containers.map((c) => ({ name: c.name ?? '', amounts: amounts(c.usage) })),
      );
    }
  });
  return out;
}

/** A FederatedHPA's min and max as Git has them, minReplicas defaulted to 1 as Karmada's webhook defaults it. */
function gitFhpaLimits(fhpa: Template): { minReplicas: number; maxReplicas: number } {
  const spec = (fhpa.manifest.spec ?? {}) as FhpaSpec;
  return {
    minReplicas: typeof spec.minReplicas === 'number' ? spec.minReplicas : 1,
    maxReplicas: typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0,
  };
}

interface CronSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  rules?: CronRule[];
}

const ms = (t: string | undefined) => (t ? Date.parse(t) : undefined);

/**
 * One CronFederatedHPA this pass: its status as it should be now (histories with next execution times; what the
 * rules that fired since the last look applied), or undefined when it names no target. Karmada's
 * RunCronFederatedHPARule: a FederatedHPA target takes targetMin/MaxReplicas, a workload takes targetReplicas.
 */
function runCron(
  input: DecideInput,
  cron: Template,
  existing: CronAutoscalerFile | undefined,
  lines: string[],
  templates: ReadonlyMap<string, Template>,
): CronAutoscalerFile | undefined {
  const spec = (cron.manifest.spec ?? {}) as CronSpec;
  const target = spec.scaleTargetRef;
  if (!target?.apiVersion || !target.kind || !target.name) return undefined;
  const rules = (spec.rules ?? []).filter((r) => typeof r?.name === 'string' && typeof r.schedule === 'string');
  const key = refKey(cron.ref);
  const now = input.now.getTime();
  // Karmada schedules a rule from when its job starts: runs missed before the first look are not made up.
  const from = input.memory.cronLastLook.get(key) ?? now;
  input.memory.cronLastLook.set(key, now);
  const histories = new Map<string, RuleHistory>();
  for (const h of existing?.executionHistories ?? [])
    histories.set(h.ruleName, {
      ruleName: h.ruleName,
      ...(ms(h.nextExecutionTime) !== undefined ? { nextExecutionTime: ms(h.nextExecutionTime)! } : {}),
      successfulExecutions: (h.successfulExecutions ?? []).map((e) => ({
        ...e,
        scheduleTime: Date.parse(e.scheduleTime),
        executionTime: Date.parse(e.executionTime),
      })),
      failedExecutions: (h.failedExecutions ?? []).map((e) => ({
        ...e,
        scheduleTime: Date.parse(e.scheduleTime),
        executionTime: Date.parse(e.executionTime),
      })),
    });
  // Each rule's next execution time as its schedule, zone and suspend say now (Karmada's controller sets it when it
  // (re)starts the rule's job): an edited schedule moves it at once, a suspended rule has none.
  for (const rule of rules) {
    const { nextExecutionTime: _was, ...history } = histories.get(rule.name) ?? {
      ruleName: rule.name,
      successfulExecutions: [],
      failedExecutions: [],
    };
    const next = rule.suspend ? undefined : nextRuleRun(rule, now);
    histories.set(rule.name, next !== undefined ? { ...history, nextExecutionTime: next } : history);
  }
  let applied = existing?.applied;
  const toFhpa = target.apiVersion === FEDERATED_HPA_API_VERSION;
  const evaluation = evaluateCronRules(rules, from, now);
  const targetTemplate = templates.get(
    refKey({ apiVersion: target.apiVersion, kind: target.kind, namespace: cron.ref.namespace, name: target.name }),
  );
  // Karmada writes what a rule sets into the FederatedHPA or the template once; a later edit of the same field wins.
  // Each value holds while Git's value of its field is still the one the rule ran over, so that value is kept.
  const git = toFhpa && targetTemplate ? gitFhpaLimits(targetTemplate) : undefined;
  for (const { rule, scheduleTime } of evaluation.fired) {
    const history = histories.get(rule.name)!;
    const when = { scheduleTime, executionTime: now };
    let failure: string | undefined;
    let hint = '';
    const still = git ? heldFhpaLimits(applied, git) : {};
    if (toFhpa && target.kind !== 'FederatedHPA')
      failure = `CronFederatedHPA(${cron.ref.namespace}/${cron.ref.name}) do not support scale target ${target.apiVersion}/${target.kind}`;
    else if (!toFhpa && typeof rule.targetReplicas !== 'number') failure = 'the rule has no targetReplicas';
    // Karmada's rule fails when it cannot get what it scales, with the API server's NotFound; nothing is applied then.
    else if (!targetTemplate) {
      const group = groupOf(target.apiVersion);
      failure = `${defaultPlural(target.kind)}${group ? `.${group}` : ''} "${target.name}" not found`;
      hint = `: the config repo has no ${target.kind} ${cron.ref.namespace}/${target.name}`;
    } else if (git) {
      const limits = fhpaLimitsAfterRule({ ...git, ...still }, rule);
      if ('error' in limits) failure = limits.error;
    }
    if (failure) {
      histories.set(rule.name, recordExecution(history, rule, { ok: false, value: { ...when, message: failure } }));
      lines.push(`CronFederatedHPA ${cron.ref.namespace}/${cron.ref.name} rule ${rule.name} failed: ${failure}${hint}`);
      continue;
    }
    const set: { replicas?: number; minReplicas?: number; maxReplicas?: number } = toFhpa
      ? {
          ...still,
          ...(rule.targetMinReplicas !== undefined ? { minReplicas: rule.targetMinReplicas } : {}),
          ...(rule.targetMaxReplicas !== undefined ? { maxReplicas: rule.targetMaxReplicas } : {}),
        }
      : { replicas: rule.targetReplicas! };
    const inGit = toFhpa ? undefined : (targetTemplate?.manifest.spec as { replicas?: unknown } | undefined)?.replicas;
    applied = {
      rule: rule.name,
      scheduleTime: formatTime(new Date(scheduleTime)),
      ...set,
      ...(git && set.minReplicas !== undefined ? { gitMinReplicas: git.minReplicas } : {}),
      ...(git && set.maxReplicas !== undefined ? { gitMaxReplicas: git.maxReplicas } : {}),
      ...(toFhpa ? {} : { gitReplicas: typeof inGit === 'number' ? inGit : 1 }),
    };
    histories.set(
      rule.name,
      recordExecution(history, rule, {
        ok: true,
        value: {
          ...when,
          // Karmada's addSuccessExecutionHistory records the rule's three targets as written, whichever it used.
          ...(rule.targetReplicas !== undefined ? { appliedReplicas: rule.targetReplicas } : {}),
          ...(rule.targetMinReplicas !== undefined ? { appliedMinReplicas: rule.targetMinReplicas } : {}),
          ...(rule.targetMaxReplicas !== undefined ? { appliedMaxReplicas: rule.targetMaxReplicas } : {}),
        },
      }),
    );
    const what = Object.entries(set)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(
      `CronFederatedHPA ${cron.ref.namespace}/${cron.ref.name} rule ${rule.name} (${rule.schedule}${rule.timeZone ? ` ${rule.timeZone}` : ''}) at ${formatTime(new Date(scheduleTime))}: ${target.kind} ${target.name} ${what}`,
    );
  }
  const iso = (t: number) => formatTime(new Date(t));
  // Karmada's updateRuleHistory appends a rule's history when it first sees the rule and edits it in place after, and
  // removeCronFHPAHistory drops a removed rule's: the histories keep the order the rules first came in.
  const known = new Set(rules.map((r) => r.name));
  const order = [
    ...(existing?.executionHistories ?? []).map((h) => h.ruleName).filter((name) => known.has(name)),
    ...rules.map((r) => r.name),
  ].filter((name, i, all) => all.indexOf(name) === i);
  return {
    apiVersion: FEDERATED_HPA_API_VERSION,
    kind: 'CronFederatedHPA',
    metadata: { namespace: cron.ref.namespace, name: cron.ref.name },
    scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
    ...(applied ? { applied } : {}),
    executionHistories: order.map((ruleName) => {
      const h = histories.get(ruleName)!;
      return {
        ruleName,
        ...(h.nextExecutionTime !== undefined ? { nextExecutionTime: iso(h.nextExecutionTime) } : {}),
        ...(h.successfulExecutions.length
          ? {
              successfulExecutions: h.successfulExecutions.map((e) => ({
                ...e,
                scheduleTime: iso(e.scheduleTime),
                executionTime: iso(e.executionTime),
              })),
            }
          : {}),
        ...(h.failedExecutions.length
          ? {
              failedExecutions: h.failedExecutions.map((e) => ({
                ...e,
                scheduleTime: iso(e.scheduleTime),
                executionTime: iso(e.executionTime),
              })),
            }
          : {}),
      };
    }),
  };
}
