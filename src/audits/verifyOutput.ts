import type { Problem } from '../errors/problem.ts';
import {
  INTERPRETERS_PATH,
  serializeInterpreterCustomizations,
} from '../branches/rendered/interpreterCustomizations.ts';
import {
  entriesByNamespace,
  isDeletionProtected,
  protectedInNamespace,
  removedNamespaces,
} from '../works/deletionProtection.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import type { AutoscaledReplicas } from '../outputs/autoscaledTemplates.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { ConfigModel } from '../api/model.ts';
import { parseRefKey, refKey } from '../api/kinds.ts';
import { dispatchingSuspended } from '../api/policy.ts';
import { policyKey } from '../bindings/matchPolicy.ts';
import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import { readObservedClusters, readTemplateStatuses } from '../branches/status/readStatusBranch.ts';
import { deepEqual } from '../assignments/needsReschedule.ts';
import { renderSnapshotKeeping } from '../outputs/renderSnapshot.ts';
import { renderHistoryAt } from '../outputs/lastGoodKarmada.ts';
import type { RenderLimits } from '../outputs/sourceLimits.ts';
import { isIndexPath, INDEX_PATH, type OutputIndex } from '../branches/rendered/outputIndex.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import {
  CLUSTER_STATE_TRAILER,
  CLUSTER_STATUS_FILE,
  CLUSTER_STATUS_NONE,
  CLUSTER_STATUS_TRAILER,
  FAILOVER_CHECK_TRAILER,
  LAST_GOOD_TRAILER,
  PENDING_BINDINGS_TRAILER,
  parseTrailers,
  recordedLimits,
  RENDER_TOOLS_TRAILER,
} from '../branches/rendered/trailers.ts';
import type { UnitTool } from '../units/detectUnits.ts';
import { toolVersions } from '../units/unitTools.ts';
import { readPathOids, readTextFiles } from '../commits/readPathOids.ts';
import { CLUSTERS_PATH, RELEASED_PATH, bindingPath, manifestPath } from '../branches/rendered/outputPaths.ts';
import { serializeRegisteredClusters } from '../branches/rendered/registeredClusters.ts';
import { compareWithTree, stampFreeDigest, treeDigests, type OutputDifference } from './compareOutputFiles.ts';
import { findRenderedCommit } from './findRenderedCommit.ts';
import { readsTemplateHealth } from '../evictions/applicationFailover.ts';

export interface VerifyReport extends OutputDifference {
  outputCommit: string;
  /** The output commit Flotilla wrote, whose Source-Commit was re-rendered (for a held commit: the render it kept). */
  renderedBy: string;
  sourceCommit: string;
  /** Output commits above renderedBy without a Source-Commit trailer: someone committed there by hand. */
  foreignCommits: { oid: string; author: string; subject: string }[];
  /** Paths of held objects (invalid in the source): they keep their last good output and cannot be checked. */
  unchecked: string[];
  /** Number of files compared. */
  checked: number;
  /** The cluster state and clock the render was replayed with, when it used any (its Cluster-Status and Render-Time). */
  replayedWith?: { statusCommit: string | null; renderTime?: string };
  /**
   * Why the render cannot be replayed from Git (its cluster state came from a --cluster-status file, or it predates
   * the trailers that record it). Then only foreign commits are compared, against the tree Flotilla wrote.
   */
  notReproducible?: string;
  /**
   * Of the files that differ, those a chart calling a function that gives another value on each run (randAlphaNum,
   * uuidv4, now…) made, with the call: a render without the cache of the one that wrote them makes other values.
   */
  unreproducible?: { path: string; call: string }[];
  /** No difference, and the render was replayed. */
  ok: boolean;
}

/**
 * Re-renders the source commit an output commit names and compares every file of its tree with the result:
 * whatever differs, is missing or is extra was not produced by Flotilla from that source. Scheduling starts
 * from the bindings of the output commit before the one that rendered it, as the render did, so steady-mode
 * results come out the same; the render is otherwise fresh, so a file edited in an older commit is caught too.
 * A render that read cluster state (failover) is replayed with the status commit and the time it recorded.
 */
