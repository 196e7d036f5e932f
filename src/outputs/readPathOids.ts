import { readBlobs } from '../commits/readBlobs.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type GitRepo, type TreeEntry } from '../commits/types.ts';

/**
 * Blob oids of the given paths in a tree, reading only the trees along those paths (each once).
 * Paths that do not exist are absent from the result.
 */
export async function readPathOids(repo: GitRepo, tree: string, paths: readonly string[]): Promise<Map<string, string>> {
  // Each tree once, as a name → entry map: folders of thousands of files are looked up many times.
  const trees = new Map<string, Promise<Map<string, TreeEntry>>>();
  const entries = (oid: string) => {
    let p = trees.get(oid);
    if (!p) {
      p = readTree(repo, oid).then((list) => new Map(list.map((e) => [e.name, e])));
      trees.set(oid, p);
    }
    return p;
  };
  const out = new Map<string, string>();
  await Promise.all(paths.map(async (path) => {
    let current = tree;
    const segments = path.split('/');
    for (let i = 0; i < segments.length; i++) {
      const entry = (await entries(current)).get(segments[i]!);
      if (!entry) return;
      const last = i === segments.length - 1;
      if (last !== !isTreeMode(entry.mode)) return;
      current = entry.oid;
    }
    out.set(path, current);
  }));
  return out;
}

/** The given files of a tree as text, reading only the trees along their paths; absent paths are absent. */
export async function readTextFiles(repo: GitRepo, tree: string, paths: readonly string[]): Promise<Map<string, string>> {
  const oids = await readPathOids(repo, tree, paths);
  const blobs = await readBlobs(repo, oids.values());
  const decoder = new TextDecoder();
  return new Map([...oids].map(([path, oid]) => [path, decoder.decode(blobs.get(oid)!)]));
}
