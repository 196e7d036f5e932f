import { refsByPath, refFromManifest } from '../branches/rendered/fileRefs.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { describeRef, parseRefKey, refKey } from '../api/kinds.ts';
import { compareProblems, type Problem } from '../errors/problem.ts';
import type { OutputIndex } from '../branches/rendered/outputIndex.ts';
import type { TemplateExplanation } from '../works/renderTemplates.ts';
import { ALLOW_PRUNE_TRAILER, checkPruneSafety, type SourceState } from '../deliveries/checkPruneSafety.ts';
import { renderUnifiedDiff } from './renderUnifiedDiff.ts';
import { maskSecretValues } from './maskSecretValues.ts';
import { memberText } from './memberText.ts';
import { lookTwiceReasons } from './lookTwice.ts';
import { appliedPolicies, overrideExplainer, quietOverrides, type OverrideCause } from './overrideCauses.ts';
import type { Located } from '../api/model.ts';
import type { OverridePolicy } from '../api/policy.ts';
import type { ClusterPlan, LookTwiceNote, Plan, PlannedObject, ReplicaMove, SchedulingNote } from './types.ts';
import { clusterOfPath } from '../branches/rendered/outputPaths.ts';

/** One side of the plan: a whole output tree, path → text, and the index that names its objects. */
export interface PlanSide {
  sha: string;
  files: ReadonlyMap<string, string>;
  index: OutputIndex;
  /** The Helm or Kustomize unit each template of this side came from, by refKey (describeUnit). */
  units?: ReadonlyMap<string, string>;
  /** For a template scoped units output: refKey → cluster → the unit whose variant that cluster gets. */
  clusterUnits?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The side's OverridePolicies and ClusterOverridePolicies: what names the rules a change comes from. */
  overridePolicies?: readonly Located<OverridePolicy>[];
}

export interface PlanInput {
  base: PlanSide;
  head: PlanSide & {
    problems: readonly Problem[];
    explanations: ReadonlyMap<string, TemplateExplanation>;
    /** Cluster → refKeys the head render releases under preserveResourcesOnDeletion (RenderOutput.released). */
    released?: ReadonlyMap<string, readonly string[]>;
    /** Trailers of the head source commit; Flotilla-Allow-Prune lets held deletions through. */
    trailers: Readonly<Record<string, string>>;
    source: SourceState;
  };
  /** Passed to checkPruneSafety. Default 0.5. */
  pruneThreshold?: number;
  /**
   * How many files each cluster that loses one holds before the change, when the sides' `files` hold only what the
   * change rewrites (a plan drafted over the last render); absent: the base's files are the whole tree.
   */
  inventory?: ReadonlyMap<string, number>;
}

/**
 * The pure core of `flotilla plan`: two rendered output trees in, what each cluster would see change out
 * (objects added, changed, removed, with diffs), replica moves read from the bindings, why scheduling
 * moved them, the head's validation errors, and which deletions the prune guard holds.
 */
