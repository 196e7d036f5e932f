import path from 'node:path';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { DamagedObjectError } from './DamagedObjectError.ts';
import { ObjectNotFoundError } from './ObjectNotFoundError.ts';
import { ObjectTooLargeError } from './ObjectTooLargeError.ts';
import type { GitRepo } from './types.ts';

export type StoredType = 'commit' | 'tree' | 'blob' | 'tag';

export interface StoredObject {
  type: StoredType;
  content: Buffer;
}

/**
 * One object of the repository, loose or packed (idx v2; ofs- and ref-deltas), read with node's native
 * zlib. isomorphic-git's reader loads each whole .pack into memory on first use and inflates with pako
 * (~40 % of a sync's first read); this one reads only the bytes of the wanted object with positional
 * reads, so cost follows the objects read and memory stays flat however large the packs grow.
 * Throws ObjectNotFoundError (code 'NotFoundError', as isomorphic-git) when no store holds it.
 */
export function readObject(repo: GitRepo, oid: string, limits: ReadLimits = {}): StoredObject {
  // Buffer.from stops at the first non-hex character: a short result means no object can have this name.
  const raw = Buffer.from(oid, 'hex');
  if (oid.length !== 40 || raw.length !== 20) throw new ObjectNotFoundError(oid);
  const store = storeOf(repo);
  const recent = store.recent.get(oid);
  if (recent) return recent;
  const read = { oid, maxBytes: limits.maxBytes ?? Infinity };
  let found = readPacked(repo, store, raw, read) ?? readLoose(repo, oid, read);
  // A pack written since we last looked (by us or by git): list the pack folder again, as git does on a miss.
  if (!found && rescanPacks(repo, store)) found = readPacked(repo, store, raw, read);
  if (!found) throw new ObjectNotFoundError(oid);
  if (found.type !== 'blob') keepRecent(store, oid, found);
  return found;
}

export interface ReadLimits {
  /**
   * Largest object, in bytes, to inflate. The size is read from the pack entry's header (a delta's from the first
   * bytes of the delta) or from the first inflated bytes of a loose object, and a larger object throws
   * ObjectTooLargeError before it is inflated. A delta's bases may be up to BASE_LIMIT_FACTOR times larger.
   * Default: no limit.
   */
  maxBytes?: number;
}

/** A file may legitimately be stored as a small delta against a larger older version; not against any size. */
const BASE_LIMIT_FACTOR = 8;
/** Deltas up to this many bytes of instructions are inflated whole before their base is read. */
const DELTA_INFLATED_FIRST = 64 * 1024;

interface ReadRequest {
  oid: string;
  maxBytes: number;
}

/**
 * Trees and commits are read again within a sync (the output tree's folders by the lookups of the previous files,
 * then by the edits that rewrite them; the head commit by every step that asks where the last render is): keep the
 * latest ones, up to a fixed number of bytes, oldest dropped first.
 */
function keepRecent(store: ObjectStore, oid: string, obj: StoredObject): void {
  if (obj.content.length > MAX_RECENT_BYTES / 4 || store.recent.has(oid)) return;
  store.recent.set(oid, ownBytes(obj));
  store.recentBytes += obj.content.length;
  for (const [k, v] of store.recent) {
    if (store.recentBytes <= MAX_RECENT_BYTES) break;
    store.recent.delete(k);
    store.recentBytes -= v.content.length;
  }
}

/**
 * Which of `oids` some pack holds, against the same pack indexes the reads use (listing the pack
 * folder again first, so packs written by others since are seen). Loose objects are not looked at.
 */
export function packedObjects(repo: GitRepo, oids: Iterable<string>): Set<string> {
  const store = storeOf(repo);
  rescanPacks(repo, store);
  const found = new Set<string>();
  for (const oid of oids) {
    const raw = Buffer.from(oid, 'hex');
    for (const pack of store.packs.values()) {
      if (findInIndex(repo, pack, raw)) {
        found.add(oid);
        break;
      }
    }
  }
  return found;
}

const TYPES: Record<number, StoredType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const BLOB = 3;
const OFS_DELTA = 6;
const REF_DELTA = 7;

