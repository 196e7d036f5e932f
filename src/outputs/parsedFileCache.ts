import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
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
 * JSON Lines, appended to. Each save adds the lines of the files parsed since the last one, the bucket lines that
 * changed and, last, a header: the files every render reads (`always`: fleet-wide, or with a policy defined more than
 * once) and, per bucket of namespaces, where the line listing that bucket's policy files is; every kept file is in
 * `always` or a bucket. A one-template sync reads the header and a few bucket lines; a sync that needs every entry
 * (a policy changed) reads them all. Only the last line counts, and only when it is a header that says it is there
 * (`at`): a save cut short by a crash, or two writers at once, leave a last line that is not, and the file is
 * ignored. Writing the whole file again for one changed policy was a third of such a sync at L (2.5 MB, ~40 ms of
 * CPU); the file is written whole only when it has none to append to, or when lines no header points at any more
 * would make it more than twice what it holds.
 */
const CACHE_FILE = 'flotilla-parsed.jsonl';
/** Where version 1 (one JSON object, every entry parsed on open) was kept: removed when a later version is written. */
const OLD_CACHE_FILE = 'flotilla-parsed.json';
/** Bumped when the layout or the meaning of a scope changes: a file of another format is ignored. */
const FORMAT = 6;
/** Namespaces are grouped into this many buckets (namespaceBucket): a small header, short bucket lines. */
const BUCKETS = 256;
/** Lines no header points at, besides as many bytes as it does, that a file may hold before it is written whole. */
const SLACK_BYTES = 1024 * 1024;

/** Where a line is: byte offset from the start of the file, and length without its newline. */
type Span = [start: number, length: number];
/** `<blob oid> <path>`, its line, its scope. */
type DirectoryEntry = [key: string, start: number, length: number, scope: KarmadaScope];

interface CacheHeader {
  format: number;
  parser: string;
  /** The source tree whose Karmada files the entries are. */
  tree: string;
  /** karmadaPathsDigest of the entries' paths, sorted: which files these are, checkable without the entries. */
  paths: string;
  /** Where this header's line starts: a header anywhere else is not this file's last save. */
  at: number;
  /** Bytes of the lines this header points at (itself left out): a save that appends knows what is dead without reading them. */
  live: number;
  /** The entries every render reads (fleet-wide, or with a policy defined more than once). */
  always: DirectoryEntry[];
  /** Per namespace bucket, its line (length 0: none): the other entries with a policy there. */
  buckets: Span[];
}

/** One kept file: its scope at once, its objects parsed on first use (and then kept). */
export interface CachedFile {
  scope: KarmadaScope;
  objects(): FileObjects;
  /** The JSON line it is kept as: written again as is when the file is saved whole. */
  line(): string;
  /** Where its line is in the cache file, when it is there: a save appending to that file does not write it again. */
  at?: { file: CacheFile; span: Span };
}

/** Kept files keyed by `<blob oid> <path>`. */
export type KeptFiles = Map<string, CachedFile>;

/** The parsed files saved for one source tree. */
export interface ParsedFiles {
  /** The source tree the entries were saved for: each entry's path held that blob there. */
  tree: string;
  /** karmadaPathsDigest of the entries' paths. */
  paths: string;
  /** Every entry (on disk: `always` and every bucket line, read on first call). */
  entries(): KeptFiles;
  /**
   * The entries karmadaScope's filesFor picks over all of them but those of the paths `without` (changed since) for
   * `namespaces`, without reading every entry's scope; undefined when the part of the file that says is unreadable
   * (then look every file up).
   */
  filesFor(namespaces: ReadonlySet<string>, without?: ReadonlySet<string>): KeptFiles | undefined;
  /**
   * Saves for `tree` these entries with those of the paths `replaced` names replaced (by another entry, or by none),
   * appending to the file they were read from the new entries' lines, the bucket lines that change and a header,
   * without reading the other entries; `paths` is karmadaPathsDigest of the paths after. Undefined when it cannot
   * (another file is there now, a line it needs is unreadable, the file would be mostly dead lines): then the caller
   * writes the whole file. Only the copy read from disk has it.
   */
  replacing?(
    tree: string,
    replaced: ReadonlyMap<string, Replacement>,
    paths: string,
  ): Promise<{ saved: ParsedFiles; written: KeptFiles } | undefined>;
}

