import { eventLoopTurn, eventLoopTurns, SLICE_MS } from '../concurrency/eventLoopTurns.ts';
import { keepIncumbents } from '../documents/keepIncumbents.ts';
import {
  AUTOSCALED_TRAILER,
  CLUSTER_STATUS_FILE,
  CLUSTER_STATUS_NONE,
  GRACEFUL_EVICTIONS_TRAILER,
  LAST_GOOD_TRAILER,
} from '../branches/rendered/trailers.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import {
  autoscaledKey,
  autoscaleMovesSince,
  describeAutoscaleMoves,
  withAutoscaledReplicas,
} from './autoscaledTemplates.ts';
import type { ResourceBinding } from '../api/binding.ts';
import { buildCommit } from '../commits/buildCommit.ts';
import { PackWriter } from '../commits/PackWriter.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { updateRef } from '../commits/updateRef.ts';
import { writeTreeEdits, type FileEdit } from '../commits/writeTreeEdits.ts';
import { flotillaIdentity, type CommitInfo, type GitRepo } from '../commits/types.ts';
import type { ConfigModel, FileObjects } from '../api/model.ts';
import type { ClusterAffinity } from '../api/policy.ts';
import { readSteadyResults, steadyView, type SteadyCandidates } from './steadyResults.ts';
import {
  evictionCheckAfter,
  evictionsEndingNow,
  evictionsThatMayEnd,
  copiesOfThisSource,
  recordedEvictionCheck,
} from './evictionsThatMayEnd.ts';
import { describeRef, parseRefKey, refKey } from '../api/kinds.ts';
import { entriesByNamespace, removedNamespaces } from '../works/deletionProtection.ts';
import type { Problem } from '../errors/problem.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { clusterOfPath, CLUSTERS_PATH, parseReleasedFile, RELEASED_PATH } from '../branches/rendered/outputPaths.ts';
import { serializeRegisteredClusters } from '../branches/rendered/registeredClusters.ts';
import {
  INTERPRETERS_PATH,
  serializeInterpreterCustomizations,
} from '../branches/rendered/interpreterCustomizations.ts';
import { ShardedIndex, type IndexEntry } from '../branches/rendered/outputIndex.ts';
import { renderTemplates, type TemplateExplanation } from '../works/renderTemplates.ts';
import { buildOutputMessage, LISTED_PATHS, type ClusterChanges } from './outputMessage.ts';
import { commitTrailers } from '../branches/rendered/trailers.ts';
import { holdsKarmadaObjects } from './karmadaFiles.ts';
import { loadSource, type LoadedSource, type PreviousRender } from './loadSource.ts';
import type { RenderHistory } from './lastGoodKarmada.ts';
import { sourceLimitsOf, sourceTooLarge, type RenderLimits } from './sourceLimits.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import { SourceTooLargeError } from './SourceTooLargeError.ts';
import { withClusterStatus } from './renderSnapshot.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { readPreviousOutputs, type PreviousFiles } from './previousOutputs.ts';
import { openOutputIndex, readIndexOids } from '../branches/rendered/readOutputIndex.ts';
import { keepIndexNamespaces } from '../branches/rendered/indexNamespaceList.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readObservedClusters, readTemplateStatuses } from '../branches/status/readStatusBranch.ts';
import { clusterStateKey, clusterStateMoved, clusterStateMovesSince, nextFailoverCheck } from './clusterState.ts';
import type { FailoverEvent } from '../works/renderTemplates.ts';
import { deepEqual } from '../assignments/needsReschedule.ts';
import { readRetriableBindings } from './readRetriableBindings.ts';
import { declaredClusterScopedKinds } from '../documents/clusterScopedKinds.ts';
import {
  CLUSTER_STATE_TRAILER,
  CLUSTER_STATUS_TRAILER,
  EVICTION_CHECK_TRAILER,
  FAILOVER_CHECK_TRAILER,
  PENDING_BINDINGS_TRAILER,
  RENDER_TOOLS_TRAILER,
} from '../branches/rendered/trailers.ts';
import { readsTemplateHealth } from '../evictions/applicationFailover.ts';
import { isUnitFile } from '../units/detectUnits.ts';

export interface RenderTarget {
  /** The branch holding rendered output, e.g. refs/heads/flotilla/rendered. */
  outputRef: string;
  /** Cluster status and managed taints from --cluster-status; absent: read from the status branch. */
  clusterStatus?: ReadonlyMap<string, ObservedCluster>;
  /**
   * The status-branch commit clusterStatus was read from (null: the branch did not exist then), which also supplies
   * template health. Absent with clusterStatus set: that state came from outside Git (a --cluster-status file).
   */
  statusCommit?: string | null;
  /** Default refs/heads/flotilla/status: cluster status, taints and template health. */
  statusRef?: string;
  /** Injected clock: NoExecute eviction times, graceful eviction tasks, and the commit time of a re-render. */
  now?: () => Date;
  /** How long a graceful eviction task without its own gracePeriodSeconds lasts (Karmada's --graceful-eviction-timeout). Default 600. */
  gracefulEvictionTimeoutSeconds?: number;
  /** --max-source-files and --max-output-bytes; absent fields keep the defaults. */
  limits?: RenderLimits;
}

