import path from 'node:path';
import { packedObjects } from './readObject.ts';
import type { GitRepo } from './types.ts';

/**
 * Which of `oids` the object store already holds, loose or packed. Cheap: one readdir of
 * objects/pack plus one binary search per oid per pack (the pack indexes readObject already
 * holds), and one readdir per loose fan-out directory that can matter. Alternates are not
 * consulted (a miss only costs a duplicate). Synchronous, as readObject's reads: a few dozen
 * directory listings answer faster than as many trips through the thread pool.
 */
export async function findExistingObjects(repo: GitRepo, oids: Iterable<string>): Promise<Set<string>> {
  return existingObjects(repo, oids);
}

/**
 * Loose object names by fan-out directory ('' for the list of those directories), as one pack writer has listed them.
 * A pack is checked batch by batch, and a repository that ever took a push has up to 256 such directories: listing
 * them again for every batch cost a one-policy sync 20 ms at L. An object another process writes loose meanwhile is
 * missed, which only costs a duplicate in the pack.
 */
export type LooseListings = Map<string, ReadonlySet<string>>;

/**
 * findExistingObjects without the promise: for a pack writer checking each batch as it writes it out, with the loose
 * directories it has listed already.
 */
export function existingObjects(repo: GitRepo, oids: Iterable<string>, listed: LooseListings = new Map()): Set<string> {
  const wanted = [...oids];
  const found = new Set<string>();
  if (wanted.length === 0) return found;
  const objectsDir = path.join(repo.gitdir, 'objects');
  const list = (key: string, dir: string) => {
    let names = listed.get(key);
    if (!names) listed.set(key, (names = new Set(readdirOrEmpty(repo, dir))));
    return names;
  };

  for (const oid of packedObjects(repo, wanted)) found.add(oid);

  const fanout = list('', objectsDir);
  for (const oid of wanted) {
    const prefix = oid.slice(0, 2);
    if (found.has(oid) || !fanout.has(prefix)) continue;
    if (list(prefix, path.join(objectsDir, prefix)).has(oid.slice(2))) found.add(oid);
  }
  return found;
}

function readdirOrEmpty(repo: GitRepo, dir: string): string[] {
  try {
    return repo.fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
