import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { MAX_PATH_BYTES, TreeTooLargeError } from './TreeTooLargeError.ts';

/**
 * How many tree entries one walk (listTreeFiles, diffTrees) may visit; absent: no bound. A bounded walk also refuses
 * a path over MAX_PATH_BYTES.
 */
export interface TreeWalkLimit {
  maxEntries?: number;
}

/**
 * The entries one walk has visited so far, each tree's entries counted every time the walk reads that tree: what a
 * walk costs is the paths it spells, not the objects it reads. Throws TreeTooLargeError once past the bound.
 */
export class TreeWalkBudget {
  #spent = 0;
  readonly #tree: string;
  readonly #limit: number;

  constructor(tree: string, limit: TreeWalkLimit) {
    this.#tree = tree;
    this.#limit = limit.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  /** Counts the entries of one tree read, at `path` ('' the root, else ending in '/'). */
  spend(entries: number, path: string): void {
    this.#spent += entries;
    if (this.#spent > this.#limit)
      throw new TreeTooLargeError(this.#tree, this.#spent, this.#limit, path.replace(/\/$/, ''));
  }

  /** Refuses a path (of a file or a folder) over MAX_PATH_BYTES, when the walk is bounded. */
  path(path: string): void {
    // A UTF-16 unit is 1 to 3 bytes of UTF-8: most paths are decided by their length alone.
    if (this.#limit === Number.POSITIVE_INFINITY || path.length * 3 <= MAX_PATH_BYTES) return;
    const bytes = Buffer.byteLength(path);
    if (bytes > MAX_PATH_BYTES) throw new TreeTooLargeError(this.#tree, bytes, MAX_PATH_BYTES, path, 'path');
  }
}

/** One folder of a walk as refuseLargeWalk sees it: what the walk spends there and where it goes from it. */
export interface WalkStep<K> {
  /** Entries the walk counts when it reads this folder (TreeWalkBudget.spend). */
  spent: number;
  /** The longest name, in UTF-8 bytes, of the paths the walk makes here without going into them (its files). */
  longestName: number;
  /** The folders the walk goes into from here, by name. */
  below: { name: string; node: K }[];
}

/**
 * Throws TreeTooLargeError, before a bounded walk starts, when the walk would pass its bound: the entries it would
 * count, or a path over MAX_PATH_BYTES. Each distinct folder (`keyOf`) is read once, its total kept, so a few objects
 * that spell a billion paths are refused after reading those few, where the walk itself read a million entries (some
 * seconds, hundreds of MB) before its count stopped it. The walk still counts: this is the cheap early no, not the
 * bound. A folder's total is its own entries plus its subfolders' totals, a subfolder once for each name it has.
 */
export async function refuseLargeWalk<K>(
  tree: string,
  limit: TreeWalkLimit,
  root: K,
  keyOf: (node: K) => string,
  read: (node: K) => WalkStep<K>,
): Promise<void> {
  const maxEntries = limit.maxEntries;
  if (maxEntries === undefined) return;
  // A large source has tens of thousands of folders: the event loop gets a turn between two of them now and then.
  const turns = eventLoopTurns();
  // Per folder: the entries the walk would count in it, and its longest path in bytes (relative, no leading '/').
  const totals = new Map<string, { entries: number; bytes: number }>();
  interface Pending {
    node: K;
    key: string;
    path: string;
    pathBytes: number;
    step?: WalkStep<K>;
  }
  // Depth first from a list: a folder is summed once every folder below it is.
  const stack: Pending[] = [{ node: root, key: keyOf(root), path: '', pathBytes: 0 }];
  // The entries of the distinct folders read so far: the walk counts each of them at least once, so past the bound
  // the walk is too, whatever is left to read. Without it, a tree too large was read whole before its root's total said so.
  let distinct = 0;
  while (stack.length > 0) {
    if (turns.due()) await turns.give();
    const top = stack[stack.length - 1]!;
    if (totals.has(top.key)) {
      stack.pop();
      continue;
    }
    if (!top.step) {
      const step = (top.step = read(top.node));
      distinct += step.spent;
      if (distinct > maxEntries) throw new TreeTooLargeError(tree, distinct, maxEntries, top.path);
      const longest = prefixBytes(top) + step.longestName;
      if (longest > MAX_PATH_BYTES) throw new TreeTooLargeError(tree, longest, MAX_PATH_BYTES, top.path, 'path');
      for (const { name, node } of step.below) {
        const key = keyOf(node);
        if (totals.has(key)) continue;
        const pathBytes = prefixBytes(top) + utf8Bytes(name);
        const path = top.path ? `${top.path}/${name}` : name;
        if (pathBytes > MAX_PATH_BYTES) throw new TreeTooLargeError(tree, pathBytes, MAX_PATH_BYTES, path, 'path');
        stack.push({ node, key, path, pathBytes });
      }
      continue;
    }
    stack.pop();
    let entries = top.step.spent;
    let bytes = top.step.longestName;
    for (const { name, node } of top.step.below) {
      const below = totals.get(keyOf(node))!;
      entries += below.entries;
      bytes = Math.max(bytes, utf8Bytes(name) + 1 + below.bytes);
    }
    totals.set(top.key, { entries, bytes });
    if (entries > maxEntries) throw new TreeTooLargeError(tree, entries, maxEntries, top.path);
    // Named at a longer path elsewhere, a folder's paths are longer still: checked where that name's folder is summed.
    const longest = prefixBytes(top) + bytes;
    if (longest > MAX_PATH_BYTES) throw new TreeTooLargeError(tree, longest, MAX_PATH_BYTES, top.path, 'path');
  }
}

/** A name's length in UTF-8: for printable ASCII, the most of them, the string's length. */
export function utf8Bytes(name: string): number {
  return NOT_ASCII.test(name) ? Buffer.byteLength(name) : name.length;
}

const NOT_ASCII = /[^ -~]/;

/** The bytes a folder adds before the names in it: its path and a '/', none at the root. */
function prefixBytes(folder: { path: string; pathBytes: number }): number {
  return folder.path ? folder.pathBytes + 1 : 0;
}