/**
 * What of the same source commit renders again: every template ('all'), or these (graceful eviction tasks that may
 * end, pending bindings, application failover), with what moved outside the source reaches (cluster state, autoscaler
 * decisions), which renderRevision finds itself: an empty set renders that alone.
 */
export type RenderAgain = 'all' | ReadonlySet<string>;

export interface RenderReport {
  sourceCommit: string;
  /** The new output commit, or null when this source commit was rendered already. */
  outputCommit: string | null;
  problems: Problem[];
  changes: ClusterChanges;
  explanations: Map<string, TemplateExplanation>;
  full: boolean;
  filesWritten: number;
  failover: FailoverEvent[];
  /** Pending bindings scheduled again because the cluster state may let them fit now, each with why. */
  retried?: string[];
}

/**
 * Renders one source commit onto the output branch: I/O (read the last output and the source), the pure
 * render, I/O (one packfile, one commit, a compare-and-swap of the branch). The output commit's tree is
 * the previous one with only what this commit affects rewritten.
 */
export function renderRevision(
  repo: GitRepo,
  sourceSha: string,
  target: RenderTarget,
  again?: RenderAgain,
): Promise<RenderReport> {
  return renderOrDraft(repo, sourceSha, target, again, false);
}

/**
 * What rendering one source commit onto the output branch would change, nothing written (plan's view of a merge): the
 * same reads and the same pure render as renderRevision, its files kept as text. Null when that render would not
 * continue from the branch's last render as it stands (none, a hand-made commit on top, a held source), would commit
 * nothing, or would hold the commit: the caller renders the whole commit instead.
 */
export async function draftRender(repo: GitRepo, sourceSha: string, target: RenderTarget): Promise<RenderDraft | null> {
  const result = await renderOrDraft(repo, sourceSha, target, undefined, true);
  return 'draft' in result ? result : null;
}

/** What draftRender found: the edits of the output tree it started from, with what the render knew. */
export interface RenderDraft {
  draft: true;
  sourceCommit: string;
  /** The output tree the edits apply to: the last render's. */
  tree: string;
  /** Output path → its new text, or null to delete; index and registry files are not among them. */
  edits: ReadonlyMap<string, string | null>;
  /** Every Karmada object of the commit, and the templates the change reaches (those rendered). */
  model: ConfigModel;
  affected: ReadonlySet<string>;
  /** Index entries of the templates rendered, before (from the last render) and after; null: none. */
  entries: ReadonlyMap<string, { before: IndexEntry | null; after: IndexEntry | null }>;
  /** The output index as the render would write it, loaded where the render read it. */
  index: ShardedIndex;
  /** The files the last render's source may hold Karmada objects in (its index's list). */
  karmadaFiles: readonly string[];
  /** Source files read as a Helm or Kustomize unit, or that were one: their templates' origins need both commits. */
  unitsTouched: boolean;
  /** Source files that hold Karmada objects, or held some at the last render: the two commits' policies may differ. */
  karmadaTouched: boolean;
  problems: Problem[];
  explanations: Map<string, TemplateExplanation>;
  released: ReadonlyMap<string, string[]>;
}

