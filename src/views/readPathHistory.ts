import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import { readPathOids } from '../commits/readPathOids.ts';

/** The newest commits (first parents from `head`) that added, changed or removed `path`, newest first. */
export async function readPathHistory(
  repo: GitRepo,
  head: string,
  path: string,
  limit = 10,
  maxCommits = 500,
): Promise<CommitInfo[]> {
  const blobAt = async (tree: string): Promise<string | null> =>
    (await readPathOids(repo, tree, [path])).get(path) ?? null;
  const out: CommitInfo[] = [];
  let current = head ? await readCommitInfo(repo, head) : undefined;
  for (let i = 0; current && out.length < limit && i < maxCommits; i++) {
    const parent: CommitInfo | undefined = current.parents[0]
      ? await readCommitInfo(repo, current.parents[0])
      : undefined;
    const [now, before] = await Promise.all([blobAt(current.tree), parent ? blobAt(parent.tree) : null]);
    if (now !== before) out.push(current);
    current = parent;
  }
  return out;
}