/**
 * One pack's index, read in parts: the fan-out table when the pack is found, then pages of names and offsets as
 * lookups need them. A sync looks up a few hundred objects; reading a fleet's index whole cost more than those lookups
 * (and as much again in garbage), and so did reading a first byte's whole run for each (300 KiB each in a pack of
 * three million objects), so an index costs about a page per lookup.
 */
interface PackIndex {
  idxPath: string;
  packPath: string;
  /** Open while reads come in a burst; closed once the event loop turns (see burstFd). */
  idxFd: number | null;
  fd: number | null;
  /** Entries with a first byte up to each value: fanout[b] - fanout[b - 1] names start with byte b. */
  fanout: Uint32Array;
  count: number;
  /** Entries per page (indexPageEntries). */
  pageEntries: number;
  /** Pages read so far, by number: entries [n * pageEntries, (n + 1) * pageEntries). */
  pages: Map<number, IndexPage>;
  /** The whole names table (its offsets read as a read needs them), once single pages have cost as much (pageAt). */
  whole: IndexPage | null;
  /** Where the object data ends: the 20-byte checksum trailer starts here. */
  end: number;
}

/**
 * Names (20 bytes each) of consecutive entries of an index, from entry `from`, and their offsets (4 bytes each) once
 * a read needs one: a check for objects the repository already has (every object a sync writes) reads names only.
 */
interface IndexPage {
  from: number;
  names: Buffer;
  offsets: Buffer | null;
}

interface ObjectStore {
  packs: Map<string, PackIndex>;
  /** Delta bases by "pack:offset": chains share bases, and trees of one commit delta against each other. */
  bases: Map<string, StoredObject>;
  baseBytes: number;
  /** Trees and commits by oid (keepRecent). */
  recent: Map<string, StoredObject>;
  recentBytes: number;
}

const STORE = Symbol('flotilla.commits.objectStore');
const MAX_BASE_BYTES = 16 * 1024 * 1024;
const MAX_RECENT_BYTES = 8 * 1024 * 1024;
const FANOUT_AT = 8;
/**
 * Entries per page of an index read one by one, the least and the most. Object names are uniformly spread, so the
 * place of a name in its first byte's run is foretold by its next bytes to within half the square root of the run's
 * length (~60 entries in a pack of three million objects, ~13 in one of 176,000): a page twice that square root long
 * answers nearly every lookup alone. Fixed at 512, an L fleet's one-policy sync read 10.8 MB of index for its few
 * thousand lookups (most of them for objects it was about to write, missing from every pack), 9.8 MB since.
 */
const MIN_PAGE = 64;
const MAX_PAGE = 512;
/**
 * What one more read costs, in bytes copied: about 8 µs a read against ~400 bytes a µs on this machine kind (an L
 * one-policy sync: 820 reads of 10.8 MB took 27 ms, 1,432 reads of 6.3 MB 19 ms).
 */
const READ_COST_BYTES = 4096;

/** The page length for a pack of `count` objects: a power of two, at least twice the square root of a byte's run. */
export function indexPageEntries(count: number): number {
  let entries = MIN_PAGE;
  while (entries < MAX_PAGE && entries < 2 * Math.sqrt(count / 256)) entries *= 2;
  return entries;
}
const NAMES_AT = FANOUT_AT + 256 * 4;

function storeOf(repo: GitRepo): ObjectStore {
  const holder = repo.cache as { [STORE]?: ObjectStore };
  let store = holder[STORE];
  if (!store) {
    store = { packs: new Map(), bases: new Map(), baseBytes: 0, recent: new Map(), recentBytes: 0 };
    holder[STORE] = store;
    rescanPacks(repo, store);
  }
  return store;
}

