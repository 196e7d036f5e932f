import { keepIncumbents } from '../documents/keepIncumbents.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import type { GitRepo } from '../commits/types.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { ConfigModel } from '../api/model.ts';
import { applyTemplateChanges, emptyIndex, viewOfWhole, type OutputIndex } from '../branches/rendered/outputIndex.ts';
import { renderTemplates, type RenderOutput } from '../works/renderTemplates.ts';
import { entriesByNamespace, removedNamespaces } from '../works/deletionProtection.ts';
import { effectiveTaints } from '../taints/clusterTaints.ts';
import { loadSource } from './loadSource.ts';
import type { RenderHistory } from './lastGoodKarmada.ts';
import { sourceLimitsOf, sourceTooLarge, type RenderLimits } from './sourceLimits.ts';
import { SourceTooLargeError } from './SourceTooLargeError.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import { withAutoscaledReplicas, type AutoscaledReplicas } from './autoscaledTemplates.ts';
import { indexWithBindings, matchFolderBindings, type FolderBinding } from './previousOutputs.ts';
import { findUnknownClusterNames } from '../bindings/findUnknownClusterNames.ts';
import { findIdlePolicies } from '../bindings/findIdlePolicies.ts';
import { findUncreatedNamespaces } from '../bindings/findUncreatedNamespaces.ts';
import { shadowedNamespacePolicies } from '../works/autoPropagatedNamespace.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import type { Problem } from '../errors/problem.ts';

export interface SnapshotPrevious {
  index?: OutputIndex;
  bindings?: ReadonlyMap<string, ResourceBinding>;
  files?: Pick<ReadonlyMap<string, string>, 'has' | 'get'>;
  /** Bindings found in a folder, matched to the commit's templates once its model is known. */
  folderBindings?: readonly FolderBinding[];
  /** The renders before this one, where a broken policy or cluster finds its last good definition; absent: none. */
  renders?: RenderHistory;
}

/**
 * A whole commit rendered in memory, nothing written (`index`: the previous one with this render's entries): what validate, explain, plan, verify and
 * `render --out-dir` work from. `previous` supplies earlier scheduling results when there are any; `now` lets
 * NoExecute taints evict from them (plan leaves it out: a PR's plan shows what the PR does, not a failover), and
 * `health` (template health by refKey, as the status branch had it) lets graceful eviction tasks end; `autoscaled`
 * (FederatedHPA decisions of the status commit) gives workloads their decided replicas; `limits` the operator's.
 * A commit whose tree is too large to walk throws SourceTooLargeError.
 */
export function renderSnapshot(
  repo: GitRepo,
  rev: string,
  previous: SnapshotPrevious = {},
  clusterStatus?: ReadonlyMap<string, ObservedCluster>,
  now?: Date,
  health: ReadonlyMap<string, readonly AggregatedStatusItem[]> = new Map(),
  autoscaled: AutoscaledReplicas = new Map(),
  limits?: RenderLimits,
): Promise<{ sha: string; model: ConfigModel; output: RenderOutput; index: OutputIndex }> {
  return renderSnapshotKeeping(repo, rev, previous, clusterStatus, now, health, autoscaled, limits, undefined);
}

/**
 * What `validate` asks of a whole commit: its model and the render's problems, with the checks only a whole commit
 * allows. No file's text is kept and no cluster's reasons are written down: at the largest fleets those are millions
 * of strings a check never reads.
 */
export async function checkSnapshot(
  repo: GitRepo,
  rev: string,
  clusterStatus?: ReadonlyMap<string, ObservedCluster>,
  limits?: RenderLimits,
): Promise<{ sha: string; model: ConfigModel; problems: Problem[] }> {
  const { sha, model, output } = await renderSnapshotKeeping(
    repo,
    rev,
    {},
    clusterStatus,
    undefined,
    new Map(),
    new Map(),
    limits,
    {
      keep: () => 0,
      clusterReasons: false,
    },
  );
  return { sha, model, problems: output.problems };
}

/**
 * renderSnapshot keeping of each file what `checking.keep` makes of it (verify: a digest), with no cluster's reasons:
 * at the largest fleets the texts and reasons are millions of strings.
 */
