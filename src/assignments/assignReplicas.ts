// Assign step (Karmada core/common.go#AssignReplicas, assignment.go, division_algorithm.go): give each
// selected cluster its replicas. Duplicated: all of them everywhere. StaticWeight: Webster over the static
// weights, from scratch. DynamicWeight and Aggregated: steady mode keeps the previous result and only
// divides the change (scale-up by free capacity, scale-down by previous replicas); fresh mode (explicit
// reschedule) re-divides everything by free + held capacity. Overflow tiers are filled in order.
import type { TargetCluster } from '../api/binding.ts';
import type { ClusterPreferences } from '../api/policy.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { goSort } from '../sorting/goSort.ts';
import { divideByWebster } from './divideByWebster.ts';
import { isWorkload } from './framework.ts';
import { assignStrategyOf, type AssignStrategy } from './replicaStrategy.ts';
import type { CandidateCluster, SchedulingRequest, StepResult } from './types.ts';

/** The result plus what the division was based on, for explanations. */
export interface Assignment {
  clusters: TargetCluster[];
  /** Per-cluster weight used by the division. */
  weights: Map<string, number>;
  /** Dynamic strategies: weights were free capacity (scale-up), free + held (fresh), or previous replicas (scale-down). */
  basis?: DivisionBasis;
  strategy: AssignStrategy | 'NonWorkload';
}

export type DivisionBasis = 'free' | 'free+held' | 'previous';

/** Filled while dividing; read back for explanations. */
export interface DivisionTrace {
  weights: Map<string, number>;
  basis?: DivisionBasis;
}

export type AssignmentMode = 'Steady' | 'Fresh';

/** What one strategy run needs: the candidates of one tier, the replicas to place there, the previous result. */
export interface AssignInput {
  candidates: readonly CandidateCluster[];
  replicas: number;
  previous: readonly TargetCluster[];
  uid: string;
  mode: AssignmentMode;
}

/** Kubernetes declares every replica count int32. */
export const MAX_REPLICAS = 2147483647;

function unschedulable(message: string): StepResult<never> {
  return { ok: false, status: 'Unschedulable', message };
}

export function assignReplicas(
  candidates: readonly CandidateCluster[],
  req: SchedulingRequest,
  affinityName?: string,
): StepResult<Assignment> {
  if (candidates.length === 0)
    return { ok: false, status: 'SchedulerError', message: 'no clusters available to schedule' };
  if (!isWorkload(req)) {
    return {
      ok: true,
      value: {
        clusters: candidates.map((c) => ({ name: c.name, replicas: 0 })),
        weights: new Map(),
        strategy: 'NonWorkload',
      },
    };
  }
  // Templates are validated to int32; a replicaResource customization reads any field, so check here too.
  if (!Number.isInteger(req.replicas) || req.replicas < 0 || req.replicas > MAX_REPLICAS) {
    return unschedulable(
      `replicas ${req.replicas} is not a whole number from 0 to ${MAX_REPLICAS} (Kubernetes int32); correct the field the replicas are read from`,
    );
  }
  const strategy = assignStrategyOf(req.placement);
  if (strategy === undefined) {
    // A plain error there, not an UnschedulableError: the binding's condition says SchedulerError.
    const rs = req.placement.replicaScheduling;
    return {
      ok: false,
      status: 'SchedulerError',
      message: `unsupported replica scheduling strategy, replicaSchedulingType: ${rs?.replicaSchedulingType ?? ''}, replicaDivisionPreference: ${rs?.replicaDivisionPreference ?? ''}, please try another scheduling strategy`,
    };
  }
  const base = {
    previous: req.previous,
    uid: req.resource.uid ?? '',
    mode: (req.reschedule ? 'Fresh' : 'Steady') as AssignmentMode,
  };
  const trace: DivisionTrace = { weights: new Map() };
  const done = (clusters: TargetCluster[]): StepResult<Assignment> => ({
    ok: true,
    value: { clusters, weights: trace.weights, strategy, ...(trace.basis ? { basis: trace.basis } : {}) },
  });
  if (!overflowEnabled(req, affinityName)) {
    const result = assignByStrategy(strategy, { ...base, candidates, replicas: req.replicas }, req, trace);
    return result.ok ? done(removeZeroReplicas(result.value)) : result;
  }
  const tiers = new Map<number, CandidateCluster[]>();
  for (const c of candidates) tiers.set(c.overflowOrder, [...(tiers.get(c.overflowOrder) ?? []), c]);
  const all: TargetCluster[] = [];
  let remaining = req.replicas;
  for (const order of [...tiers.keys()].sort((a, b) => a - b)) {
    const tier = tiers.get(order) as CandidateCluster[];
    const capacity = tier.reduce((s, c) => s + c.availableReplicas, 0);
    const replicas = Math.min(remaining, capacity);
    const result = assignByStrategy(strategy, { ...base, candidates: tier, replicas }, req, trace);
    if (!result.ok) return result;
    all.push(...removeZeroReplicas(result.value));
    remaining -= replicas;
    if (remaining <= 0) break;
  }
  if (remaining > 0) return unschedulable('Clusters available replicas are not enough to schedule.');
  return done(all);
}

