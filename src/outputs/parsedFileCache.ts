import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fnv1a32 } from '../hashing/fnv1a32.ts';
import type { GitRepo } from '../commits/types.ts';
import type { FileObjects } from '../api/model.ts';
import { filesFor, policyNamespace, type KarmadaScope } from './karmadaScope.ts';
import { parserCodeDigest } from './parserCode.ts';

/**
 * Parsed policy and cluster files, kept beside the object store (`<gitdir>/flotilla-parsed.jsonl`) so a
 * sync in a new process does not parse every policy and cluster again. Entries are keyed by blob oid and
 * path, so they never go stale; the file also names the code that parsed them (a digest of the parsing code's
 * sources fixed at build time, and the yaml version: parserIdentity), and a file from other code, or one
 * that cannot be read, is ignored. It is a cache only: deleting it costs one slower sync, and it never
 * reaches the output branch.
 *
 * JSON Lines. A one-template sync needs the fleet-wide files and the policies of a few namespaces, so the
 * first line (the header) answers that without the rest: the files every render reads (`always`: fleet-wide,
 * or with a policy defined more than once) and, per bucket of namespaces, where the line listing that bucket's
 * policy files is. The directory line lists every entry with its scope (karmadaScope.ts), for a sync that
 * needs them all (a policy changed); each following line is one parsed file. With a thousand policies,
 * a header of every entry, parsed and walked on each sync, was a quarter of such a sync in a new process.
 */
const CACHE_FILE = 'flotilla-parsed.jsonl';
/** Where version 1 (one JSON object, every entry parsed on open) was kept: removed when a later version is written. */
const OLD_CACHE_FILE = 'flotilla-parsed.json';
/** Bumped when the layout or the meaning of a scope changes: a file of another format is ignored. */
const FORMAT = 4;
/** Namespaces are grouped into this many buckets (namespaceBucket): a small header, short bucket lines. */
const BUCKETS = 256;

/** Where a line is: byte offset from the start of the body (the byte after the header's newline), and length without its newline. */
type Span = [start: number, length: number];
/** `<blob oid> <path>`, its line, its scope. */
type DirectoryEntry = [key: string, start: number, length: number, scope: KarmadaScope];

interface CacheHeader {
  format: number;
  parser: string;
  /** The source tree whose Karmada files the entries are. */
  tree: string;
  /** karmadaPathsDigest of the entries' paths, sorted: which files these are, checkable without the directory. */
  paths: string;
  /** The directory line: `[key, start, length, scope]` for every entry. */
  directory: Span;
  /** The entries every render reads (fleet-wide, or with a policy defined more than once), as in the directory. */
  always: DirectoryEntry[];
  /** Per namespace bucket, its line (length 0: none): the other entries with a policy there, as in the directory. */
  buckets: Span[];
}

/** One kept file: its scope at once, its objects parsed on first use (and then kept). */
export interface CachedFile {
  scope: KarmadaScope;
  objects(): FileObjects;
  /** The JSON line it is kept as: written again as is when the file is saved for a later tree. */
  line(): string;
}

/** Kept files keyed by `<blob oid> <path>`. */
export type KeptFiles = Map<string, CachedFile>;

/** The parsed files saved for one source tree. */
export interface ParsedFiles {
  /** The source tree the entries were saved for: each entry's path held that blob there. */
  tree: string;
  /** karmadaPathsDigest of the entries' paths. */
  paths: string;
  /** Every entry (on disk: the directory line, read on first call). */
  entries(): KeptFiles;
  /**
   * The entries karmadaScope's filesFor picks over all of them for `namespaces`, without reading every entry's scope;
   * undefined when the part of the file that says is unreadable (then look every file up).
   */
  filesFor(namespaces: ReadonlySet<string>): KeptFiles | undefined;
}

/**
 * One digest of a list of paths, in the order given: the cache digests its entries' paths sorted, and the output index
 * keeps its Karmada files sorted, so equal digests say the cache holds exactly the files the index lists.
 */
export function karmadaPathsDigest(paths: readonly string[]): string {
  return createHash('sha1').update(paths.join('\n')).digest('hex');
}

