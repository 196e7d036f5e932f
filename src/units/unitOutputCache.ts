import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitRepo } from '../commits/types.ts';
import type { Problem } from '../errors/problem.ts';

// Tool outputs, and the errors an exit 1 gave, kept by the key renderUnit computes (the tool's version, how it is run,
// the object ids of the unit's inputs). Only a cache: delete the folder at any time; it never reaches a branch.

/** Tool outputs kept beside the object store, by the digest of the tool's version and every input's object id. */
export const UNIT_CACHE_DIR = 'flotilla-units';

export type CachedRun = { ok: true; stdout: Uint8Array } | { ok: false; problems: Problem[] };

export async function readCachedRun(repo: GitRepo, key: string): Promise<CachedRun | undefined> {
  const dir = path.join(repo.gitdir, UNIT_CACHE_DIR);
  try {
    const file = path.join(dir, `${key}.yaml`);
    const stdout = await readFile(file);
    // Used now: the last to go when the folder is trimmed (writeCachedRun).
    const now = new Date();
    await utimes(file, now, now).catch(() => {});
    return { ok: true, stdout };
  } catch {}
  try {
    return { ok: false, problems: JSON.parse(await readFile(path.join(dir, `${key}.json`), 'utf8')) };
  } catch {
    return undefined;
  }
}

export async function writeCachedRun(repo: GitRepo, key: string, result: CachedRun): Promise<void> {
  const dir = path.join(repo.gitdir, UNIT_CACHE_DIR);
  try {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${key}.${result.ok ? 'yaml' : 'json'}`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, result.ok ? result.stdout : JSON.stringify(result.problems));
    await rename(tmp, file);
    await trimCache(dir);
  } catch {
    // A cache that cannot be written costs a run next time, nothing else.
  }
}

/** Outputs kept at most; past it, the least recently used quarter goes. Each is one unit's output at one version. */
export const MAX_CACHED_OUTPUTS = 1000;

async function trimCache(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => /^[0-9a-f]{64}\.(yaml|json)$/.test(n));
  if (names.length <= MAX_CACHED_OUTPUTS) return;
  const aged = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(dir, n))).mtimeMs })));
  aged.sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - Math.floor(MAX_CACHED_OUTPUTS * 0.75)))
    await rm(path.join(dir, n), { force: true });
}