async function renderOrDraft(
  repo: GitRepo,
  sourceSha: string,
  target: RenderTarget,
  again: RenderAgain | undefined,
  draft: false,
  cuts?: boolean,
): Promise<RenderReport>;
async function renderOrDraft(
  repo: GitRepo,
  sourceSha: string,
  target: RenderTarget,
  again: RenderAgain | undefined,
  draft: true,
): Promise<RenderReport | RenderDraft>;
async function renderOrDraft(
  repo: GitRepo,
  sourceSha: string,
  target: RenderTarget,
  again: RenderAgain | undefined,
  draft: boolean,
  /** Whether results the change cannot move are written from the last bindings (steadyResults.ts) or rendered. */
  cuts = true,
): Promise<RenderReport | RenderDraft> {
  const source = await readCommitInfo(repo, sourceSha);
  // The new commit goes on top of the head and edits its tree; what Flotilla knows of its last render (source,
  // cluster state, index) comes from the last commit it wrote, below any made by hand.
  const last = await readLastRender(repo, target.outputRef);
  const outputHead = last.head?.oid ?? null;
  const headTree = last.head?.tree ?? null;
  const previousOutput = last.rendered;
  const previousTrailers = previousOutput ? commitTrailers(previousOutput) : {};
  const previousSource = last.source;
  // A draft continues from a render as it stands: not one a person committed on top of, nor a held source.
  if (draft && (!previousOutput || previousOutput.oid !== outputHead || previousTrailers[LAST_GOOD_TRAILER]))
    return noCommit(sourceSha, false);
  const rerender = Boolean(again) && previousOutput !== null && previousSource === sourceSha;
  if (previousOutput && previousSource === sourceSha && !rerender) {
    return noCommit(sourceSha, false);
  }
  const now = (target.now ?? (() => new Date()))();
  const stateSource = await clusterStateSource(repo, target);
  // Where template health and cluster status are read: the status commit of the state, else the status branch.
  const statusSource = stateSource ?? target.statusRef ?? DEFAULT_STATUS_REF;
  const observed = target.clusterStatus ?? (await readObservedClusters(repo, statusSource));
  // FederatedHPA decisions come from the same status commit, so verify replays them; a file state has none.
  const autoscaled = await readAutoscaledReplicas(repo, stateSource ?? null);
  const autoKey = autoscaledKey(autoscaled);
  // A decision that moved since the last render changes templates the source diff does not name: those render again,
  // or every one when the last render's decisions cannot be read again.
  const autoscaleMoved = previousOutput !== null && autoKey !== (previousTrailers[AUTOSCALED_TRAILER] ?? '');
  const autoscaleMoves = autoscaleMoved ? await autoscaleMovesSince(repo, previousTrailers, autoscaled) : undefined;
  // A cluster state the last render did not see, or a NoExecute toleration it noted that has run out since: what can
  // be placed on the clusters whose state moved renders again (every template when the last state cannot be read
  // again). A source commit rendered first must do the same, or its trailers would record the new state and clock
  // with nothing evicted.
  const stateMoves =
    previousOutput !== null && clusterStateMoved(previousTrailers, observed, now)
      ? await clusterStateMovesSince(repo, previousTrailers, observed, now)
      : undefined;

  // After a held render the output still shows the last good source: diff from that, as if the hold never happened.
  const lastGoodSource = previousOutput ? (previousTrailers[LAST_GOOD_TRAILER] ?? previousSource) : undefined;
  const outputIndex = previousOutput ? await openOutputIndex(repo, previousOutput.tree) : null;
  const previous = outputIndex && lastGoodSource ? await readPrevious(repo, lastGoodSource) : null;
  // Without the source it was rendered from, the previous index describes nothing this render can diff against.
  const index = previous ? outputIndex! : ShardedIndex.replacing(outputIndex);
  // Bindings that could not be scheduled and that this cluster state may let fit are scheduled again, whatever else
  // renders: an incremental render then gives what a cold one with this state gives (verify replays exactly that).
  const retried =
    previous && again !== 'all'
      ? await readRetriableBindings(repo, index, previousTrailers, observed)
      : new Map<string, string>();
  const movedTemplates: ReadonlySet<string> =
    autoscaleMoves === undefined || autoscaleMoves === 'all' ? new Set() : autoscaleMoves.moved;
  // Graceful eviction tasks that may end now (their template's status moved since the last render, or a grace period
  // ran out): those templates render again, whatever else does, so each task is looked at whenever its status moves.
  const evictionsDue =
    previous && again !== 'all'
      ? await evictionsThatMayEnd(repo, index.evictingTemplates(), previousTrailers, stateSource, now)
      : [];
  // Of those, the ones with a task that ends now by their last binding: the others would render what they rendered.
  const evictionLook =
    evictionsDue.length > 0 && headTree
      ? await evictionsEndingNow(repo, headTree, evictionsDue, statusSource, now, target.gracefulEvictionTimeoutSeconds)
      : {
          ending: evictionsDue,
          endingBindings: new Map<string, ResourceBinding>(),
          waiting: new Map<string, number | null>(),
        };
  // A draft stands for the merge's render only when the source is all that moved since the last render: a plan shows
  // what the change does, not a failover or an autoscaler's move due anyway.
  if (draft && (autoscaleMoved || stateMoves !== undefined || retried.size > 0 || evictionLook.ending.length > 0))
    return noCommit(sourceSha, false);
  // Of those, the ones nothing else renders: their tasks may end without a render (steadyResults.ts endedResultOf).
  const endingAlone =
    evictionLook.ending.length > 0 && again !== 'all' && headTree && !draft && cuts
      ? new Set(evictionLook.ending.filter((key) => !retried.has(key) && !movedTemplates.has(key) && !again?.has(key)))
      : new Set<string>();
  const rendersAgain = evictionLook.ending.filter((key) => !endingAlone.has(key));
  const alsoAffected =
    again === 'all'
      ? undefined
      : retried.size > 0 || movedTemplates.size > 0 || rendersAgain.length > 0
        ? new Set([...(again ?? []), ...retried.keys(), ...movedTemplates, ...rendersAgain])
        : again;
  const sourceLimits = sourceLimitsOf(target.limits);
  // Where a broken policy or cluster finds its last good definition, whichever way this render reads the source.
  const history: RenderHistory | null = previousOutput
    ? { from: previousOutput.oid, ...(outputIndex ? { karmadaFiles: outputIndex.karmadaFiles() } : {}) }
    : null;
  const incremental: PreviousRender | null =
    (rerender && again === 'all') || autoscaleMoves === 'all' || stateMoves === 'all' || !previous
      ? null
      : {
          tree: previous.sourceTree,
          index,
          // Taints that move nothing already scheduled (a NoSchedule one added) reach no template.
          ...(stateMoves && (stateMoves.evicting.size + stateMoves.freed.size > 0 || stateMoves.noExecuteDue)
            ? { clustersMoved: stateMoves }
            : {}),
          ...(endingAlone.size > 0
            ? {
                endingEvictions: {
                  templates: endingAlone,
                  bindings: evictionLook.endingBindings,
                  // A commit made by hand on top of the last render may have changed a copy.
                  copiesOfThisSource: async (keys: readonly string[]) =>
                    previousOutput?.oid === outputHead && previousSource === sourceSha
                      ? copiesOfThisSource(repo, previousOutput, sourceSha, autoKey, keys)
                      : new Set<string>(),
                },
              }
            : {}),
          // A draft renders those too: a plan says why each moved template went where it goes.
          ...(headTree && !draft && cuts
            ? {
                keptResults: (
                  m: ConfigModel,
                  candidates: SteadyCandidates,
                  changed: ReadonlySet<string>,
                  reached: ReadonlySet<string>,
                ) =>
                  readSteadyResults(
                    repo,
                    headTree,
                    candidates,
                    steadyView(withClusterStatus(m, observed), now, target.gracefulEvictionTimeoutSeconds),
                    changed,
                    { index, affected: reached },
                  ),
              }
            : {}),
        };
  let loaded: LoadedSource;
  try {
    loaded = incremental
      ? await loadSource(repo, source.tree, incremental, alsoAffected, sourceLimits, history)
      : await loadSource(repo, source.tree, null, undefined, sourceLimits, history);
  } catch (err) {
    // A tree past the bound is held whole, as an empty one: the clusters keep the last good render, and the next
    // commit diffs from that source, not from this one. With no render before it there is nothing to keep: the pass
    // fails, saying which commit and how to fix it, and the next one renders the branch's head alone.
    if (!(err instanceof TreeTooLargeError)) throw err;
    if (!previousOutput || !lastGoodSource)
      throw new SourceTooLargeError(sourceTooLarge(sourceSha, err, null), sourceSha, err);
    if (rerender || draft) return noCommit(sourceSha, false);
    return holdSource(
      repo,
      target,
      source,
      previousOutput,
      last.head!,
      lastGoodSource,
      sourceTooLarge(sourceSha, err, lastGoodSource),
    );
  }
  // Other Helm or Kustomize versions than the last render's (an upgrade, another machine): an incremental load kept
  // the unchanged units' outputs of the old ones, which verify, replaying with these, would not find. Every unit runs
  // again, and what it outputs renders; the plain files' templates are the tools' no more than before.
  if (
    incremental &&
    !loaded.full &&
    loaded.tools !== undefined &&
    previousTrailers[RENDER_TOOLS_TRAILER] !== undefined &&
    previousTrailers[RENDER_TOOLS_TRAILER] !== loaded.tools
  )
    loaded = await loadSource(
      repo,
      source.tree,
      { ...incremental, everyUnit: true },
      alsoAffected,
      sourceLimits,
      history,
    );
  // Which decisions moved, for the commit message.
  const autoscaleLines = autoscaleMoved
    ? describeAutoscaleMoves(
        autoscaleMoves === 'all' || autoscaleMoves === undefined ? new Map() : autoscaleMoves.before,
        autoscaled,
        (key) => {
          const replicas = (loaded.model.templates.get(key)?.manifest.spec as { replicas?: unknown } | undefined)
            ?.replicas;
          return typeof replicas === 'number' ? replicas : undefined;
        },
      )
    : [];
  // What the pure render looks up: the affected templates' entries, and those of their parents (requiredBy).
  if (loaded.full) await index.loadAll();
  await index.load({ templates: loaded.affected });
  if (loaded.model.collided?.size) {
    await index.load({ templates: loaded.model.collided.keys() });
    keepIncumbents(loaded.model, (key) => (index.template(key)?.clusters.length ?? 0) > 0);
  }
  await index.load({ templates: [...loaded.affected].flatMap((key) => index.parentsOf(key)) });
  const namespaceContents = await contentsOfRemovedNamespaces(index, loaded.affected, loaded.model);
  const { bindings, files, takenBy, parsed } = headTree
    ? await readPreviousOutputs(repo, headTree, loaded.affected, index, loaded.onlyClustersChanged)
    : {
        bindings: new Map<string, ResourceBinding>(),
        files: new Map<string, string>() as PreviousFiles,
        takenBy: new Map<string, string>(),
        parsed: new Map<string, ResourceBinding>(),
      };
  await index.load({ templates: takenBy.values() }); // to name the file of the object a taken path belongs to
  const watched = [...bindings].filter(([, b]) => readsTemplateHealth(b)).map(([key]) => parseRefKey(key));
  const health = await readTemplateStatuses(repo, statusSource, watched);

  const model = withAutoscaledReplicas(withClusterStatus(loaded.model, observed), autoscaled);
  const unitsTouched = draft && [...loaded.touchedFiles].some(([path, f]) => f?.unit || isUnitFile(path));
  // What the file index needs of the touched files, taken now: the render is handed the templates (releaseTemplates),
  // so each parsed template goes with its placement once its files are written, held by nothing else.
  const touchedFiles = fileIndexEntries(loaded.touchedFiles);
  loaded.touchedFiles.clear();
  const renderInput = {
    model,
    affected: loaded.affected,
    previousIndex: index,
    previousBindings: bindings,
    ...(namespaceContents ? { namespaceContents } : {}),
    previousFiles: files,
    previousParsed: parsed,
    sourceCommit: sourceSha,
    failover: {
      now,
      observed: health,
      ...(target.gracefulEvictionTimeoutSeconds !== undefined
        ? { gracePeriodSeconds: target.gracefulEvictionTimeoutSeconds }
        : {}),
    },
    // An autoscaler's count goes into the manifests of a kind whose binding carries no replicas too: those render whole.
    onlyClustersChanged: movedTemplates.size > 0 ? null : loaded.onlyClustersChanged,
    ...(loaded.shrunk ? { shrunk: loaded.shrunk } : {}),
    takenPaths: takenBy,
    ...(target.limits?.maxOutputBytes !== undefined ? { maxOutputBytes: target.limits.maxOutputBytes } : {}),
  };
  if (draft) {
    const lastKarmada = new Set(history?.karmadaFiles ?? []);
    // Why each cluster was or was not chosen is what a plan shows of a result that moved; the templates stay, for what
    // their files say.
    const out = await renderTemplates({ ...renderInput, clusterReasons: 'moved' });
    await index.load({ templates: out.indexChanges.keys() });
    const entries = new Map<string, { before: IndexEntry | null; after: IndexEntry | null }>();
    for (const key of [...loaded.affected, ...out.indexChanges.keys()]) {
      const before = index.template(key) ?? null;
      const change = out.indexChanges.get(key);
      entries.set(key, { before, after: change === undefined ? before : change });
    }
    await applyIndexChanges(index, out.indexChanges);
    await updateFileIndex(index, touchedFiles, loaded.model.unreadableFiles);
    // A source emptied is held by the render; the whole commit's plan says so.
    if (index.sourceFileCount() === 0) return noCommit(sourceSha, false);
    return {
      draft: true,
      sourceCommit: sourceSha,
      tree: headTree!,
      edits: out.edits,
      model,
      affected: loaded.affected,
      entries,
      index,
      karmadaFiles: history?.karmadaFiles ?? [],
      unitsTouched,
      // An index of an older rule may not list them all.
      karmadaTouched:
        !index.karmadaFilesByCurrentRule() ||
        [...touchedFiles].some(([path, f]) => f?.karmada || lastKarmada.has(path)),
      problems: [...loaded.model.problems, ...out.problems],
      explanations: out.explanations,
      released: out.released,
    };
  }
  if (loaded.model.templates !== model.templates) loaded.model.templates.clear();
  // Files go into the pack as they are rendered; a render that ends without a commit drops them.
  const pack = new PackWriter(repo);
  try {
    const out = await renderTemplates({
      ...renderInput,
      // Each file's entry in the pack (a number), not its hex id: a cold render keeps one per file until the tree.
      keep: (text: string) => pack.addBlob(text),
      // Nothing here prints why each cluster was or was not chosen (explain and plan draft for that).
      clusterReasons: false,
      releaseTemplates: true,
    });
    // Past its output budget a commit holds templates in their order, with the results written from their last
    // bindings counted first: which ones it holds could differ from a render of every one. A rare commit: rendered
    // again whole, as verify replays it.
    if (loaded.shrunk && out.overBudget) return await renderOrDraft(repo, sourceSha, target, again, false, false);
    // Each step below walks the whole fleet once on a cold render: the event loop gets a turn between them.
    await eventLoopTurn();
    const previousFileCount = index.sourceFileCount();
    // A retried binding may come out with the same files and only its index entry changed (it waits on less).
    const indexChanged = [...out.indexChanges].some(
      ([key, entry]) => !deepEqual(index.template(key), entry ?? undefined),
    );
    await applyIndexChanges(index, out.indexChanges);
    await eventLoopTurn();
    const key = clusterStateKey(observed);
    const check = nextFailoverCheck(model, observed, now);
    const evicting = index.evictingTemplates();
    const evictions = evicting.length;
    // Recorded with the next commit, not a commit of its own: a render that ends no task keeps every task as the
    // recorded check describes it (never later than their ends), so until then a sync just looks at more of them.
    const evictionCheck = evictionCheckAfter(
      evicting,
      evictionLook.waiting.size > 0 ? new Map([...evictionLook.waiting, ...out.evictionEnds]) : out.evictionEnds,
      recordedEvictionCheck(previousTrailers),
    );
    // What verify needs to replay this render beyond Git's source: the cluster state it read, and the clock when the
    // clock could decide something (a taint to evict on, a toleration to run out, eviction tasks to end, an
    // application Unhealthy for longer than its failover tolerates).
    const clockMattered =
      rerender || key !== '' || check !== undefined || evictions > 0 || watched.length > 0 || out.failover.length > 0;
    const inputs =
      clockMattered || observed.size > 0 || autoscaled.size > 0
        ? {
            clusterStatus: stateSource === undefined ? CLUSTER_STATUS_FILE : (stateSource ?? CLUSTER_STATUS_NONE),
            ...(clockMattered ? { renderTime: now.toISOString() } : {}),
          }
        : undefined;
    const pending = index.pendingTemplates().length;
    const failingOver = index.applicationFailoverTemplates().length;
    const state = {
      key,
      check,
      evictions,
      ...(evictionCheck ? { evictionCheck } : {}),
      ...(inputs ? { inputs } : {}),
      ...(pending > 0 ? { pending } : {}),
      ...(failingOver > 0 ? { applicationFailover: failingOver } : {}),
      ...(autoKey ? { autoscaled: autoKey } : {}),
    };
    const stateChanged =
      autoscaleMoved ||
      state.key !== (previousTrailers[CLUSTER_STATE_TRAILER] ?? '') ||
      (state.check ?? '') !== (previousTrailers[FAILOVER_CHECK_TRAILER] ?? '');
    if (rerender && out.edits.size === 0 && !stateChanged && !indexChanged) {
      return { ...noCommit(sourceSha, loaded.full, out.explanations, out.failover), ...retriedReport(retried) };
    }
    await updateFileIndex(index, touchedFiles, loaded.model.unreadableFiles);
    await eventLoopTurn();
    // Every file the current rule makes a Karmada file is now flagged so: a full load touched every file, and an
    // incremental one from an index of an older rule the files that rule lacked (loadSource.ts).
    index.setKarmadaFilesByCurrentRule();
    if (previousOutput && lastGoodSource && index.sourceFileCount() === 0 && previousFileCount > 0) {
      // Held already: a change of cluster state re-renders the same empty source, which must not commit again.
      if (rerender) return noCommit(sourceSha, loaded.full);
      return holdSource(repo, target, source, previousOutput, last.head!, lastGoodSource, {
        file: '.',
        line: 1,
        column: 1,
        code: 'SOURCE_EMPTY',
        severity: 'error',
        message: `source commit ${source.oid.slice(0, 12)} holds no template, policy or Cluster: nothing was removed, every cluster keeps what ${lastGoodSource.slice(0, 12)} rendered`,
        fix: 'restore the files (git revert); to retire everything on purpose, delete the templates but keep the Cluster objects',
      });
    }
    // Rendered files are in the pack already; the index and registry files go in as text, encoded as they are packed.
    // They join the render's own edits, not a copy of them (millions of entries on a cold render of a large fleet):
    // counted before, and none of them is under clusters/, where the changes are summarised.
    const filesWritten = out.edits.size;
    const edits: Map<string, FileEdit> = out.edits;
    for (const [path, text] of await index.edits()) edits.set(path, text);
    await eventLoopTurn();
    const registered = serializeRegisteredClusters([...loaded.model.clusters.values()].map((c) => c.object));
    const customizations = serializeInterpreterCustomizations(
      loaded.model.interpreterCustomizations.map((c) => c.object),
    );
    const kept = headTree
      ? await readTextFiles(repo, headTree, [CLUSTERS_PATH, RELEASED_PATH, INTERPRETERS_PATH])
      : new Map<string, string>();
    if (registered !== (kept.get(CLUSTERS_PATH) ?? '')) edits.set(CLUSTERS_PATH, registered);
    if (customizations !== (kept.get(INTERPRETERS_PATH) ?? ''))
      edits.set(INTERPRETERS_PATH, customizations === '' ? null : customizations);
    const before = kept.get(RELEASED_PATH) ?? '';
    if (before !== '' || out.released.size > 0) {
      const released = parseBranchFile(target.outputRef, RELEASED_PATH, () => parseReleased(before, out.released));
      await index.load({ templates: [...released.values()].flatMap((keys) => [...keys]) });
      const after = serializeReleased(released, index);
      if (after !== before) edits.set(RELEASED_PATH, after === '' ? null : after);
    }

    const problems = [...loaded.model.problems, ...out.problems];
    const changes = await summarizeChanges(out.edits, files);
    await eventLoopTurn();
    const tree = await writeTreeEdits(repo, pack, headTree, edits, { consume: true });
    // A re-render for cluster state happens at a moment, not at a source commit: its commit carries that moment.
    const identity = flotillaIdentity(rerender ? now : source.committer);
    const commit = buildCommit(pack, {
      tree,
      parents: outputHead ? [outputHead] : [],
      message: buildOutputMessage(
        source,
        changes,
        problems,
        {
          rerender,
          failover: out.failover,
          clusters: model.clusters,
          state,
          retried: [...retried.values()],
          autoscaleMoves: autoscaleLines,
          stateMoved: stateMoves !== undefined,
        },
        { rescheduled: rescheduledTemplates(out.explanations), tools: loaded.tools, limits: target.limits },
      ),
      author: identity,
      committer: identity,
    });
    const shards = await readIndexOids(repo, tree, pack);
    await pack.flush();
    await updateRef(repo, target.outputRef, commit, outputHead);
    // Which namespaces each shard holds, kept for this tree: the next change to a namespace's policies reads only
    // the shards that hold it (a local cache; the shards this render wrote are the ones in memory).
    if (shards) await keepIndexNamespaces(repo, shards.shardOids, (id) => index.namespacesOfShard(id));
    return {
      sourceCommit: sourceSha,
      outputCommit: commit,
      problems,
      changes,
      explanations: out.explanations,
      full: loaded.full,
      filesWritten,
      failover: out.failover,
      ...retriedReport(retried),
    };
  } finally {
    await pack.discard(); // after flush() only ends an idle thread, if any
  }
}

