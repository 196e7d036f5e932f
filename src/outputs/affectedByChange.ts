import { LuaHookError } from '../interpreters/lua/luaRuntime.ts';
import type { Cluster } from '../api/cluster.ts';
import { parseRefKey, refKey } from '../api/kinds.ts';
import type { ClusterAffinity, OverridePolicy, PropagationPolicy } from '../api/policy.ts';
import { deepEqual } from '../assignments/needsReschedule.ts';
import { policyKey } from '../bindings/matchPolicy.ts';
import { multiClusterServiceKeyOf, serviceKeyOf } from '../bindings/claimForMultiClusterService.ts';
import type { ConfigModel, FileObjects } from '../api/model.ts';
import { interpretDependencies } from '../interpreters/interpretDependencies.ts';
import { customizationFor, interpretersOf } from '../interpreters/customizations.ts';
import { namedBy, workloadIdentity, workloadKeys } from '../assignments/rebalanceRequests.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';
import { matchClusterAffinity } from '../selectors/matchClusterAffinity.ts';
import type { IndexEntry, ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { labelRewritingClusterOverrides, overrideMayApply } from '../overrides/overrideMayApply.ts';
import { scaleTargetOf } from '../works/markScaleTargets.ts';

export interface ChangeContext {
  /** Shards loaded: the changed files'; every one when a policy, cluster or customization changed. */
  index: ShardedIndex;
  /** The model of the files read so far (changed files and Karmada files at the new commit). */
  model: ConfigModel;
  changedFiles: ReadonlySet<string>;
  /** The previous versions of changed files that held Karmada objects. */
  oldVersions: readonly FileObjects[];
  /**
   * The index entries the walk over the fleet can reach, when the change reaches only some namespaces (namespaced
   * policies): the index need not be read whole. Absent: every entry (loadAll first).
   */
  templatesInScope?: readonly [string, IndexEntry][];
  /**
   * Filled, when given, with the templates affected only because a relabeled cluster changes what their placement's
   * affinities take, or because a cluster they are not on lost a taint that kept it off (not their overrides, nor
   * anything else): those whose scheduler keeps its last result anyway render nothing new (outputs/steadyResults.ts),
   * and the caller may leave them out.
   */
  placementOnly?: Map<string, IndexEntry>;
  /**
   * Filled, when given, with the templates whose placement the relabel moves and whose overrides read a changed
   * cluster they are on: rendered, unless the relabel takes them off every changed cluster they are on (then no
   * manifest the overrides make is left to change, outputs/steadyResults.ts).
   */
  overrideReaders?: Map<string, IndexEntry>;
  /**
   * Filled, when given, with the templates affected only because they are on a cluster whose state may evict them (no
   * cluster changed in Git): a Duplicated placement may only move it into an eviction task (outputs/steadyResults.ts).
   */
  onEvicting?: Map<string, IndexEntry>;
  /** Clusters whose state moved outside Git (managed taints), by what the move can reach. */
  clustersMoved?: MovedClusters;
}

/**
 * Clusters whose managed taints moved (outputs/clusterState.ts taintMoves): on `evicting` ones, what runs there may be
 * evicted; on `freed` ones, what could be placed there and is not may join. Nothing else of theirs moved: a template
 * not on an evicting cluster stays off it, and one on a freed cluster keeps it (the TaintToleration filter skips the
 * clusters a binding targets).
 */
export interface MovedClusters {
  evicting: readonly Cluster[];
  freed: readonly Cluster[];
}

/**
 * Which templates a commit can affect (pure): the templates in changed files; for a changed policy,
 * what it selects now or selected before; for a changed override policy, what it targets; for a
 * changed cluster, bindings that could include it or did, and every Namespace (namespace sync).
 * Over-approximating is safe — re-rendering an unaffected template gives the same bytes — missing one is not.
 * Their dependencies come next (dependenciesOf), once the caller has read the affected templates' index entries.
 */
export function affectedByChange(ctx: ChangeContext): Set<string> {
  const { index, model, changedFiles } = ctx;
  const affected = new Set<string>();
  for (const f of changedFiles) for (const key of index.file(f)?.templates ?? []) affected.add(key);
  for (const [key, t] of model.templates)
    if (changedFiles.has(t.source.file) || t.variants?.some((v) => changedFiles.has(v.unit))) affected.add(key);
  for (const key of model.held) affected.add(key);

  const inChanged = <T>(list: { object: T; source: { file: string } }[]) =>
    list.filter((l) => changedFiles.has(l.source.file)).map((l) => l.object);
  const propagation = [
    ...inChanged(model.propagationPolicies),
    ...ctx.oldVersions.flatMap((f) => f.propagationPolicies.map((p) => p.object)),
  ];
  const overrides = [
    ...inChanged(model.overridePolicies),
    ...ctx.oldVersions.flatMap((f) => f.overridePolicies.map((p) => p.object)),
  ];
  const inGit = [
    ...[...model.clusters.values()].filter((c) => changedFiles.has(c.source.file)).map((c) => c.object),
    ...ctx.oldVersions.flatMap((f) => f.clusters.map((c) => c.object)),
  ];
  const moved = ctx.clustersMoved;
  const clusters = [...inGit, ...(moved?.evicting ?? []), ...(moved?.freed ?? [])];
  // What runs on a changed cluster, or on one whose taints may evict it, may move.
  const onChanged = [...inGit, ...(moved?.evicting ?? [])].map((c) => c.metadata.name);
  // A removed policy or cluster file shows up only as an old version; a policy file that became
  // unparseable shows up as neither, so fall back to what the index says the file held.
  const changedPolicyKeys = new Set(propagation.map(policyKey));

  // A reschedule request (added, edited or removed) affects the workloads it lists; an interpreter
  // customization every template of its kind.
  const rebalancers = [
    ...inChanged(model.rebalancers),
    ...ctx.oldVersions.flatMap((f) => f.rebalancers.map((r) => r.object)),
  ];
  for (const r of rebalancers) for (const w of r.spec.workloads) for (const key of workloadKeys(w)) affected.add(key);
  // An entry whose kind is cased otherwise, or whose apiVersion differs, still names a template (workloadIdentity).
  const rebalanced = new Set(rebalancers.flatMap((r) => [...namedBy(r)]));
  const customizedKinds = new Set(
    [
      ...inChanged(model.interpreterCustomizations),
      ...ctx.oldVersions.flatMap((f) => f.interpreterCustomizations.map((c) => c.object)),
    ].map((c) => `${c.spec.target.apiVersion}/${c.spec.target.kind}`),
  );

  // An OverridePolicy selects what ClusterOverridePolicies made of a template: those that may relabel it widen its reach.
  const relabelers = labelRewritingClusterOverrides(model.overridePolicies.map((o) => o.object));
  // Only templates changed (the common commit): nothing below can match, so skip the walk over the fleet.
  const karmadaChanged =
    propagation.length + overrides.length + clusters.length + customizedKinds.size + rebalanced.size > 0;
  // Whether a policy's placement could take one of the changed clusters, decided once per policy, not per template.
  const mayPlaceChanged = inGit.length > 0 ? placesAnyOf(model.propagationPolicies, inGit) : () => false;
  // A freed cluster matters to a template that is not on it and whose policy could place there: by cluster.
  const mayPlaceFreed = (moved?.freed ?? []).map(
    (c) => [c.metadata.name, placesAnyOf(model.propagationPolicies, [c])] as const,
  );
  const mayJoin = (entry: IndexEntry, policy: string) =>
    mayPlaceFreed.some(([name, places]) => !entry.clusters.includes(name) && places(policy));
  // Clusters that changed only their labels: then only what reads a label selector that now reads otherwise moves.
  const relabeled = clusters.length > 0 && !moved ? labelsOnlyChange(model, changedFiles, ctx.oldVersions) : undefined;
  // Clusters alone changed: an entry matters only when on one of them, or placed by a policy that could take one (and,
  // for a relabeling, reads the labels otherwise), or made by scoped units; its line says which without parsing it.
  const clustersOnly =
    clusters.length > 0 &&
    propagation.length + overrides.length + customizedKinds.size + rebalanced.size === 0 &&
    !ctx.templatesInScope;
  const mayMatter = clustersOnly
    ? entryLineMayMatter(
        clusters.map((c) => c.metadata.name),
        relabeled
          ? (policy) => relabeled.policyReads(policy) && mayPlaceChanged(policy)
          : (policy) => mayPlaceChanged(policy) || mayPlaceFreed.some(([, places]) => places(policy)),
      )
    : undefined;
  const inScope = ctx.templatesInScope ?? (mayMatter ? index.templatesWhere(mayMatter) : undefined);
  for (const t of karmadaChanged ? allTemplates(index, model, inScope) : []) {
    const entry = t.entry;
    if (customizedKinds.size > 0 && customizedKinds.has(`${t.ref.apiVersion}/${t.ref.kind}`)) affected.add(t.key);
    if (rebalanced.size > 0 && rebalanced.has(workloadIdentity(t.ref))) affected.add(t.key);
    if (entry?.policy && changedPolicyKeys.has(entry.policy)) affected.add(t.key);
    if (propagation.some((p) => selects(p, t))) affected.add(t.key);
    if (overrides.some((o) => overrideSelects(o, t, relabelers))) affected.add(t.key);
    if (clusters.length > 0) {
      if (t.key.startsWith(NAMESPACE_KEY)) affected.add(t.key);
      else if (entry?.units && scopeMoves(entry, index, relabeled ? relabeled.affinityReads : selectsAny(clusters)))
        affected.add(t.key);
      else if (relabeled) {
        const onChanged = entry !== undefined && relabeled.names.some((name) => entry.clusters.includes(name));
        const placementMoves =
          entry?.policy !== undefined &&
          relabeled.policyReads(entry.policy) &&
          (onChanged || mayPlaceChanged(entry.policy));
        const overridesRead =
          onChanged && relabeled.overridesFor(t.ref.namespace).some((o) => overrideSelects(o, t, relabelers));
        if (placementMoves && !overridesRead && entry && !affected.has(t.key)) ctx.placementOnly?.set(t.key, entry);
        if (placementMoves && overridesRead && entry && !affected.has(t.key)) ctx.overrideReaders?.set(t.key, entry);
        if (placementMoves || overridesRead) affected.add(t.key);
      } else if (entry && onChanged.some((name) => entry.clusters.includes(name))) {
        if (inGit.length === 0 && entry.policy && !affected.has(t.key)) ctx.onEvicting?.set(t.key, entry);
        affected.add(t.key);
      } else if (entry?.unregisteredAssignments?.some((name) => clusters.some((c) => c.metadata.name === name)))
        affected.add(t.key);
      else if (entry?.policy && mayPlaceChanged(entry.policy)) affected.add(t.key);
      else if (entry?.policy && mayJoin(entry, entry.policy)) {
        if (!affected.has(t.key)) ctx.placementOnly?.set(t.key, entry);
        affected.add(t.key);
      }
    }
  }
  return affected;
}

/**
 * For a change to namespaced PropagationPolicies and OverridePolicies (loadSource's namespacesReached), the
 * templates it can reach when every resource selector of every version of them names its object (kind and name): a
 * PropagationPolicy claims, and an OverridePolicy targets, only those, in the policy's namespace. Their index entries
 * are then read by key. Undefined when one selects by labels or selects everything, or a rebalancer changed: the
 * namespaces' entries are walked.
 */
export function namedTemplatesOnly(
  changed: readonly { path: string }[],
  loaded: ReadonlyMap<string, FileObjects>,
  oldVersions: readonly FileObjects[],
): Set<string> | undefined {
  const keys = new Set<string>();
  for (const f of [...changed.flatMap((c) => loaded.get(c.path) ?? []), ...oldVersions]) {
    // A rebalancer's entry may case its kind otherwise or list another apiVersion (workloadIdentity): no key to read.
    if (f.rebalancers.length > 0) return undefined;
    for (const { object } of [...f.propagationPolicies, ...f.overridePolicies]) {
      const selectors = object.spec.resourceSelectors ?? [];
      if (selectors.length === 0) return undefined; // an OverridePolicy without selectors targets every template
      for (const s of selectors) {
        if (!s.name) return undefined;
        // A ClusterOverridePolicy reaches here only when each of its selectors names a namespace (namespacesReached).
        const namespace = (object.kind === 'ClusterOverridePolicy' ? s.namespace : object.metadata.namespace) ?? '';
        // A selector naming another namespace than its policy's selects nothing: there is no key to add.
        if (!s.namespace || s.namespace === namespace)
          keys.add(refKey({ apiVersion: s.apiVersion, kind: s.kind, namespace, name: s.name }));
      }
    }
  }
  return keys;
}

/** Dependencies of the affected templates, before and after the change: their requiredBy may move. */
export function dependenciesOf(
  model: ConfigModel,
  affected: ReadonlySet<string>,
  index: Pick<ShardedIndex, 'template'>,
): Set<string> {
  const deps = new Set<string>();
  for (const key of affected) {
    for (const d of index.template(key)?.deps ?? []) deps.add(d);
    const t = model.templates.get(key);
    // A scoped units' template names the dependencies of every variant.
    for (const manifest of t ? (t.variants?.map((v) => v.manifest) ?? [t.manifest]) : [])
      for (const d of dependenciesOrNone(manifest, t!.ref.namespace, model)) deps.add(refKey(d));
  }
  for (const key of affected) deps.delete(key);
  return deps;
}

/** A dependency hook that fails names none here: the render holds that template and reports why. */
function dependenciesOrNone(manifest: Record<string, unknown>, namespace: string, model: ConfigModel) {
  try {
    return interpretDependencies(manifest, namespace, customizationFor(interpretersOf(model), manifest));
  } catch (err) {
    if (err instanceof LuaHookError) return [];
    throw err;
  }
}

interface TemplateView {
  key: string;
  ref: ReturnType<typeof parseRefKey>;
  labels: Record<string, string>;
  /** Its entry in the previous index, if any. */
  entry: IndexEntry | undefined;
}

/** Every template of the index and of the model, each with its index entry: taken from the walk, not looked up again by key. */
function allTemplates(
  index: ShardedIndex,
  model: ConfigModel,
  inScope: readonly [string, IndexEntry][] = index.templates(),
): TemplateView[] {
  const out = new Map<string, TemplateView>();
  for (const [key, entry] of inScope) out.set(key, viewOf(key, entry));
  for (const [key, t] of model.templates)
    out.set(key, { key, ref: t.ref, labels: t.labels, entry: out.get(key)?.entry ?? index.template(key) });
  return [...out.values()];
}

/**
 * An indexed template as the walk sees it, its ref parsed only when a rule reads it: a cluster change walks every
 * entry of the fleet and most rules look at the entry alone (parsing 10,000 keys was a third of the walk at L).
 */
function viewOf(key: string, entry: IndexEntry): TemplateView {
  let ref: ReturnType<typeof parseRefKey> | undefined;
  return {
    key,
    get ref() {
      return (ref ??= parseRefKey(key));
    },
    labels: entry.labels ?? {},
    entry,
  };
}

/** How every Namespace's refKey starts (apiVersion v1 holds no '/'). */
const NAMESPACE_KEY = 'v1/Namespace/';

/**
 * For a change of clusters only (affectedByChange's walk): whether an index entry's line may name a template the walk
 * takes. False only when the line names none of the clusters, has no scoped units, and its policy (the one
 * `"policy":` in it) is one `placementReads` turns down. A Namespace, an escaped character, or a second `"policy":`
 * (a label of that name) is parsed and left to the walk.
 */
function entryLineMayMatter(
  clusters: readonly string[],
  placementReads: (policyRef: string) => boolean,
): (line: string) => boolean {
  const quoted = [...new Set(clusters)].map((name) => JSON.stringify(name));
  const namespaces = JSON.stringify(NAMESPACE_KEY).slice(0, -1);
  return (line) => {
    if (line.startsWith(namespaces) || line.includes('\\') || line.includes('"units":')) return true;
    if (quoted.some((name) => line.includes(name))) return true;
    const at = line.indexOf(POLICY_FIELD);
    if (at < 0) return false; // without a policy, only being on a changed cluster could move it
    if (line.indexOf(POLICY_FIELD, at + 1) >= 0) return true;
    const start = at + POLICY_FIELD.length;
    return placementReads(line.slice(start, line.indexOf('"', start)));
  };
}

const POLICY_FIELD = '"policy":"';

function selects(p: PropagationPolicy, t: TemplateView): boolean {
  if (p.kind === 'PropagationPolicy' && p.metadata.namespace !== t.ref.namespace) return false;
  return bestSelectorMatch(p.spec.resourceSelectors, { ...t.ref, labels: t.labels }) !== ImplicitPriority.NotMatched;
}

/** `relabelers`: the ClusterOverridePolicies whose labels OverridePolicies then select by (overrideMayApply). */
function overrideSelects(o: OverridePolicy, t: TemplateView, relabelers: readonly OverridePolicy[]): boolean {
  if (o.kind === 'OverridePolicy' && o.metadata.namespace !== t.ref.namespace) return false;
  return overrideMayApply(o, { ...t.ref, labels: t.labels }, relabelers);
}

/**
 * Whether the scope of a unit that outputs the template (a scoped unit's clusterAffinity, on its file entry) moves with
 * the change: selects one of the changed clusters before or after it, or, for a labels-only change, selects one
 * otherwise than before. Then the cluster's variant, whether it gets one at all, or an overlap of two scopes
 * (DUPLICATE_OBJECT) may move, whatever the policy places.
 */
function scopeMoves(
  entry: IndexEntry,
  index: Pick<ShardedIndex, 'file'>,
  moves: (affinity: ClusterAffinity) => boolean,
): boolean {
  return (entry.units ?? []).some((unit) => {
    const scope = index.file(unit.file)?.scope;
    return !scope || moves(scope);
  });
}

function selectsAny(clusters: readonly Cluster[]): (affinity: ClusterAffinity) => boolean {
  return (affinity) => clusters.some((c) => matchClusterAffinity(affinity, c));
}

interface Relabeled {
  /** The clusters whose labels changed. */
  names: string[];
  /** Whether the policy (policyKey) reads a label of theirs that changed: a label selector of its placement reads otherwise. */
  policyReads: (policyRef: string) => boolean;
  /**
   * The override policies one of whose cluster targets reads otherwise that can select templates of a namespace: its
   * OverridePolicies and every ClusterOverridePolicy. By namespace, as the templates on a relabeled cluster (thousands)
   * each asked every such policy of the fleet (hundreds) before.
   */
  overridesFor(namespace: string): readonly OverridePolicy[];
  /** Whether the affinity matches a changed cluster before and after otherwise. */
  affinityReads: (affinity: ClusterAffinity) => boolean;
}

/**
 * When every changed cluster is the same before and after apart from metadata.labels (and no ClusterTaintPolicy
 * turns labels into taints), what the change can reach: a cluster's labels are read only through cluster affinities,
 * by a placement (affinities, overflow tiers, static weights: the scheduler's filter, tiers and weights) and by an
 * override's target (its manifest on that cluster). A template whose policy's affinities take or leave the cluster
 * as before schedules as before; its manifest on the cluster changes only when an override that selects it
 * targets the cluster otherwise. Undefined for any other cluster change: the caller then takes every template that
 * is on a changed cluster or could be.
 */
function labelsOnlyChange(
  model: ConfigModel,
  changedFiles: ReadonlySet<string>,
  oldVersions: readonly FileObjects[],
): Relabeled | undefined {
  if (model.clusterTaintPolicies.length > 0) return undefined;
  const now = new Map<string, Cluster>();
  for (const c of model.clusters.values())
    if (changedFiles.has(c.source.file)) now.set(c.object.metadata.name, c.object);
  const before = new Map<string, Cluster>();
  for (const f of oldVersions) {
    for (const c of f.clusters) {
      if (before.has(c.object.metadata.name)) return undefined;
      before.set(c.object.metadata.name, c.object);
    }
  }
  if (now.size !== before.size || now.size === 0) return undefined;
  const pairs: [old: Cluster, now: Cluster][] = [];
  for (const [name, c] of now) {
    const old = before.get(name);
    if (!old || !deepEqual(withoutLabels(old), withoutLabels(c))) return undefined;
    pairs.push([old, c]);
  }
  const readsOtherwise = (value: unknown): boolean => selectorsReadOtherwise(value, pairs);
  const byKey = new Map<string, PropagationPolicy>();
  for (const { object } of model.propagationPolicies)
    if (!byKey.has(policyKey(object))) byKey.set(policyKey(object), object);
  const decided = new Map<string, boolean>();
  const reading = model.overridePolicies
    .map((o) => o.object)
    .filter((o) => {
      // Resource selectors read templates' labels, not clusters': everything else of the spec may target clusters.
      const { resourceSelectors: _templates, ...targets } = o.spec;
      return readsOtherwise(targets);
    });
  // In the order of the model, as one list filtered by namespace would be.
  const clusterWide = reading.filter((o) => o.kind !== 'OverridePolicy');
  // One pass, not one filter of the whole list per namespace: an XL fleet has thousands of each (~0.7 s of CPU).
  const overridesByNamespace = new Map<string, OverridePolicy[]>();
  for (const o of reading) if (o.kind === 'OverridePolicy') overridesByNamespace.set(o.metadata.namespace ?? '', []);
  for (const o of reading) {
    if (o.kind === 'OverridePolicy') overridesByNamespace.get(o.metadata.namespace ?? '')!.push(o);
    else for (const list of overridesByNamespace.values()) list.push(o);
  }
  return {
    names: [...now.keys()],
    affinityReads: (affinity) =>
      pairs.some(([old, now]) => matchClusterAffinity(affinity, old) !== matchClusterAffinity(affinity, now)),
    policyReads: (policyRef) => {
      let reads = decided.get(policyRef);
      if (reads === undefined) {
        const policy = byKey.get(policyRef);
        // A policy not found (gone, renamed) may have read anything.
        reads = !policy || readsOtherwise(policy.spec.placement);
        decided.set(policyRef, reads);
      }
      return reads;
    },
    overridesFor: (namespace) => overridesByNamespace.get(namespace) ?? clusterWide,
  };
}

function withoutLabels(c: Cluster): Cluster {
  const { labels: _labels, ...metadata } = c.metadata;
  return { ...c, metadata };
}

/**
 * Whether a cluster affinity within the value (an object with a labelSelector: a placement's affinity, term, overflow
 * tier or static weight target, an override's target) matches a cluster before and after otherwise, or a
 * spreadByLabel names a label that changed. The whole affinity, not its label selector alone: a selector that now
 * reads otherwise changes nothing where the affinity's fields or names turn the cluster away either way.
 */
function selectorsReadOtherwise(value: unknown, pairs: readonly [old: Cluster, now: Cluster][]): boolean {
  if (Array.isArray(value)) return value.some((v) => selectorsReadOtherwise(v, pairs));
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.labelSelector === 'object' && record.labelSelector !== null) {
    const affinity = record as ClusterAffinity;
    if (pairs.some(([old, now]) => matchClusterAffinity(affinity, old) !== matchClusterAffinity(affinity, now)))
      return true;
  }
  for (const [key, v] of Object.entries(record)) {
    // An override's overriders rewrite the template and read no cluster (Karmada's overriders take none of its
    // labels): most of an OverridePolicy's text, and walked for every policy of the fleet on every relabel.
    if (key === 'labelSelector' || key === 'overriders') continue;
    if (key === 'spreadByLabel' && typeof v === 'string') {
      if (pairs.some(([old, now]) => old.metadata.labels?.[v] !== now.metadata.labels?.[v])) return true;
    } else if (selectorsReadOtherwise(v, pairs)) return true;
  }
  return false;
}

