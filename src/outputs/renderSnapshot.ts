import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import type { GitRepo } from '../commits/types.ts';
import type { Cluster } from '../api/cluster.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { ConfigModel } from '../documents/model.ts';
import { emptyIndex, type OutputIndex } from '../works/outputIndex.ts';
import { renderTemplates, type RenderOutput } from '../works/renderTemplates.ts';
import { loadSource } from './loadSource.ts';
import { indexWithBindings, matchFolderBindings, type FolderBinding } from './previousOutputs.ts';

export interface SnapshotPrevious {
  index?: OutputIndex;
  bindings?: ReadonlyMap<string, ResourceBinding>;
  files?: ReadonlyMap<string, string>;
  /** Bindings found in a folder, matched to the commit's templates once its model is known. */
  folderBindings?: readonly FolderBinding[];
}

/**
 * A whole commit rendered in memory, nothing written: what validate, explain, plan and
 * `render --out-dir` work from. `previous` supplies earlier scheduling results when there are any.
 */
export async function renderSnapshot(
  repo: GitRepo, rev: string, previous: SnapshotPrevious = {}, clusterStatus?: ReadonlyMap<string, Cluster['status']>,
): Promise<{ sha: string; model: ConfigModel; output: RenderOutput }> {
  const sha = await resolveRev(repo, rev);
  const commit = await readCommitInfo(repo, sha);
  const loaded = await loadSource(repo, commit.tree, null);
  const model = clusterStatus ? withClusterStatus(loaded.model, clusterStatus) : loaded.model;
  const bindings = new Map(previous.bindings ?? []);
  for (const [key, b] of matchFolderBindings(previous.folderBindings ?? [], model)) if (!bindings.has(key)) bindings.set(key, b);
  const previousIndex = indexWithBindings(previous.index ?? emptyIndex(), bindings, model);
  const affected = new Set([...loaded.affected, ...Object.keys(previousIndex.templates)]);
  const output = renderTemplates({
    model, affected, previousIndex, previousBindings: bindings, previousFiles: previous.files ?? new Map(), sourceCommit: sha,
  });
  return { sha, model, output };
}

/** Status from --cluster-status (or the status branch) replaces what Git's Cluster objects say. */
export function withClusterStatus(model: ConfigModel, status: ReadonlyMap<string, Cluster['status']>): ConfigModel {
  const clusters = new Map(model.clusters);
  for (const [name, located] of clusters) {
    const s = status.get(name);
    if (s) clusters.set(name, { ...located, object: { ...located.object, status: s } });
  }
  return { ...model, clusters };
}