/** Overflow tiers apply only to a clusterAffinities term that declares overflowAffinities. */
function overflowEnabled(req: SchedulingRequest, affinityName: string | undefined): boolean {
  const p = req.placement;
  if (p.clusterAffinity || !p.clusterAffinities || !affinityName) return false;
  return p.clusterAffinities.some((t) => t.affinityName === affinityName && t.overflowAffinities !== undefined);
}

function assignByStrategy(
  strategy: AssignStrategy,
  input: AssignInput,
  req: SchedulingRequest,
  trace: DivisionTrace,
): StepResult<TargetCluster[]> {
  switch (strategy) {
    case 'Duplicated':
      return { ok: true, value: assignDuplicated(input.candidates, input.replicas) };
    case 'StaticWeight': {
      const list = staticWeights(input.candidates, req.placement.replicaScheduling?.weightPreference);
      for (const w of list) trace.weights.set(w.name, w.weight);
      return { ok: true, value: divideByWebster(input.replicas, list, input.uid) };
    }
    case 'DynamicWeight':
    case 'Aggregated':
      return assignDynamically(strategy, input, trace);
  }
}

export function assignDuplicated(candidates: readonly CandidateCluster[], replicas: number): TargetCluster[] {
  return candidates.map((c) => ({ name: c.name, replicas }));
}

/**
 * Per-cluster weight = the largest weight among the staticWeightList rules matching it; weight 0 drops the
 * cluster. No weightPreference, or every weight 0: every candidate weighs 1.
 */
export function staticWeights(
  candidates: readonly CandidateCluster[],
  preference: ClusterPreferences | undefined,
): { name: string; weight: number }[] {
  if (!preference) return candidates.map((c) => ({ name: c.name, weight: 1 }));
  const list: { name: string; weight: number }[] = [];
  for (const c of candidates) {
    let weight = 0;
    for (const rule of preference.staticWeightList ?? []) {
      if (matchClusterAffinity(rule.targetCluster, c.cluster)) weight = Math.max(weight, rule.weight);
    }
    if (weight > 0) list.push({ name: c.name, weight });
  }
  if (list.length === 0) return candidates.map((c) => ({ name: c.name, weight: 1 }));
  return list;
}

/**
 * By replicas, most first, with Go's sort.Sort as Karmada sorts its TargetClustersList: past 12 clusters that sort
 * moves equal ones, and which of them an Aggregated division keeps depends on where it leaves them.
 */
function byReplicasDesc(list: TargetCluster[]): TargetCluster[] {
  const sorted = [...list];
  goSort(sorted, (a, b) => a.replicas > b.replicas);
  return sorted;
}

/** Karmada's assignByDynamicStrategy names the step that failed (assignment.go). */
function wrapped<T>(step: string, result: StepResult<T>): StepResult<T> {
  return result.ok ? result : { ...result, message: `${step}: ${result.message}` };
}