export function buildPlan(input: PlanInput): Plan {
  const { base, head } = input;
  const clusters: Record<string, ClusterPlan> = {};
  // Files each cluster holds before the change, less those it releases: as the applier counts its inventory.
  const current = new Map<string, number>(input.inventory ?? []);
  const removals = new Map<string, string[]>();
  const released = new Map([...(head.released ?? [])].map(([cluster, refs]) => [cluster, new Set(refs)]));
  const basePolicies = base.overridePolicies ?? [];
  const headPolicies = head.overridePolicies ?? [];
  const named = new Set<OverrideCause['policy']>();
  const overrideCauses = overrideExplainer(basePolicies, headPolicies);
  const paths = [...new Set([...base.files.keys(), ...head.files.keys()])]
    .filter((p) => clusterOfPath(p) !== undefined)
    .sort();
  const refs = refsByPath([base.index, head.index], new Set(paths.map((p) => clusterOfPath(p)!)));
  for (const path of paths) {
    const cluster = clusterOfPath(path)!;
    const ref = refs.get(path) ?? refFromManifest(base.files.get(path) ?? head.files.get(path)!) ?? path;
    const before = base.files.get(path);
    const after = head.files.get(path);
    const releasing = after === undefined && released.get(cluster)?.has(ref) === true;
    // As the applier counts: a released object leaves the inventory before prune safety weighs the deletions. Without
    // an inventory, the base's files are it, counted here.
    const counts = input.inventory ? releasing : !releasing;
    if (before !== undefined && counts) current.set(cluster, (current.get(cluster) ?? 0) + (input.inventory ? -1 : 1));
    const oldText = before === undefined ? null : memberText(before);
    const newText = after === undefined ? null : memberText(after);
    if (oldText === newText) continue;
    const entry = (clusters[cluster] ??= { added: [], changed: [], removed: [], released: [] });
    // Karmada's execution controller leaves a preserved object on the member: nothing is deleted, so no diff to read.
    if (releasing) {
      entry.released.push({ ref, path, diff: '' });
      continue;
    }
    const [oldShown, newShown] = maskSecretValues(oldText, newText);
    const overrides = overrideCauses(before, after, parseRefKey(ref).namespace);
    for (const c of overrides) named.add(c.policy);
    const object: PlannedObject = {
      ref,
      path,
      diff: renderUnifiedDiff(oldShown, newShown, { path }),
      ...(overrides.length > 0 ? { overrides } : {}),
    };
    if (oldText === null) entry.added.push(object);
    else if (newText === null) {
      entry.removed.push(object);
      push(removals, cluster, ref);
    } else entry.changed.push(object);
  }
  // A released workload keeps running on its member with the replicas it had: no move to 0 there.
  const replicas = diffReplicas(base.files, head.files).filter(
    (m) => !(m.to === 0 && released.get(m.cluster)?.has(m.ref)),
  );
  const moved = new Set([
    ...replicas.map((r) => r.ref),
    ...Object.values(clusters).flatMap((c) => [...c.added, ...c.removed, ...c.released].map((o) => o.ref)),
  ]);
  const problems = [...head.problems].sort(compareProblems);
  // Read only when some added or edited policy changes nothing, and then once for all of them.
  let applied: ReadonlySet<string> | undefined;
  const quiet = quietOverrides(basePolicies, headPolicies, named, (policy) =>
    (applied ??= appliedPolicies(head.files)).has(policy),
  );
  // ref → source → the clusters of the change it explains (per cluster for scoped units' variants).
  const sources = new Map<string, Map<string, { clusters: string[]; scoped: boolean }>>();
  for (const [name, c] of Object.entries(clusters))
    for (const o of [...c.added, ...c.changed, ...c.removed, ...c.released]) {
      // The head's variant for the cluster; else (the object left it) the base's, unless the head's is unscoped.
      const headVariants = head.clusterUnits?.get(o.ref);
      const variant =
        headVariants?.get(name) ??
        (headVariants || !head.units?.has(o.ref) ? base.clusterUnits?.get(o.ref)?.get(name) : undefined);
      const source = variant ?? head.units?.get(o.ref) ?? base.units?.get(o.ref);
      if (!source) continue;
      const bySource = sources.get(o.ref) ?? new Map<string, { clusters: string[]; scoped: boolean }>();
      sources.set(o.ref, bySource);
      const entry = bySource.get(source) ?? { clusters: [], scoped: false };
      bySource.set(source, entry);
      entry.clusters.push(name);
      if (variant) entry.scoped = true;
    }
  return {
    base: base.sha,
    head: head.sha,
    errors: problems.filter((p) => p.severity === 'error'),
    warnings: problems.filter((p) => p.severity === 'warning'),
    clusters: Object.fromEntries(
      Object.keys(clusters)
        .sort()
        .map((c) => [c, clusters[c]!]),
    ),
    replicas,
    scheduling: [...moved].sort().flatMap((ref) => schedulingNote(ref, head.explanations.get(ref))),
    lookTwice: lookTwiceNotes(clusters, head.files, base.files),
    prune: checkPruneSafety({
      current,
      removals,
      source: head.source,
      allowReason: head.trailers[ALLOW_PRUNE_TRAILER],
      ...(input.pruneThreshold !== undefined ? { threshold: input.pruneThreshold } : {}),
    }),
    ...(quiet.length > 0 ? { quietOverrides: quiet } : {}),
    ...(sources.size > 0
      ? {
          sources: [...sources]
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .flatMap(([ref, bySource]) =>
              [...bySource].map(([source, { clusters: on, scoped }]) => ({
                ref,
                source,
                ...(scoped ? { clusters: on.sort() } : {}),
              })),
            ),
        }
      : {}),
  };
}

