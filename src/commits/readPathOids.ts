import { readBlobs } from './readBlobs.ts';
import { findTreeEntries } from './parseTree.ts';
import { readTreeBytes } from './readTree.ts';
import { isTreeMode, type GitRepo } from './types.ts';

/**
 * Blob oids of the given paths in a tree, reading only the trees along those paths, each once and looking in it
 * only for the names asked there (a folder of hundreds of namespaces or templates is not decoded whole for one).
 * Paths that do not exist are absent from the result.
 */
export async function readPathOids(
  repo: GitRepo,
  tree: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  return readPathOidsNow(repo, tree, paths);
}

/** readPathOids, answered synchronously (the object reader is): for a lookup made inside a pure stage. */
export function readPathOidsNow(repo: GitRepo, tree: string, paths: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  // Level by level: tree oid → the lookups that continue in it.
  let level = new Map<string, Lookup[]>([[tree, paths.map((path) => ({ path, segments: path.split('/'), depth: 0 }))]]);
  while (level.size > 0) {
    const next = new Map<string, Lookup[]>();
    for (const [oid, lookups] of level) {
      const { entries } = findTreeEntries(readTreeBytes(repo, oid), new Set(lookups.map((l) => l.segments[l.depth]!)));
      for (const lookup of lookups) {
        const entry = entries.get(lookup.segments[lookup.depth]!);
        if (!entry) continue;
        const last = lookup.depth === lookup.segments.length - 1;
        if (last !== !isTreeMode(entry.mode)) continue;
        if (last) {
          out.set(lookup.path, entry.oid);
          continue;
        }
        const below = next.get(entry.oid);
        const deeper = { ...lookup, depth: lookup.depth + 1 };
        if (below) below.push(deeper);
        else next.set(entry.oid, [deeper]);
      }
    }
    level = next;
  }
  // In the order asked: callers iterate the result.
  return new Map(paths.filter((path) => out.has(path)).map((path) => [path, out.get(path)!]));
}

interface Lookup {
  path: string;
  segments: string[];
  /** The segment looked up next. */
  depth: number;
}

/** The given files of a tree as text, reading only the trees along their paths; absent paths are absent. */
export async function readTextFiles(
  repo: GitRepo,
  tree: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const oids = await readPathOids(repo, tree, paths);
  const blobs = await readBlobs(repo, oids.values());
  const decoder = new TextDecoder();
  return new Map([...oids].map(([path, oid]) => [path, decoder.decode(blobs.get(oid)!)]));
}