/** Reads the fan-out tables of packs not known yet and forgets vanished ones; true when something changed. */
function rescanPacks(repo: GitRepo, store: ObjectStore): boolean {
  const dir = path.join(repo.gitdir, 'objects', 'pack');
  let names: string[];
  try {
    names = repo.fs.readdirSync(dir).filter((n) => /^pack-[0-9a-f]+\.idx$/.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') names = [];
    else throw err;
  }
  let changed = false;
  const present = new Set(names);
  for (const name of store.packs.keys()) {
    if (!present.has(name)) {
      store.packs.delete(name);
      changed = true;
    }
  }
  for (const name of names) {
    if (store.packs.has(name)) continue;
    const idxPath = path.join(dir, name);
    const packPath = path.join(dir, name.replace(/\.idx$/, '.pack'));
    let head: Buffer;
    let packSize: number;
    try {
      const fd = repo.fs.openSync(idxPath, 'r');
      try {
        head = Buffer.alloc(NAMES_AT);
        // A short read leaves zeros: no magic, reported below.
        repo.fs.readSync(fd, head, 0, NAMES_AT, 0);
      } finally {
        repo.fs.closeSync(fd);
      }
      packSize = repo.fs.statSync(packPath).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed by a concurrent repack
      throw err;
    }
    if (head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) {
      throw new Error(`${idxPath}: not a version 2 pack index; fix: run \`git repack -a -d\` to rewrite it`);
    }
    const fanout = new Uint32Array(256);
    for (let b = 0; b < 256; b++) fanout[b] = head.readUInt32BE(FANOUT_AT + b * 4);
    store.packs.set(name, {
      idxPath,
      packPath,
      fd: null,
      idxFd: null,
      fanout,
      count: fanout[255]!,
      pageEntries: indexPageEntries(fanout[255]!),
      pages: new Map(),
      whole: null,
      end: packSize - 20,
    });
    changed = true;
  }
  return changed;
}

/**
 * The page of an index holding entry `n`, read on first use. Once the pages read one by one have cost as much as
 * reading the whole names table (a render reading objects all over the pack: a NoExecute eviction reads thousands of
 * bindings), that table is read in one read instead, the offsets as a read needs them (see entryOffset): a sync that
 * turns out to need the whole index pays at most twice what reading it at once would have.
 */
function pageAt(repo: GitRepo, pack: PackIndex, n: number): IndexPage {
  if (pack.whole) return pack.whole;
  const number = Math.floor(n / pack.pageEntries);
  const cached = pack.pages.get(number);
  if (cached) return cached;
  const fd = burstFd(repo, pack, 'idxFd', pack.idxPath);
  if ((pack.pages.size + 1) * (READ_COST_BYTES + pack.pageEntries * 20) > pack.count * 20) {
    pack.whole = { from: 0, names: readRange(repo, fd, NAMES_AT, NAMES_AT + pack.count * 20), offsets: null };
    pack.pages.clear();
    return pack.whole;
  }
  const from = number * pack.pageEntries;
  const to = Math.min(pack.count, from + pack.pageEntries);
  const page = { from, names: readRange(repo, fd, NAMES_AT + from * 20, NAMES_AT + to * 20), offsets: null };
  pack.pages.set(number, page);
  return page;
}

/**
 * Where `oid` is among the entries [lo, hi) of a sorted table of names (a first byte's run), or -1; `pageAt(n)` gives
 * a part of the table holding entry n. The search starts on the page where a uniform spread of names puts `oid` (its
 * bytes 1 to 4 tell how far into the run) and moves a page at a time toward it, then bisects within the page: a lookup
 * reads one page, rarely two, whatever the run's length.
 */
export function findInRun(
  oid: Uint8Array,
  lo: number,
  hi: number,
  pageAt: (n: number) => { from: number; names: Uint8Array },
): number {
  if (lo >= hi) return -1;
  const share = (((oid[1]! << 24) >>> 0) + (oid[2]! << 16) + (oid[3]! << 8) + oid[4]!) / 2 ** 32;
  let n = lo + Math.min(hi - lo - 1, Math.floor(share * (hi - lo)));
  let direction = 0;
  for (;;) {
    const page = pageAt(n);
    const first = Math.max(lo, page.from);
    const last = Math.min(hi, page.from + page.names.length / 20) - 1;
    if (compareName(oid, page.names, first - page.from) < 0) {
      // Below this page: on the one before, unless the search came from there (then it lies between the two).
      if (first === lo || direction > 0) return -1;
      direction = -1;
      n = first - 1;
      continue;
    }
    if (compareName(oid, page.names, last - page.from) > 0) {
      if (last === hi - 1 || direction < 0) return -1;
      direction = 1;
      n = last + 1;
      continue;
    }
    let a = first - page.from;
    let b = last - page.from + 1;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const cmp = compareName(oid, page.names, mid);
      if (cmp === 0) return page.from + mid;
      if (cmp < 0) b = mid;
      else a = mid + 1;
    }
    return -1;
  }
}