function retriedReport(retried: ReadonlyMap<string, string>): { retried?: string[] } {
  return retried.size > 0 ? { retried: [...retried.values()] } : {};
}

/** The report of a render that wrote nothing: the source was rendered already, or the render changed nothing. */
function noCommit(
  sourceCommit: string,
  full: boolean,
  explanations = new Map<string, TemplateExplanation>(),
  failover: FailoverEvent[] = [],
): RenderReport {
  return { sourceCommit, outputCommit: null, problems: [], changes: {}, explanations, full, filesWritten: 0, failover };
}

/** Cluster → released refKeys: the file's, with this render's releases added. */
function parseReleased(text: string, added: ReadonlyMap<string, string[]>): Map<string, Set<string>> {
  const all = parseReleasedFile(text);
  for (const [cluster, keys] of added) {
    const set = all.get(cluster) ?? new Set<string>();
    for (const k of keys) set.add(k);
    all.set(cluster, set);
  }
  return all;
}

/** The released file after this render: templates placed again on a cluster taken out. '' = none. */
function serializeReleased(all: ReadonlyMap<string, Set<string>>, index: ShardedIndex): string {
  const out: Record<string, string[]> = {};
  for (const cluster of [...all.keys()].sort()) {
    const keys = [...all.get(cluster)!].filter((k) => !index.template(k)?.clusters.includes(cluster)).sort();
    if (keys.length > 0) out[cluster] = keys;
  }
  return Object.keys(out).length ? `${JSON.stringify(out, null, 1)}\n` : '';
}