/** What the change adds or changes that deserves a second look, once per object with the clusters it reaches. */
function lookTwiceNotes(
  clusters: Record<string, ClusterPlan>,
  files: ReadonlyMap<string, string>,
  baseFiles: ReadonlyMap<string, string>,
): LookTwiceNote[] {
  const notes = new Map<string, LookTwiceNote>();
  for (const name of Object.keys(clusters).sort()) {
    for (const o of clusters[name]!.removed) {
      const note = notes.get(o.ref);
      if (note) {
        note.clusters.push(name);
        continue;
      }
      const reason = keptByHelmReason(baseFiles.get(o.path));
      if (reason) notes.set(o.ref, { ref: o.ref, clusters: [name], reasons: [reason] });
    }
    for (const o of [...clusters[name]!.added, ...clusters[name]!.changed]) {
      const note = notes.get(o.ref);
      if (note) {
        note.clusters.push(name);
        continue;
      }
      if (o.ref.startsWith('clusters/')) continue; // a path no index names and no manifest explains
      let manifest: Record<string, unknown>;
      try {
        manifest = (parseYamlValue(files.get(o.path) ?? '') ?? {}) as Record<string, unknown>;
      } catch {
        continue;
      }
      const reasons = lookTwiceReasons(parseRefKey(o.ref), manifest);
      if (reasons.length > 0) notes.set(o.ref, { ref: o.ref, clusters: [name], reasons });
    }
  }
  return [...notes.values()].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/**
 * Why the removal of an object annotated `helm.sh/resource-policy: keep` deserves a second look: Helm leaves such an
 * object on the cluster when an upgrade drops it, Argo CD deletes it (its prune ignores the annotation, which it reads
 * only as Delete=false when an Application is deleted), and so does Flotilla.
 */
function keptByHelmReason(text: string | undefined): string | undefined {
  let manifest: { metadata?: { annotations?: Record<string, unknown> } } | undefined;
  try {
    manifest = parseYamlValue(text ?? '') as typeof manifest;
  } catch {
    return undefined;
  }
  if (manifest?.metadata?.annotations?.['helm.sh/resource-policy'] !== 'keep') return undefined;
  return 'deleted though annotated helm.sh/resource-policy: keep (helm upgrade would leave it; Argo CD and Flotilla delete it): to leave it on the members, first set preserveResourcesOnDeletion: true on its PropagationPolicy, then remove it';
}

/** Per workload and cluster, replicas before and after, from the bindings' spec.clusters. */
function diffReplicas(base: ReadonlyMap<string, string>, head: ReadonlyMap<string, string>): ReplicaMove[] {
  const before = readBindings(base);
  const after = readBindings(head);
  const moves: ReplicaMove[] = [];
  for (const ref of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const b = before.get(ref) ?? new Map<string, number>();
    const a = after.get(ref) ?? new Map<string, number>();
    for (const cluster of [...new Set([...b.keys(), ...a.keys()])].sort()) {
      const from = b.get(cluster) ?? 0;
      const to = a.get(cluster) ?? 0;
      if (from !== to) moves.push({ ref, cluster, from, to });
    }
  }
  return moves;
}

function readBindings(files: ReadonlyMap<string, string>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const [path, text] of files) {
    if (!path.startsWith('bindings/')) continue;
    let binding: ResourceBinding | null;
    try {
      binding = parseYamlValue(text) as ResourceBinding | null;
    } catch {
      continue; // a binding that does not parse has no replicas to compare; verify reports the file
    }
    const r = binding?.spec?.resource;
    if (!r?.kind || !r.name) continue;
    const ref = refKey({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name });
    out.set(ref, new Map((binding!.spec.clusters ?? []).map((c) => [c.name, c.replicas ?? 0])));
  }
  return out;
}

function schedulingNote(ref: string, e: TemplateExplanation | undefined): SchedulingNote[] {
  if (!e) {
    return [
      {
        ref,
        status: 'Removed',
        message: `${describeRef(parseRefKey(ref))} is no longer in the source, or no longer matched by a policy`,
        clusters: [],
      },
    ];
  }
  if (e.held) return [{ ref, status: 'Held', message: e.held, clusters: [] }];
  // Placed by a controller other than the scheduler (namespace sync, a FederatedResourceQuota's sync): the clusters
  // it went to are the explanation, each for the reason its controller gives.
  const placedAside = !e.schedule && !e.requiredBy?.length && e.clusters.length > 0;
  const clusters = placedAside
    ? e.clusters.map((c) => ({ cluster: c.name, outcome: 'selected', why: e.policyReason }))
    : (e.schedule?.explanation ?? []).map((x) =>
        x.outcome === 'filtered'
          ? { cluster: x.cluster, outcome: 'filtered', why: `${x.plugin}: ${x.detail ?? x.reason}` }
          : { cluster: x.cluster, outcome: x.outcome, replicas: x.replicas, why: x.why },
      );
  // By name, as explain's table lists them: the scheduler's own order (filtered first, then by score, ties as they
  // fell) would keep two templates with the same outcome on the same clusters from sharing one line of the plan.
  clusters.sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0));
  const message = e.schedule
    ? `${e.schedule.message}${e.schedule.detail ? ` (${e.schedule.detail})` : ''}`
    : e.requiredBy?.length
      ? `follows ${e.requiredBy.join(', ')}`
      : e.policyReason;
  // A moved count is what a create sends: where the workload runs, its HPA's count stays (retain-replicas).
  const governed = e.scaledBy?.length
    ? `replicas governed by ${e.scaledBy.map((k) => describeRef(parseRefKey(k))).join(', ')} on each member: the members keep theirs, these counts apply when it is created`
    : e.autoscaledBy
      ? `replicas governed by ${e.autoscaledBy} (status branch)`
      : undefined;
  return [
    {
      ref,
      ...(e.policy ? { policy: e.policy } : {}),
      status: e.schedule?.status ?? (e.requiredBy?.length ? 'Dependency' : placedAside ? 'Placed' : 'NotScheduled'),
      message: governed ? (message ? `${message}; ${governed}` : governed) : message,
      clusters,
    },
  ];
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