/** A path's entry replaced: its scope before (when it had an entry), and its new entry (null: none now). */
export interface Replacement {
  before: KarmadaScope | undefined;
  after: { key: string; file: CachedFile } | null;
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
      header.at !== file.headerAt ||
      typeof header.tree !== 'string' ||
      typeof header.paths !== 'string' ||
      !Number.isSafeInteger(header.live) ||
      !Array.isArray(header.always) ||
      !Array.isArray(header.buckets) ||
      header.buckets.length !== BUCKETS
    )
      return undefined;
    // A span past the header: the file is not what its header says, ignore all of it. Whether a line ends where its
    // span says is checked when it is read, and an entry whose line lies is parsed again (karmadaFiles.ts).
    if (
      !header.always.every(([, start, length]) => file.holds([start, length])) ||
      !header.buckets.every((span) => span[1] === 0 || file.holds(span))
    )
      return undefined;
    return onDisk(file, header as CacheHeader);
  } catch {
    return undefined; // absent, cut short by a crash, or not ours: parse again
  }
}

/**
 * The cache file, read a line at a time: a one-template sync needs its header and some hundred KiB of its lines,
 * not all of it. Lines are read when first asked for, possibly after another process replaced or appended to the
 * file: each open checks it is still the file whose header was read (this process's own appends excepted), and a
 * line of another file, or one that does not end where its span says, reads as unreadable.
 */
class CacheFile {
  /** The last line's text: the header, if the file is whole. */
  readonly header: string;
  /** Where the last line starts (where this process's last append put it). */
  headerAt: number;
  #size: number;
  readonly #repo: GitRepo;
  readonly #path: string;
  #identity: string;
  #fd: number | null = null;
  /** Where the last header (read, or written by this process) says the bucket lines are. */
  bucketSpans: readonly Span[] | undefined;
  /** The keys each of those bucket lines lists, joined by newlines, for the lines read or written by this process. */
  readonly bucketKeys = new Map<number, string>();
  /** The whole file, once a reader needs most of it (wholly()). */
  #whole: Buffer | undefined;
  /** Some lines read at once (prefetch): those of the entries every render reads. The file only grows, so they stay. */
  #window: { from: number; bytes: Buffer } | undefined;

  private constructor(repo: GitRepo, file: string, fd: number, header: Buffer, headerAt: number, stat: Stat) {
    this.#repo = repo;
    this.#path = file;
    this.#identity = identityOf(stat);
    this.#size = stat.size;
    this.header = header.toString('utf8');
    this.headerAt = headerAt;
    this.#keepOpen(fd);
  }

  /** The file with its last line read; undefined when it does not end with a newline. Throws when it cannot be read. */
  static open(repo: GitRepo, file: string): CacheFile | undefined {
    const fd = repo.fs.openSync(file, 'r');
    let handedOver = false;
    try {
      const stat = repo.fs.fstatSync(fd);
      if (stat.size === 0) return undefined;
      // Read backwards from the end a chunk at a time until the newline before the last one.
      const chunks: Buffer[] = [];
      for (let end = stat.size; end > 0; ) {
        const at = Math.max(0, end - HEADER_CHUNK);
        const chunk = Buffer.allocUnsafe(end - at);
        if (repo.fs.readSync(fd, chunk, 0, chunk.length, at) !== chunk.length) return undefined;
        chunks.unshift(chunk);
        const tail = Buffer.concat(chunks);
        if (tail[tail.length - 1] !== 0x0a) return undefined;
        const newline = tail.lastIndexOf(0x0a, tail.length - 2);
        if (newline >= 0 || at === 0) {
          handedOver = true;
          return new CacheFile(repo, file, fd, tail.subarray(newline + 1, tail.length - 1), at + newline + 1, stat);
        }
        end = at;
      }
      return undefined;
    } finally {
      if (!handedOver) repo.fs.closeSync(fd);
    }
  }

  /** Whether a span lies before the header, its newline included. */
  holds(span: unknown): boolean {
    if (!Array.isArray(span) || span.length !== 2) return false;
    const [start, length] = span as unknown[];
    return (
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(length) &&
      (start as number) >= 0 &&
      (length as number) >= 0 &&
      (start as number) + (length as number) < this.headerAt
    );
  }