/**
 * Where this render's cluster state comes from: a status commit (pinned, so cluster files and template health are
 * read from one commit), null when there is no status branch, undefined when the caller supplied the state itself.
 */
async function clusterStateSource(repo: GitRepo, target: RenderTarget): Promise<string | null | undefined> {
  if (target.statusCommit !== undefined) return target.statusCommit;
  if (target.clusterStatus) return undefined;
  return readRef(repo, target.statusRef ?? DEFAULT_STATUS_REF);
}

/**
 * A source commit rendered as nothing at all: one with no object (every file deleted, an emptied or wrongly reset
 * branch: SOURCE_EMPTY) is a broken read, not an instruction to delete everything everywhere, and one whose tree is too
 * large to walk (COMMIT_TOO_LARGE) is not read. The output commit keeps the previous tree and says why (`problem`),
 * and its Last-Good-Source names the source that tree renders, which the next commit is diffed from. The head's tree
 * is kept, with any hand-made commit on top of `previousOutput` (the last one Flotilla wrote, whose trailers are kept).
 */
async function holdSource(
  repo: GitRepo,
  target: RenderTarget,
  source: CommitInfo,
  previousOutput: CommitInfo,
  head: CommitInfo,
  lastGood: string,
  problem: Problem,
): Promise<RenderReport> {
  const pack = new PackWriter(repo);
  const identity = flotillaIdentity(source.committer);
  // The held tree is still the one rendered with the previous cluster state: keep its trailers, so that state is
  // not taken for a change that needs another render.
  const previousTrailers = commitTrailers(previousOutput);
  const kept = [
    CLUSTER_STATE_TRAILER,
    FAILOVER_CHECK_TRAILER,
    GRACEFUL_EVICTIONS_TRAILER,
    EVICTION_CHECK_TRAILER,
    PENDING_BINDINGS_TRAILER,
    AUTOSCALED_TRAILER,
    CLUSTER_STATUS_TRAILER,
    'Render-Time',
  ]
    .filter((k) => previousTrailers[k])
    .map((k) => `${k}: ${previousTrailers[k]}\n`)
    .join('');
  const message = buildOutputMessage(source, {}, [problem], undefined, { limits: target.limits }).replace(
    /\n$/,
    `\n${LAST_GOOD_TRAILER}: ${lastGood}\n${kept}`,
  );
  const commit = buildCommit(pack, {
    tree: head.tree,
    parents: [head.oid],
    message,
    author: identity,
    committer: identity,
  });
  await pack.flush();
  await updateRef(repo, target.outputRef, commit, head.oid);
  return {
    sourceCommit: source.oid,
    outputCommit: commit,
    problems: [problem],
    changes: {},
    explanations: new Map(),
    full: false,
    filesWritten: 0,
    failover: [],
  };
}