/**
 * `oid` against the i-th name of a table, from the second byte: within a run the first is equal, and the second nearly
 * always decides, where Buffer#compare paid for its argument checks on every call.
 */
function compareName(oid: Uint8Array, names: Uint8Array, i: number): number {
  const at = i * 20;
  for (let k = 1; k < 20; k++) {
    const cmp = oid[k]! - names[at + k]!;
    if (cmp !== 0) return cmp;
  }
  return 0;
}

function entryOffset(repo: GitRepo, pack: PackIndex, page: IndexPage, n: number): number {
  if (!page.offsets) {
    const at = NAMES_AT + pack.count * 24 + page.from * 4;
    page.offsets = readRange(repo, burstFd(repo, pack, 'idxFd', pack.idxPath), at, at + (page.names.length / 20) * 4);
  }
  const small = page.offsets.readUInt32BE((n - page.from) * 4);
  if (!(small & 0x80000000)) return small;
  const at = NAMES_AT + pack.count * 28 + (small & 0x7fffffff) * 8;
  return Number(readRange(repo, burstFd(repo, pack, 'idxFd', pack.idxPath), at, at + 8).readBigUInt64BE(0));
}

/** Where the pack holds `oid` (its entry's page and number); undefined when it does not (or the pack vanished under a concurrent repack). */
function findInIndex(repo: GitRepo, pack: PackIndex, oid: Buffer): { page: IndexPage; n: number } | undefined {
  const first = oid[0]!;
  const lo = first === 0 ? 0 : pack.fanout[first - 1]!;
  const hi = pack.fanout[first]!;
  if (lo === hi) return undefined; // no name starts with this byte
  let page: IndexPage | undefined;
  try {
    const n = findInRun(oid, lo, hi, (at) => (page = pageAt(repo, pack, at)));
    return n < 0 ? undefined : { page: page!, n };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined; // the next rescan drops it
    throw DamagedObjectError.wrap(err, oid.toString('hex'), pack.idxPath, repo.gitdir);
  }
}

function readPacked(repo: GitRepo, store: ObjectStore, raw: Buffer, read: ReadRequest): StoredObject | undefined {
  for (const [name, pack] of store.packs) {
    const found = findInIndex(repo, pack, raw);
    if (!found) continue;
    let fd: number;
    try {
      fd = burstFd(repo, pack, 'fd', pack.packPath);
    } catch (err) {
      // git gc repacked since the index was read: readObject's rescan drops this pack and finds the new one.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    try {
      return readAt(repo, store, name, pack, fd, entryOffset(repo, pack, found.page, found.n), read);
    } catch (err) {
      throw DamagedObjectError.wrap(err, read.oid, pack.packPath, repo.gitdir);
    }
  }
  return undefined;
}

/**
 * A pack's (or its index's) file descriptor, opened on first use and closed when the event loop next turns: a burst
 * of reads (a tree walk, a batch of blobs) shares one open, and no descriptor outlives it, so repositories opened
 * and dropped (tests, one-shot commands) leak nothing.
 */
function burstFd(repo: GitRepo, pack: PackIndex, which: 'fd' | 'idxFd', file: string): number {
  const open = pack[which];
  if (open !== null) return open;
  const fd = repo.fs.openSync(file, 'r');
  pack[which] = fd;
  setImmediate(() => {
    pack[which] = null;
    repo.fs.closeSync(fd);
  });
  return fd;
}