  get size(): number {
    return this.#size;
  }

  /** Device, inode, size and modification time when opened (or last appended to by this process). */
  get identity(): string {
    return this.#identity;
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
      const bytes = Buffer.allocUnsafe(this.#size);
      if (this.#repo.fs.readSync(fd, bytes, 0, bytes.length, 0) === bytes.length) this.#whole = bytes;
    } catch {
      // Lines are then read one by one, each checked as ever.
    }
  }

  /**
   * Reads at once the bytes from the first of these lines to the end of the last, when they are mostly these lines
   * (the fleet-wide entries, which a save lays out together): one read instead of one per line, for every sync.
   */
  prefetch(spans: readonly Span[]): void {
    if (this.#whole || spans.length < 2) return;
    let from = Infinity;
    let to = 0;
    let bytes = 0;
    for (const [start, length] of spans) {
      from = Math.min(from, start);
      to = Math.max(to, start + length + 1);
      bytes += length + 1;
    }
    if (to - from > 2 * bytes + 64 * 1024) return;
    try {
      const fd = this.#open();
      if (fd === null) return;
      const window = Buffer.allocUnsafe(to - from);
      if (this.#repo.fs.readSync(fd, window, 0, window.length, from) === window.length)
        this.#window = { from, bytes: window };
    } catch {
      // Read a line at a time, then.
    }
  }

  /** The line at `span`; undefined when it is not one (no newline where it should end), or the file is another now. */
  line([start, length]: Span): string | undefined {
    if (this.#whole && start + length < this.#whole.length)
      return this.#whole[start + length] === 0x0a ? this.#whole.toString('utf8', start, start + length) : undefined;
    const window = this.#window;
    if (window && start >= window.from && start + length < window.from + window.bytes.length) {
      const at = start - window.from;
      return window.bytes[at + length] === 0x0a ? window.bytes.toString('utf8', at, at + length) : undefined;
    }
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

  /**
   * Appends `bytes` when the file on disk is still the one this reads (no other process replaced or appended to it);
   * false, with nothing written, when it is not. Lines already read stay readable: the file only grew.
   */
  async append(bytes: Buffer): Promise<boolean> {
    const handle = await this.#repo.fs.promises.open(this.#path, 'r+');
    try {
      if (identityOf(await handle.stat()) !== this.#identity) return false;
      let written = 0;
      while (written < bytes.length)
        written += (await handle.write(bytes, written, bytes.length - written, this.#size + written)).bytesWritten;
      const stat = await handle.stat();
      if (stat.size !== this.#size + bytes.length) return false; // another writer at the same time: its header or ours is not last
      this.#identity = identityOf(stat);
      this.#size = stat.size;
      return true; // lines past what #whole holds are read from the file
    } finally {
      await handle.close();
    }
  }

  /** The open descriptor, reopened after the event loop turned; null when the path now names another file. */
  #open(): number | null {
    if (this.#fd !== null) return this.#fd;
    const fd = this.#repo.fs.openSync(this.#path, 'r');
    const stat = this.#repo.fs.fstatSync(fd);
    if (identityOf(stat) !== this.#identity) {
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

type Stat = { dev: number; ino: number; size: number; mtimeMs: number };
const identityOf = (stat: Stat) => `${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeMs}`;

const HEADER_CHUNK = 64 * 1024;

function onDisk(file: CacheFile, header: CacheHeader): ParsedFiles {
  file.bucketSpans = header.buckets;
  // An entry that cannot be where it says: no entry at all (the file is parsed from its blob, then kept anew). A line
  // that cannot be read reads as '': it does not parse (parsed again from the blob) and is not saved again as it is.
  // One object per entry, whichever lookup finds it: its objects are parsed once in this process.
  const files = new Map<string, CachedFile>();
  const keep = (into: KeptFiles, [key, start, length, scope]: DirectoryEntry) => {
    if (!file.holds([start, length])) return;
    let kept = files.get(key);
    if (!kept || kept.at?.span[0] !== start) files.set(key, (kept = keptFile(scope, file, [start, length])));
    into.set(key, kept);
  };
  let entries: KeptFiles | undefined;
  let always: KeptFiles | undefined;
  const buckets = new Map<number, DirectoryEntry[]>();
  const bucket = (i: number): DirectoryEntry[] => {
    let listed = buckets.get(i);
    if (!listed) {
      const span = header.buckets[i]!;
      listed = span[1] === 0 ? [] : (JSON.parse(file.line(span) ?? '') as DirectoryEntry[]);
      buckets.set(i, listed);
      file.bucketKeys.set(i, listed.map(([key]) => key).join('\n'));
    }
    return listed;
  };
  return {
    tree: header.tree,
    paths: header.paths,
    entries: () => {
      if (entries) return entries;
      entries = new Map();
      file.wholly();
      try {
        for (const entry of header.always) keep(entries, entry);
        for (let i = 0; i < BUCKETS; i++)
          for (const entry of bucket(i)) if (!entries.has(entry[0])) keep(entries, entry);
      } catch {
        entries = new Map(); // no entry, then: every file is parsed from its blob, and kept anew
      }
      return entries;
    },
    filesFor: (namespaces, without) => {
      try {
        if (without && without.size > 0) return withoutPaths(file, header.always, bucket, namespaces, without, keep);
        if (!always) {
          file.prefetch(header.always.map(([, start, length]) => [start, length]));
          const listed: KeptFiles = new Map();
          for (const entry of header.always) keep(listed, entry);
          always = listed;
        }
        const out = new Map(always);
        for (const ns of namespaces) {
          // A bucket holds other namespaces too.
          for (const entry of bucket(namespaceBucket(ns)))
            if (!out.has(entry[0]) && entry[3].policies.some((key) => policyNamespace(key) === ns)) keep(out, entry);
        }
        return out;
      } catch {
        return undefined; // a bucket line that is not one: which files a namespace needs is not known from here
      }
    },
    replacing: async (tree, replaced, paths) => {
      let change: ReturnType<typeof replacedLines>;
      try {
        change = replacedLines(file, header, bucket, tree, replaced, paths);
      } catch {
        return undefined; // a bucket line that is not one
      }
      if (!change || !(await file.append(change.bytes))) return undefined;
      file.headerAt = change.header.at;
      for (const [i, keys] of change.bucketKeys) file.bucketKeys.set(i, keys);
      const saved = onDisk(file, change.header);
      const written: KeptFiles = new Map();
      for (const [key, f, span] of change.written)
        written.set(key, { scope: f.scope, objects: f.objects, line: f.line, at: { file, span } });
      return { saved, written };
    },
  };
}

/**
 * What a save that replaces some entries appends (replacing): the new entries' lines, the bucket lines that change and
 * a header. An entry is in `always` when fleet-wide or holding a policy defined more than once; otherwise in the bucket
 * line of each of its policies' namespaces. Only the policies of the replaced entries (before and after) change
 * holders: the entries holding one of them may move into or out of `always`, and every holder of each of their
 * policies is in `always` or in the bucket line of its namespace, which is read. Undefined when the file would be
 * mostly dead lines, an entry does not survive JSON, or a replaced entry is not where its scope says.
 */
function replacedLines(
  file: CacheFile,
  header: CacheHeader,
  bucket: (i: number) => DirectoryEntry[],
  tree: string,
  replaced: ReadonlyMap<string, Replacement>,
  paths: string,
):
  | { bytes: Buffer; header: CacheHeader; bucketKeys: Map<number, string>; written: [string, CachedFile, Span][] }
  | undefined {
  const pathOf = (entry: DirectoryEntry) => entry[0].slice(entry[0].indexOf(' ') + 1);
  const bucketsOf = (scope: KarmadaScope) =>
    new Set(scope.policies.map((key) => namespaceBucket(policyNamespace(key))));
  const lines: Buffer[] = [];
  let offset = file.size;
  let live = header.live;
  const put = (text: string): Span => {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    const span: Span = [offset, bytes.length - 1];
    lines.push(bytes);
    offset += bytes.length;
    live += bytes.length;
    return span;
  };
  const added = new Map<string, DirectoryEntry>();
  const written: [string, CachedFile, Span][] = [];
  for (const [path, { after }] of replaced) {
    if (!after) continue;
    const line = after.file.line();
    if (line === '') return undefined;
    const span = put(line);
    added.set(path, [after.key, span[0], span[1], after.file.scope]);
    written.push([after.key, after.file, span]);
  }
  const changedPolicies = new Set<string>();
  for (const [path, { before }] of replaced) {
    for (const key of before?.policies ?? []) changedPolicies.add(key);
    for (const key of added.get(path)?.[3].policies ?? []) changedPolicies.add(key);
  }
  const listed = new Map<number, DirectoryEntry[]>();
  const read = (namespace: string) => {
    const i = namespaceBucket(namespace);
    if (!listed.has(i)) listed.set(i, bucket(i));
  };
  for (const key of changedPolicies) read(policyNamespace(key));
  const alwaysBefore = new Map(header.always.map((entry) => [pathOf(entry), entry]));
  // The entries whose place may change: those holding a changed policy, and the new ones.
  const candidates = new Map<string, DirectoryEntry>();
  const consider = (entry: DirectoryEntry) => {
    const path = pathOf(entry);
    if (!replaced.has(path) && entry[3].policies.some((key) => changedPolicies.has(key))) candidates.set(path, entry);
  };
  for (const entry of alwaysBefore.values()) consider(entry);
  for (const entries of listed.values()) for (const entry of entries) consider(entry);
  for (const [path, entry] of added) candidates.set(path, entry);
  for (const entry of candidates.values()) for (const key of entry[3].policies) read(policyNamespace(key));
  // Holders after the change of each policy of a candidate, and the dead lines of the entries replaced.
  const counted = new Set<string>();
  for (const entry of candidates.values()) for (const key of entry[3].policies) counted.add(key);
  const holders = new Map<string, Set<string>>();
  const hold = (entry: DirectoryEntry) => {
    for (const key of entry[3].policies) {
      if (!counted.has(key)) continue;
      let set = holders.get(key);
      if (!set) holders.set(key, (set = new Set()));
      set.add(pathOf(entry));
    }
  };
  const gone = new Map<string, DirectoryEntry>();
  const seen = (entry: DirectoryEntry) => {
    const path = pathOf(entry);
    if (replaced.has(path)) gone.set(path, entry);
    else hold(entry);
  };
  for (const entry of alwaysBefore.values()) seen(entry);
  for (const entries of listed.values()) for (const entry of entries) seen(entry);
  for (const entry of added.values()) hold(entry);
  for (const [path, { before }] of replaced) if (before && !gone.has(path)) return undefined; // not where it should be
  for (const entry of gone.values()) live -= entry[2] + 1;
  const duplicated = (key: string) => (holders.get(key)?.size ?? 0) > 1;
  const always = new Map([...alwaysBefore].filter(([path]) => !replaced.has(path)));
  for (const [path, entry] of candidates)
    if (entry[3].fleet || entry[3].policies.some(duplicated)) always.set(path, entry);
    else always.delete(path);
  // The bucket lines listing, before or after, an entry that came, went or moved.
  const touched = new Set<number>();
  for (const [path, { before }] of replaced) {
    for (const i of before ? bucketsOf(before) : []) touched.add(i);
    const entry = added.get(path);
    for (const i of entry ? bucketsOf(entry[3]) : []) touched.add(i);
  }
  for (const [path, entry] of candidates)
    if (alwaysBefore.has(path) !== always.has(path)) for (const i of bucketsOf(entry[3])) touched.add(i);
  const buckets = [...header.buckets];
  const bucketKeys = new Map<number, string>();
  for (const i of [...touched].sort((a, b) => a - b)) {
    const before = listed.get(i) ?? bucket(i);
    const after = before.filter((entry) => !replaced.has(pathOf(entry)) && !always.has(pathOf(entry)));
    const present = new Set(after.map(pathOf));
    for (const [path, entry] of candidates)
      if (!always.has(path) && !present.has(path) && bucketsOf(entry[3]).has(i)) {
        after.push(entry);
        present.add(path);
      }
    const keys = after.map(([key]) => key).join('\n');
    if (keys === before.map(([key]) => key).join('\n')) continue;
    const old = buckets[i]!;
    if (old[1] > 0) live -= old[1] + 1;
    buckets[i] = after.length === 0 ? [0, 0] : put(JSON.stringify(after));
    bucketKeys.set(i, keys);
  }
  const next: CacheHeader = {
    format: FORMAT,
    parser: parserIdentity(),
    tree,
    paths,
    at: offset,
    live,
    always: [...always.keys()].sort().map((path) => always.get(path)!),
    buckets,
  };
  const headerLine = Buffer.from(`${JSON.stringify(next)}\n`, 'utf8');
  if (offset + headerLine.length > 2 * (live + headerLine.length) + SLACK_BYTES) return undefined;
  return { bytes: Buffer.concat([...lines, headerLine]), header: next, bucketKeys, written };
}

/**
 * filesFor over the entries on disk but those of the paths `without` (files a change replaced, whose policies may have
 * made others duplicates, or stopped doing so), reading the bucket lines it needs only. A policy defined more than
 * once is held by entries in `always` (every render reads those) or in the bucket line of its namespace: so the
 * namespaces asked for, and those of every policy of an entry considered, have their bucket lines read, until no new
 * namespace comes up. Each policy's holders are then all known, and filesFor over those entries picks what it would
 * over every entry: an entry left out names no namespace asked for, and no policy held more than once without those.
 */
function withoutPaths(
  file: CacheFile,
  always: readonly DirectoryEntry[],
  bucket: (i: number) => DirectoryEntry[],
  namespaces: ReadonlySet<string>,
  without: ReadonlySet<string>,
  keep: (into: KeptFiles, entry: DirectoryEntry) => void,
): KeptFiles {
  const considered = new Map<string, DirectoryEntry>();
  const read = new Set<number>();
  const pending = [...namespaces];
  const consider = (entry: DirectoryEntry) => {
    const path = entry[0].slice(entry[0].indexOf(' ') + 1);
    if (without.has(path) || considered.has(path)) return;
    considered.set(path, entry);
    for (const key of entry[3].policies) pending.push(policyNamespace(key));
  };
  for (const entry of always) consider(entry);
  // All of them are parsed when picked: the fleet-wide entries every render reads.
  file.prefetch(always.map(([, start, length]) => [start, length]));
  for (let ns = pending.pop(); ns !== undefined; ns = pending.pop()) {
    const i = namespaceBucket(ns);
    if (read.has(i)) continue;
    read.add(i);
    for (const entry of bucket(i)) consider(entry);
  }
  const picked = filesFor(new Map([...considered].map(([path, entry]) => [path, entry[3]])), namespaces);
  const out: KeptFiles = new Map();
  for (const path of picked) keep(out, considered.get(path)!);
  return out;
}

/** Files as just saved for `tree`, one per path: what the next sync of this process starts from. */
function inMemory(entries: KeptFiles, tree: string, paths: string): ParsedFiles {
  const byPath = new Map<string, string>();
  for (const key of entries.keys()) byPath.set(key.slice(key.indexOf(' ') + 1), key);
  return {
    tree,
    paths,
    entries: () => entries,
    filesFor: (namespaces, without) => {
      const scopes = new Map<string, KarmadaScope>();
      for (const [path, key] of byPath) if (!without?.has(path)) scopes.set(path, entries.get(key)!.scope);
      const picked = filesFor(scopes, namespaces);
      return new Map([...picked].map((path) => [byPath.get(path)!, entries.get(byPath.get(path)!)!]));
    },
  };
}

/** A file parsed by this process, to keep. */
export function parsedFile(scope: KarmadaScope, objects: FileObjects): CachedFile {
  let line: string | undefined;
  return { scope, objects: () => objects, line: () => (line ??= survivesJson(objects) ? JSON.stringify(objects) : '') };
}

function keptFile(scope: KarmadaScope, file: CacheFile, span: Span): CachedFile {
  let objects: FileObjects | undefined;
  const readLine = () => file.line(span) ?? '';
  return {
    scope,
    objects: () => (objects ??= JSON.parse(readLine()) as FileObjects),
    line: readLine,
    at: { file, span },
  };
}

/**
 * Saves the entries of `tree` and returns them as saved: a file whose objects do not survive JSON is not kept. When
 * the entries were read from the file on disk, and it is still that file, what is new is appended to it; otherwise,
 * or when it would hold more lines no header points at than lines it uses, it is written whole (to a new file renamed
 * over the old, so readers see one version or the other).
 */
export async function writeParsedFileCache(
  repo: GitRepo,
  entries: ReadonlyMap<string, CachedFile>,
  tree: string,
): Promise<ParsedFiles> {
  const target = path.join(repo.gitdir, CACHE_FILE);
  let base: CacheFile | undefined;
  for (const file of entries.values()) if ((base = file.at?.file)) break;
  try {
    if (base) {
      const appended = await appendTo(base, entries, tree);
      if (appended) return appended;
    }
  } catch {
    // written whole below
  }
  const kept = new Map<string, { file: CachedFile; line: string }>();
  // Every file of the repository after a cold render, each serialized: the event loop gets a turn now and then.
  const turns = eventLoopTurns();
  for (const [key, file] of entries) {
    if (turns.due()) await turns.give();
    const line = file.line();
    if (line !== '') kept.set(key, { file, line }); // '' = does not survive JSON (or unreadable): parsed again next time
  }
  const layout = new Layout(0, tree);
  for (const [key, { file, line }] of kept) {
    if (turns.due()) await turns.give();
    layout.entry(key, file, line);
  }
  const { bytes, spans, buckets, bucketKeys, paths } = layout.finish(() => undefined);
  const tmp = `${target}.${process.pid}.tmp`;
  let written: CacheFile | undefined;
  try {
    await repo.fs.promises.writeFile(tmp, bytes);
    const ours = identityOf(await repo.fs.promises.stat(tmp));
    await repo.fs.promises.rename(tmp, target);
    await repo.fs.promises.rm(path.join(repo.gitdir, OLD_CACHE_FILE), { force: true });
    // This process appends to it next time, if it is still the file just written (not another process's since).
    const reopened = CacheFile.open(repo, target);
    if (reopened?.identity === ours) {
      written = reopened;
      written.bucketSpans = buckets;
      for (const [i, keys] of bucketKeys.entries()) written.bucketKeys.set(i, keys.join('\n'));
    }
  } catch {
    // A read-only repository still syncs; it only parses every time.
    await repo.fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
  return inMemory(savedAs(kept, spans, written), tree, paths);
}

/** The entries as this process keeps them after a save: their objects as before, their lines where they were written. */
function savedAs(
  kept: ReadonlyMap<string, { file: CachedFile }>,
  spans: ReadonlyMap<string, Span>,
  file: CacheFile | undefined,
): KeptFiles {
  const out: KeptFiles = new Map();
  for (const [key, { file: f }] of kept) {
    const span = spans.get(key);
    out.set(key, file && span ? { scope: f.scope, objects: f.objects, line: f.line, at: { file, span } } : f);
  }
  return out;
}

/**
 * Appends the entries not in `base` yet, the bucket lines that changed and a header to `base`; undefined when it
 * cannot (another file is there now, an entry's line is unreadable) or should not (it would be mostly dead lines).
 */
async function appendTo(
  base: CacheFile,
  entries: ReadonlyMap<string, CachedFile>,
  tree: string,
): Promise<ParsedFiles | undefined> {
  const kept = new Map<string, { file: CachedFile; line?: string; span?: Span }>();
  const turns = eventLoopTurns();
  for (const [key, file] of entries) {
    if (turns.due()) await turns.give();
    if (file.at?.file === base) {
      kept.set(key, { file, span: file.at.span });
      continue;
    }
    const line = file.line();
    if (line !== '') kept.set(key, { file, line });
  }
  const layout = new Layout(base.size, tree);
  for (const [key, { file, line, span }] of kept) {
    if (turns.due()) await turns.give();
    layout.entry(key, file, line, span);
  }
  // A bucket line listing the same entries, each where it was: kept where it is. Which entries a line lists is known
  // for the lines read (all of them when a policy changed); another line is compared with what it would say.
  const { bytes, spans, live, buckets, bucketKeys, paths } = layout.finish((keys, bucket, text) => {
    const span = base.bucketSpans?.[bucket];
    if (!span || span[1] === 0) return undefined;
    const known = base.bucketKeys.get(bucket);
    if (known !== undefined)
      return known === keys.join('\n') && !keys.some((key) => layout.written(key)) ? span : undefined;
    const line = text();
    return span[1] === Buffer.byteLength(line) && base.line(span) === line ? span : undefined;
  });
  if (base.size + bytes.length > 2 * live + SLACK_BYTES) return undefined;
  if (!(await base.append(bytes))) return undefined;
  base.bucketSpans = buckets;
  for (const [i, keys] of bucketKeys.entries()) base.bucketKeys.set(i, keys.join('\n'));
  return inMemory(savedAs(kept, spans, base), tree, paths);
}

/**
 * The lines of one save, in order: the entries' (those not written yet), the bucket lines, the header. Offsets count
 * from `start`, where they will be in the file.
 */
class Layout {
  readonly #lines: Buffer[] = [];
  readonly #spans = new Map<string, Span>();
  /** The entries whose line this save writes. */
  readonly #written = new Set<string>();
  readonly #scopes = new Map<string, { key: string; scope: KarmadaScope }>();
  #offset: number;
  /** Bytes of the lines the header points at, wherever they are. */
  #live = 0;
  readonly #tree: string;

  constructor(start: number, tree: string) {
    this.#offset = start;
    this.#tree = tree;
  }

  #put(text: string): Span {
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    const span: Span = [this.#offset, bytes.length - 1];
    this.#lines.push(bytes);
    this.#offset += bytes.length;
    this.#live += bytes.length;
    return span;
  }

  /** An entry: its line written now, or where it already is. */
  entry(key: string, file: CachedFile, line: string | undefined, span?: Span): void {
    if (span) this.#live += span[1] + 1;
    else this.#written.add(key);
    this.#spans.set(key, span ?? this.#put(line!));
    this.#scopes.set(key.slice(key.indexOf(' ') + 1), { key, scope: file.scope });
  }

  /** Whether this save writes the entry's line (it was not in the file, or not readable there). */
  written(key: string): boolean {
    return this.#written.has(key);
  }

  /**
   * The bucket lines (each kept where `unchanged` says it already is, given the keys it lists and, on demand, its text)
   * and the header; the bytes to write, every entry's span, the bytes the header points at, the buckets' spans and
   * keys, and the paths' digest.
   */
  finish(unchanged: (keys: readonly string[], bucket: number, text: () => string) => Span | undefined): {
    bytes: Buffer;
    spans: Map<string, Span>;
    live: number;
    buckets: Span[];
    bucketKeys: string[][];
    paths: string;
  } {
    const always = filesFor(new Map([...this.#scopes].map(([path, { scope }]) => [path, scope])), new Set());
    const bucketed: string[][] = Array.from({ length: BUCKETS }, () => []);
    for (const [path, { key, scope }] of this.#scopes) {
      if (always.has(path)) continue;
      for (const bucket of new Set(scope.policies.map((policy) => namespaceBucket(policyNamespace(policy)))))
        bucketed[bucket]!.push(key);
    }
    const entryOf = (key: string): DirectoryEntry => {
      const [start, length] = this.#spans.get(key)!;
      return [key, start, length, this.#scopes.get(key.slice(key.indexOf(' ') + 1))!.scope];
    };
    const buckets = bucketed.map((keys, i): Span => {
      if (keys.length === 0) return [0, 0];
      let text: string | undefined;
      const line = () => (text ??= JSON.stringify(keys.map(entryOf)));
      const kept = unchanged(keys, i, line);
      if (!kept) return this.#put(line());
      this.#live += kept[1] + 1;
      return kept;
    });
    const paths = karmadaPathsDigest([...this.#scopes.keys()].sort());
    const header: CacheHeader = {
      format: FORMAT,
      parser: parserIdentity(),
      tree: this.#tree,
      paths,
      at: this.#offset,
      live: this.#live,
      always: [...always].sort().map((path) => entryOf(this.#scopes.get(path)!.key)),
      buckets,
    };
    this.#put(JSON.stringify(header));
    return {
      bytes: Buffer.concat(this.#lines),
      spans: this.#spans,
      live: this.#live,
      buckets,
      bucketKeys: bucketed,
      paths,
    };
  }
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
export function parserIdentity(): string {
  if (identity) return identity;
  let yaml = 'yaml ?';
  try {
    yaml = `yaml ${(createRequire(import.meta.url)('yaml/package.json') as { version: string }).version}`;
  } catch {
    // an install without yaml's package.json cannot parse either; this identity is as good as any
  }
  return (identity = createHash('sha1').update(`${parserCodeDigest()}\0${yaml}`).digest('hex'));
}
