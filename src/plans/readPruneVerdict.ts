import { diffTrees } from '../commits/diffTrees.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo } from '../commits/types.ts';
import type { OutputIndex, ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { refFromManifest, refsByPath } from '../branches/rendered/fileRefs.ts';
import { clusterOfPath, parseReleasedFile, RELEASED_PATH } from '../branches/rendered/outputPaths.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { readDeletingCommits } from '../deliveries/readDeletingCommits.ts';
import { checkPruneSafety, type PruneVerdict, type SourceState } from '../deliveries/checkPruneSafety.ts';

export interface PruneVerdictRequest {
  /** The rendered branch before the sync (null: nothing was rendered, so nothing can be deleted). */
  before: string | null;
  /** The rendered branch after it. */
  after: string | null;
  threshold?: number;
}

/**
 * What prune safety will hold when the applier delivers what a sync just rendered: per cluster, the manifests that
 * left its folder against what the folder held before. The rendered branch itself always tells the truth (what the
 * source asks for); this is the warning at push time, so the user learns it before the applier holds it.
 */
export async function readPruneVerdict(repo: GitRepo, req: PruneVerdictRequest): Promise<PruneVerdict | null> {
  if (!req.before || !req.after || req.before === req.after) return null;
  const [before, after] = await Promise.all([readCommitInfo(repo, req.before), readCommitInfo(repo, req.after)]);
  const removed = (await diffTrees(repo, before.tree, after.tree)).filter(
    (c) => clusterOfPath(c.path) !== undefined && c.oldOid && !c.newOid,
  );
  if (removed.length === 0) return null;

  const [oldIndex, newIndex] = await Promise.all([readIndex(repo, before.tree), readIndex(repo, after.tree)]);
  const oldWhole = await wholeOf(oldIndex);
  const refs = refsByPath(oldWhole ? [oldWhole] : []);
  // The applier releases these instead of pruning them (preserveResourcesOnDeletion): no deletion to weigh.
  const releasedText = (await readTextFiles(repo, after.tree, [RELEASED_PATH])).get(RELEASED_PATH);
  const released = parseBranchFile(req.after, RELEASED_PATH, () => parseReleasedFile(releasedText));
  const releasedPaths = new Set<string>();
  const removals = new Map<string, string[]>();
  const unnamed: { cluster: string; path: string; oid: string }[] = [];
  for (const c of removed) {
    const cluster = clusterOfPath(c.path)!;
    const ref = refs.get(c.path);
    if (ref && released.get(cluster)?.has(ref)) releasedPaths.add(c.path);
    else if (ref) push(removals, cluster, ref);
    else unnamed.push({ cluster, path: c.path, oid: c.oldOid! });
  }
  if (removals.size === 0 && unnamed.length === 0) return null;
  // A manifest the index does not name (written by hand): its own apiVersion, kind and name say what it is.
  const blobs = await readBlobs(
    repo,
    unnamed.map((u) => u.oid),
  );
  for (const u of unnamed)
    push(removals, u.cluster, refFromManifest(new TextDecoder().decode(blobs.get(u.oid)!)) ?? u.path);

  const current = new Map<string, number>();
  const clusterTrees = await subtrees(repo, before.tree, 'clusters');
  for (const cluster of removals.keys()) {
    const oid = clusterTrees.get(cluster);
    const files = oid ? [...(await listTreeFiles(repo, oid)).keys()] : [];
    // As the applier counts: a released object leaves the inventory before prune safety weighs the deletions.
    current.set(cluster, files.filter((f) => !releasedPaths.has(`clusters/${cluster}/${f}`)).length);
  }

  // Each deletion is judged by the trailer of the source commit whose render made it, as the applier will judge it.
  const deletedBy = await readDeletingCommits(repo, {
    head: req.after,
    stopAtRendered: req.before,
    clusters: new Set(removals.keys()),
  });
  return checkPruneSafety({
    current,
    removals,
    source: sourceState(newIndex),
    deletedBy,
    allowWith: 'new-commit',
    ...(req.threshold !== undefined ? { threshold: req.threshold } : {}),
  });
}

/** As the applier judges it: an index that names no source file at all means the source read as empty. */
function sourceState(index: ShardedIndex | null): SourceState {
  return index && index.sourceFileCount() === 0 ? 'empty' : 'ok';
}

/** Every entry of an index; null when it cannot be read (the manifests then say what they are). */
async function wholeOf(index: ShardedIndex | null): Promise<OutputIndex | null> {
  try {
    await index?.loadAll();
    return index?.toWhole() ?? null;
  } catch {
    return null;
  }
}

async function readIndex(repo: GitRepo, tree: string): Promise<ShardedIndex | null> {
  try {
    return await openOutputIndex(repo, tree);
  } catch {
    return null;
  }
}

/** name → oid of the entries of folder `dir` in the root tree: subtrees, or blobs when `trees` is false. */
async function subtrees(repo: GitRepo, root: string, dir: string, trees = true): Promise<Map<string, string>> {
  const entry = (await readTree(repo, root)).find((e) => e.name === dir && isTreeMode(e.mode));
  if (!entry) return new Map();
  return new Map(
    (await readTree(repo, entry.oid)).filter((e) => isTreeMode(e.mode) === trees).map((e) => [e.name, e.oid]),
  );
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
