import { readTree } from './readTree.ts';
import { isSafeEntryName } from './safeEntryName.ts';
import { isBlobMode, isTreeMode, type GitRepo, type TreeFile } from './types.ts';

/**
 * Every blob under a tree, keyed by its '/'-joined path relative to that tree. Submodule
 * entries (gitlinks) are left out: they name commits of another repository; so are names git would not check out.
 * Reads each subtree once; sibling subtrees are read concurrently.
 */
export async function listTreeFiles(repo: GitRepo, treeOid: string): Promise<Map<string, TreeFile>> {
  const files = new Map<string, TreeFile>();
  await collect(repo, treeOid, '', files);
  // Concurrent reads finish in any order; sort so the map iterates in path order every time.
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function collect(repo: GitRepo, oid: string, prefix: string, out: Map<string, TreeFile>): Promise<void> {
  const subtrees: Promise<void>[] = [];
  for (const e of await readTree(repo, oid)) {
    if (!isSafeEntryName(e.name)) continue;
    const path = prefix + e.name;
    if (isTreeMode(e.mode)) subtrees.push(collect(repo, e.oid, `${path}/`, out));
    else if (isBlobMode(e.mode)) out.set(path, { oid: e.oid, mode: e.mode });
  }
  await Promise.all(subtrees);
}
