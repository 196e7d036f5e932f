// `flotilla get|describe federatedhpas`: a FederatedHPA as Karmada's API shows it, from Git: its spec from the source
// commit and its status (replicas, metrics, conditions) from its decision file on the status branch
// (branches/status/autoscalerDecisions.ts). Columns are the CRD's printer columns (REFERENCE-KIND, REFERENCE-NAME,
// MINPODS, MAXPODS, REPLICAS, AGE); describe reads like `kubectl describe hpa`.
import { pickListed, type TemplateListingQuery } from './pickListed.ts';
import type { Template } from '../api/model.ts';
import {
  autoscalerPath,
  FEDERATED_HPA_API_VERSION,
  parseAutoscalerDecision,
  readAutoscalerDecisions,
  type AutoscalerDecisionFile,
  type SeenMetric,
} from '../branches/status/autoscalerDecisions.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { printTable } from './printTable.ts';
import { loadTemplatesOfKinds, type Fleet } from './readFleet.ts';
import { readFirstSeen } from './readFirstSeen.ts';
import { readPathHistory } from './readPathHistory.ts';
import {
  type DecisionVersion,
  federatedHpaEventLines,
  federatedHpaEvents,
  type FhpaEvent,
} from './federatedHpaEvents.ts';

type Obj = Record<string, unknown>;

interface FhpaSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
}

export interface FederatedHpaView {
  template: Template;
  decision?: AutoscalerDecisionFile;
  /** When its file appeared (seconds), for AGE. */
  firstSeen?: number;
  /** What the controller did, from the decision file's history on the status branch (describe only). */
  events?: FhpaEvent[];
}

/**
 * The FederatedHPA's events: the last `limit` status commits that changed its decision file, each read with the
 * version before it (the events are the differences).
 */
export async function readFederatedHpaEvents(fleet: Fleet, v: FederatedHpaView, limit = 10): Promise<FhpaEvent[]> {
  const status = fleet.status?.commit.oid;
  if (!status) return [];
  const path = autoscalerPath(v.template.ref.namespace, v.template.ref.name);
  const fileAt = async (commit: string | undefined): Promise<AutoscalerDecisionFile | null> => {
    if (!commit) return null;
    const text = (await readTextFiles(fleet.repo, (await readCommitInfo(fleet.repo, commit)).tree, [path])).get(path);
    try {
      return text ? parseAutoscalerDecision(text) : null;
    } catch {
      return null; // a file written by hand that is no decision: no event
    }
  };
  const commits = await readPathHistory(fleet.repo, status, path, limit);
  const versions: DecisionVersion[] = await Promise.all(
    commits.map(async (c) => ({
      at: c.committer.timestamp * 1000,
      file: await fileAt(c.oid),
      before: await fileAt(c.parents[0]),
    })),
  );
  return federatedHpaEvents(versions);
}

/** Every FederatedHPA of the source commit, with its decision from the status branch when there is one. */
export async function readFederatedHpas(fleet: Fleet): Promise<FederatedHpaView[]> {
  const { model } = await loadTemplatesOfKinds(
    fleet,
    (k) => k.apiVersion === FEDERATED_HPA_API_VERSION && k.kind === 'FederatedHPA',
  );
  const fhpas = [...model.templates.values()].filter(
    (t) => t.ref.apiVersion === FEDERATED_HPA_API_VERSION && t.ref.kind === 'FederatedHPA',
  );
  const decisions = await readAutoscalerDecisions(fleet.repo, fleet.status?.commit.oid ?? null);
  const ages = await readFirstSeen(
    fleet.repo,
    fleet.source.commit.oid,
    fhpas.map((t) => t.source.file),
  );
  return fhpas.map((template) => {
    const decision = decisions.get(autoscalerPath(template.ref.namespace, template.ref.name));
    const firstSeen = ages.get(template.source.file);
    return { template, ...(decision ? { decision } : {}), ...(firstSeen !== undefined ? { firstSeen } : {}) };
  });
}

/** The FederatedHPA object: Git's manifest with the status its decision file gives (Karmada's FederatedHPAStatus). */
export function federatedHpaObject(v: FederatedHpaView): Obj {
  const d = v.decision;
  return {
    ...v.template.manifest,
    ...(d
      ? {
          status: {
            currentReplicas: d.currentReplicas,
            desiredReplicas: d.desiredReplicas,
            ...(d.lastScaleTime ? { lastScaleTime: d.lastScaleTime } : {}),
            ...(d.metrics.length ? { currentMetrics: currentMetrics(specMetrics(v.template), d.metrics) } : {}),
            ...(d.conditions ? { conditions: d.conditions } : {}),
          },
        }
      : {}),
  };
}

type MetricSource = { name?: string; container?: string; target?: Record<string, unknown> };
type SpecMetric = { type?: string; resource?: MetricSource; containerResource?: MetricSource };

/** The FederatedHPA's metrics, CPU at 80% when it names none, as Karmada's webhook defaults them. */
function specMetrics(template: Template): SpecMetric[] {
  const metrics = ((template.manifest.spec ?? {}) as { metrics?: SpecMetric[] }).metrics;
  return metrics?.length
    ? metrics
    : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
}