/** The copy on disk; undefined when there is none, or it is not of this format and code, or not whole. */
export function readParsedFileCache(repo: GitRepo): ParsedFiles | undefined {
  try {
    const file = CacheFile.open(repo, path.join(repo.gitdir, CACHE_FILE));
    if (!file) return undefined;
    const header = JSON.parse(file.header) as Partial<CacheHeader>;
    if (
      header.format !== FORMAT ||
      header.parser !== parserIdentity() ||
      typeof header.tree !== 'string' ||
      typeof header.paths !== 'string' ||
      !Array.isArray(header.always) ||
      !Array.isArray(header.buckets) ||
      header.buckets.length !== BUCKETS ||
      !file.holds(header.directory)
    )
      return undefined;
    // A span past the end: the file is not what its header says (cut short), ignore all of it. Whether a line ends
    // where its span says is checked when it is read, and an entry whose line lies is parsed again (karmadaFiles.ts).
    if (
      !header.always.every(([, start, length]) => file.holds([start, length])) ||
      !header.buckets.every((span) => span[1] === 0 || file.holds(span))
    )
      return undefined;
    return onDisk(file, header as CacheHeader);
  } catch {
    return undefined; // absent, half-written by a crash, or not ours: parse again
  }
}

/**
 * The cache file, read a line at a time: a one-template sync needs its header and some hundred KiB of its lines,
 * not all of it (at L, reading its 2.5 MB whole took 2 ms of a 60 ms sync). Lines are read when first asked for,
 * possibly after the file was replaced by a later save: each open checks it is still the file whose header was
 * read, and a line of another file, or one that does not end where its span says, reads as unreadable.
 */
class CacheFile {
  readonly header: string;
  /** Where the body starts: spans count from here. */
  readonly body: number;
  readonly size: number;
  readonly #repo: GitRepo;
  readonly #path: string;
  readonly #identity: string;
  #fd: number | null = null;
  /** The whole file, once a reader needs most of it (wholly()). */
  #whole: Buffer | undefined;

  private constructor(
    repo: GitRepo,
    file: string,
    fd: number,
    header: Buffer,
    stat: { dev: number; ino: number; size: number; mtimeMs: number },
  ) {
    this.#repo = repo;
    this.#path = file;
    this.#identity = `${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeMs}`;
    this.size = stat.size;
    this.header = header.toString('utf8');
    this.body = header.length + 1;
    this.#keepOpen(fd);
  }

  /** The file with its header line read; undefined when it has no whole first line. Throws when it cannot be read. */
  static open(repo: GitRepo, file: string): CacheFile | undefined {
    const fd = repo.fs.openSync(file, 'r');
    let handedOver = false;
    try {
      const stat = repo.fs.fstatSync(fd);
      const chunks: Buffer[] = [];
      for (let at = 0; at < stat.size; ) {
        const chunk = Buffer.allocUnsafe(Math.min(HEADER_CHUNK, stat.size - at));
        const n = repo.fs.readSync(fd, chunk, 0, chunk.length, at);
        if (n === 0) return undefined;
        const newline = chunk.subarray(0, n).indexOf(0x0a);
        if (newline >= 0) {
          chunks.push(chunk.subarray(0, newline));
          handedOver = true;
          return new CacheFile(repo, file, fd, Buffer.concat(chunks), stat);
        }
        chunks.push(chunk.subarray(0, n));
        at += n;
      }
      return undefined;
    } finally {
      if (!handedOver) repo.fs.closeSync(fd);
    }
  }

  /** Whether a span lies inside the body, its newline included. */
  holds(span: unknown): boolean {
    if (!Array.isArray(span) || span.length !== 2) return false;
    const [start, length] = span as unknown[];
    return (
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(length) &&
      (start as number) >= 0 &&
      (length as number) >= 0 &&
      this.body + (start as number) + (length as number) < this.size
    );
  }

