import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitRepo } from '../commits/types.ts';
import type { FileObjects } from '../documents/model.ts';
import type { KarmadaScope } from './karmadaScope.ts';

/**
 * Parsed policy and cluster files, kept beside the object store (`<gitdir>/flotilla-parsed.jsonl`) so a
 * sync in a new process does not parse every policy and cluster again. Entries are keyed by blob oid and
 * path, so they never go stale; the file also names the code that parsed them (the documents stage's
 * source files, by size and modification time, and the yaml version), and a file from other code, or one
 * that cannot be read, is ignored. It is a cache only: deleting it costs one slower sync, and it never
 * reaches the output branch.
 *
 * JSON Lines: the first line is a header naming each entry's scope (karmadaScope.ts) and where its line is;
 * each following line is one parsed file. A one-template sync needs the fleet-wide files and the policies
 * of a few namespaces: it parses the header and those lines only, never the whole file (with a thousand
 * policies, parsing all of it was most of such a sync in a new process).
 */
const CACHE_FILE = 'flotilla-parsed.jsonl';
/** Where version 1 (one JSON object, every entry parsed on open) was kept: removed when version 2 is written. */
const OLD_CACHE_FILE = 'flotilla-parsed.json';
/** Bumped when the header or the meaning of a scope changes: a file of another format is ignored. */
const FORMAT = 2;

interface CacheHeader {
  format: number;
  parser: string;
  /** The source tree whose Karmada files the entries are. */
  tree: string;
  /** `<blob oid> <path>`, byte offset and length of its line, scope. */
  entries: [key: string, start: number, length: number, scope: KarmadaScope][];
}

/** One kept file: its scope at once, its objects parsed on first use (and then kept). */
export interface CachedFile {
  scope: KarmadaScope;
  objects(): FileObjects;
  /** The JSON line it is kept as: written again as is when the file is saved for a later tree. */
  line(): string;
}

export interface ParsedFiles {
  /** `<blob oid> <path>` → kept file. */
  entries: Map<string, CachedFile>;
  /** The source tree the entries were saved for: each entry's path held that blob there. */
  tree?: string;
}

export function readParsedFileCache(repo: GitRepo): ParsedFiles {
  try {
    const bytes = repo.fs.readFileSync(path.join(repo.gitdir, CACHE_FILE));
    const headerEnd = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.toString('utf8', 0, headerEnd < 0 ? bytes.length : headerEnd)) as Partial<CacheHeader>;
    if (header.format !== FORMAT || header.parser !== parserIdentity() || typeof header.tree !== 'string' || !Array.isArray(header.entries)) return { entries: new Map() };
    const entries = new Map<string, CachedFile>();
    for (const [key, start, length, scope] of header.entries) {
      // An entry past the end or not ending a line: the file is not what its header says, ignore all of it.
      if (start + length > bytes.length || bytes[start + length] !== 0x0a) return { entries: new Map() };
      entries.set(key, keptFile(scope, () => bytes.toString('utf8', start, start + length)));
    }
    return { entries, tree: header.tree };
  } catch {
    return { entries: new Map() }; // absent, half-written by a crash, or not ours: parse again
  }
}

/** A file parsed by this process, to keep. */
export function parsedFile(scope: KarmadaScope, objects: FileObjects): CachedFile {
  let line: string | undefined;
  return { scope, objects: () => objects, line: () => (line ??= survivesJson(objects) ? JSON.stringify(objects) : '') };
}

function keptFile(scope: KarmadaScope, readLine: () => string): CachedFile {
  let objects: FileObjects | undefined;
  return { scope, objects: () => (objects ??= JSON.parse(readLine()) as FileObjects), line: readLine };
}

/** Writes the entries of `tree` (rename over the old file, so readers see one version or the other). */
export async function writeParsedFileCache(repo: GitRepo, entries: ReadonlyMap<string, CachedFile>, tree: string): Promise<void> {
  const lines: string[] = [];
  const index: CacheHeader['entries'] = [];
  const kept: [string, CachedFile, string][] = [];
  for (const [key, file] of entries) {
    const line = file.line();
    if (line !== '') kept.push([key, file, line]); // '' = does not survive JSON: parsed again next time
  }
  // Offsets count from the start of the file, so they depend on the header's own length.
  let offset = 0;
  for (const [key, file, line] of kept) {
    index.push([key, offset, Buffer.byteLength(line, 'utf8'), file.scope]);
    lines.push(line);
    offset += Buffer.byteLength(line, 'utf8') + 1;
  }
  const headerOf = (base: number) => JSON.stringify({ format: FORMAT, parser: parserIdentity(), tree, entries: index.map(([k, s, l, scope]) => [k, s + base, l, scope]) } satisfies CacheHeader);
  let base = 0;
  let header = headerOf(base);
  // Each pass can only lengthen the header (its offsets grow): it settles in a pass or two.
  while (Buffer.byteLength(header, 'utf8') + 1 !== base) {
    base = Buffer.byteLength(header, 'utf8') + 1;
    header = headerOf(base);
  }
  const target = path.join(repo.gitdir, CACHE_FILE);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await repo.fs.promises.writeFile(tmp, [header, ...lines, ''].join('\n'));
    await repo.fs.promises.rename(tmp, target);
    await repo.fs.promises.rm(path.join(repo.gitdir, OLD_CACHE_FILE), { force: true });
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