/**
 * What renderTemplates needs to keep a removed Namespace a protected template still lives in: the previous entries of
 * the templates in each Namespace this render removes. Read by namespace, not from the whole index: undefined, with
 * nothing read, when the render removes no Namespace.
 */
async function contentsOfRemovedNamespaces(
  index: ShardedIndex,
  affected: ReadonlySet<string>,
  model: ConfigModel,
): Promise<Map<string, [string, IndexEntry][]> | undefined> {
  const names = removedNamespaces(
    affected,
    (key) => model.templates.has(key),
    (key) => index.template(key) !== undefined,
  );
  return names.size === 0 ? undefined : entriesByNamespace(await index.templatesIn(names), names);
}

/** The tree of the source commit the previous output renders; null when that commit is gone (history rewritten and collected). */
async function readPrevious(repo: GitRepo, sourceSha: string): Promise<{ sourceTree: string } | null> {
  try {
    return { sourceTree: (await readCommitInfo(repo, sourceSha)).tree };
  } catch {
    return null; // render everything
  }
}

/** The render's index changes, applied: the shards of old and new dependencies are read first (requiredBy moves). */
async function applyIndexChanges(index: ShardedIndex, changes: ReadonlyMap<string, IndexEntry | null>): Promise<void> {
  await index.load({ templates: changes.keys() });
  await index.load({
    templates: [...changes].flatMap(([key, entry]) => [...(index.template(key)?.deps ?? []), ...(entry?.deps ?? [])]),
  });
  for (const [key, entry] of changes) index.setTemplate(key, entry ?? undefined);
}

