import { differingEntries, parseTree } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { compareUtf8 } from './renderTree.ts';
import { isSafeEntryName } from './safeEntryName.ts';
import { refuseLargeWalk, TreeWalkBudget, utf8Bytes, type TreeWalkLimit } from './treeWalkBudget.ts';
import { isBlobMode, isTreeMode, type GitRepo, type TreeChange, type TreeEntry } from './types.ts';

/**
 * Blobs added, modified (content or mode) or deleted between two trees, sorted by path.
 * Descends only into subtrees whose oids differ, so a 1-file change among 20k reads just the
 * trees on that file's path (notes §C finding 3: git.walk reads every subtree, even pruned).
 * A null old tree lists everything in the new tree as added. Names git would not check out are left out.
 * With `limit.maxEntries`, throws TreeTooLargeError once the walk has visited that many entries of the trees it read,
 * both sides, a subtree counted each time it is named (as listTreeFiles), or on a path over MAX_PATH_BYTES; without,
 * diffs whatever is there.
 */
export async function diffTrees(
  repo: GitRepo,
  oldTree: string | null,
  newTree: string,
  limit: TreeWalkLimit = {},
  notUtf8?: (path: string, folder: boolean) => void,
): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  const budget = new TreeWalkBudget(newTree, limit);
  // A pair of folders named again (the same folder in two places, changed the same way) is compared once.
  const compared = new Map<string, Compared>();
  const compare = (pair: Pair) => {
    const key = pairKey(pair);
    let found = compared.get(key);
    if (!found) compared.set(key, (found = comparePair(repo, pair)));
    return found;
  };
  await refuseLargeWalk<Pair>(newTree, limit, { oldOid: oldTree, newOid: newTree }, pairKey, (pair) => {
    const { spent, changed, below } = compare(pair);
    let longestName = 0;
    for (const c of changed) longestName = Math.max(longestName, utf8Bytes(c.name));
    return { spent, longestName, below };
  });
  // A list, not recursion, as in listTreeFiles: each pair is counted before any folder below it is read.
  const pending: (Pair & { prefix: string })[] = [{ oldOid: oldTree, newOid: newTree, prefix: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { spent, changed, below } = compare(next);
    budget.spend(spent, next.prefix);
    for (const { name, folder } of compared.get(pairKey(next))!.notUtf8) notUtf8?.(next.prefix + name, folder);
    for (const { name, change } of changed) {
      const path = next.prefix + name;
      budget.path(path);
      changes.push({ path, ...change });
    }
    for (const { name, node } of below) {
      budget.path(next.prefix + name);
      pending.push({ oldOid: node.oldOid, newOid: node.newOid, prefix: `${next.prefix}${name}/` });
    }
  }
  return changes.sort((a, b) => compareUtf8(a.path, b.path));
}

interface Pair {
  oldOid: string | null;
  newOid: string | null;
}

const pairKey = (pair: Pair) => `${pair.oldOid}:${pair.newOid}`;

/** Two versions of one folder compared: the entries the walk counts, its changed files, the subfolders that differ. */
interface Compared {
  spent: number;
  changed: { name: string; change: Omit<TreeChange, 'path'> }[];
  below: { name: string; node: Pair }[];
  /** Entries of the new side whose names are not UTF-8, as shown, that the old side does not hold alike. */
  notUtf8: { name: string; folder: boolean }[];
}

const NO_ENTRIES = new Uint8Array(0);

function comparePair(repo: GitRepo, { oldOid, newOid }: Pair): Compared {
  const out: Compared = { spent: 0, changed: [], below: [], notUtf8: [] };
  if (oldOid === newOid) return out;
  const oldBytes = oldOid ? readTreeBytes(repo, oldOid) : NO_ENTRIES;
  const newBytes = newOid ? readTreeBytes(repo, newOid) : NO_ENTRIES;
  // Two versions of a folder: only the entries that differ are decoded (a folder of thousands of namespaces, one
  // changed); a folder on one side only is listed whole.
  const differing = oldOid && newOid ? differingEntries(oldBytes, newBytes) : undefined;
  const oldEntries = differing ? differing.old : parseTree(oldBytes);
  const newEntries = differing ? differing.new : parseTree(newBytes);
  // Every entry the comparison stepped over counts, decoded or not: two large folders that differ in one entry,
  // named a thousand times, are scanned a thousand times.
  out.spent = differing ? differing.scanned : oldEntries.length + newEntries.length;
  const byName = new Map<string, { old?: TreeEntry; new?: TreeEntry }>();
  // As listTreeFiles: a name that is not UTF-8 is no file of the commit; decoded, it could pass for another name.
  for (const e of oldEntries) if (e.notUtf8 === undefined) byName.set(e.name, { old: e });
  for (const e of newEntries) if (e.notUtf8 === undefined) byName.set(e.name, { ...byName.get(e.name), new: e });
  const before = new Set(
    oldEntries.flatMap((e) => (e.notUtf8 === undefined ? [] : [`${e.mode} ${e.notUtf8} ${e.oid}`])),
  );
  for (const e of newEntries)
    if (
      e.notUtf8 !== undefined &&
      (isBlobMode(e.mode) || isTreeMode(e.mode)) &&
      !before.has(`${e.mode} ${e.notUtf8} ${e.oid}`)
    )
      out.notUtf8.push({ name: e.notUtf8, folder: isTreeMode(e.mode) });

  for (const [name, pair] of byName) {
    // As listTreeFiles: a name git would not check out (`..`, `.git`) is no file of the commit.
    if (!isSafeEntryName(name)) continue;
    const oldBlob = pair.old && isBlobMode(pair.old.mode) ? pair.old : undefined;
    const newBlob = pair.new && isBlobMode(pair.new.mode) ? pair.new : undefined;
    const unchanged = oldBlob && newBlob && oldBlob.oid === newBlob.oid && oldBlob.mode === newBlob.mode;
    if ((oldBlob || newBlob) && !unchanged) {
      const change: Omit<TreeChange, 'path'> = {};
      if (oldBlob) Object.assign(change, { oldOid: oldBlob.oid, oldMode: oldBlob.mode });
      if (newBlob) Object.assign(change, { newOid: newBlob.oid, newMode: newBlob.mode });
      out.changed.push({ name, change });
    }
    // A path may turn from file into directory or back: then one side is a blob, the other a tree.
    const oldSub = pair.old && isTreeMode(pair.old.mode) ? pair.old.oid : null;
    const newSub = pair.new && isTreeMode(pair.new.mode) ? pair.new.oid : null;
    if (oldSub !== newSub) out.below.push({ name, node: { oldOid: oldSub, newOid: newSub } });
  }
  return out;
}
