import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { parseTree } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { isSafeEntryName } from './safeEntryName.ts';
import { refuseLargeWalk, TreeWalkBudget, utf8Bytes, type TreeWalkLimit } from './treeWalkBudget.ts';
import { isBlobMode, isTreeMode, type GitRepo, type TreeEntry, type TreeFile } from './types.ts';

/**
 * Every blob under a tree, keyed by its '/'-joined path relative to that tree. Submodule
 * entries (gitlinks) are left out: they name commits of another repository; so are names git would not check out,
 * and names that are not UTF-8, which two entries can spell alike once decoded: `notUtf8` hears of each such file
 * or folder, shown with its bad bytes escaped.
 * With `limit.maxEntries`, throws TreeTooLargeError once the walk has visited that many entries, a subtree counted
 * each time the tree names it (the tree of a source commit a pull request wrote), or on a path over MAX_PATH_BYTES;
 * without, lists whatever is there.
 */
export async function listTreeFiles(
  repo: GitRepo,
  treeOid: string,
  limit: TreeWalkLimit = {},
  notUtf8?: (path: string, folder: boolean) => void,
): Promise<Map<string, TreeFile>> {
  const files = new Map<string, TreeFile>();
  const budget = new TreeWalkBudget(treeOid, limit);
  // A tree named again (the same folder in two places) is decoded once.
  const parsed = new Map<string, TreeEntry[]>();
  const entriesOf = (oid: string) => {
    let entries = parsed.get(oid);
    if (!entries) parsed.set(oid, (entries = parseTree(readTreeBytes(repo, oid))));
    return entries;
  };
  await refuseLargeWalk(treeOid, limit, treeOid, String, (oid) => {
    const entries = entriesOf(oid);
    const below: { name: string; node: string }[] = [];
    let longestName = 0;
    for (const e of entries) {
      if (!isSafeEntryName(e.name) || e.notUtf8 !== undefined) continue;
      if (isTreeMode(e.mode)) below.push({ name: e.name, node: e.oid });
      else if (isBlobMode(e.mode)) longestName = Math.max(longestName, utf8Bytes(e.name));
    }
    return { spent: entries.length, longestName, below };
  });
  // Depth first from a list, not by recursion: each tree is counted as it is read, before any of its subtrees is, so
  // a walk past the bound stops after reading about that many entries; and a chain of folders thousands deep does not
  // grow the stack.
  const pending: { oid: string; prefix: string }[] = [{ oid: treeOid, prefix: '' }];
  // Tens of thousands of folders in a large source: the event loop gets a turn between two of them now and then.
  const turns = eventLoopTurns();
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (turns.due()) await turns.give();
    const entries = entriesOf(next.oid);
    budget.spend(entries.length, next.prefix);
    for (const e of entries) {
      if (!isSafeEntryName(e.name)) continue;
      if (e.notUtf8 !== undefined) {
        if (isTreeMode(e.mode) || isBlobMode(e.mode)) notUtf8?.(next.prefix + e.notUtf8, isTreeMode(e.mode));
        continue;
      }
      const path = next.prefix + e.name;
      if (isTreeMode(e.mode) || isBlobMode(e.mode)) budget.path(path);
      if (isTreeMode(e.mode)) pending.push({ oid: e.oid, prefix: `${path}/` });
      else if (isBlobMode(e.mode)) files.set(path, { oid: e.oid, mode: e.mode });
    }
  }
  // The list is walked last entry first: sorted so the map iterates in path order.
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