/**
 * policyKey → whether that policy's placement could take any of the clusters, memoized: a cluster change walks every
 * template of the fleet, and looking its policy up among all of them per template made that walk quadratic. A policy
 * not found (deleted, renamed) could place anywhere.
 */
function placesAnyOf(
  policies: readonly { object: PropagationPolicy }[],
  clusters: readonly Cluster[],
): (policyRef: string) => boolean {
  const byKey = new Map<string, PropagationPolicy>();
  for (const { object } of policies) {
    const key = policyKey(object);
    if (!byKey.has(key)) byKey.set(key, object); // the first of a duplicated key, as a search from the start finds it
  }
  const decided = new Map<string, boolean>();
  return (policyRef) => {
    let places = decided.get(policyRef);
    if (places === undefined) {
      const policy = byKey.get(policyRef);
      places = !policy || clusters.some((c) => couldPlaceOn(policy, c));
      decided.set(policyRef, places);
    }
    return places;
  };
}

function couldPlaceOn(policy: PropagationPolicy, cluster: Cluster): boolean {
  const placement = policy.spec.placement ?? {};
  if (placement.clusterAffinities && placement.clusterAffinities.length > 0) {
    return placement.clusterAffinities.some(
      (term) =>
        matchClusterAffinity(term, cluster) ||
        (term.overflowAffinities ?? []).some((o) => matchClusterAffinity(o, cluster)),
    );
  }
  return matchClusterAffinity(placement.clusterAffinity, cluster);
}