export async function verifyOutput(
  repo: GitRepo,
  opts: { outputRef: string; rev?: string; limits?: RenderLimits },
): Promise<VerifyReport> {
  const found = await findRenderedCommit(repo, opts.outputRef, opts.rev);
  // A held render (source commit with no objects) kept the tree of the last good render: replay that render.
  const { render, foreign } = await keptRender(repo, found.renderedBy, found.foreign);
  const trailers = parseTrailers(render.message);
  const rendersSource = trailers['Source-Commit']!;
  const base = {
    outputCommit: found.output.oid,
    renderedBy: render.oid,
    sourceCommit: found.source,
    foreignCommits: foreign.map((c) => ({
      oid: c.oid,
      author: `${c.author.name} <${c.author.email}>`,
      subject: c.message.split('\n')[0] ?? '',
    })),
  };
  const unreplayable = whyNotReproducible(trailers) ?? (await otherTools(trailers));
  if (unreplayable) {
    // What Flotilla wrote is known (the render commit's tree), so edits made on top of it are still caught.
    const expected = await treeDigests(repo, render.tree);
    const { differs, missing, extra } = await compareWithTree(repo, found.output.tree, expected);
    return {
      differs,
      missing,
      extra,
      ...base,
      unchecked: [],
      checked: expected.size + extra.length,
      notReproducible: unreplayable,
      ok: false,
    };
  }

  const parent = render.parents[0] ? await readCommitInfo(repo, render.parents[0]) : null;
  const previousBindings = parent ? await readBindings(repo, parent.tree) : new Map<string, ResourceBinding>();
  const replay = await replayInputs(repo, trailers, previousBindings);
  // A broken policy or cluster kept the last good definition the renders before read, which the source alone lacks.
  const renders = parent ? await renderHistoryAt(repo, parent.oid) : null;
  const synced = parent ? await entriesBeyondBindings(repo, parent.tree) : undefined;
  // Each file the replay renders is kept as a digest of its text without stamps: at the largest fleets both sides are
  // millions of files, compared a cluster's folder at a time (compareWithTree).
  const snapshot = await renderSnapshotKeeping(
    repo,
    rendersSource,
    { bindings: previousBindings, ...(renders ? { renders } : {}), ...(synced ? { index: synced } : {}) },
    replay?.observed,
    replay?.now,
    replay?.health ?? new Map(),
    replay?.autoscaled ?? new Map(),
    // The render's own limits, unless the command names others: with the defaults a replay of a render given more
    // would hold what the render read.
    { ...recordedLimits(trailers), ...opts.limits },
    { keep: stampFreeDigest, clusterReasons: false },
  );

  const actualIndex = await readIndex(repo, found.output.tree);
  const expected = new Map<string, string>();
  for (const [path, digest] of snapshot.output.edits) if (digest !== null) expected.set(path, digest);
  // Output rendered before the registry file existed has none: only one that is there is checked.
  if ((await readPathOids(repo, found.output.tree, [CLUSTERS_PATH])).has(CLUSTERS_PATH))
    expected.set(
      CLUSTERS_PATH,
      stampFreeDigest(serializeRegisteredClusters([...snapshot.model.clusters.values()].map((c) => c.object))),
    );
  // Customizations the render used (none: no file), as the source holds them with their last good definitions.
  const customizations = serializeInterpreterCustomizations(
    snapshot.model.interpreterCustomizations.map((c) => c.object),
  );
  if (customizations !== '') expected.set(INTERPRETERS_PATH, stampFreeDigest(customizations));
  // A cluster being evicted from keeps, untouched, the copy the render before had: that is what it must hold.
  // So does a cluster that keeps namespace sync's copy of a Namespace its policy does not place there, and one whose
  // dispatching is suspended (one that had none still has none).
  const copies = [
    await keptCopies(repo, snapshot.index, parent?.tree, 'evicting'),
    await keptCopies(repo, snapshot.index, parent?.tree, 'namespaceSync'),
    await suspendedCopies(repo, snapshot.index, snapshot.model, parent?.tree),
  ];
  for (const kept of copies) for (const [path, text] of kept) expected.set(path, stampFreeDigest(text));
  const heldKeys = [...snapshot.output.explanations].filter(([, e]) => e.held).map(([key]) => key);
  // An object defined twice (two files, or scopes that overlap) kept its last output: the replay, which starts from
  // bindings only, knows no entry for it to explain, so it is held here as the render held it.
  for (const key of snapshot.model.held) if (!heldKeys.includes(key)) heldKeys.push(key);
  // A file or unit that could not be read (a chart whose render failed) kept what it rendered before: its templates
  // are known only from the index the render started from, and held like the invalid ones. So are those other
  // scoped units output too: one unit failing holds every variant.
  // Read only when something is held: at a large fleet the index is tens of MB.
  let previous: Promise<OutputIndex | undefined> | undefined;
  const previousIndex = () => (previous ??= parent ? readIndex(repo, parent.tree) : Promise.resolve(undefined));
  if (snapshot.model.unreadableFiles.size > 0) {
    for (const [key, entry] of Object.entries((await previousIndex())?.templates ?? {}))
      if (
        (snapshot.model.unreadableFiles.has(entry.file) ||
          entry.units?.some((u) => snapshot.model.unreadableFiles.has(u.file))) &&
        !heldKeys.includes(key)
      )
        heldKeys.push(key);
  }
  // A deletion-protected template the source no longer has kept its output (works/deletionProtection.ts); the
  // replay, which starts from bindings only, has no entry to hold.
  for (const [key, entry] of Object.entries(actualIndex?.templates ?? {}))
    if (isDeletionProtected(entry.labels) && !snapshot.model.templates.has(key) && !heldKeys.includes(key))
      heldKeys.push(key);
  // So did a Namespace the source no longer has while a protected template in it stays.
  const entries = Object.entries(actualIndex?.templates ?? {});
  const removed = removedNamespaces(
    entries.map(([key]) => key),
    (key) => snapshot.model.templates.has(key),
    () => true,
  );
  if (removed.size > 0) {
    const contents = entriesByNamespace(entries, removed);
    for (const name of removed) {
      const key = refKey({ apiVersion: 'v1', kind: 'Namespace', namespace: '', name });
      if (protectedInNamespace(key, contents, snapshot.model.templates) && !heldKeys.includes(key)) heldKeys.push(key);
    }
  }
  const unchecked = new Set<string>();
  for (const key of heldKeys) {
    const ref = parseRefKey(key);
    unchecked.add(bindingPath(ref));
    for (const c of actualIndex?.templates[key]?.clusters ?? []) unchecked.add(manifestPath(c, ref));
  }

  // The index is compared entry by entry below; which deleted templates were released depends on history, not on one
  // source commit: not re-rendered.
  const { presentSkipped, ...diff } = await compareWithTree(
    repo,
    found.output.tree,
    expected,
    unchecked,
    (path) => isIndexPath(path) || path === RELEASED_PATH,
  );
  // Unchecked is not unwatched: a held template keeps its last output, so each manifest the render before had on a
  // cluster still registered is still there (what it holds is the render before's, which the replay cannot know).
  if (parent && heldKeys.length > 0) {
    const before = await previousIndex();
    const kept = heldKeys.flatMap((key) =>
      (before?.templates[key]?.clusters ?? [])
        .filter((c) => snapshot.model.clusters.has(c))
        .map((c) => manifestPath(c, parseRefKey(key))),
    );
    const present = await readPathOids(repo, found.output.tree, kept);
    for (const path of (await readPathOids(repo, parent.tree, kept)).keys())
      if (!present.has(path) && !diff.missing.includes(path)) diff.missing.push(path);
    diff.missing.sort();
  }
  // A render by a Flotilla that did not record pending bindings yet has no Pending-Bindings trailer and no `waiting`.
  const recordsPending =
    Boolean(trailers[PENDING_BINDINGS_TRAILER]) || Object.values(actualIndex?.templates ?? {}).some((e) => e.waiting);
  const rendered = recordsPending ? snapshot.index : withoutWaiting(snapshot.index);
  if (!actualIndex || !sameTemplates(actualIndex, rendered, new Set(heldKeys))) diff.differs.push(INDEX_PATH);
  diff.differs.sort();
  const madeUp = unreproducibleFiles(snapshot.model, actualIndex);
  const unreproducible = diff.differs.flatMap((path) => {
    const call = madeUp.get(path);
    return call ? [{ path, call }] : [];
  });
  return {
    ...diff,
    ...base,
    ...(unreproducible.length > 0 ? { unreproducible } : {}),
    unchecked: presentSkipped,
    // Every path of both sides but those unchecked, and the index.
    checked: [...expected.keys()].filter((p) => !unchecked.has(p)).length + diff.extra.length + 1,
    ...(replay
      ? {
          replayedWith: {
            statusCommit: replay.statusCommit,
            ...(replay.now ? { renderTime: replay.now.toISOString() } : {}),
          },
        }
      : {}),
    ok: diff.differs.length + diff.missing.length + diff.extra.length === 0,
  };
}

