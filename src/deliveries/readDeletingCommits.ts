import { parseRefKey } from '../api/kinds.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import { identityKey } from '../branches/status/inventory.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';
import { refFromManifest } from '../branches/rendered/fileRefs.ts';
import { ALLOW_PRUNE_TRAILER, type DeletingCommit, type DeletionAttribution } from './checkPruneSafety.ts';
import { clusterOfPath } from '../branches/rendered/outputPaths.ts';

/** How many rendered commits the walk reads at most; older deletions are not attributed (so held: fail closed). */
const MAX_WALK = 500;

export interface DeletingCommitsRequest {
  /** The rendered commit being delivered (or synced to). */
  head: string;
  /** Stop below this rendered commit: its deletions were judged already (sync: the branch before the sync). */
  stopAtRendered?: string | null | undefined;
  /** Stop at the first rendered commit of this source: what the applier last applied to the cluster. */
  stopAtSource?: string | undefined;
  /** Only these clusters' folders; all when absent. */
  clusters?: ReadonlySet<string>;
}

/**
 * Which source commit took each object out of each cluster's folder, and the Flotilla-Allow-Prune trailer that
 * covers it: that of the deleting commit itself or of the nearest later one in the walk, never of an earlier one.
 * So a permission given for one change cannot let a later change's deletions through (however many commits one pass
 * covers), while a follow-up commit carrying the trailer still releases deletions held before it. Deletions older
 * than the walk (held by an earlier pass) are covered by any trailer in it. The same for sync, the applier and the
 * reconciler; plan judges one change, whose head commit is the nearest later one for all its deletions. A removal in a
 * commit Flotilla did not write (no Source-Commit trailer) deletes under no source's name; a source commit that
 * cannot be read (a Pull agent's partial clone) gives no permission.
 */
export async function readDeletingCommits(repo: GitRepo, req: DeletingCommitsRequest): Promise<DeletionAttribution> {
  const found = new Map<string, Map<string, DeletingCommit>>();
  const reasons = new Map<string, string | undefined>();
  // The trailer in force for what is deleted at the current step of the walk: the nearest at or after it.
  let inForce: { reason: string; commit: string } | undefined;
  let cursor: string | undefined = req.head;
  for (let steps = 0; cursor && cursor !== req.stopAtRendered && steps < MAX_WALK; steps++) {
    let info: CommitInfo;
    try {
      info = await readCommitInfo(repo, cursor);
    } catch {
      break;
    }
    const source = parseTrailers(info.message)['Source-Commit'];
    if (req.stopAtSource && source === req.stopAtSource) break;
    const reason = source ? await allowReasonOf(repo, source, reasons) : undefined;
    if (reason) inForce = { reason, commit: source! };
    const parent = info.parents[0];
    if (!parent) break;
    const parentTree = (await readCommitInfo(repo, parent)).tree;
    const removed = (await diffTrees(repo, parentTree, info.tree)).filter((c) => {
      const cluster = clusterOfPath(c.path);
      return cluster !== undefined && c.oldOid && !c.newOid && (!req.clusters || req.clusters.has(cluster));
    });
    if (removed.length > 0) {
      const blobs = await readBlobs(
        repo,
        removed.map((c) => c.oldOid!),
      );
      for (const c of removed) {
        const key = refFromManifest(new TextDecoder().decode(blobs.get(c.oldOid!)!));
        if (!key) continue;
        const cluster = clusterOfPath(c.path)!;
        const byCluster = found.get(cluster) ?? new Map<string, DeletingCommit>();
        found.set(cluster, byCluster);
        const id = identityKey(parseRefKey(key));
        // Newest first: an object deleted, restored and deleted again was last deleted by the newer commit.
        if (!byCluster.has(id))
          byCluster.set(id, {
            commit: source ?? info.oid,
            ...(inForce ? { allowReason: inForce.reason, allowedAt: inForce.commit } : {}),
          });
      }
    }
    cursor = parent;
  }
  const carried = inForce;
  // Matched without the version: the inventory may name an object by an older version of its API.
  return (cluster, refKey) =>
    found.get(cluster)?.get(identityKey(parseRefKey(refKey))) ??
    (carried ? { commit: '', allowReason: carried.reason, allowedAt: carried.commit } : undefined);
}

async function allowReasonOf(
  repo: GitRepo,
  source: string,
  cache: Map<string, string | undefined>,
): Promise<string | undefined> {
  if (cache.has(source)) return cache.get(source);
  let reason: string | undefined;
  try {
    reason = parseTrailers((await readCommitInfo(repo, source)).message)[ALLOW_PRUNE_TRAILER]?.trim() || undefined;
  } catch {
    reason = undefined; // not in this repository: no permission can be read, so none is given
  }
  cache.set(source, reason);
  return reason;
}
