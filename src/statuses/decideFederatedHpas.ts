// Karmada's FederatedHPA controller (pkg/controllers/federatedhpa), on the status side: for each FederatedHPA in the
// source, read the pods of its workload and their metrics.k8s.io PodMetrics from the workload's Ready target
// clusters, compute the replicas (autoscalers/), and record the decision on the status branch
// (branches/status/autoscalerDecisions.ts) when the count changes. The render then gives the workload that count.
import { parseRefKey, refKey } from '../api/kinds.ts';
import type { Template } from '../api/model.ts';
import { calculateResourceReplicas, DEFAULT_TOLERANCE, type ScaledPod } from '../autoscalers/calculateReplicas.ts';
import { decideReplicas, EMPTY_HISTORY, type ScalingHistory } from '../autoscalers/normalizeReplicas.ts';
import { DEFAULT_CPU_UTILIZATION, scalingBehavior } from '../autoscalers/scalingBehavior.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import {
  autoscalerPath,
  FEDERATED_HPA_API_VERSION,
  serializeAutoscalerDecision,
  type AutoscalerDecisionFile,
  type SeenMetric,
} from '../branches/status/autoscalerDecisions.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import type { KubeTarget } from '../deliveries/KubeTarget.ts';
import { sendRequest, type RetryPolicy } from '../deliveries/sendRequest.ts';
import { loadSource } from '../outputs/loadSource.ts';
import { parseQuantity, quantityMilliValue } from '../quantities/parseQuantity.ts';
import { formatTime } from '../time/formatTime.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';

const READ_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

/** Karmada's --horizontal-pod-autoscaler-sync-period. */
export const DEFAULT_AUTOSCALER_SYNC_PERIOD_MS = 15_000;

export interface AutoscalerOptions {
  /** How often each FederatedHPA is evaluated. Default 15 s. */
  syncPeriodMs?: number;
  /** The scale-down stabilization a behavior without its own window uses. Default 300 s. */
  downscaleStabilizationMs?: number;
  tolerance?: number;
}

/**
 * What the controller keeps between passes, as Karmada keeps it in memory: each FederatedHPA's last evaluation and
 * its recommendations and scale events. A new process starts from the decision files (scale events only).
 */
export interface AutoscalerMemory {
  lastEvaluated: Map<string, number>;
  history: Map<string, ScalingHistory>;
  /** The FederatedHPAs and their targets of the last source commit read. */
  source?: { commit: string; fhpas: Template[]; templates: Map<string, Template> };
}

export function newAutoscalerMemory(): AutoscalerMemory {
  return { lastEvaluated: new Map(), history: new Map() };
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
  clusters: ReadonlyMap<string, KubeTarget>;
  /** Clusters whose Ready condition is True this pass. */
  ready: ReadonlySet<string>;
  now: Date;
  memory: AutoscalerMemory;
  options?: AutoscalerOptions;
}

function isFederatedHpa(t: Template): boolean {
  return t.ref.apiVersion === FEDERATED_HPA_API_VERSION && t.ref.kind === 'FederatedHPA';
}

async function sourceObjects(repo: GitRepo, commit: string, memory: AutoscalerMemory) {
  if (memory.source?.commit === commit) return memory.source;
  const loaded = await loadSource(repo, (await readCommitInfo(repo, commit)).tree, null);
  const fhpas = [...loaded.model.templates.values()].filter(isFederatedHpa);
  memory.source = { commit, fhpas, templates: loaded.model.templates };
  return memory.source;
}

