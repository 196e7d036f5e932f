import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitRepo } from '../commits/types.ts';
import type { FileObjects } from '../documents/model.ts';

/**
 * Parsed policy and cluster files, kept beside the object store (`<gitdir>/flotilla-parsed.json`) so a
 * sync in a new process does not parse every policy and cluster again: with hundreds of them that was
 * most of a one-template sync. Entries are keyed by blob oid and path, so they never go stale; the file
 * also names the code that parsed them (the documents stage's source files, by size and modification
 * time, and the yaml version),
 * and a file from other code, or one that cannot be read, is ignored. It is a cache only: deleting it
 * costs one slower sync, and it never reaches the output branch.
 */
const CACHE_FILE = 'flotilla-parsed.json';

interface CacheFileV1 {
  parser: string;
  /** The source tree whose Karmada files the entries are (absent in files written before it was recorded). */
  tree?: string;
  entries: Record<string, FileObjects>;
}

export interface ParsedFiles {
  /** `<blob oid> <path>` → parsed file. */
  entries: Map<string, FileObjects>;
  /** The source tree the entries were saved for: each entry's path held that blob there. */
  tree?: string;
}

export function readParsedFileCache(repo: GitRepo): ParsedFiles {
  try {
    const parsed = JSON.parse(repo.fs.readFileSync(path.join(repo.gitdir, CACHE_FILE), 'utf8')) as CacheFileV1;
    if (parsed.parser !== parserIdentity()) return { entries: new Map() };
    return { entries: new Map(Object.entries(parsed.entries)), ...(parsed.tree ? { tree: parsed.tree } : {}) };
  } catch {
    return { entries: new Map() }; // absent, half-written by a crash, or not ours: parse again
  }
}

/** Writes the entries of `tree` (rename over the old file, so readers see one version or the other). */
export async function writeParsedFileCache(repo: GitRepo, entries: ReadonlyMap<string, FileObjects>, tree: string): Promise<void> {
  const kept: Record<string, FileObjects> = {};
  for (const [key, objects] of entries) if (survivesJson(objects)) kept[key] = objects;
  const target = path.join(repo.gitdir, CACHE_FILE);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await repo.fs.promises.writeFile(tmp, JSON.stringify({ parser: parserIdentity(), tree, entries: kept } satisfies CacheFileV1));
    await repo.fs.promises.rename(tmp, target);
  } catch {
    // A read-only repository still syncs; it only parses every time.
    await repo.fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** JSON drops undefined and turns NaN, ±Infinity and -0 into something else: keep only what round-trips. */
function survivesJson(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((v) => v !== undefined && survivesJson(v));
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) if (v !== undefined && !survivesJson(v)) return false;
    return true;
  }
  return typeof value !== 'function' && typeof value !== 'bigint' && typeof value !== 'symbol';
}

let identity: string | undefined;
/**
 * The sources that turn bytes into FileObjects (documents/, api/, errors/), by name, size and mtime,
 * and the yaml version. Stat, not read: a new process pays this once per sync. Any edit or checkout
 * changes an mtime, which only costs one full parse.
 */
function parserIdentity(): string {
  if (identity) return identity;
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const hash = createHash('sha1');
  for (const dir of ['documents', 'api', 'errors']) {
    const files = (readdirSync(path.join(src, dir), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).sort();
    for (const f of files) {
      const stat = statSync(path.join(src, dir, f));
      hash.update(`${dir}/${f}\0${stat.size}\0${stat.mtimeMs}\0`);
    }
  }
  const yamlPackage = path.resolve(src, '..', 'node_modules', 'yaml', 'package.json');
  try {
    hash.update((JSON.parse(readFileSync(yamlPackage, 'utf8')) as { version: string }).version);
  } catch {
    hash.update('yaml ?');
  }
  return (identity = hash.digest('hex'));
}