/**
 * The other half of every HPA-target pair among the affected templates, before and after the change: the target an
 * HPA scales now (model) or scaled (index), and the HPAs that scaled an affected target. The marker
 * (works/markScaleTargets.ts) sees only what the render holds, so a target edited alone must bring its HPAs along
 * or it would lose its retain-replicas label, and a changed or deleted HPA its old and new targets.
 */
export function scalingRelativesOf(
  model: ConfigModel,
  affected: ReadonlySet<string>,
  index: Pick<ShardedIndex, 'template'>,
): Set<string> {
  const out = new Set<string>();
  for (const key of affected) {
    const entry = index.template(key);
    if (entry?.scaleTarget) out.add(entry.scaleTarget);
    for (const hpa of entry?.scaledBy ?? []) out.add(hpa);
    const t = model.templates.get(key);
    const target = t && scaleTargetOf(t);
    if (target) out.add(target);
  }
  for (const key of affected) out.delete(key);
  return out;
}

/**
 * The MultiClusterService of every affected Service and the Service of every affected MultiClusterService, not
 * affected yet (whether they exist is for the caller to see): a new, changed or deleted MultiClusterService moves
 * its Service, and a Service edited alone must still be claimed by it.
 */
export function multiClusterServicePartnersOf(affected: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const key of affected) {
    const ref = parseRefKey(key);
    const partner = multiClusterServiceKeyOf(ref) ?? serviceKeyOf(ref);
    if (partner && !affected.has(partner)) out.add(partner);
  }
  return out;
}