/**
 * The output files of templates a chart outputs whose templates call a function that gives another value on each run
 * (the unit's NOT_REPRODUCIBLE warnings), each with the first such call: `randAlphaNum at web/templates/secret.yaml:6`.
 */
function unreproducibleFiles(model: ConfigModel, index: OutputIndex | undefined): Map<string, string> {
  // Per unit, its calls; an object names the one in its own template file when there is one (the call in a helper
  // it includes is another file's), else the unit's first.
  const calls = new Map<string, Problem[]>();
  for (const unit of model.units?.values() ?? []) {
    const found = model.problems.filter((q) => q.code === 'NOT_REPRODUCIBLE' && q.file.startsWith(`${unit.dir}/`));
    if (found.length > 0) calls.set(unit.marker, found);
  }
  const out = new Map<string, string>();
  if (calls.size === 0) return out;
  const describe = (p: Problem) => `${String(p.data?.call ?? 'a function')} at ${p.file}:${p.line}`;
  for (const [key, t] of model.templates) {
    const origins = [t.origin?.file, ...(t.variants ?? []).map((v) => v.origin?.file)];
    const found = [t.source.file, ...(t.variants ?? []).map((v) => v.unit)]
      .map((marker) => calls.get(marker))
      .find(Boolean);
    const call = found && describe(found.find((p) => origins.includes(p.file)) ?? found[0]!);
    if (!call) continue;
    out.set(bindingPath(t.ref), call);
    for (const c of index?.templates[key]?.clusters ?? []) out.set(manifestPath(c, t.ref), call);
  }
  return out;
}

