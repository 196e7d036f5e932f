import path from 'node:path';
import type { GitRepo } from './types.ts';

// Our own idx lookups live in the repo's shared cache, beside isomorphic-git's. Pack files are
// immutable and named by content, so an entry keyed by file name never goes stale; packs that
// disappear (repack) are simply not listed any more.
const IDX_CACHE = Symbol('flotilla.commits.idx');

type IdxCache = Map<string, Buffer>;

/**
 * Which of `oids` the object store already holds, loose or packed. Cheap: one readdir of
 * objects/pack plus one binary search per oid per pack, and one readdir per loose fan-out
 * directory that can matter. Alternates are not consulted (a miss only costs a duplicate).
 */
export async function findExistingObjects(repo: GitRepo, oids: Iterable<string>): Promise<Set<string>> {
  const wanted = [...oids];
  const found = new Set<string>();
  if (wanted.length === 0) return found;
  const objectsDir = path.join(repo.gitdir, 'objects');

  const idxFiles = await readPackIndexes(repo, path.join(objectsDir, 'pack'));
  for (const oid of wanted) {
    const raw = Buffer.from(oid, 'hex');
    if (idxFiles.some((idx) => idxHas(idx, raw))) found.add(oid);
  }

  const fanout = new Set((await readdirOrEmpty(repo, objectsDir)).filter((d) => /^[0-9a-f]{2}$/.test(d)));
  const byPrefix = new Map<string, string[]>();
  for (const oid of wanted) {
    const prefix = oid.slice(0, 2);
    if (found.has(oid) || !fanout.has(prefix)) continue;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), oid]);
  }
  await Promise.all(
    [...byPrefix].map(async ([prefix, group]) => {
      const names = new Set(await readdirOrEmpty(repo, path.join(objectsDir, prefix)));
      for (const oid of group) if (names.has(oid.slice(2))) found.add(oid);
    }),
  );
  return found;
}

async function readPackIndexes(repo: GitRepo, packDir: string): Promise<Buffer[]> {
  const store = repo.cache as { [IDX_CACHE]?: IdxCache };
  const cache = (store[IDX_CACHE] ??= new Map());
  const names = (await readdirOrEmpty(repo, packDir)).filter((n) => /^pack-[0-9a-f]+\.idx$/.test(n));
  return Promise.all(
    names.map(async (name) => {
      let idx = cache.get(name);
      if (!idx) {
        idx = await repo.fs.promises.readFile(path.join(packDir, name));
        cache.set(name, idx);
      }
      return idx;
    }),
  );
}

/** Binary search in the sorted name table of an .idx v2, narrowed by the fan-out table. */
function idxHas(idx: Buffer, oid: Buffer): boolean {
  if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) return false;
  const first = oid[0]!;
  let lo = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.readUInt32BE(8 + first * 4);
  const names = 8 + 1024;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = names + mid * 20;
    const cmp = idx.compare(oid, 0, 20, at, at + 20);
    if (cmp === 0) return true;
    if (cmp > 0) hi = mid;
    else lo = mid + 1;
  }
  return false;
}

async function readdirOrEmpty(repo: GitRepo, dir: string): Promise<string[]> {
  try {
    return await repo.fs.promises.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
