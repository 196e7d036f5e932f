import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type CommitInfo, type GitRepo, type TreeEntry } from '../commits/types.ts';

/** The newest commits (first parents from `head`) that added, changed or removed `path`, newest first. */
export async function readPathHistory(repo: GitRepo, head: string, path: string, limit = 10, maxCommits = 500): Promise<CommitInfo[]> {
  const trees = new Map<string, Promise<TreeEntry[]>>();
  const entries = (oid: string) => {
    let p = trees.get(oid);
    if (!p) trees.set(oid, (p = readTree(repo, oid)));
    return p;
  };
  const blobAt = async (tree: string): Promise<string | null> => {
    let oid = tree;
    const parts = path.split('/');
    for (const [i, part] of parts.entries()) {
      const e = (await entries(oid)).find((x) => x.name === part);
      if (!e) return null;
      if (i === parts.length - 1) return isTreeMode(e.mode) ? null : e.oid;
      if (!isTreeMode(e.mode)) return null;
      oid = e.oid;
    }
    return null;
  };
  const out: CommitInfo[] = [];
  let cursor: string | undefined = head;
  let current = cursor ? await readCommitInfo(repo, cursor) : undefined;
  for (let i = 0; current && out.length < limit && i < maxCommits; i++) {
    const parent: CommitInfo | undefined = current.parents[0] ? await readCommitInfo(repo, current.parents[0]) : undefined;
    const [now, before] = await Promise.all([blobAt(current.tree), parent ? blobAt(parent.tree) : null]);
    if (now !== before) out.push(current);
    current = parent;
  }
  return out;
}
