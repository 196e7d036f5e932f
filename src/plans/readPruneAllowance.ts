import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { parseTrailers } from '../outputs/outputMessage.ts';
import { ALLOW_PRUNE_TRAILER } from './checkPruneSafety.ts';

/** A Flotilla-Allow-Prune trailer found on a source commit. */
export interface PruneAllowance {
  reason: string;
  /** The source commit that carries it. */
  commit: string;
}

/** How far back the walk looks for `since`; past it only the head commit counts. */
const MAX_WALK = 500;

/**
 * The newest Flotilla-Allow-Prune trailer on the source commits after `since` up to and including `head`, walking
 * first parents (the history sync renders). A trailer counts once: a later apply starts after the commit it was
 * applied at, so a permission given for one deletion never carries over to the next. When `since` is unknown (first
 * apply, or history rewritten so it is not found) only `head` itself counts: failing closed. A commit that cannot
 * be read ends the walk; no trailer found is `undefined`.
 */
export async function readPruneAllowance(repo: GitRepo, head: string | undefined, since: string | undefined): Promise<PruneAllowance | undefined> {
  if (!head) return undefined;
  const seen: { oid: string; reason: string | undefined }[] = [];
  let cursor: string | undefined = head;
  let reachedSince = false;
  while (cursor && seen.length < MAX_WALK) {
    if (cursor === since) {
      reachedSince = true;
      break;
    }
    let info;
    try {
      info = await readCommitInfo(repo, cursor);
    } catch {
      break; // not in this repository (a Pull agent's partial clone) or corrupt: nothing beyond it counts
    }
    seen.push({ oid: cursor, reason: parseTrailers(info.message)[ALLOW_PRUNE_TRAILER]?.trim() || undefined });
    if (!since) break;
    cursor = info.parents[0];
  }
  const window = reachedSince ? seen : seen.slice(0, 1);
  const hit = window.find((c) => c.reason);
  return hit ? { reason: hit.reason!, commit: hit.oid } : undefined;
}