function readAt(
  repo: GitRepo,
  store: ObjectStore,
  name: string,
  pack: PackIndex,
  fd: number,
  offset: number,
  read: ReadRequest,
): StoredObject {
  const key = `${name}:${offset}`;
  const cached = store.bases.get(key);
  if (cached) {
    if (cached.content.length > read.maxBytes)
      throw new ObjectTooLargeError(read.oid, cached.content.length, read.maxBytes);
    return cached;
  }
  // The header (type, inflated size, and for deltas where the base is: 32 bytes hold any of them) and, in the same
  // read, what follows it: most objects a sync reads (a manifest, a binding, a template's delta) end within it.
  if (!(offset < pack.end)) throw new Error(`the pack ends at byte ${pack.end + 20}, before the object at ${offset}`);
  const head = readFirstBytes(repo, fd, offset, pack.end);
  const first = { at: offset, bytes: head };
  let pos = 0;
  let byte = head[pos++]!;
  const code = (byte >> 4) & 7;
  let size = byte & 0x0f;
  let scale = 16;
  while (byte & 0x80) {
    byte = head[pos++]!;
    size += (byte & 0x7f) * scale;
    scale *= 128;
  }
  if (code !== OFS_DELTA && code !== REF_DELTA && size > read.maxBytes)
    throw new ObjectTooLargeError(read.oid, size, read.maxBytes);
  const baseRead = { oid: read.oid, maxBytes: read.maxBytes * BASE_LIMIT_FACTOR };
  let base: StoredObject | undefined;
  let data: Buffer | undefined;
  // A delta's instructions are small: inflated first, they give the result's size for the limit check, and are
  // inflated once (a separate look at their first bytes cost a second inflate per delta of every chain).
  const deltaFirst = (start: number) => {
    if (size > DELTA_INFLATED_FIRST) return checkDeltaResult(repo, fd, pack, start, read);
    data = inflateAt(repo, fd, pack, start, size, first);
    const result = Number.isFinite(read.maxBytes) ? varints(data, 2)[1] : undefined;
    if (result !== undefined && result > read.maxBytes) throw new ObjectTooLargeError(read.oid, result, read.maxBytes);
  };
  if (code === OFS_DELTA) {
    byte = head[pos++]!;
    let back = byte & 0x7f;
    while (byte & 0x80) {
      byte = head[pos++]!;
      back = (back + 1) * 128 + (byte & 0x7f);
    }
    const baseOffset = offset - back;
    deltaFirst(offset + pos);
    base = readAt(repo, store, name, pack, fd, baseOffset, baseRead);
    // Many deltas share one base (every version of a file against the newest): keep it too.
    remember(store, `${name}:${baseOffset}`, base);
  } else if (code === REF_DELTA) {
    const baseOid = head.toString('hex', pos, pos + 20);
    pos += 20;
    deltaFirst(offset + pos);
    base = readObject(repo, baseOid, Number.isFinite(read.maxBytes) ? { maxBytes: baseRead.maxBytes } : {});
  }
  // A delta's base was read since `head` (into the same buffer): its instructions are read again.
  data ??= inflateAt(repo, fd, pack, offset + pos, size, base ? undefined : first, code === BLOB);
  if (base) {
    const result = { type: base.type, content: applyDelta(base.content, data) };
    remember(store, key, result);
    return result;
  }
  const type = TYPES[code];
  if (!type) throw new Error(`unknown object type ${code} at offset ${offset}`);
  return { type, content: data };
}

/**
 * A delta starts with the sizes of its base and of its result (two varints, at most 20 bytes): inflate just enough
 * of it to read the result's size, so an oversized object stored as a delta is refused before it is built.
 */
function checkDeltaResult(repo: GitRepo, fd: number, pack: PackIndex, start: number, read: ReadRequest): void {
  if (!Number.isFinite(read.maxBytes)) return;
  const size = varints(inflatePrefix(readRange(repo, fd, start, Math.min(start + 256, pack.end))), 2)[1];
  if (size !== undefined && size > read.maxBytes) throw new ObjectTooLargeError(read.oid, size, read.maxBytes);
}

