import { differingEntries, parseTree } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { compareUtf8 } from './renderTree.ts';
import { isSafeEntryName } from './safeEntryName.ts';
import { TreeWalkBudget, type TreeWalkLimit } from './treeWalkBudget.ts';
import { isBlobMode, isTreeMode, type GitRepo, type TreeChange, type TreeEntry } from './types.ts';

/**
 * Blobs added, modified (content or mode) or deleted between two trees, sorted by path.
 * Descends only into subtrees whose oids differ, so a 1-file change among 20k reads just the
 * trees on that file's path (notes §C finding 3: git.walk reads every subtree, even pruned).
 * A null old tree lists everything in the new tree as added. Names git would not check out are left out.
 * With `limit.maxEntries`, throws TreeTooLargeError once the walk has visited that many entries of the trees it read,
 * both sides, a subtree counted each time it is named (as listTreeFiles); without, diffs whatever is there.
 */
export async function diffTrees(
  repo: GitRepo,
  oldTree: string | null,
  newTree: string,
  limit: TreeWalkLimit = {},
): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  const budget = new TreeWalkBudget(newTree, limit);
  // A list, not recursion, as in listTreeFiles: each pair is counted before any folder below it is read.
  const pending: Pair[] = [{ oldOid: oldTree, newOid: newTree, prefix: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) diffPair(repo, next, budget, changes, pending);
  return changes.sort((a, b) => compareUtf8(a.path, b.path));
}

interface Pair {
  oldOid: string | null;
  newOid: string | null;
  prefix: string;
}

const NO_ENTRIES = new Uint8Array(0);

function diffPair(
  repo: GitRepo,
  { oldOid, newOid, prefix }: Pair,
  budget: TreeWalkBudget,
  out: TreeChange[],
  pending: Pair[],
): void {
  if (oldOid === newOid) return;
  const oldBytes = oldOid ? readTreeBytes(repo, oldOid) : NO_ENTRIES;
  const newBytes = newOid ? readTreeBytes(repo, newOid) : NO_ENTRIES;
  // Two versions of a folder: only the entries that differ are decoded (a folder of thousands of namespaces, one
  // changed); a folder on one side only is listed whole.
  const differing = oldOid && newOid ? differingEntries(oldBytes, newBytes) : undefined;
  const oldEntries = differing ? differing.old : parseTree(oldBytes);
  const newEntries = differing ? differing.new : parseTree(newBytes);
  // Every entry the comparison stepped over counts, decoded or not: two large folders that differ in one entry,
  // named a thousand times, are scanned a thousand times.
  budget.spend(differing ? differing.scanned : oldEntries.length + newEntries.length, prefix);
  const byName = new Map<string, { old?: TreeEntry; new?: TreeEntry }>();
  for (const e of oldEntries) byName.set(e.name, { old: e });
  for (const e of newEntries) byName.set(e.name, { ...byName.get(e.name), new: e });

  for (const [name, pair] of byName) {
    // As listTreeFiles: a name git would not check out (`..`, `.git`) is no file of the commit.
    if (!isSafeEntryName(name)) continue;
    const path = prefix + name;
    const oldBlob = pair.old && isBlobMode(pair.old.mode) ? pair.old : undefined;
    const newBlob = pair.new && isBlobMode(pair.new.mode) ? pair.new : undefined;
    const unchanged = oldBlob && newBlob && oldBlob.oid === newBlob.oid && oldBlob.mode === newBlob.mode;
    if ((oldBlob || newBlob) && !unchanged) {
      const change: TreeChange = { path };
      if (oldBlob) Object.assign(change, { oldOid: oldBlob.oid, oldMode: oldBlob.mode });
      if (newBlob) Object.assign(change, { newOid: newBlob.oid, newMode: newBlob.mode });
      out.push(change);
    }
    // A path may turn from file into directory or back: then one side is a blob, the other a tree.
    const oldSub = pair.old && isTreeMode(pair.old.mode) ? pair.old.oid : null;
    const newSub = pair.new && isTreeMode(pair.new.mode) ? pair.new.oid : null;
    if (oldSub !== newSub) pending.push({ oldOid: oldSub, newOid: newSub, prefix: `${path}/` });
  }
}
