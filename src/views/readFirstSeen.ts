import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { findTreeEntries } from '../commits/parseTree.ts';
import { readPathOidsNow } from '../commits/readPathOids.ts';
import { readTreeBytes } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo } from '../commits/types.ts';

/**
 * When each path appeared, kubectl's AGE from Git: walks first parents from `head` and returns, per path,
 * the committer time (seconds) of the oldest commit in the unbroken run of commits holding it. Git has no
 * creation event, so this is the time it was last (re)added. Walks at most `maxCommits` (default 500): older
 * objects show the age of the oldest commit walked.
 *
 * Each step from a commit to its parent reads only the folders, on the paths still held, whose oid moved between
 * the two: a listing of thousands of templates over hundreds of commits looked every path up again in every commit.
 */
export async function readFirstSeen(
  repo: GitRepo,
  head: string,
  paths: readonly string[],
  maxCommits = 500,
): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let commit = await readCommitInfo(repo, head);
  const held = new Folder();
  for (const path of readPathOidsNow(repo, commit.tree, [...new Set(paths)]).keys()) held.add(path);
  for (let i = 1; i < maxCommits && !held.empty() && commit.parents[0]; i++) {
    const parent = await readCommitInfo(repo, commit.parents[0]);
    for (const path of goneIn(repo, parent.tree, commit.tree, held)) seen.set(path, commit.committer.timestamp);
    commit = parent;
  }
  for (const path of held.paths()) seen.set(path, commit.committer.timestamp);
  return seen;
}

/** Paths as a tree of names: the files of a folder by name, and its folders. */
class Folder {
  readonly files = new Map<string, string>();
  readonly folders = new Map<string, Folder>();

  add(path: string): void {
    const parts = path.split('/');
    let at: Folder = this;
    for (const name of parts.slice(0, -1)) {
      let below = at.folders.get(name);
      if (!below) at.folders.set(name, (below = new Folder()));
      at = below;
    }
    at.files.set(parts.at(-1)!, path);
  }

  /** Whether no path is held here: a folder whose paths all went is taken out of its parent (goneIn). */
  empty(): boolean {
    return this.files.size === 0 && this.folders.size === 0;
  }

  paths(): string[] {
    return [...this.files.values(), ...[...this.folders.values()].flatMap((f) => f.paths())];
  }
}

/**
 * Of the paths `held` (each in `tree`), those `parentTree` does not hold as files, taken out of `held`: compared folder
 * by folder, descending only where the two oids differ, and looking in a folder only for the names held there.
 */
function goneIn(repo: GitRepo, parentTree: string, tree: string, held: Folder): string[] {
  if (parentTree === tree) return [];
  const names = new Set([...held.files.keys(), ...held.folders.keys()]);
  const before = findTreeEntries(readTreeBytes(repo, parentTree), names).entries;
  const now =
    held.folders.size > 0 ? findTreeEntries(readTreeBytes(repo, tree), new Set(held.folders.keys())).entries : null;
  const gone: string[] = [];
  for (const [name, path] of held.files) {
    const entry = before.get(name);
    if (!entry || isTreeMode(entry.mode)) {
      gone.push(path);
      held.files.delete(name);
    }
  }
  for (const [name, folder] of held.folders) {
    const entry = before.get(name);
    if (!entry || !isTreeMode(entry.mode)) {
      gone.push(...folder.paths());
      held.folders.delete(name);
      continue;
    }
    const oid = now!.get(name)!.oid;
    if (entry.oid === oid) continue;
    gone.push(...goneIn(repo, entry.oid, oid, folder));
    if (folder.empty()) held.folders.delete(name);
  }
  return gone;
}