/**
 * Per touched file (null: gone), the refKeys each of its templates may have, whether it holds Karmada objects, the
 * kinds its CRDs make cluster-scoped and, for a scoped unit's marker, its scope: what its index entry needs.
 */
type FileIndexEntries = Map<
  string,
  {
    candidates: (readonly [string, string])[];
    karmada: boolean;
    clusterScoped: string[];
    scope: ClusterAffinity | undefined;
  } | null
>;

function fileIndexEntries(touched: ReadonlyMap<string, FileObjects | null>): FileIndexEntries {
  const out: FileIndexEntries = new Map();
  for (const [path, f] of touched)
    out.set(
      path,
      f && {
        candidates: f.templates.map(
          (t) =>
            [
              refKey({ ...t.ref, namespace: t.ref.namespace ?? 'default' }),
              refKey({ ...t.ref, namespace: '' }),
            ] as const,
        ),
        karmada: holdsKarmadaObjects(f),
        clusterScoped: declaredClusterScopedKinds(f),
        scope: f.unit?.scope,
      },
    );
  return out;
}

async function updateFileIndex(
  index: ShardedIndex,
  touched: FileIndexEntries,
  unreadable: ReadonlySet<string>,
): Promise<void> {
  await index.load({
    files: touched.keys(),
    templates: [...touched.values()].flatMap((f) => (f ? f.candidates.flat() : [])),
  });
  // Every source file on a cold render: the event loop gets a turn now and then.
  const turns = eventLoopTurns();
  for (const [path, f] of touched) {
    if (turns.due()) await turns.give();
    if (!f) {
      index.setFile(path, undefined);
      continue;
    }
    // The kinds its CRDs make cluster-scoped are what it declares now, as a cold render reads it.
    const { clusterScoped } = f;
    const scoped = clusterScoped.length > 0 ? { clusterScoped } : {};
    if (unreadable.has(path)) {
      // Keeps listing what it held last time.
      const was = index.file(path);
      if (was && (was.clusterScoped ?? []).join() !== clusterScoped.join())
        index.setFile(path, {
          templates: was.templates,
          ...(was.karmada ? { karmada: true } : {}),
          ...(was.scope ? { scope: was.scope } : {}),
          ...scoped,
        });
      continue;
    }
    // Namespace resolution happened repo-wide; the rendered index entry knows the final key.
    const templates = f.candidates.map(
      (candidates) =>
        candidates.find((k) => {
          const entry = index.template(k);
          // A scoped unit other than the first of a template is named among its entry's units.
          return entry?.file === path || entry?.units?.some((u) => u.file === path);
        }) ?? candidates[0],
    );
    const { karmada } = f;
    if (templates.length === 0 && !karmada) index.setFile(path, undefined);
    else
      index.setFile(path, {
        templates: templates.sort(),
        ...(karmada ? { karmada: true as const } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...scoped,
      });
  }
}

/**
 * Added vs changed per cluster. Every edit belongs to an affected template, whose previous files were read
 * already, so `previousFiles` says what existed: no walk over the whole index on each commit.
 */
async function summarizeChanges(
  edits: ReadonlyMap<string, unknown>,
  previousFiles: PreviousFiles,
): Promise<ClusterChanges> {
  const changes: ClusterChanges = {};
  // Millions of edits on a cold render of a large fleet: the event loop gets a turn now and then.
  const turns = eventLoopTurns(SLICE_MS, { clockEvery: 1024 });
  for (const [path, text] of edits) {
    if (turns.due()) await turns.give();
    const cluster = clusterOfPath(path);
    if (cluster === undefined) continue;
    const c = (changes[cluster] ??= {
      counts: { added: 0, changed: 0, removed: 0 },
      added: [],
      changed: [],
      removed: [],
    });
    const kind = text === null ? 'removed' : previousFiles.has(path) ? 'changed' : 'added';
    // Only the first paths are kept: every one would keep millions of paths alive through the tree write.
    if (c.counts[kind]++ < LISTED_PATHS) c[kind].push(path);
  }
  return changes;
}

/** `Deployment default/web by rebalancer-a, rebalancer-b` for every template scheduled afresh by this render. */
function rescheduledTemplates(explanations: ReadonlyMap<string, TemplateExplanation>): string[] {
  return [...explanations.values()]
    .filter((e) => e.rescheduledBy)
    .map((e) => `${describeRef(e.ref)} by ${e.rescheduledBy!.join(', ')}`)
    .sort();
}
