import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GitRepo } from '../commits/types.ts';
import type { Problem, SourceSpan } from '../errors/problem.ts';
import type { ToolLimits } from './runTool.ts';

// Tool outputs with their warnings, and the errors an exit 1, a timeout or a cap gave, kept by the key renderUnit
// computes (the tool's version, how it is run, the object ids of the unit's inputs). Only a cache: delete the folder at
// any time; it never reaches a branch.

/** Tool outputs kept beside the object store, by the digest of the tool's version and every input's object id. */
export const UNIT_CACHE_DIR = 'flotilla-units';

/** A run's output and the warnings its stderr gave (objects helm left out), or the problems it failed with. */
export type CachedRun =
  | {
      ok: true;
      stdout: Uint8Array;
      warnings?: Problem[];
      /** Where each object came from, for a Kustomize output built without origin annotations (kustomizeOrigins.ts). */
      origins?: Record<string, string>;
      /** Where each object of a Kustomize output is in the file it came from, by identity (kustomizePlaces.ts). */
      places?: Record<string, SourceSpan>;
    }
  | {
      ok: false;
      problems: Problem[];
      /** The limit the run was stopped at (a timeout, the output cap): a run allowed more may end otherwise. */
      stoppedAt?: Partial<ToolLimits>;
    };

export async function readCachedRun(repo: GitRepo, key: string): Promise<CachedRun | undefined> {
  const dir = path.join(repo.gitdir, UNIT_CACHE_DIR);
  try {
    const file = path.join(dir, `${key}.yaml`);
    const stdout = await readFile(file);
    // Used now: the last to go when the folder is trimmed (writeCachedRun).
    const now = new Date();
    await utimes(file, now, now).catch(() => {});
    const warnings = await readFile(path.join(dir, `${key}.warnings.json`), 'utf8').then(
      (t) => JSON.parse(t) as Problem[],
      () => undefined,
    );
    const origins = await readFile(path.join(dir, `${key}.origins.json`), 'utf8').then(
      (t) => JSON.parse(t) as Record<string, string>,
      () => undefined,
    );
    const places = await readFile(path.join(dir, `${key}.places.json`), 'utf8').then(
      (t) => JSON.parse(t) as Record<string, SourceSpan>,
      () => undefined,
    );
    return {
      ok: true,
      stdout,
      ...(warnings ? { warnings } : {}),
      ...(origins ? { origins } : {}),
      ...(places ? { places } : {}),
    };
  } catch {}
  try {
    const saved = JSON.parse(await readFile(path.join(dir, `${key}.json`), 'utf8'));
    // Before failures recorded the limit they stopped at, the file held the problems alone.
    return Array.isArray(saved)
      ? { ok: false, problems: saved }
      : { ok: false, problems: saved.problems, ...(saved.stoppedAt ? { stoppedAt: saved.stoppedAt } : {}) };
  } catch {
    return undefined;
  }
}

export async function writeCachedRun(repo: GitRepo, key: string, result: CachedRun): Promise<void> {
  const dir = path.join(repo.gitdir, UNIT_CACHE_DIR);
  try {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${key}.${result.ok ? 'yaml' : 'json'}`);
    // The warnings, origins and places go first: an output is never read without those it came with.
    if (result.ok && result.warnings?.length)
      await writeAtomically(path.join(dir, `${key}.warnings.json`), JSON.stringify(result.warnings));
    if (result.ok && result.origins)
      await writeAtomically(path.join(dir, `${key}.origins.json`), JSON.stringify(result.origins));
    if (result.ok && result.places)
      await writeAtomically(path.join(dir, `${key}.places.json`), JSON.stringify(result.places));
    await writeAtomically(
      file,
      result.ok ? result.stdout : JSON.stringify({ problems: result.problems, stoppedAt: result.stoppedAt }),
    );
    await trimCache(dir);
  } catch {
    // A cache that cannot be written costs a run next time, nothing else.
  }
}

async function writeAtomically(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/** Outputs kept at most; past it, the least recently used quarter goes. Each is one unit's output at one version. */
export const MAX_CACHED_OUTPUTS = 1000;

async function trimCache(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => /^[0-9a-f]{64}\.(yaml|json)$/.test(n));
  if (names.length <= MAX_CACHED_OUTPUTS) return;
  const aged = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(dir, n))).mtimeMs })));
  aged.sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - Math.floor(MAX_CACHED_OUTPUTS * 0.75))) {
    await rm(path.join(dir, n), { force: true });
    await rm(path.join(dir, n.replace(/\.yaml$/, '.warnings.json')), { force: true });
    await rm(path.join(dir, n.replace(/\.yaml$/, '.origins.json')), { force: true });
    await rm(path.join(dir, n.replace(/\.yaml$/, '.places.json')), { force: true });
  }
}