/**
 * The render whose tree an output commit holds: itself, or below held commits (Last-Good-Source) the render they
 * kept. Commits without a Source-Commit passed on the way are foreign too.
 */
async function keptRender(
  repo: GitRepo,
  renderedBy: CommitInfo,
  foreign: readonly CommitInfo[],
): Promise<{ render: CommitInfo; foreign: CommitInfo[] }> {
  const passed = [...foreign];
  let render = renderedBy;
  for (let i = 0; i < 10_000 && parseTrailers(render.message)[LAST_GOOD_TRAILER] && render.parents[0]; i++) {
    let next = await readCommitInfo(repo, render.parents[0]);
    while (!parseTrailers(next.message)['Source-Commit'] && next.parents[0]) {
      passed.push(next);
      next = await readCommitInfo(repo, next.parents[0]);
    }
    render = next;
  }
  return { render, foreign: passed };
}

/**
 * The previous tree's copies on the clusters each entry's `field` lists, which the renderer leaves as they were, by
 * path: clusters being evicted from (`evicting`), or keeping namespace sync's copy of a Namespace (`namespaceSync`).
 */
async function keptCopies(
  repo: GitRepo,
  index: OutputIndex,
  previousTree: string | undefined,
  field: 'evicting' | 'namespaceSync',
): Promise<Map<string, string>> {
  const paths = Object.entries(index.templates).flatMap(([key, e]) =>
    (e[field] ?? []).map((c) => manifestPath(c, parseRefKey(key))),
  );
  if (!previousTree || paths.length === 0) return new Map();
  return readTextFiles(repo, previousTree, paths);
}