/** The first bytes a zlib stream inflates to, from a prefix of it (no error for the missing rest). */
function inflatePrefix(compressed: Buffer): Buffer {
  return inflateSync(compressed, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 1024 * 1024 });
}

/** The first `count` of git's little-endian base-128 varints in `data` (fewer when it ends first). */
function varints(data: Buffer, count: number): number[] {
  const out: number[] = [];
  let pos = 0;
  while (out.length < count && pos < data.length) {
    let value = 0;
    let scale = 1;
    let byte;
    do {
      byte = data[pos++] ?? 0;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80 && pos < data.length);
    out.push(value);
  }
  return out;
}

/**
 * Inflates the zlib stream at `start` whose output is `size` bytes. A pack does not record where an object's
 * compressed bytes end, but zlib stops at the end of its stream and ignores what follows, and reports a stream cut
 * short (Z_BUF_ERROR): so read as much as deflate can need for `size` bytes (its worst case is barely above `size`),
 * and more only if some unusual encoder needed more. Text deflates to a fraction of its size: a blob up to four times
 * what the first read holds of it is tried from those bytes first (an index shard of 25 KiB is 3.5 KiB in the pack,
 * where the worst case read 28 KiB again). A tree's binary ids deflate little, and a failed try costs an inflate and
 * an error: anything else is read to the worst case at once. No table of every object's offset has to be built.
 */
function inflateAt(
  repo: GitRepo,
  fd: number,
  pack: PackIndex,
  start: number,
  size: number,
  first?: { at: number; bytes: Buffer },
  blob = false,
): Buffer {
  const worst = size + (size >>> 3) + (size >>> 6) + 64;
  const held = first ? first.at + first.bytes.length - start : 0;
  let want = held > 0 && (worst <= held || (blob && size <= 4 * held)) ? Math.min(held, worst) : worst;
  for (;;) {
    const stop = Math.min(start + want, pack.end);
    const read =
      first && stop <= first.at + first.bytes.length
        ? first.bytes.subarray(start - first.at, stop - first.at)
        : readRange(repo, fd, start, stop);
    try {
      // Sized to the object: zlib's default 16 KiB output chunk would be allocated for every object, and a small
      // object's bytes would be a view keeping all of it alive wherever they are kept (delta bases, parsed files).
      const out = inflateSync(read, { chunkSize: Math.max(64, size + 1) });
      if (out.length !== size)
        throw new Error(`the object at ${start} inflates to ${out.length} bytes, its header says ${size}`);
      return out;
    } catch (err) {
      if ((err as { code?: string }).code !== 'Z_BUF_ERROR' || stop === pack.end) throw err;
      want = want < worst ? worst : 2 * want;
    }
  }
}

/**
 * The bytes of a pack from `start` on, as many as FIRST_READ (fewer at its end), in a buffer that the next call
 * overwrites: a reader uses them before it reads another object. One positional read per object where it took two
 * (its header, then its compressed bytes) halves the system calls of a sync reading thousands of objects.
 */
function readFirstBytes(repo: GitRepo, fd: number, start: number, end: number): Buffer {
  return readInto(repo, fd, firstBytes.subarray(0, Math.min(FIRST_READ, end - start)), start);
}
const FIRST_READ = 8 * 1024;
const firstBytes = Buffer.allocUnsafe(FIRST_READ);

function readRange(repo: GitRepo, fd: number, start: number, end: number): Buffer {
  return readInto(repo, fd, Buffer.allocUnsafe(end - start), start);
}

/** Fills `buf` from the file at `start`. */
function readInto(repo: GitRepo, fd: number, buf: Buffer, start: number): Buffer {
  const end = start + buf.length;
  let done = 0;
  while (done < buf.length) {
    const n = repo.fs.readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) throw new Error(`the file ends at byte ${start + done}, before byte ${end}`);
    done += n;
  }
  return buf;
}

/**
 * The object with its content in a buffer of its own size. What zlib inflates is a view of a 16 KiB chunk, and a
 * cache counts the bytes of the content: kept as it came, a 300-byte commit held 16 KiB, and a reconciler's caches
 * held some 74 KB more after each sync (1,500 such chunks over 300 syncs at L) until their byte bounds were reached,
 * tens of thousands of objects later. Not from node's pool either, whose 8 KiB slabs a kept view would pin.
 */
