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

/** findExistingObjects without the promise: for a pack writer checking each batch as it writes it out. */
export function existingObjects(repo: GitRepo, oids: Iterable<string>): Set<string> {
  const wanted = [...oids];
  const found = new Set<string>();
  if (wanted.length === 0) return found;
  const objectsDir = path.join(repo.gitdir, 'objects');

  for (const oid of packedObjects(repo, wanted)) found.add(oid);

  const fanout = new Set(readdirOrEmpty(repo, objectsDir).filter((d) => /^[0-9a-f]{2}$/.test(d)));
  const byPrefix = new Map<string, string[]>();
  for (const oid of wanted) {
    const prefix = oid.slice(0, 2);
    if (found.has(oid) || !fanout.has(prefix)) continue;
    const group = byPrefix.get(prefix);
    if (group) group.push(oid);
    else byPrefix.set(prefix, [oid]);
  }
  for (const [prefix, group] of byPrefix) {
    const names = new Set(readdirOrEmpty(repo, path.join(objectsDir, prefix)));
    for (const oid of group) if (names.has(oid.slice(2))) found.add(oid);
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