export function assignDynamically(
  strategy: 'DynamicWeight' | 'Aggregated',
  input: AssignInput,
  trace: DivisionTrace = { weights: new Map() },
): StepResult<TargetCluster[]> {
  const names = new Set(input.candidates.map((c) => c.name));
  // Previous replicas on clusters that are no longer candidates are dropped, so they count as missing.
  const scheduled = input.previous.filter((tc) => names.has(tc.name)).map((tc) => ({ ...tc }));
  const assigned = scheduled.reduce((s, tc) => s + tc.replicas, 0);
  const free = (): TargetCluster[] => input.candidates.map((c) => ({ name: c.name, replicas: c.allocatableReplicas }));
  if (input.mode === 'Fresh') {
    const held = new Map(scheduled.map((tc) => [tc.name, tc.replicas]));
    const available = free().map((tc) => ({ ...tc, replicas: tc.replicas + (held.get(tc.name) ?? 0) }));
    trace.basis = 'free+held';
    return wrapped(
      'failed to do fresh scale',
      divideDynamically(
        strategy,
        { available: byReplicasDesc(available), scheduled: [], target: input.replicas, uid: input.uid },
        trace.weights,
      ),
    );
  }
  if (assigned > input.replicas) {
    trace.basis = 'previous';
    return wrapped(
      'failed to scale down',
      divideDynamically(
        strategy,
        { available: byReplicasDesc(scheduled), scheduled: [], target: input.replicas, uid: input.uid },
        trace.weights,
      ),
    );
  }
  if (assigned < input.replicas) {
    trace.basis = 'free';
    return wrapped(
      'failed to scale up',
      divideDynamically(
        strategy,
        { available: byReplicasDesc(free()), scheduled, target: input.replicas - assigned, uid: input.uid },
        trace.weights,
      ),
    );
  }
  return { ok: true, value: scheduled };
}

export interface DivideState {
  /** Capacity (or, on scale-down, previous replicas) per cluster, most first. */
  available: TargetCluster[];
  /** Replicas kept from the previous result; the division is added on top. */
  scheduled: TargetCluster[];
  /** Replicas to divide now. */
  target: number;
  uid: string;
}

/**
 * Karmada's dynamicDivideReplicas: fails when the capacity is short of the target. Aggregated first keeps
 * the shortest prefix (clusters already holding replicas first) whose capacity covers the target.
 */
export function divideDynamically(
  strategy: 'DynamicWeight' | 'Aggregated',
  state: DivideState,
  weights: Map<string, number> = new Map(),
): StepResult<TargetCluster[]> {
  const total = state.available.reduce((s, tc) => s + tc.replicas, 0);
  if (total < state.target) return unschedulable(`Clusters available replicas ${total} are not enough to schedule.`);
  let available = state.available;
  if (strategy === 'Aggregated') {
    const prior = new Set(state.scheduled.filter((tc) => tc.replicas > 0).map((tc) => tc.name));
    if (prior.size > 0)
      available = [...available.filter((tc) => prior.has(tc.name)), ...available.filter((tc) => !prior.has(tc.name))];
    let sum = 0;
    const cut = available.findIndex((tc) => (sum += tc.replicas) >= state.target);
    if (cut >= 0) available = available.slice(0, cut + 1);
  }
  for (const tc of available) weights.set(tc.name, tc.replicas);
  const divided = divideByWebster(
    state.target,
    available.map((tc) => ({ name: tc.name, weight: tc.replicas })),
    state.uid,
  );
  return { ok: true, value: mergeTargetClusters(state.scheduled, divided) };
}

/** Adds replicas per cluster; clusters only in `previous` are appended in name order. */
export function mergeTargetClusters(
  previous: readonly TargetCluster[],
  added: readonly TargetCluster[],
): TargetCluster[] {
  if (previous.length === 0) return [...added];
  if (added.length === 0) return [...previous];
  // Maps, not searches: both lists can name every cluster of the fleet.
  const before = new Map<string, number>();
  for (const p of previous) if (!before.has(p.name)) before.set(p.name, p.replicas);
  const addedNames = new Set(added.map((a) => a.name));
  const result = added.map((tc) => ({ name: tc.name, replicas: tc.replicas + (before.get(tc.name) ?? 0) }));
  const left = previous
    .filter((p) => !addedNames.has(p.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...result, ...left.map((p) => ({ ...p }))];
}

export function removeZeroReplicas(list: readonly TargetCluster[]): TargetCluster[] {
  return list.filter((tc) => tc.replicas > 0).map((tc) => ({ name: tc.name, replicas: tc.replicas }));
}
