// The scheduler, one pure pass (Karmada pkg/scheduler/scheduler.go + core/generic_scheduler.go):
// decide whether to schedule at all, then for the inline affinity or each clusterAffinities term in turn:
// filter -> score -> select (capacity, overflow tiers, spread constraints) -> assign replicas.
import type { TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import { assignReplicas, type Assignment } from './assignReplicas.ts';
import { filterPlugins, scorePlugins } from './plugins/registry.ts';
import { needsReschedule } from './needsReschedule.ts';
import { buildCandidates, selectBestClusters } from './selectClusters.ts';
import type { CandidateCluster, ClusterExplanation, ScheduleResult, SchedulingRequest } from './types.ts';

export { availableReplicas } from './availableReplicas.ts';
export { divideByWebster } from './divideByWebster.ts';
export type { ClusterExplanation, ScheduleResult, ScheduleStatus, SchedulingRequest } from './types.ts';

type FilteredExplanation = Extract<ClusterExplanation, { outcome: 'filtered' }>;

/** One scheduling cycle for one affinity (Karmada's genericScheduler.Schedule). */
type Attempt =
  | { ok: true; clusters: TargetCluster[]; explanation: ClusterExplanation[] }
  | {
      ok: false;
      status: 'NoClusterFit' | 'Unschedulable' | 'SchedulerError';
      message: string;
      detail?: string;
      explanation: ClusterExplanation[];
    };

export function schedule(req: SchedulingRequest, clusters: readonly Cluster[]): ScheduleResult {
  const trigger = needsReschedule(req, clusters);
  if (!trigger) {
    return {
      status: 'Unchanged',
      clusters: req.previous.map((tc) => ({ ...tc })),
      ...(req.observedAffinityName ? { affinityName: req.observedAffinityName } : {}),
      message: 'not rescheduled: placement and replicas unchanged since the previous result',
      explanation: req.previous.map((tc) => ({
        cluster: tc.name,
        outcome: 'selected',
        replicas: tc.replicas,
        score: 0,
        available: tc.replicas,
        why: 'previous result kept',
      })),
    };
  }
  const terms = req.placement.clusterAffinities;
  if (terms && terms.length > 0) return scheduleWithAffinityTerms(req, clusters);
  const attempt = scheduleOnce(req, clusters, undefined);
  return attempt.ok ? scheduled(attempt, undefined) : failed(attempt, req, req.observedAffinityName);
}

/**
 * Tries the terms from the observed one (or the first on an explicit reschedule), moving on only when a
 * term fails; it never moves back by itself. All failing: a no-fit first failure clears the clusters,
 * any other keeps the previous result; the observed term stays.
 */
function scheduleWithAffinityTerms(req: SchedulingRequest, clusters: readonly Cluster[]): ScheduleResult {
  const terms = req.placement.clusterAffinities ?? [];
  const observed = terms.findIndex((t) => t.affinityName === req.observedAffinityName);
  const start = req.reschedule || !req.observedAffinityName || observed < 0 ? 0 : observed;
  let first: Extract<Attempt, { ok: false }> | undefined;
  const failures: string[] = [];
  for (let i = start; i < terms.length; i++) {
    const name = terms[i]?.affinityName ?? '';
    const attempt = scheduleOnce(req, clusters, name);
    if (attempt.ok) {
      const result = scheduled(attempt, name);
      return failures.length ? { ...result, message: `${result.message} (after ${failures.join('; ')})` } : result;
    }
    first ??= attempt;
    failures.push(`affinity term ${name}: ${attempt.detail ?? attempt.message}`);
  }
  // Karmada's condition carries the first term's error; the others are only in its events.
  const firstFailure = first as Extract<Attempt, { ok: false }>;
  return { ...failed(firstFailure, req, req.observedAffinityName), detail: failures.join('; ') };
}

function scheduled(attempt: Extract<Attempt, { ok: true }>, affinityName: string | undefined): ScheduleResult {
  const list = attempt.clusters.map((tc) => `${tc.name}=${tc.replicas}`).join(', ');
  // Only a workload at 0 replicas gets no cluster from clusters that fit: each was assigned 0 and left out.
  const where = attempt.clusters.length > 0 ? list : 'a workload at 0 replicas is placed on no cluster';
  return {
    status: 'Scheduled',
    clusters: attempt.clusters,
    ...(affinityName !== undefined ? { affinityName } : {}),
    message: `scheduled to ${attempt.clusters.length} cluster(s): ${where}${affinityName !== undefined ? ` with affinity term ${affinityName}` : ''}`,
    explanation: attempt.explanation,
  };
}

/** No fit clears the clusters (member objects get deleted); capacity and selection errors keep the previous result. */
function failed(
  attempt: Extract<Attempt, { ok: false }>,
  req: SchedulingRequest,
  affinityName: string | undefined,
): ScheduleResult {
  return {
    status: attempt.status,
    clusters: attempt.status === 'NoClusterFit' ? [] : req.previous.map((tc) => ({ ...tc })),
    ...(affinityName ? { affinityName } : {}),
    message: attempt.message,
    ...(attempt.detail ? { detail: attempt.detail } : {}),
    explanation: attempt.explanation,
  };
}

/**
 * Karmada's FitError: "0/3 clusters are available: 1 cluster(s) had untolerated taint {a:NoSchedule}, 2 cluster(s) did
 * not match the placement cluster affinity constraint." Each reason counted over the clusters, sorted as Go's
 * sort.Strings sorts ("10 …" before "2 …").
 */
export function fitErrorMessage(clusterCount: number, filtered: readonly FilteredExplanation[]): string {
  if (clusterCount === 0 || filtered.length === 0)
    return `0/${clusterCount} clusters are available: no cluster exists.`;
  const counts = new Map<string, number>();
  for (const f of filtered) counts.set(f.reason, (counts.get(f.reason) ?? 0) + 1);
  const histogram = [...counts].map(([reason, n]) => `${n} ${reason}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `0/${clusterCount} clusters are available: ${histogram.join(', ')}.`;
}

function scheduleOnce(req: SchedulingRequest, clusters: readonly Cluster[], affinityName: string | undefined): Attempt {
  const fit = findClustersThatFit(req, clusters, affinityName);
  const { feasible } = fit;
  const filtered = req.excluded ? [...req.excluded, ...fit.filtered] : fit.filtered;
  if (feasible.length === 0) {
    const reasons = filtered.map((f) => `${f.cluster} ${f.plugin}: ${f.detail ?? f.reason}`).join('; ');
    return {
      ok: false,
      status: 'NoClusterFit',
      message: fitErrorMessage(clusters.length + (req.excluded?.length ?? 0), filtered),
      detail: `no cluster fits: ${reasons || 'no clusters are registered'}`,
      explanation: filtered,
    };
  }
  const scored = feasible.map((cluster) => ({
    cluster,
    score: scorePlugins.reduce((s, p) => s + p.score(req, cluster), 0),
  }));
  const candidates = buildCandidates(scored, req, affinityName);
  const selection = selectBestClusters(req.placement, candidates, req.replicas);
  if (!selection.ok) {
    return {
      ...selection,
      message: `failed to select clusters: ${selection.message}`,
      explanation: [...filtered, ...explainCandidates(candidates, new Set(), undefined, req)],
    };
  }
  const assignment = assignReplicas(selection.value, req, affinityName);
  const selected = new Set(selection.value.map((c) => c.name));
  if (!assignment.ok) {
    return {
      ...assignment,
      message: `failed to assign replicas: ${assignment.message}`,
      explanation: [...filtered, ...explainCandidates(candidates, selected, undefined, req)],
    };
  }
  const result = [...assignment.value.clusters].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ok: true,
    clusters: result,
    explanation:
      req.candidateReasons === false
        ? filtered
        : [...filtered, ...explainCandidates(candidates, selected, { ...assignment.value, clusters: result }, req)],
  };
}

/** Runs every filter plugin on every cluster; a cluster records the first plugin it fails. */
export function findClustersThatFit(
  req: SchedulingRequest,
  clusters: readonly Cluster[],
  affinityName?: string,
): { feasible: Cluster[]; filtered: FilteredExplanation[] } {
  const feasible: Cluster[] = [];
  const filtered: FilteredExplanation[] = [];
  for (const cluster of clusters) {
    let failure: FilteredExplanation | undefined;
    for (const plugin of filterPlugins) {
      const result = plugin.filter({ request: req, cluster, ...(affinityName !== undefined ? { affinityName } : {}) });
      if (result.code !== 'Success') {
        failure = {
          cluster: cluster.metadata.name,
          outcome: 'filtered',
          plugin: plugin.name,
          reason: result.reason ?? 'did not fit',
          ...(result.detail ? { detail: result.detail } : {}),
        };
        break;
      }
    }
    if (failure) filtered.push(failure);
    else feasible.push(cluster);
  }
  return { feasible, filtered };
}

function explainCandidates(
  candidates: readonly CandidateCluster[],
  selected: ReadonlySet<string>,
  assignment: Assignment | undefined,
  req: SchedulingRequest,
): ClusterExplanation[] {
  const weightSum = assignment ? [...assignment.weights.values()].reduce((s, w) => s + w, 0) : 0;
  const regionSpread = (req.placement.spreadConstraints ?? []).some((sc) => sc.spreadByField === 'region');
  // By name, once: a fleet can have thousands of candidates.
  const assigned = firstByName(assignment?.clusters ?? []);
  const previous = firstByName(req.previous);
  return candidates.map((c) => {
    const replicas = assigned.get(c.name) ?? 0;
    const weight = assignment?.weights.get(c.name);
    const base = {
      cluster: c.name,
      replicas,
      score: c.score,
      available: c.availableReplicas,
      ...(weight !== undefined ? { weight } : {}),
    };
    const outcome = assignment && assigned.has(c.name) ? ('selected' as const) : ('notSelected' as const);
    if (!selected.has(c.name))
      return { ...base, outcome: 'notSelected' as const, why: 'not selected by spread constraints' };
    if (!assignment)
      return { ...base, outcome: 'notSelected' as const, why: 'selected, but replicas could not be assigned' };
    const why = [explainReplicas(assignment, weight, weightSum, req, replicas, previous.get(c.name))];
    if (c.overflowOrder > 0) why.push(`overflow tier ${c.overflowOrder}`);
    if (regionSpread && c.cluster.spec.region) why.push(`spread group region=${c.cluster.spec.region}`);
    return { ...base, outcome, why: why.join(', ') };
  });
}

/** Replicas by cluster name, the first entry of a name winning (as a search from the start would find it). */
function firstByName(list: readonly TargetCluster[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const tc of list) if (!out.has(tc.name)) out.set(tc.name, tc.replicas);
  return out;
}

function explainReplicas(
  assignment: Assignment,
  weight: number | undefined,
  weightSum: number,
  req: SchedulingRequest,
  replicas: number,
  held: number | undefined,
): string {
  switch (assignment.strategy) {
    case 'NonWorkload':
      return 'non-workload: propagated without replicas';
    case 'Duplicated':
      return req.replicas > 0 ? `duplicated: all ${req.replicas} replicas` : 'duplicated: 0 replicas, so left out';
    case 'StaticWeight':
      return weight === undefined ? 'no static weight matches (weight 0)' : `static weight ${weight} of ${weightSum}`;
    case 'DynamicWeight':
    case 'Aggregated': {
      const label = assignment.strategy === 'Aggregated' ? 'aggregated' : 'dynamic weight';
      if (weight === undefined)
        return held !== undefined && held === replicas ? 'previous result kept' : `${label}: not needed`;
      const basis = { free: 'free replicas', 'free+held': 'free + held replicas', previous: 'previous replicas' }[
        assignment.basis ?? 'free'
      ];
      const kept = held !== undefined && assignment.basis === 'free' ? `, ${held} kept from previous result` : '';
      return `${label}: weight ${weight} of ${weightSum} (${basis})${kept}`;
    }
  }
}