/** The previous manifests of the clusters whose dispatching the claiming policy suspends. */
async function suspendedCopies(
  repo: GitRepo,
  index: OutputIndex,
  model: ConfigModel,
  previousTree: string | undefined,
): Promise<Map<string, string>> {
  const suspensions = new Map(
    model.propagationPolicies
      .filter((p) => p.object.spec.suspension)
      .map((p) => [policyKey(p.object), p.object.spec.suspension]),
  );
  if (!previousTree || suspensions.size === 0) return new Map();
  const paths = Object.entries(index.templates).flatMap(([key, e]) => {
    const suspension = e.policy ? suspensions.get(e.policy) : undefined;
    return e.clusters.filter((c) => dispatchingSuspended(suspension, c)).map((c) => manifestPath(c, parseRefKey(key)));
  });
  return paths.length === 0 ? new Map() : readTextFiles(repo, previousTree, paths);
}

/** Undefined when the render can be replayed from Git: its cluster state is on the status branch, or it used none. */
function whyNotReproducible(trailers: Record<string, string>): string | undefined {
  const from = trailers[CLUSTER_STATUS_TRAILER];
  if (from === CLUSTER_STATUS_FILE)
    return 'rendered with cluster state from a --cluster-status file, which Git does not hold';
  if (
    from === undefined &&
    (trailers[CLUSTER_STATE_TRAILER] || trailers[FAILOVER_CHECK_TRAILER] || trailers['Graceful-Evictions'])
  ) {
    return 'rendered with cluster state by a Flotilla that did not record it (no Cluster-Status trailer)';
  }
  return undefined;
}

/**
 * Helm and Kustomize output depends on the tool's version: a render is replayed only with the tools it recorded
 * (Render-Tools), never compared against another version's output.
 */
async function otherTools(trailers: Record<string, string>): Promise<string | undefined> {
  const recorded = trailers[RENDER_TOOLS_TRAILER];
  if (!recorded) return undefined;
  const tools = recorded.split(', ').map((t) => t.split(' ')[0] as UnitTool);
  const here = await toolVersions(tools);
  return here === recorded
    ? undefined
    : `rendered with ${recorded}, and this machine has ${here}: a Helm or Kustomize render is replayed only with the same tools (npm ci installs the pinned ones)`;
}

interface ReplayInputs {
  statusCommit: string | null;
  observed: Map<string, ObservedCluster>;
  health: Map<string, AggregatedStatusItem[]>;
  now?: Date;
  /** The FederatedHPA decisions of that status commit, which gave workloads their replicas. */
  autoscaled: AutoscaledReplicas;
}

/** The cluster state, template health and clock the render recorded in its Cluster-Status and Render-Time trailers. */
async function replayInputs(
  repo: GitRepo,
  trailers: Record<string, string>,
  previous: ReadonlyMap<string, ResourceBinding>,
): Promise<ReplayInputs | undefined> {
  const from = trailers[CLUSTER_STATUS_TRAILER];
  if (from === undefined) return undefined;
  const statusCommit = from === CLUSTER_STATUS_NONE ? null : from;
  const watched = [...previous].filter(([, b]) => readsTemplateHealth(b)).map(([key]) => parseRefKey(key));
  const time = trailers['Render-Time'];
  return {
    statusCommit,
    observed: statusCommit ? await readObservedClusters(repo, statusCommit) : new Map(),
    health: statusCommit ? await readTemplateStatuses(repo, statusCommit, watched) : new Map(),
    autoscaled: await readAutoscaledReplicas(repo, statusCommit),
    ...(time ? { now: new Date(time) } : {}),
  };
}