  /**
   * Reads the rest at once, for a reader about to use most lines (every entry, after a policy changed): one read
   * instead of one per line. Lines read after it come from memory.
   */
  wholly(): void {
    if (this.#whole) return;
    try {
      const fd = this.#open();
      if (fd === null) return;
      const bytes = Buffer.allocUnsafe(this.size);
      if (this.#repo.fs.readSync(fd, bytes, 0, bytes.length, 0) === bytes.length) this.#whole = bytes;
    } catch {
      // Lines are then read one by one, each checked as ever.
    }
  }

  /** The line at `span`; undefined when it is not one (no newline where it should end), or the file is another now. */
  line([offset, length]: Span): string | undefined {
    const start = this.body + offset;
    if (this.#whole)
      return this.#whole[start + length] === 0x0a ? this.#whole.toString('utf8', start, start + length) : undefined;
    try {
      const fd = this.#open();
      if (fd === null) return undefined;
      const bytes = Buffer.allocUnsafe(length + 1);
      if (this.#repo.fs.readSync(fd, bytes, 0, bytes.length, start) !== bytes.length || bytes[length] !== 0x0a)
        return undefined;
      return bytes.toString('utf8', 0, length);
    } catch {
      return undefined;
    }
  }

  /** The open descriptor, reopened after the event loop turned; null when the path now names another file. */
  #open(): number | null {
    if (this.#fd !== null) return this.#fd;
    const fd = this.#repo.fs.openSync(this.#path, 'r');
    const stat = this.#repo.fs.fstatSync(fd);
    if (`${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeMs}` !== this.#identity) {
      this.#repo.fs.closeSync(fd);
      return null;
    }
    this.#keepOpen(fd);
    return fd;
  }

  /** Reads come in bursts (a sync's steps run back to back): one open serves a burst, and none outlives it. */
  #keepOpen(fd: number): void {
    this.#fd = fd;
    setImmediate(() => {
      this.#fd = null;
      this.#repo.fs.closeSync(fd);
    });
  }
}

const HEADER_CHUNK = 64 * 1024;

function onDisk(file: CacheFile, header: CacheHeader): ParsedFiles {
  // An entry that cannot be where it says: no entry at all (the file is parsed from its blob, then kept anew). A line
  // that cannot be read reads as '': it does not parse (parsed again from the blob) and is not saved again as it is.
  const keep = (into: KeptFiles, [key, start, length, scope]: DirectoryEntry) => {
    if (file.holds([start, length]))
      into.set(
        key,
        keptFile(scope, () => file.line([start, length]) ?? ''),
      );
  };
  let entries: KeptFiles | undefined;
  let always: KeptFiles | undefined;
  const buckets = new Map<number, DirectoryEntry[]>();
  return {
    tree: header.tree,
    paths: header.paths,
    entries: () => {
      if (entries) return entries;
      entries = new Map();
      file.wholly();
      try {
        for (const entry of JSON.parse(file.line(header.directory) ?? '') as DirectoryEntry[]) keep(entries, entry);
      } catch {
        entries = new Map(); // no entry, then: every file is parsed from its blob, and kept anew
      }
      return entries;
    },
    filesFor: (namespaces) => {
      try {
        if (!always) {
          const listed: KeptFiles = new Map();
          for (const entry of header.always) keep(listed, entry);
          always = listed;
        }
        const out = new Map(always);
        for (const ns of namespaces) {
          const bucket = namespaceBucket(ns);
          let listed = buckets.get(bucket);
          if (!listed) {
            const span = header.buckets[bucket]!;
            listed = span[1] === 0 ? [] : (JSON.parse(file.line(span) ?? '') as DirectoryEntry[]);
            buckets.set(bucket, listed);
          }
          // A bucket holds other namespaces too.
          for (const entry of listed)
            if (!out.has(entry[0]) && entry[3].policies.some((key) => policyNamespace(key) === ns)) keep(out, entry);
        }
        return out;
      } catch {
        return undefined; // a bucket line that is not one: which files a namespace needs is not known from here
      }
    },
  };
}

/** Files as just saved for `tree`, one per path: what the next sync of this process starts from. */
function inMemory(entries: KeptFiles, tree: string): ParsedFiles {
  const byPath = new Map<string, string>();
  for (const key of entries.keys()) byPath.set(key.slice(key.indexOf(' ') + 1), key);
  return {
    tree,
    paths: karmadaPathsDigest([...byPath.keys()].sort()),
    entries: () => entries,
    filesFor: (namespaces) => {
      const picked = filesFor(new Map([...byPath].map(([path, key]) => [path, entries.get(key)!.scope])), namespaces);
      return new Map([...picked].map((path) => [byPath.get(path)!, entries.get(byPath.get(path)!)!]));
    },
  };
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

/**
 * Writes the entries of `tree` (rename over the old file, so readers see one version or the other) and returns them
 * as saved: a file whose objects do not survive JSON is not kept.
 */
export async function writeParsedFileCache(
  repo: GitRepo,
  entries: ReadonlyMap<string, CachedFile>,
  tree: string,
): Promise<ParsedFiles> {
  const kept = new Map<string, { file: CachedFile; line: string; path: string }>();
  for (const [key, file] of entries) {
    const line = file.line();
    if (line !== '') kept.set(key, { file, line, path: key.slice(key.indexOf(' ') + 1) }); // '' = does not survive JSON: parsed again next time
  }
  const keyOf = new Map([...kept].map(([key, { path }]) => [path, key]));
  const always = filesFor(new Map([...kept.values()].map(({ path, file }) => [path, file.scope])), new Set());
  const bucketed: string[][] = Array.from({ length: BUCKETS }, () => []);
  for (const [key, { file, path }] of kept) {
    if (always.has(path)) continue;
    for (const bucket of new Set(file.scope.policies.map((policy) => namespaceBucket(policyNamespace(policy)))))
      bucketed[bucket]!.push(key);
  }
  const sortedPaths = [...keyOf.keys()].sort();

  // Body: the entries' lines, then the directory and bucket lines that point into them (offsets count from the body,
  // so the header's own length does not move them).
  const spans = new Map<string, Span>();
  const lines: string[] = [];
  let offset = 0;
  const put = (line: string): Span => {
    const span: Span = [offset, Buffer.byteLength(line, 'utf8')];
    lines.push(line);
    offset += span[1] + 1;
    return span;
  };
  for (const [key, { line }] of kept) spans.set(key, put(line));
  const entryOf = (key: string): DirectoryEntry => [key, ...spans.get(key)!, kept.get(key)!.file.scope];
  const directory = put(JSON.stringify([...kept.keys()].map(entryOf)));
  const buckets = bucketed.map((keys): Span => (keys.length === 0 ? [0, 0] : put(JSON.stringify(keys.map(entryOf)))));
  const header: CacheHeader = {
    format: FORMAT,
    parser: parserIdentity(),
    tree,
    paths: karmadaPathsDigest(sortedPaths),
    directory,
    always: [...always].sort().map((path) => entryOf(keyOf.get(path)!)),
    buckets,
  };
  const target = path.join(repo.gitdir, CACHE_FILE);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await repo.fs.promises.writeFile(tmp, [JSON.stringify(header), ...lines, ''].join('\n'));
    await repo.fs.promises.rename(tmp, target);
    await repo.fs.promises.rm(path.join(repo.gitdir, OLD_CACHE_FILE), { force: true });
  } catch {
    // A read-only repository still syncs; it only parses every time.
    await repo.fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
  return inMemory(new Map([...kept].map(([key, { file }]) => [key, file])), tree);
}

/** Part of the format: which bucket line lists a namespace's policy files. */
function namespaceBucket(namespace: string): number {
  return fnv1a32(namespace) % BUCKETS;
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
 * The code that parsed the entries (parserCode.ts: a digest of its sources, fixed when the package is built) and
 * the yaml version resolved from here, which an install can change without a new build. Any edit of that code, or
 * another yaml, only costs one full parse.
 */
function parserIdentity(): string {
  if (identity) return identity;
  let yaml = 'yaml ?';
  try {
    yaml = `yaml ${(createRequire(import.meta.url)('yaml/package.json') as { version: string }).version}`;
  } catch {
    // an install without yaml's package.json cannot parse either; this identity is as good as any
  }
  return (identity = createHash('sha1').update(`${parserCodeDigest()}\0${yaml}`).digest('hex'));
}