function ownBytes(obj: StoredObject): StoredObject {
  const content = obj.content;
  if (content.byteLength === content.buffer.byteLength) return obj;
  const copy = Buffer.allocUnsafeSlow(content.byteLength);
  content.copy(copy);
  return { type: obj.type, content: copy };
}

/** Delta bases and delta results are kept (later deltas may build on them), up to a fixed number of bytes. */
function remember(store: ObjectStore, key: string, obj: StoredObject): void {
  if (obj.content.length > MAX_BASE_BYTES / 4 || store.bases.has(key)) return;
  store.bases.set(key, ownBytes(obj));
  store.baseBytes += obj.content.length;
  for (const [k, v] of store.bases) {
    if (store.baseBytes <= MAX_BASE_BYTES) break;
    store.bases.delete(k);
    store.baseBytes -= v.content.length;
  }
}

/** git's delta format: source and target sizes, then copy (from the base) and insert (literal) ops. */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let pos = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    let byte;
    do {
      byte = delta[pos++]!;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  };
  const sourceSize = varint();
  if (sourceSize !== base.length) throw new Error(`delta expects a base of ${sourceSize} bytes, got ${base.length}`);
  const out = Buffer.allocUnsafe(varint());
  let written = 0;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i++) if (op & (1 << i)) offset += delta[pos++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i++) if (op & (0x10 << i)) size += delta[pos++]! * 2 ** (8 * i);
      if (size === 0) size = 0x10000;
      written += base.copy(out, written, offset, offset + size);
    } else if (op > 0) {
      written += delta.copy(out, written, pos, pos + op);
      pos += op;
    } else {
      throw new Error('delta: reserved opcode 0');
    }
  }
  if (written !== out.length) throw new Error(`delta produced ${written} bytes, expected ${out.length}`);
  return out;
}

function readLoose(repo: GitRepo, oid: string, read: ReadRequest): StoredObject | undefined {
  const file = path.join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  let compressed: Buffer;
  try {
    compressed = Number.isFinite(read.maxBytes)
      ? readLooseWithin(repo, file, oid, read.maxBytes)
      : repo.fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw DamagedObjectError.wrap(err, oid, file, repo.gitdir);
  }
  let raw: Buffer;
  try {
    // The header's size was checked, but the stream is what it is: never inflate more than it claimed.
    raw = Number.isFinite(read.maxBytes)
      ? inflateSync(compressed, { maxOutputLength: read.maxBytes + 64 })
      : inflateSync(compressed);
  } catch (err) {
    throw DamagedObjectError.wrap(err, oid, file, repo.gitdir);
  }
  const space = raw.indexOf(0x20);
  const nul = raw.indexOf(0, space);
  const type = raw.toString('latin1', 0, space) as StoredType;
  if (!['commit', 'tree', 'blob', 'tag'].includes(type) || nul < 0)
    throw new DamagedObjectError(oid, file, repo.gitdir, 'its header names no object type');
  return { type, content: raw.subarray(nul + 1) };
}

/**
 * A loose object's compressed bytes, once its size passed: "<type> <size>\0" opens the inflated object, so the
 * first bytes are inflated alone and read before the rest of the file is.
 */
function readLooseWithin(repo: GitRepo, file: string, oid: string, maxBytes: number): Buffer {
  const fd = repo.fs.openSync(file, 'r');
  try {
    const length = repo.fs.fstatSync(fd).size;
    const prefix = readRange(repo, fd, 0, Math.min(length, 256));
    const header = inflatePrefix(prefix);
    const match = /^[a-z]+ (\d+)\0/.exec(header.toString('latin1', 0, Math.min(header.length, 64)));
    if (match && Number(match[1]) > maxBytes) throw new ObjectTooLargeError(oid, Number(match[1]), maxBytes);
    return length <= prefix.length ? prefix : Buffer.concat([prefix, readRange(repo, fd, prefix.length, length)]);
  } finally {
    repo.fs.closeSync(fd);
  }
}