async function readBindings(repo: GitRepo, tree: string): Promise<Map<string, ResourceBinding>> {
  const files = [...(await listFolderFiles(repo, tree, 'bindings/'))];
  const blobs = await readBlobs(
    repo,
    files.map(([, f]) => f.oid),
  );
  const out = new Map<string, ResourceBinding>();
  for (const [, f] of files) {
    let b: ResourceBinding | null;
    try {
      b = parseYamlValue(new TextDecoder().decode(blobs.get(f.oid)!)) as ResourceBinding | null;
    } catch {
      continue; // an unreadable binding only means that template is scheduled afresh
    }
    const r = b?.spec?.resource;
    if (r?.kind && r.name)
      out.set(refKey({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }), b!);
  }
  return out;
}

/**
 * What the render before recorded that no binding holds, which a replay from bindings alone would not know: the
 * entries of the Namespaces namespace sync sent somewhere (no policy), or whose entry keeps clusters with namespace
 * sync's copy (`namespaceSync`), as a Namespace labelled skip-auto-propagation keeps it (read from the cluster-scoped
 * entries only); and the entries of the templates a policy claimed without building their binding (`claim`, on the
 * awaiting ones the root lists), as that claim sticks. Undefined when there are none or the index cannot be read.
 */
async function entriesBeyondBindings(repo: GitRepo, tree: string): Promise<OutputIndex | undefined> {
  try {
    const index = await openOutputIndex(repo, tree);
    if (!index) return undefined;
    const entries = (await index.templatesIn(new Set(['']))).filter(
      ([key, e]) =>
        key.startsWith(NAMESPACE_KEY_PREFIX) && ((!e.policy && e.clusters.length > 0) || e.namespaceSync !== undefined),
    );
    const awaiting = index.awaitingTemplates();
    await index.load({ templates: awaiting });
    const listed = new Set(entries.map(([key]) => key));
    for (const key of awaiting) {
      const e = index.template(key);
      if (e?.claim !== undefined && !listed.has(key)) entries.push([key, e]);
    }
    return entries.length > 0 ? { files: {}, templates: Object.fromEntries(entries) } : undefined;
  } catch {
    return undefined;
  }
}

const NAMESPACE_KEY_PREFIX = 'v1/Namespace//';

/**
 * The index of the output tree, when it can be read and its derived parts (who requires whom, the file count, the
 * Karmada files, the evicting templates) agree with its entries; else undefined, reported as a difference.
 */
async function readIndex(repo: GitRepo, tree: string): Promise<OutputIndex | undefined> {
  try {
    const index = await openOutputIndex(repo, tree);
    if (!index) return undefined;
    await index.loadAll();
    return index.derivedPartsAgree() ? index.toWhole() : undefined;
  } catch {
    return undefined;
  }
}

function withoutWaiting(index: OutputIndex): OutputIndex {
  return {
    files: index.files,
    templates: Object.fromEntries(
      Object.entries(index.templates).map(([key, { waiting: _, ...entry }]) => [key, entry]),
    ),
  };
}

/**
 * The index's templates section must describe what was rendered. Its files section records which source
 * files the incremental renders read, which a fresh render cannot reproduce, so it is not compared.
 */
function sameTemplates(actual: OutputIndex, rendered: OutputIndex, held: ReadonlySet<string>): boolean {
  const keys = new Set([...Object.keys(actual.templates), ...Object.keys(rendered.templates)]);
  for (const key of keys) {
    if (held.has(key)) continue;
    if (!deepEqual(actual.templates[key], rendered.templates[key])) return false;
  }
  return true;
}