export async function renderSnapshotKeeping<F>(
  repo: GitRepo,
  rev: string,
  previous: SnapshotPrevious,
  clusterStatus: ReadonlyMap<string, ObservedCluster> | undefined,
  now: Date | undefined,
  health: ReadonlyMap<string, readonly AggregatedStatusItem[]>,
  autoscaled: AutoscaledReplicas,
  limits: RenderLimits | undefined,
  checking: { keep: (text: string) => F; clusterReasons: false } | undefined,
): Promise<{ sha: string; model: ConfigModel; output: RenderOutput<F | string>; index: OutputIndex }> {
  const sha = await resolveRev(repo, rev);
  const commit = await readCommitInfo(repo, sha);
  const loaded = await loadSource(
    repo,
    commit.tree,
    null,
    undefined,
    sourceLimitsOf(limits),
    previous.renders ?? null,
  ).catch((err: unknown) => {
    throw err instanceof TreeTooLargeError ? new SourceTooLargeError(sourceTooLarge(sha, err), sha, err) : err;
  });
  // As the render decides it, from what the render before placed (its index, or the bindings it wrote).
  keepIncumbents(
    loaded.model,
    (key) =>
      (previous.index?.templates[key]?.clusters.length ?? 0) > 0 ||
      (previous.bindings?.get(key)?.spec.clusters?.length ?? 0) > 0,
  );
  const model = withAutoscaledReplicas(
    clusterStatus ? withClusterStatus(loaded.model, clusterStatus) : loaded.model,
    autoscaled,
  );
  const bindings = new Map(previous.bindings ?? []);
  for (const [key, b] of matchFolderBindings(previous.folderBindings ?? [], model))
    if (!bindings.has(key)) bindings.set(key, b);
  const previousIndex = indexWithBindings(previous.index ?? emptyIndex(), bindings, model);
  const affected = new Set([...loaded.affected, ...Object.keys(previousIndex.templates)]);
  const removed = removedNamespaces(
    affected,
    (key) => model.templates.has(key),
    (key) => Object.hasOwn(previousIndex.templates, key),
  );
  const output = await renderTemplates({
    model,
    affected,
    previousIndex: viewOfWhole(previousIndex),
    previousBindings: bindings,
    ...(removed.size > 0
      ? { namespaceContents: entriesByNamespace(Object.entries(previousIndex.templates), removed) }
      : {}),
    previousFiles: previous.files ?? new Map(),
    sourceCommit: sha,
    // Without a clock no taint eviction is decided. Without template health a task ends by its grace period only.
    ...(now ? { failover: { now, observed: health } } : {}),
    ...(limits?.maxOutputBytes !== undefined ? { maxOutputBytes: limits.maxOutputBytes } : {}),
    ...checking,
  });
  // A snapshot reads the whole commit, so policies that select nothing can be told apart from ones outside a change.
  output.problems.push(
    ...findIdlePolicies(model),
    ...findUnknownClusterNames(model),
    ...findUncreatedNamespaces(model),
    ...shadowedNamespacePolicies(model),
  );
  return { sha, model, output, index: applyTemplateChanges(previousIndex, output.indexChanges) };
}

/**
 * What is known beyond Git (--cluster-status or the status branch) joins Git's Cluster objects: the observed status
 * replaces theirs, and the controller-managed taints join the user's spec.taints. A cluster with nothing observed
 * keeps no status: unknown, so Ready with every API enabled.
 */
export function withClusterStatus(model: ConfigModel, observed: ReadonlyMap<string, ObservedCluster>): ConfigModel {
  const clusters = new Map(model.clusters);
  for (const [name, located] of clusters) {
    const o = observed.get(name);
    if (!o) continue;
    const spec = o.taints?.length
      ? { ...located.object.spec, taints: effectiveTaints(located.object.spec.taints, o.taints) }
      : located.object.spec;
    clusters.set(name, { ...located, object: { ...located.object, spec, ...(o.status ? { status: o.status } : {}) } });
  }
  return { ...model, clusters };
}
