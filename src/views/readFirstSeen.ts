import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { readPathOids } from '../commits/readPathOids.ts';

/**
 * When each path appeared, kubectl's AGE from Git: walks first parents from `head` and returns, per path,
 * the committer time (seconds) of the oldest commit in the unbroken run of commits holding it. Git has no
 * creation event, so this is the time it was last (re)added. Walks at most `maxCommits` (default 500): older
 * objects show the age of the oldest commit walked.
 */
export async function readFirstSeen(
  repo: GitRepo,
  head: string,
  paths: readonly string[],
  maxCommits = 500,
): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let open = [...new Set(paths)];
  let cursor: string | undefined = head;
  for (let i = 0; cursor && open.length && i < maxCommits; i++) {
    const c = await readCommitInfo(repo, cursor);
    const present = await readPathOids(repo, c.tree, open);
    open = open.filter((p) => {
      if (present.has(p)) seen.set(p, c.committer.timestamp);
      return present.has(p);
    });
    cursor = c.parents[0];
  }
  return seen;
}
