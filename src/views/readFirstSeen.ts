import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo, type TreeEntry } from '../commits/types.ts';

/**
 * When each path appeared, kubectl's AGE from Git: walks first parents from `head` and returns, per path,
 * the committer time (seconds) of the oldest commit in the unbroken run of commits holding it. Git has no
 * creation event, so this is the time it was last (re)added. Walks at most `maxCommits` (default 500): older
 * objects show the age of the oldest commit walked. Trees are read once per oid.
 */
export async function readFirstSeen(repo: GitRepo, head: string, paths: readonly string[], maxCommits = 500): Promise<Map<string, number>> {
  const trees = new Map<string, Promise<TreeEntry[]>>();
  const entries = (oid: string) => {
    let p = trees.get(oid);
    if (!p) trees.set(oid, (p = readTree(repo, oid)));
    return p;
  };
  const has = async (tree: string, path: string): Promise<boolean> => {
    let oid = tree;
    const parts = path.split('/');
    for (const [i, part] of parts.entries()) {
      const e = (await entries(oid)).find((x) => x.name === part);
      if (!e) return false;
      if (i === parts.length - 1) return !isTreeMode(e.mode);
      if (!isTreeMode(e.mode)) return false;
      oid = e.oid;
    }
    return false;
  };
  const seen = new Map<string, number>();
  let open = [...new Set(paths)];
  let cursor: string | undefined = head;
  for (let i = 0; cursor && open.length && i < maxCommits; i++) {
    const c = await readCommitInfo(repo, cursor);
    const present = await Promise.all(open.map((p) => has(c.tree, p)));
    open = open.filter((p, k) => {
      if (present[k]) seen.set(p, c.committer.timestamp);
      return present[k]!;
    });
    cursor = c.parents[0];
  }
  return seen;
}