/** The decisions to commit this pass: changed counts, and files of FederatedHPAs no longer in the source removed. */
export async function decideFederatedHpas(input: DecideInput): Promise<AutoscalerEdits> {
  const { memory, now } = input;
  const out: AutoscalerEdits = { edits: new Map(), lines: [] };
  const { fhpas, templates } = await sourceObjects(input.repo, input.sourceCommit, memory);
  const wanted = new Set(fhpas.map((f) => autoscalerPath(f.ref.namespace, f.ref.name)));
  for (const path of input.existing.keys())
    if (!wanted.has(path)) {
      out.edits.set(path, null);
      out.lines.push(`${path}: its FederatedHPA is gone; the workload has Git's replicas again`);
    }
  const period = input.options?.syncPeriodMs ?? DEFAULT_AUTOSCALER_SYNC_PERIOD_MS;
  for (const fhpa of fhpas) {
    const key = refKey(fhpa.ref);
    const last = memory.lastEvaluated.get(key);
    if (last !== undefined && now.getTime() < last + period) continue;
    memory.lastEvaluated.set(key, now.getTime());
    const path = autoscalerPath(fhpa.ref.namespace, fhpa.ref.name);
    const decided = await decideOne(input, fhpa, templates, input.existing.get(path));
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
  metrics?: { type?: string; resource?: { name?: string; target?: { type?: string; averageUtilization?: number } } }[];
  behavior?: unknown;
}

async function decideOne(
  input: DecideInput,
  fhpa: Template,
  templates: ReadonlyMap<string, Template>,
  existing: AutoscalerDecisionFile | undefined,
): Promise<{ text: string; line: string } | undefined> {
  const spec = (fhpa.manifest.spec ?? {}) as FhpaSpec;
  const target = spec.scaleTargetRef;
  if (!target?.apiVersion || !target.kind || !target.name || typeof spec.maxReplicas !== 'number') return undefined;
  const targetKey = refKey({
    apiVersion: target.apiVersion,
    kind: target.kind,
    namespace: fhpa.ref.namespace,
    name: target.name,
  });
  const workload = templates.get(targetKey);
  if (!workload) return undefined;
  const inGit = (workload.manifest.spec as { replicas?: unknown } | undefined)?.replicas;
  const currentReplicas = existing?.desiredReplicas ?? (typeof inGit === 'number' ? inGit : 1);
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
  const readyTargets = clusters.filter((c) => input.ready.has(c) && input.clusters.has(c));
  const selector = matchLabels(workload);
  const pods = selector ? await readPods(input, readyTargets, fhpa.ref.namespace, selector) : undefined;

  let metricReplicas: number | undefined;
  let metricName: string | undefined;
  const seen: SeenMetric[] = [];
  for (const m of metricSpecs) {
    const resource = m.resource?.name;
    const utilization = m.resource?.target?.averageUtilization;
    if (m.type !== 'Resource' || !resource || m.resource?.target?.type !== 'Utilization' || !utilization || !pods)
      continue;
    const scaled = pods.pods.map((p) => ({ ...p, requestMilli: p.requests.get(resource) }));
    const usage = pods.usage.get(resource) ?? new Map<string, number>();
    const result = calculateResourceReplicas(
      currentReplicas,
      utilization,
      scaled,
      usage,
      input.options?.tolerance ?? DEFAULT_TOLERANCE,
    );
    if (!result.ok) continue;
    seen.push({
      resource,
      targetUtilization: utilization,
      currentUtilization: result.value.utilization,
      currentAverageValue: `${result.value.averageMilli}m`,
      pods: podsByCluster(scaled),
    });
    // The largest proposal over the metrics wins (computeReplicasForMetrics).
    if (metricReplicas === undefined || result.value.replicas > metricReplicas) {
      metricReplicas = result.value.replicas;
      metricName = `${resource} resource utilization (percentage of request)`;
    }
  }
  const key = refKey(fhpa.ref);
  const history =
    input.memory.history.get(key) ??
    (existing
      ? {
          recommendations: [],
          scaleUpEvents: (existing.scaleUpEvents ?? []).map((e) => ({ at: Date.parse(e.time), change: e.change })),
          scaleDownEvents: (existing.scaleDownEvents ?? []).map((e) => ({ at: Date.parse(e.time), change: e.change })),
        }
      : EMPTY_HISTORY);
  const decision = decideReplicas({
    minReplicas,
    maxReplicas: spec.maxReplicas,
    behavior: scalingBehavior(spec.behavior),
    currentReplicas,
    metricReplicas,
    ...(metricName ? { metricName } : {}),
    now: input.now.getTime(),
    history,
    ...(input.options?.downscaleStabilizationMs !== undefined
      ? { downscaleStabilizationMs: input.options.downscaleStabilizationMs }
      : {}),
  });
  if ('error' in decision) return undefined; // no metric: the count stays as it is (Karmada's FailedComputeMetricsReplicas)
  input.memory.history.set(key, decision.history);
  // No commit when the decision does not change: only a new count (or a first decision) is written.
  if (existing && existing.desiredReplicas === decision.desiredReplicas) return undefined;
  const time = formatTime(input.now);
  const file: AutoscalerDecisionFile = {
    apiVersion: FEDERATED_HPA_API_VERSION,
    kind: 'FederatedHPA',
    metadata: { namespace: fhpa.ref.namespace, name: fhpa.ref.name },
    scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
    desiredReplicas: decision.desiredReplicas,
    currentReplicas,
    reason: decision.reason || 'the workload keeps its replicas',
    ableToScale: decision.ableToScale,
    ...(decision.scalingLimited ? { scalingLimited: decision.scalingLimited } : {}),
    metrics: seen,
    lastScaleTime: decision.rescale ? time : (existing?.lastScaleTime ?? time),
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
  };
  const metricsText = seen
    .map(
      (m) =>
        `${m.resource} ${m.currentUtilization}% of request (target ${m.targetUtilization}%) over ${Object.entries(
          m.pods,
        )
          .map(([c, n]) => `${n} pod(s) in ${c}`)
          .join(', ')}`,
    )
    .join('; ');
  const line = `FederatedHPA ${fhpa.ref.namespace}/${fhpa.ref.name}: ${target.kind} ${target.name} ${currentReplicas} -> ${decision.desiredReplicas} replicas (${file.reason}${metricsText ? `; ${metricsText}` : ''})`;
  return { text: serializeAutoscalerDecision(file), line };
}

function podsByCluster(pods: readonly ScaledPod[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of pods) {
    const cluster = p.name.slice(0, p.name.indexOf('/'));
    out[cluster] = (out[cluster] ?? 0) + 1;
  }
  return out;
}

/** The workload's target clusters in the rendered commit (its binding's spec.clusters). */
async function targetClusters(
  repo: GitRepo,
  renderedCommit: string,
  ref: ReturnType<typeof parseRefKey>,
): Promise<string[]> {
  const path = bindingPath(ref);
  const texts = await readTextFiles(repo, (await readCommitInfo(repo, renderedCommit)).tree, [path]);
  const text = texts.get(path);
  if (!text) return [];
  const binding = parseYamlValue(text) as { spec?: { clusters?: { name?: string }[] } } | null;
  return (binding?.spec?.clusters ?? []).flatMap((c) => (c.name ? [c.name] : []));
}

/** spec.selector.matchLabels as a label selector string; undefined without one (matchExpressions are not read). */
function matchLabels(workload: Template): string | undefined {
  const labels = (workload.manifest.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)
    ?.selector?.matchLabels;
  if (!labels || Object.keys(labels).length === 0) return undefined;
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

interface ReadPod extends Omit<ScaledPod, 'requestMilli'> {
  requests: Map<string, number>;
}

interface PodsAndUsage {
  pods: ReadPod[];
  /** Resource → pod name (`<cluster>/<pod>`) → usage in milli-units. */
  usage: Map<string, Map<string, number>>;
}

function milli(value: unknown): number | undefined {
  const q = typeof value === 'string' || typeof value === 'number' ? parseQuantity(value) : undefined;
  return q ? Number(quantityMilliValue(q)) : undefined;
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
      const meta = (pod.metadata ?? {}) as { name?: string; deletionTimestamp?: string };
      const status = (pod.status ?? {}) as { phase?: string; conditions?: { type?: string; status?: string }[] };
      const containers = ((pod.spec as { containers?: unknown[] } | undefined)?.containers ?? []) as {
        resources?: { requests?: Record<string, unknown> };
      }[];
      const requests = new Map<string, number>();
      for (const resource of ['cpu', 'memory']) {
        let sum = 0;
        let complete = true;
        for (const c of containers) {
          const v = milli(c.resources?.requests?.[resource]);
          if (v === undefined) complete = false;
          else sum += v;
        }
        if (complete && containers.length > 0) requests.set(resource, sum);
      }
      const ready = status.conditions?.find((c) => c.type === 'Ready')?.status;
      out.pods.push({
        name: `${cluster}/${meta.name}`,
        phase: status.phase ?? 'Pending',
        ...(meta.deletionTimestamp ? { deleting: true } : {}),
        ...(ready === 'True' || ready === 'False' || ready === 'Unknown' ? { ready } : {}),
        requests,
      });
    }
    for (const m of metrics) {
      const name = (m.metadata as { name?: string } | undefined)?.name;
      const containers = (m.containers ?? []) as { usage?: Record<string, unknown> }[];
      if (!name) continue;
      for (const resource of ['cpu', 'memory']) {
        let sum = 0;
        for (const c of containers) sum += milli(c.usage?.[resource]) ?? 0;
        const byPod = out.usage.get(resource) ?? new Map<string, number>();
        byPod.set(`${cluster}/${name}`, sum);
        out.usage.set(resource, byPod);
      }
    }
  });
  return out;
}