/**
 * status.currentMetrics as Karmada's computeReplicasForMetrics makes it: one entry per spec metric, in order (kubectl
 * describe pairs them by position), and an empty MetricStatus for a metric it could not compute.
 */
function currentMetrics(metrics: readonly SpecMetric[], seen: readonly SeenMetric[]): Obj[] {
  const left = [...seen];
  return metrics.map((m) => {
    const source =
      m.type === 'ContainerResource' ? m.containerResource : m.type === 'Resource' ? m.resource : undefined;
    const container = m.type === 'ContainerResource' ? (source?.container ?? '') : undefined;
    const at = source ? left.findIndex((s) => s.resource === source.name && s.container === container) : -1;
    if (at < 0) return { type: '' };
    const [s] = left.splice(at, 1) as [SeenMetric];
    const current = {
      ...(s.currentUtilization !== undefined ? { averageUtilization: s.currentUtilization } : {}),
      averageValue: s.currentAverageValue,
    };
    return s.container !== undefined
      ? { type: 'ContainerResource', containerResource: { name: s.resource, container: s.container, current } }
      : { type: 'Resource', resource: { name: s.resource, current } };
  });
}

/** `get federatedhpas`: the CRD's printer columns, in readListing's Listing shape. Pure. */
export function listFederatedHpas(
  views: readonly FederatedHpaView[],
  q: TemplateListingQuery,
): { headers: string[]; rows: string[][]; objects: Obj[]; namespaced: boolean } {
  const picked = pickListed(views, q);
  const headers = [
    ...(q.allNamespaces ? ['NAMESPACE'] : []),
    'NAME',
    'REFERENCE-KIND',
    'REFERENCE-NAME',
    'MINPODS',
    'MAXPODS',
    'REPLICAS',
    'AGE',
  ];
  const rows = picked.map((v) => {
    const spec = (v.template.manifest.spec ?? {}) as FhpaSpec;
    return [
      ...(q.allNamespaces ? [v.template.ref.namespace] : []),
      v.template.ref.name,
      spec.scaleTargetRef?.kind ?? '',
      spec.scaleTargetRef?.name ?? '',
      String(spec.minReplicas ?? 1),
      spec.maxReplicas === undefined ? '' : String(spec.maxReplicas),
      v.decision ? String(v.decision.currentReplicas) : '',
      v.firstSeen === undefined ? '<unknown>' : humanDuration(q.now.getTime() - v.firstSeen * 1000),
    ];
  });
  return { headers, rows, objects: picked.map(federatedHpaObject), namespaced: true };
}

/** `describe federatedhpa`: as `kubectl describe hpa` lays one out, its Events when `v` has them read. Pure. */
export function describeFederatedHpa(v: FederatedHpaView, now?: Date): string {
  const spec = (v.template.manifest.spec ?? {}) as FhpaSpec;
  const d = v.decision;
  const lines = [
    `Name:              ${v.template.ref.name}`,
    `Namespace:         ${v.template.ref.namespace}`,
    `Source:            ${v.template.source.file}:${v.template.source.line}`,
    `Reference:         ${spec.scaleTargetRef?.kind ?? ''}/${spec.scaleTargetRef?.name ?? ''}`,
    'Metrics:           ( current / target )',
  ];
  for (const m of specMetrics(v.template)) {
    const source = m.type === 'ContainerResource' ? m.containerResource : m.resource;
    const name = source?.name ?? m.type ?? '';
    const container = m.type === 'ContainerResource' ? (source?.container ?? '') : undefined;
    const seen = d?.metrics.find((s) => s.resource === name && s.container === container);
    const target = source?.target ?? {};
    // kubectl describe hpa's wording: which target is set decides, as it does for the controller.
    const what = `resource ${name}${container !== undefined ? ` of container "${container}"` : ''} on pods`;
    const text =
      target.averageValue !== undefined
        ? `  ${what}:  ${seen?.currentAverageValue ?? '<unknown>'} / ${String(target.averageValue)}`
        : `  ${what}  (as a percentage of request):  ${seen?.currentUtilization !== undefined ? `${seen.currentUtilization}% (${seen.currentAverageValue})` : '<unknown>'} / ${String(target.averageUtilization ?? '')}%`;
    lines.push(
      m.type === 'Resource' || m.type === 'ContainerResource'
        ? text
        : `  ${m.type} metric: not read (no custom or external metrics API)`,
    );
  }
  lines.push(
    `Min replicas:      ${spec.minReplicas ?? 1}`,
    `Max replicas:      ${spec.maxReplicas ?? ''}`,
    `${spec.scaleTargetRef?.kind ?? 'Workload'} pods:  ${d ? `${d.currentReplicas} current / ${d.desiredReplicas} desired` : '<no decision on the status branch yet>'}`,
  );
  if (d) {
    lines.push(`Last scale time:   ${d.lastScaleTime ?? '<none>'}`, `Reason:            ${d.reason}`);
    if (d.conditions?.length)
      lines.push(
        'Conditions:',
        ...printTable(
          ['Type', 'Status', 'Reason', 'Message'],
          d.conditions.map((c) => [c.type, c.status, c.reason, c.message]),
        )
          .trimEnd()
          .split('\n')
          .map((l) => `  ${l}`),
      );
  }
  if (v.events && now) lines.push(...federatedHpaEventLines(v.events, now));
  return `${lines.join('\n')}\n`;
}
