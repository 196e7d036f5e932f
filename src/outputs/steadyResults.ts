// A commit that only relabels clusters reaches every template whose policy's affinities now take or leave one of
// them. Karmada's scheduler does not schedule a Divided workload again for that (scheduler.go doScheduleBinding: only
// a changed placement, changed replicas, a reschedule request, a Duplicated or non-workload binding or a deleted
// target cluster make it schedule; "TODO: reschedule binding on cluster change other than cluster deletion, such as
// cluster labels changed"), so such a template renders exactly what it rendered last time. Telling those apart from
// the index entry, the policy and the previous binding spares reading, parsing and rendering the template at all.
import type { ResourceBinding, TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import { parseRefKey, type ObjectRef } from '../api/kinds.ts';
import type { ConfigModel } from '../api/model.ts';
import { applicationFailoverOf, type OverridePolicy, type Placement, type PropagationPolicy } from '../api/policy.ts';
import type { WorkloadRebalancer } from '../api/rebalancer.ts';
import { isWorkload } from '../assignments/framework.ts';
import { needsReschedule } from '../assignments/needsReschedule.ts';
import { OBSERVED_REBALANCERS_ANNOTATION, requestsFor } from '../assignments/rebalanceRequests.ts';
import { replicaSchedulingType } from '../assignments/replicaStrategy.ts';
import { policyKey } from '../bindings/matchPolicy.ts';
import { hasPolicyClaim } from '../bindings/policyClaim.ts';
import type { IndexEntry, ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { bindingName } from '../names/bindingName.ts';
import { DEFAULT_SCHEDULER, schedulerOf } from '../bindings/claimTemplate.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import type { GitRepo } from '../commits/types.ts';
import { evictTaintedClusters } from '../evictions/evictTaintedClusters.ts';
import { customizationFor, interpretersOf } from '../interpreters/customizations.ts';
import { mayHaveReplicas } from '../interpreters/interpretReplicas.ts';
import { readsTemplateHealth } from '../evictions/applicationFailover.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import { deepEqual } from '../assignments/needsReschedule.ts';
import { pendingOn } from '../assignments/scheduleBinding.ts';
import { schedule } from '../assignments/schedule.ts';
import type { ScheduleResult, SchedulingRequest } from '../assignments/types.ts';
import { purgeModeOf } from '../evictions/evictTaintedClusters.ts';
import { isDeletionProtected } from '../works/deletionProtection.ts';
import { labelRewritingClusterOverrides, overrideMayApply } from '../overrides/overrideMayApply.ts';
import { assessEvictionTasks } from '../evictions/gracefulEviction.ts';
import { placementJson } from '../assignments/placementJson.ts';
import { shrinkResult, type ShrunkResult } from '../works/shrunkResults.ts';
import { bindsTemplate, readBindingsAt } from './previousOutputs.ts';

/** What the decision reads besides each template's own entry and binding, built once per render. */
export interface SteadyView {
  /** Policies by policyKey (the first of a duplicated key, as matchPolicy finds it). */
  policies: ReadonlyMap<string, PropagationPolicy>;
  /** Registered clusters sorted by name, with the cluster state the render uses (taints from status). */
  clusters: readonly Cluster[];
  byName: ReadonlyMap<string, Cluster>;
  rebalancers: readonly WorkloadRebalancer[];
  /** The render's clock: a NoExecute taint whose toleration ran out evicts, and then the result moves. */
  now: Date;
  /** Whether the kind has a replica count at all (InterpretReplica, native or customized): else a non-workload. */
  mayHaveReplicas: (apiVersion: string, kind: string) => boolean;
  /**
   * Whether a render may keep the template's last output as it is (works/renderTemplates.ts held, holdForHook), which
   * only a render can tell: its file or a unit's unreadable, a deletion-protected or Namespace template (kept once
   * gone from the source, or after its skip label), or a kind with a ResourceInterpreterCustomization (a failing hook
   * holds it). Cutting such a result would write what the render would not.
   */
  mayBeHeld: (key: string, entry: IndexEntry) => boolean;
  /** Whether an OverridePolicy or a ClusterOverridePolicy of the commit may apply to the template on some cluster. */
  mayBeOverridden: (key: string, entry: IndexEntry) => boolean;
  /** A graceful eviction task without its own gracePeriodSeconds ends after this long (--graceful-eviction-timeout). */
  gracePeriodSeconds?: number;
  /**
   * The scheduler's results for the cut's requests, by what decides them (scheduledOnce): the templates of one policy
   * and kind ask the same questions of every cluster.
   */
  schedules: Map<string, ScheduleResult>;
}

export function steadyView(model: ConfigModel, now: Date, gracePeriodSeconds?: number): SteadyView {
  const policies = new Map<string, PropagationPolicy>();
  for (const { object } of model.propagationPolicies)
    if (!policies.has(policyKey(object))) policies.set(policyKey(object), object);
  const clusters = [...model.clusters.values()]
    .map((c) => c.object)
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const interpreters = interpretersOf(model);
  const overrides = model.overridePolicies.map((o) => o.object);
  const relabelers = labelRewritingClusterOverrides(overrides);
  // Those that may apply to a template of a namespace: its OverridePolicies and every ClusterOverridePolicy.
  const clusterWide = overrides.filter((o) => o.kind === 'ClusterOverridePolicy');
  const byNamespace = new Map<string, OverridePolicy[]>();
  for (const o of overrides) {
    if (o.kind !== 'OverridePolicy') continue;
    const namespace = o.metadata.namespace ?? '';
    const inNamespace = byNamespace.get(namespace);
    if (inNamespace) inNamespace.push(o);
    else byNamespace.set(namespace, [o]);
  }
  return {
    policies,
    clusters,
    byName: new Map(clusters.map((c) => [c.metadata.name, c])),
    rebalancers: model.rebalancers.map((r) => r.object),
    now,
    mayHaveReplicas: (apiVersion, kind) =>
      mayHaveReplicas(apiVersion, kind, customizationFor(interpreters, { apiVersion, kind })),
    mayBeHeld: (key, entry) => {
      const ref = parseRefKey(key);
      return (
        model.unreadableFiles.has(entry.file) ||
        (entry.units ?? []).some((u) => model.unreadableFiles.has(u.file)) ||
        isDeletionProtected(entry.labels) ||
        (ref.apiVersion === 'v1' && ref.kind === 'Namespace') ||
        customizationFor(interpreters, ref) !== undefined
      );
    },
    mayBeOverridden: (key, entry) => {
      const ref = parseRefKey(key);
      const template = { ...ref, labels: entry.labels ?? {} };
      const mayApply = (o: OverridePolicy) => overrideMayApply(o, template, relabelers);
      return clusterWide.some(mayApply) || (byNamespace.get(ref.namespace) ?? []).some(mayApply);
    },
    ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
    schedules: new Map(),
  };
}

/**
 * Whether the template may keep its last result, judged before its binding is read: a Divided placement of a kind
 * with replicas, its last schedule a success with nothing waiting on cluster status, no graceful eviction under way,
 * every cluster of its result still registered. Anything else is rendered.
 */
export function mayKeepResult(key: string, entry: IndexEntry, view: SteadyView): boolean {
  if (!entry.policy || entry.waiting || entry.evicting || entry.blocked) return false;
  const policy = view.policies.get(entry.policy);
  if (!policy || replicaSchedulingType(policy.spec.placement ?? {}) !== 'Divided') return false;
  const ref = parseRefKey(key);
  if (!view.mayHaveReplicas(ref.apiVersion, ref.kind)) return false;
  return entry.clusters.every((c) => view.byName.has(c));
}

/**
 * Whether the previous binding's result stands as Karmada's scheduler leaves it: a workload (isWorkload) the
 * scheduler would not schedule (needsReschedule, the same test scheduleBinding makes), with no reschedule request
 * pending, no NoExecute taint due on its clusters, no graceful eviction task and no dependents adding clusters to
 * it. Rendering it again would then give the same binding, index entry and manifests (its template, policy and
 * overrides did not change, and the caller renders it again when an override reads a changed cluster otherwise).
 */
export function keepsResult(key: string, entry: IndexEntry, binding: ResourceBinding, view: SteadyView): boolean {
  const policy = view.policies.get(entry.policy ?? '');
  if (!policy) return false;
  const spec = binding.spec;
  const ref = parseRefKey(key);
  // Another object's binding at the path, or one that is no workload's, or one its dependents place too.
  if (!bindsTemplate(binding, ref)) return false;
  if (!isWorkload({ replicas: spec.replicas ?? 0, replicaRequirements: spec.replicaRequirements !== undefined }))
    return false;
  // Eviction tasks to end, or an application that may fail over: the render reads its health, so it renders.
  if (readsTemplateHealth(binding) || spec.requiredBy) return false;
  const clusters = spec.clusters ?? [];
  if (!sameClusters(binding, entry)) return false;
  // Every reschedule request observed, so none asks the scheduler to run.
  if (!observedAsRendered(ref, binding, view)) return false;
  const observed = binding.status?.schedulerObservedAffinityName;
  const trigger = needsReschedule(
    {
      ...bindingRequest(key, binding, policy.spec.placement ?? {}),
      previous: clusters,
      ...(observed ? { observedAffinityName: observed } : {}),
    },
    view.clusters,
  );
  if (trigger) return false;
  return evictTaintedClusters(binding, policy, view.byName, view.now).evictions.length === 0;
}

/**
 * Whether the template's result may only lose clusters, judged before its binding is read: a Duplicated placement (or
 * any placement of a kind without replicas) with one cluster affinity, no spread constraints, no suspension and the
 * default scheduler, on an entry no render must look at for its own state, every cluster of its result still
 * registered. Karmada's scheduler runs for it on any cluster change and selects every feasible cluster; only the
 * relabeled clusters can have moved.
 */
export function mayShrinkResult(
  key: string,
  entry: IndexEntry,
  view: SteadyView,
  changed: ReadonlySet<string>,
): boolean {
  if (!entry.policy || rendersForItsState(entry) || view.mayBeHeld(key, entry)) return false;
  const policy = view.policies.get(entry.policy);
  if (!policy || !shrinksOnly(key, policy, view)) return false;
  // Decided here, before any binding is read: most templates a relabel reaches and cannot cut are ones it may join.
  return entry.clusters.every((c) => view.byName.has(c)) && lostClusters(entry, policy, view, changed) !== undefined;
}

/**
 * The changed clusters the template's result holds and its affinity no longer takes; undefined when there are none, or
 * when a changed cluster it does not hold is taken now (it may join: the scheduler decides).
 */
function lostClusters(
  entry: IndexEntry,
  policy: PropagationPolicy,
  view: SteadyView,
  changed: ReadonlySet<string>,
): Set<string> | undefined {
  const affinity = policy.spec.placement?.clusterAffinity;
  const lost = new Set<string>();
  for (const name of changed) {
    const cluster = view.byName.get(name);
    if (!cluster) return undefined;
    const selected = matchClusterAffinity(affinity, cluster);
    if (entry.clusters.includes(name)) {
      if (!selected) lost.add(name);
    } else if (selected) return undefined;
  }
  return lost.size > 0 ? lost : undefined;
}

/**
 * The template's new result when the relabel of `changed` clusters only takes some of them out of its affinity and
 * brings none in: its previous binding (built from this very placement, a clean success with no dependents, eviction,
 * rebalance or due taint in it) without them. Undefined for anything else: the template is then rendered.
 */
export function shrunkResultOf(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  view: SteadyView,
  changed: ReadonlySet<string>,
): ShrunkResult | undefined {
  const policy = view.policies.get(entry.policy ?? '');
  if (!policy || !cleanDuplicatedResult(key, entry, binding, policy, view)) return undefined;
  const lost = lostClusters(entry, policy, view, changed);
  if (!lost) return undefined;
  if (evictTaintedClusters(binding, policy, view.byName, view.now).evictions.length > 0) return undefined;
  return shrinkResult(binding, entry, lost);
}

/** The templates a relabel reaches that may not need rendering, with their index entries (affectedByChange). */
export interface SteadyCandidates {
  /** Reached only through their placement: they may keep their result, or only lose clusters. */
  placementOnly: ReadonlyMap<string, IndexEntry>;
  /** Reached through their placement and overrides that read a changed cluster they are on: they may only lose it. */
  overrideReaders: ReadonlyMap<string, IndexEntry>;
  /**
   * On a cluster whose state moved so that what runs there may be evicted (a NoExecute taint came), and on no cluster
   * changed in Git: a Duplicated placement may only move the cluster into a graceful eviction task.
   */
  onEvicting?: ReadonlyMap<string, IndexEntry>;
  /** Whose graceful eviction tasks end now, which nothing else renders: their tasks may end without a render. */
  ending?: ReadonlyMap<string, IndexEntry>;
  /** Of those, the ones whose kept copies a cluster may take back as they stand (EndingEvictions). None when absent. */
  copiesOfThisSource?: EndingEvictions['copiesOfThisSource'];
  /** Their last bindings, as far as the caller has them (EndingEvictions): the others are read. */
  endingBindings?: EndingEvictions['bindings'];
}

/** Templates whose graceful eviction tasks end now, which nothing else renders (renderRevision). */
export interface EndingEvictions {
  templates: ReadonlySet<string>;
  /** Their last bindings where the look at their tasks read them (evictionsThatMayEnd.ts): not read again. */
  bindings?: ReadonlyMap<string, ResourceBinding>;
  /**
   * Of the given templates, those whose copies kept under their tasks are what a render of this source writes
   * (evictionsThatMayEnd.ts rendersOfThisSource): a cluster may take such a copy back as it stands.
   */
  copiesOfThisSource: (keys: readonly string[]) => Promise<ReadonlySet<string>>;
}

/** What a relabel leaves of the candidates' results without rendering them. */
export interface SteadyResults {
  /** Templates whose last result stands: nothing of theirs is written. */
  kept: ReadonlySet<string>;
  /** Templates whose result only loses clusters, and dependencies that follow such parents (followedResultOf). */
  shrunk: ReadonlyMap<string, ShrunkResult>;
  /** Of `shrunk`, the dependencies that follow, each with its parents: it renders if one of them is rendered after all. */
  followed: ReadonlyMap<string, readonly string[]>;
}

/** A parent as a following dependency sees it: its entry after this render, and the clusters it lost, if any. */
export interface FollowedParent {
  entry: IndexEntry;
  lost?: ReadonlySet<string>;
}

/**
 * The new result of a dependency that only follows its parents (no policy of its own: Karmada's attached binding, no
 * dependencies of its own) when each parent keeps its entry or only loses clusters: each shrunk parent's requiredBy
 * snapshot made anew from its new entry (as the dependencies distributor makes it), and the dependency leaves every
 * cluster no parent holds any more. Undefined for anything else: it is then rendered.
 */
export function followedResultOf(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  parents: ReadonlyMap<string, FollowedParent>,
): ShrunkResult | undefined {
  if (entry.policy || entry.deps || rendersForItsState(entry)) return undefined;
  const spec = binding.spec;
  const ref = parseRefKey(key);
  if (!bindsTemplate(binding, ref)) return undefined;
  if (spec.placement || spec.clusters?.length || !spec.requiredBy || readsTemplateHealth(binding)) return undefined;
  if (spec.requiredBy.length !== parents.size) return undefined;
  const byBinding = new Map<string, string>();
  for (const parent of parents.keys()) {
    const p = parseRefKey(parent);
    byBinding.set(`${p.namespace}/${bindingName(p.kind, p.name)}`, parent);
  }
  const holding = new Set<string>();
  for (const p of parents.values()) for (const c of p.entry.clusters) holding.add(c);
  if ([...holding].some((c) => !entry.clusters.includes(c))) return undefined; // a parent brings a cluster
  let moved = false;
  const requiredBy = spec.requiredBy.map((snapshot) => {
    const parentKey = byBinding.get(`${snapshot.namespace ?? ''}/${snapshot.name}`);
    const parent = parentKey === undefined ? undefined : parents.get(parentKey);
    if (!parent) return undefined;
    if (!parent.lost) return snapshot;
    moved = true;
    const { clusters, replicas } = parent.entry;
    return { ...snapshot, clusters: clusters.map((name, i) => ({ name, replicas: replicas?.[i] ?? 0 })) };
  });
  if (!moved || requiredBy.some((s) => s === undefined)) return undefined;
  // A parent that lost only clusters under eviction tasks (endedResultOf) leaves its snapshot, and so the binding, as
  // they were: a binding written again would take this commit's stamp, which a render leaves on an unchanged one.
  const unchanged = deepEqual(requiredBy, spec.requiredBy);
  return {
    binding: unchanged
      ? binding
      : { ...binding, spec: { ...spec, requiredBy: requiredBy as NonNullable<typeof spec.requiredBy> } },
    entry: { ...entry, clusters: entry.clusters.filter((c) => holding.has(c)) },
    lost: entry.clusters.filter((c) => !holding.has(c)),
    ...(unchanged ? { bindingUnchanged: true as const } : {}),
  };
}

/**
 * Of the candidates (templates a relabeled cluster reaches only through their placement), those whose last result
 * stands (keepsResult) and those whose result only loses clusters (shrunkResultOf): their bindings read from the
 * output tree and parsed.
 */
export async function readSteadyResults(
  repo: GitRepo,
  outputTree: string,
  {
    placementOnly,
    overrideReaders,
    onEvicting = new Map(),
    ending = new Map(),
    copiesOfThisSource,
    endingBindings = new Map(),
  }: SteadyCandidates,
  view: SteadyView,
  changed: ReadonlySet<string>,
  /** For the dependencies of shrunk templates: their entries and parents, and which templates the change renders. */
  around: { index: ShardedIndex; affected: ReadonlySet<string> },
): Promise<SteadyResults> {
  const paths = new Map<string, string>(); // binding path -> refKey
  for (const [key, entry] of placementOnly)
    if (mayKeepResult(key, entry, view) || mayShrinkResult(key, entry, view, changed))
      paths.set(bindingPath(parseRefKey(key)), key);
  // An override that reads a changed cluster has nothing left to change only when the template leaves every one.
  for (const [key, entry] of overrideReaders)
    if (mayShrinkResult(key, entry, view, changed) && leavesEveryChanged(entry, view, changed))
      paths.set(bindingPath(parseRefKey(key)), key);
  for (const [key, entry] of onEvicting)
    if (mayBeEvictedAlone(key, entry, view)) paths.set(bindingPath(parseRefKey(key)), key);
  const known = new Map<string, ResourceBinding>();
  for (const [key, entry] of ending) {
    if (!mayEndAlone(key, entry, view)) continue;
    const binding = endingBindings.get(key);
    if (binding) known.set(key, binding);
    else paths.set(bindingPath(parseRefKey(key)), key);
  }
  const kept = new Set<string>();
  const shrunk = new Map<string, ShrunkResult>();
  for (const [key, binding] of [...known, ...(await readBindingsAt(repo, outputTree, paths))]) {
    const ends = ending.get(key);
    if (ends) {
      const s = endedResultOf(key, ends, binding, view, changed);
      if (s) shrunk.set(key, s);
      continue;
    }
    const evicting = onEvicting.get(key);
    if (evicting) {
      const s = evictedResultOf(key, evicting, binding, view, changed);
      if (s) shrunk.set(key, s);
      continue;
    }
    const entry = placementOnly.get(key);
    if (entry && mayKeepResult(key, entry, view)) {
      if (keepsResult(key, entry, binding, view)) kept.add(key);
      continue;
    }
    const s = shrunkResultOf(key, entry ?? overrideReaders.get(key)!, binding, view, changed);
    if (s) shrunk.set(key, s);
  }
  // A cluster takes back the copy it kept only where that copy is this source's: elsewhere the render writes it.
  const takingBack = [...shrunk].filter(([, s]) => s.released?.placedAgain.length).map(([key]) => key);
  if (takingBack.length > 0) {
    const trusted = copiesOfThisSource ? await copiesOfThisSource(takingBack) : new Set<string>();
    for (const key of takingBack) if (!trusted.has(key)) shrunk.delete(key);
  }
  const followed = await readFollowers(repo, outputTree, shrunk, kept, around, view);
  for (const [key, { result }] of followed) shrunk.set(key, result);
  return { kept, shrunk, followed: new Map([...followed].map(([key, f]) => [key, f.parents])) };
}

/**
 * Whether the template's result may only see clusters evicted into graceful eviction tasks, judged before its binding
 * is read: a placement that can only shrink (mayShrinkResult's, but for the affinity, which did not move), of no
 * workload with dependencies (their snapshots of it would move), every cluster of its result still registered.
 */
function mayBeEvictedAlone(key: string, entry: IndexEntry, view: SteadyView): boolean {
  if (!entry.policy || entry.deps || entry.applicationFailover || rendersForItsState(entry)) return false;
  if (view.mayBeHeld(key, entry)) return false;
  const policy = view.policies.get(entry.policy);
  if (!policy || !shrinksOnly(key, policy, view) || purgeModeOf(policy) !== 'Gracefully') return false;
  return entry.clusters.every((c) => view.byName.has(c));
}

/** A placement whose result, on a cluster change, is every feasible cluster: mayShrinkResult's test of the policy. */
function shrinksOnly(key: string, policy: PropagationPolicy, view: SteadyView): boolean {
  if (policy.spec.suspension || schedulerOf(policy.spec) !== DEFAULT_SCHEDULER) return false;
  const placement = policy.spec.placement ?? {};
  if (placement.clusterAffinities || (placement.spreadConstraints ?? []).length > 0) return false;
  // A kind without replicas is placed as Duplicated whatever its placement says (Karmada's assignReplicas).
  const ref = parseRefKey(key);
  return replicaSchedulingType(placement) === 'Duplicated' || !view.mayHaveReplicas(ref.apiVersion, ref.kind);
}

/**
 * The template's new result when a NoExecute taint evicts it from clusters of its result and nothing else of the
 * clusters moves for it: Karmada's taint manager moves each into a graceful eviction task (Gracefully: the cluster
 * keeps its copy until the task ends), and its scheduler, run again, gives the rest, which this runs to be sure.
 * The binding is the previous one (built from this very placement, a clean success with no task, dependents,
 * rebalance or suspension) with the new result and tasks; the index entry marks the clusters evicting. Undefined for
 * anything else: the template is then rendered.
 */
export function evictedResultOf(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  view: SteadyView,
  changed: ReadonlySet<string>,
): ShrunkResult | undefined {
  const policy = view.policies.get(entry.policy ?? '');
  if (!policy || !cleanDuplicatedResult(key, entry, binding, policy, view)) return undefined;
  const spec = binding.spec;
  if (spec.replicaRequirements !== undefined || entry.deps || entry.applicationFailover) return undefined;
  // A changed cluster it is not on that its affinity takes may join it (a freed one): the scheduler decides.
  const affinity = policy.spec.placement?.clusterAffinity;
  for (const name of changed) {
    const cluster = view.byName.get(name);
    if (!cluster) return undefined;
    if (!entry.clusters.includes(name) && matchClusterAffinity(affinity, cluster)) return undefined;
  }
  const evicted = evictTaintedClusters(binding, policy, view.byName, view.now);
  if (evicted.evictions.length === 0 || evicted.clusters.length === 0) return undefined;
  if (evicted.evictions.some((e) => e.purgeMode !== 'Gracefully')) return undefined;
  // The binding had no task (cleanDuplicatedResult): its tasks are this eviction's, one per cluster.
  const evicting = evicted.tasks.map((t) => t.fromCluster).sort();
  // A render writes its manifest again on a changed cluster it stays on (works/renderTemplates.ts
  // clustersPlacedAsBefore): the same text, but what its overrides report there (a failed rule) goes into the commit
  // message, which only the render can say.
  if (entry.clusters.some((c) => changed.has(c) && !evicting.includes(c))) return undefined;
  const placement = policy.spec.placement ?? {};
  const request: SchedulingRequest = {
    ...bindingRequest(key, binding, placement),
    previous: evicted.clusters,
    evictingClusters: evicting,
    candidateReasons: false,
  };
  const applied = request.previousPlacement;
  const result =
    applied === placementJson(placement) ? scheduledOnce(request, applied, view) : schedule(request, view.clusters);
  if (result.status !== 'Scheduled' || result.affinityName !== undefined) return undefined;
  if (pendingOn(result, request, view.clusters) !== undefined) return undefined;
  // A Scheduled result's clusters come sorted by name, as the previous binding's are.
  const targets = result.clusters.map((c) => ({ ...c }));
  if (!deepEqual(targets, evicted.clusters)) return undefined;
  return {
    binding: { ...binding, spec: { ...spec, clusters: targets, gracefulEvictionTasks: evicted.tasks } },
    // `evicting` comes after every field the entry may have here, as a render orders them.
    entry: { ...entry, evicting },
    lost: [],
    evicted: { evictions: evicted.evictions, result: targets, lookAt: view.now.getTime() },
  };
}

/**
 * Whether the template's graceful eviction tasks may end without a render, judged before its binding is read: no Job,
 * nothing but the eviction for a render to look at, no application failover, every cluster of its result and tasks
 * still registered, and either a placement that can only shrink (mayShrinkResult's test of the policy) with no
 * override that may apply (a cluster taken back keeps its copy, and what an override reports there goes into the
 * commit message), or a Divided placement of a kind with replicas (its freed clusters only lose their copies).
 */
export function mayEndAlone(key: string, entry: IndexEntry, view: SteadyView): boolean {
  if (!entry.policy || entry.applicationFailover || entry.own || !entry.evicting?.length) return false;
  if (rendersForItsState({ ...entry, evicting: undefined }) || view.mayBeHeld(key, entry)) return false;
  if (!entry.clusters.every((c) => view.byName.has(c))) return false;
  const policy = view.policies.get(entry.policy);
  if (!policy) return false;
  const ref = parseRefKey(key);
  if (ref.kind === 'Job') return false;
  if (shrinksOnly(key, policy, view)) return !view.mayBeOverridden(key, entry);
  const placement = policy.spec.placement ?? {};
  return (
    view.mayHaveReplicas(ref.apiVersion, ref.kind) &&
    replicaSchedulingType(placement) === 'Divided' &&
    !placement.clusterAffinities &&
    !policy.spec.suspension &&
    schedulerOf(policy.spec) === DEFAULT_SCHEDULER
  );
}

/**
 * The template's new result when every one of its graceful eviction tasks ends now by time alone (its grace period
 * ran out, or its deletion is no longer suppressed), and nothing else moved for it: Karmada's graceful eviction
 * controller drops the tasks, and its scheduler looks at the binding that changed. A Divided workload it leaves as it
 * is (doScheduleBinding: neither its placement nor its replicas moved), so each freed cluster loses its copy. Any other
 * result it schedules again and takes back each freed cluster it can, which keeps the copy it held through the
 * eviction; that copy is what a render of this source would write there only when the source has not moved since
 * before the tasks were made, which readSteadyResults asks of the caller (EndingEvictions), and no override applies
 * (mayEndAlone). Undefined for anything else: the template is then rendered.
 */
export function endedResultOf(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  view: SteadyView,
  changed: ReadonlySet<string>,
): ShrunkResult | undefined {
  // A cluster that moved, in Git or in its state, may join or leave the result otherwise: the scheduler decides.
  if (changed.size > 0) return undefined;
  const policy = view.policies.get(entry.policy ?? '');
  const spec = binding.spec;
  const tasks = spec.gracefulEvictionTasks ?? [];
  if (!policy || tasks.length === 0 || !cleanResult(key, entry, binding, policy, view, true)) return undefined;
  const evicting = tasks.map((t) => t.fromCluster).sort();
  if (tasks.some((t) => t.purgeMode !== 'Gracefully') || evicting.join('\n') !== (entry.evicting ?? []).join('\n'))
    return undefined;
  if (evictTaintedClusters(binding, policy, view.byName, view.now).evictions.length > 0) return undefined;
  const placement = policy.spec.placement ?? {};
  const applied = placementJson(placement);
  // The placement a render's scheduler writes on the binding, and compares with the next time.
  if (binding.metadata.annotations?.['policy.karmada.io/applied-placement'] !== applied) return undefined;
  const before = spec.clusters ?? [];
  // Without the template's health: a task that only its replacements being healthy would end is left to a render.
  const { kept, ended } = assessEvictionTasks(tasks, view.now, before, undefined, view.gracePeriodSeconds);
  if (kept.length > 0 || ended.some((e) => e.why === 'replacementsHealthy')) return undefined;
  const { gracefulEvictionTasks: _, ...untasked } = spec;
  const base = { ...bindingRequest(key, binding, placement), candidateReasons: false as const };
  if (isWorkload(base) && replicaSchedulingType(placement) === 'Divided') {
    if (needsReschedule({ ...base, previous: before }, view.clusters) !== undefined) return undefined;
    return {
      binding: { ...binding, spec: untasked },
      entry: entryWithoutTasks(entry, before),
      lost: evicting,
      released: { ends: ended, result: before, placedAgain: [] },
    };
  }
  // Past the Divided workload, a Duplicated result or one of a kind without replicas: cleanResult held it above.
  // The tasks' clusters kept out (Karmada's ClusterEviction filter): the result as it stands.
  const firstRequest: SchedulingRequest = { ...base, previous: before, evictingClusters: evicting };
  const first = scheduledOnce(firstRequest, applied, view);
  if (!cleanSchedule(first, firstRequest, view) || !deepEqual(first.clusters, before)) return undefined;
  const againRequest: SchedulingRequest = { ...base, previous: first.clusters };
  const again = scheduledOnce(againRequest, applied, view);
  if (!cleanSchedule(again, againRequest, view)) return undefined;
  // A Scheduled result's clusters come sorted by name. Only the freed clusters may join it: another one would get a
  // copy it never had, which a render writes.
  const targets = again.clusters.map((c) => ({ ...c }));
  const after = new Map(targets.map((t) => [t.name, t.replicas]));
  if (before.some((c) => after.get(c.name) !== c.replicas)) return undefined;
  const held = new Set(before.map((c) => c.name));
  const freed = new Map(tasks.map((t) => [t.fromCluster, t.replicas ?? 0]));
  // A cluster taken back keeps its copy only with the replicas it held when the task was made.
  for (const t of targets) if (!held.has(t.name) && freed.get(t.name) !== t.replicas) return undefined;
  const next: ResourceBinding = { ...binding, spec: { ...untasked, clusters: targets } };
  // A cluster taken back whose NoExecute taint is due: the taint manager would evict at once, as a render's next pass.
  if (evictTaintedClusters(next, policy, view.byName, view.now).evictions.length > 0) return undefined;
  return {
    binding: next,
    entry: entryWithoutTasks(entry, targets),
    lost: evicting.filter((c) => !after.has(c)),
    released: { ends: ended, result: first.clusters, placedAgain: evicting.filter((c) => after.has(c)) },
  };
}

/**
 * The entry of a result whose tasks all ended: its clusters the result's, its replicas following them as a render
 * records them (works/renderTemplates.ts replicasOn: with dependencies, while one has some), in their place.
 */
function entryWithoutTasks(entry: IndexEntry, targets: readonly TargetCluster[]): IndexEntry {
  const { evicting: _, ...rest } = entry;
  const { replicas: __, ...withoutCounts } = rest;
  const counts = targets.map((t) => t.replicas);
  return {
    ...(entry.deps && counts.some((n) => n > 0) ? { ...rest, replicas: counts } : withoutCounts),
    clusters: targets.map((t) => t.name),
  };
}

/**
 * `schedule` of a request that names no object's identity (uid ''), no rebalance and no excluded clusters, once per
 * render for all it depends on: the placement (as `applied`, the JSON its binding records), the kind, the replicas and
 * their requirements, the previous result and the clusters under tasks. A result is shared: read, never changed.
 */
function scheduledOnce(request: SchedulingRequest, applied: string, view: SteadyView): ScheduleResult {
  const { apiVersion, kind } = request.resource;
  const key = JSON.stringify([
    applied,
    apiVersion,
    kind,
    request.replicas,
    request.replicaRequirements ?? false,
    request.resourceRequest ?? null,
    request.previous,
    request.evictingClusters ?? [],
  ]);
  let result = view.schedules.get(key);
  if (!result) view.schedules.set(key, (result = schedule(request, view.clusters)));
  return result;
}

/**
 * What scheduleBinding asks the scheduler of a binding built from `placement`, but for its previous result: the
 * caller adds that result and what else it knows (tasks, a reschedule request, the observed affinity).
 */
function bindingRequest(key: string, binding: ResourceBinding, placement: Placement) {
  const spec = binding.spec;
  const requirements = spec.replicaRequirements;
  const applied = binding.metadata.annotations?.['policy.karmada.io/applied-placement'];
  return {
    resource: { ...parseRefKey(key), uid: '' },
    placement,
    replicas: spec.replicas ?? 0,
    ...(requirements !== undefined ? { replicaRequirements: true } : {}),
    ...(requirements?.resourceRequest ? { resourceRequest: requirements.resourceRequest } : {}),
    ...(applied !== undefined ? { previousPlacement: applied } : {}),
  };
}

/** A successful schedule that waits on nothing in cluster status and names no affinity: one a render would keep. */
function cleanSchedule(result: ScheduleResult, request: SchedulingRequest, view: SteadyView): boolean {
  return (
    result.status === 'Scheduled' &&
    result.affinityName === undefined &&
    pendingOn(result, request, view.clusters) === undefined
  );
}

/**
 * The checks shrunkResultOf and evictedResultOf share: cleanResult without tasks, of a Duplicated result (or one of a
 * kind without replicas).
 */
function cleanDuplicatedResult(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  policy: PropagationPolicy,
  view: SteadyView,
): boolean {
  const spec = binding.spec;
  const workload = isWorkload({
    replicas: spec.replicas ?? 0,
    replicaRequirements: spec.replicaRequirements !== undefined,
  });
  if (workload && replicaSchedulingType(spec.placement ?? {}) !== 'Duplicated') return false;
  return cleanResult(key, entry, binding, policy, view, false);
}

/**
 * The binding is the template's, claimed, built from the policy's placement as it is now, without dependents,
 * suspension, application failover or a pending rebalance, a result that was a clean success and holds exactly the
 * entry's clusters. With `withTasks`, its graceful eviction tasks' clusters are the entry's too; without, it has none.
 */
function cleanResult(
  key: string,
  entry: IndexEntry,
  binding: ResourceBinding,
  policy: PropagationPolicy,
  view: SteadyView,
  withTasks: boolean,
): boolean {
  if (view.mayBeHeld(key, entry)) return false;
  const spec = binding.spec;
  const ref = parseRefKey(key);
  // A Job whose result moves is written again on every cluster (works/renderTemplates.ts clustersPlacedAsBefore): the
  // same text, but what its overrides report there (a failed rule) goes into the commit message, as only a render says.
  if (ref.kind === 'Job') return false;
  // A binding its policy let go of (Karmada's detector took the claim off) is held by the render: no longer placed.
  if (!bindsTemplate(binding, ref) || !hasPolicyClaim(binding)) return false;
  const tasks = spec.gracefulEvictionTasks ?? [];
  if (spec.requiredBy || spec.suspension || applicationFailoverOf(spec) !== undefined) return false;
  if (tasks.length > 0 && !withTasks) return false;
  if (!deepEqual(spec.placement, policy.spec.placement)) return false;
  if (!sameClusters(binding, entry, withTasks ? tasks.map((t) => t.fromCluster) : [])) return false;
  const scheduled = binding.status?.conditions?.find((c) => c.type === 'Scheduled');
  if (scheduled?.status !== 'True' || binding.status?.conditions?.length !== 1) return false;
  return observedAsRendered(ref, binding, view);
}

/**
 * Whether the binding records the reschedule requests it observed as a render of it writes them: every request that
 * names the template, by name, sorted (scheduleBinding), none pending. One written before requests were names alone
 * (`name@generation`) is rendered, which writes them anew: a result kept or cut would carry the old form, and verify
 * would name the binding.
 */
function observedAsRendered(ref: ObjectRef, binding: ResourceBinding, view: SteadyView): boolean {
  // No request: a render writes no annotation, so one recorded empty (a binding not written by a render) differs too.
  const written = requestsFor(ref, view.rebalancers).join(',') || undefined;
  return binding.metadata.annotations?.[OBSERVED_REBALANCERS_ANNOTATION] === written;
}

/** Whether the relabel takes the template off every changed cluster it is on. */
function leavesEveryChanged(entry: IndexEntry, view: SteadyView, changed: ReadonlySet<string>): boolean {
  const policy = view.policies.get(entry.policy ?? '');
  const lost = policy && lostClusters(entry, policy, view, changed);
  return lost !== undefined && entry.clusters.every((c) => !changed.has(c) || lost.has(c));
}

/**
 * The dependencies of the shrunk templates that follow their parents (followedResultOf), each with its parents' keys:
 * every parent shrunk, kept, or not reached by the change at all. Their bindings are read from the output tree.
 */
async function readFollowers(
  repo: GitRepo,
  outputTree: string,
  shrunk: ReadonlyMap<string, ShrunkResult>,
  kept: ReadonlySet<string>,
  { index, affected }: { index: ShardedIndex; affected: ReadonlySet<string> },
  view: SteadyView,
): Promise<Map<string, { result: ShrunkResult; parents: string[] }>> {
  const dependencies = new Set([...shrunk.values()].flatMap((s) => s.entry.deps ?? []));
  for (const key of shrunk.keys()) dependencies.delete(key);
  // One the change reaches for its own sake (an override reads a changed cluster it is on) renders whatever its parents do.
  for (const key of affected) dependencies.delete(key);
  await index.load({ templates: dependencies });
  await index.load({ templates: [...dependencies].flatMap((key) => index.parentsOf(key)) });
  const candidates = new Map<string, Map<string, FollowedParent>>();
  for (const key of dependencies) {
    const parents = new Map<string, FollowedParent>();
    for (const parent of index.parentsOf(key)) {
      const s = shrunk.get(parent);
      const entry = index.template(parent);
      if (s) parents.set(parent, { entry: s.entry, lost: new Set(s.lost) });
      else if (entry && (kept.has(parent) || !affected.has(parent))) parents.set(parent, { entry });
      else break;
    }
    const entry = index.template(key);
    if (parents.size !== index.parentsOf(key).length || !entry || view.mayBeHeld(key, entry)) continue;
    // A parent that takes a cluster back gives it back to the dependency, whose copy there stays as the parent's does
    // (endedResultOf): only where no override may apply, as what one reports there goes into the commit message.
    const takesBack = index.parentsOf(key).some((parent) => shrunk.get(parent)?.released?.placedAgain.length);
    if (!takesBack || !view.mayBeOverridden(key, entry)) candidates.set(key, parents);
  }
  const paths = new Map([...candidates.keys()].map((key) => [bindingPath(parseRefKey(key)), key]));
  const out = new Map<string, { result: ShrunkResult; parents: string[] }>();
  for (const [key, binding] of await readBindingsAt(repo, outputTree, paths)) {
    const parents = candidates.get(key)!;
    const result = followedResultOf(key, index.template(key)!, binding, parents);
    if (result) out.set(key, { result, parents: [...parents.keys()] });
  }
  return out;
}

/**
 * Whether the entry says something a render must look at whatever the change: waiting on status, evicting, held by a
 * collision or a missing OverridePolicy, made by scoped units, or paired with an HPA.
 */
function rendersForItsState(entry: IndexEntry): boolean {
  return Boolean(
    entry.waiting ||
      entry.evicting ||
      entry.blocked ||
      entry.awaiting ||
      entry.held ||
      entry.units ||
      entry.scaleTarget ||
      entry.scaledBy,
  );
}

/**
 * Whether the binding's result, with the clusters its tasks keep apart (`evicting`), holds the entry's clusters, no
 * more, no fewer (the result sorted by name).
 */
function sameClusters(binding: ResourceBinding, entry: IndexEntry, evicting: readonly string[] = []): boolean {
  const clusters = (binding.spec.clusters ?? []).map((c) => c.name);
  const held = evicting.length > 0 ? [...clusters, ...evicting].sort() : clusters;
  return held.join('\n') === [...entry.clusters].sort().join('\n');
}
