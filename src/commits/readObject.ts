import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { ObjectNotFoundError } from './ObjectNotFoundError.ts';
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
export function readObject(repo: GitRepo, oid: string): StoredObject {
  // Buffer.from stops at the first non-hex character: a short result means no object can have this name.
  const raw = Buffer.from(oid, 'hex');
  if (oid.length !== 40 || raw.length !== 20) throw new ObjectNotFoundError(oid);
  const store = storeOf(repo);
  const found = readPacked(repo, store, raw) ?? readLoose(repo, oid);
  if (found) return found;
  // A pack written since we last looked (by us or by git): list the pack folder again, as git does on a miss.
  if (rescanPacks(repo, store)) {
    const again = readPacked(repo, store, raw);
    if (again) return again;
  }
  throw new ObjectNotFoundError(oid);
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
      if (findInIndex(pack, raw) >= 0) {
        found.add(oid);
        break;
      }
    }
  }
  return found;
}

const TYPES: Record<number, StoredType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;

interface PackIndex {
  packPath: string;
  /** Open while reads come in a burst; closed once the event loop turns (see packFd). */
  fd: number | null;
  idx: Buffer;
  count: number;
  /** Where the object data ends: the 20-byte checksum trailer starts here. */
  end: number;
}

interface ObjectStore {
  packs: Map<string, PackIndex>;
  /** Delta bases by "pack:offset": chains share bases, and trees of one commit delta against each other. */
  bases: Map<string, StoredObject>;
  baseBytes: number;
}

const STORE = Symbol('flotilla.commits.objectStore');
const MAX_BASE_BYTES = 16 * 1024 * 1024;

function storeOf(repo: GitRepo): ObjectStore {
  const holder = repo.cache as { [STORE]?: ObjectStore };
  let store = holder[STORE];
  if (!store) {
    store = { packs: new Map(), bases: new Map(), baseBytes: 0 };
    holder[STORE] = store;
    rescanPacks(repo, store);
  }
  return store;
}

/** Loads the indexes of packs not known yet and forgets vanished ones; true when something changed. */
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
    const packPath = path.join(dir, name.replace(/\.idx$/, '.pack'));
    let idx: Buffer;
    let packSize: number;
    try {
      idx = repo.fs.readFileSync(path.join(dir, name));
      packSize = repo.fs.statSync(packPath).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed by a concurrent repack
      throw err;
    }
    if (idx.readUInt32BE(0) !== 0xff744f63 || idx.readUInt32BE(4) !== 2) {
      throw new Error(`${path.join(dir, name)}: not a version 2 pack index; fix: run \`git repack -a -d\` to rewrite it`);
    }
    const count = idx.readUInt32BE(8 + 255 * 4);
    store.packs.set(name, { packPath, fd: null, idx, count, end: packSize - 20 });
    changed = true;
  }
  return changed;
}

function entryOffset(idx: Buffer, count: number, i: number): number {
  const offsets = 8 + 1024 + count * 24;
  const small = idx.readUInt32BE(offsets + i * 4);
  if (!(small & 0x80000000)) return small;
  return Number(idx.readBigUInt64BE(offsets + count * 4 + (small & 0x7fffffff) * 8));
}

/** Position of `oid` in the sorted name table, narrowed by the fan-out table; -1 when absent. */
function findInIndex(pack: PackIndex, oid: Buffer): number {
  const { idx } = pack;
  const first = oid[0]!;
  let lo = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.readUInt32BE(8 + first * 4);
  const names = 8 + 1024;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = names + mid * 20;
    const cmp = oid.compare(idx, at, at + 20);
    if (cmp === 0) return mid;
    if (cmp < 0) hi = mid;
    else lo = mid + 1;
  }
  return -1;
}

function readPacked(repo: GitRepo, store: ObjectStore, raw: Buffer): StoredObject | undefined {
  for (const [name, pack] of store.packs) {
    const i = findInIndex(pack, raw);
    if (i < 0) continue;
    return readAt(repo, store, name, pack, packFd(repo, pack), entryOffset(pack.idx, pack.count, i));
  }
  return undefined;
}

/**
 * The pack's file descriptor, opened on first use and closed when the event loop next turns: a burst of
 * reads (a tree walk, a batch of blobs) shares one open, and no descriptor outlives it, so repositories
 * opened and dropped (tests, one-shot commands) leak nothing.
 */
function packFd(repo: GitRepo, pack: PackIndex): number {
  if (pack.fd !== null) return pack.fd;
  const fd = repo.fs.openSync(pack.packPath, 'r');
  pack.fd = fd;
  setImmediate(() => {
    pack.fd = null;
    repo.fs.closeSync(fd);
  });
  return fd;
}

function readAt(repo: GitRepo, store: ObjectStore, name: string, pack: PackIndex, fd: number, offset: number): StoredObject {
  const key = `${name}:${offset}`;
  const cached = store.bases.get(key);
  if (cached) return cached;
  // The header: type, inflated size, and for deltas where the base is. 32 bytes hold any of them.
  const head = readRange(repo, fd, offset, Math.min(offset + 32, pack.end));
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
  let base: StoredObject | undefined;
  if (code === OFS_DELTA) {
    byte = head[pos++]!;
    let back = byte & 0x7f;
    while (byte & 0x80) {
      byte = head[pos++]!;
      back = (back + 1) * 128 + (byte & 0x7f);
    }
    const baseOffset = offset - back;
    base = readAt(repo, store, name, pack, fd, baseOffset);
    // Many deltas share one base (every version of a file against the newest): keep it too.
    remember(store, `${name}:${baseOffset}`, base);
  } else if (code === REF_DELTA) {
    base = readObject(repo, head.toString('hex', pos, pos + 20));
    pos += 20;
  }
  const data = inflateAt(repo, fd, pack, offset + pos, size);
  if (base) {
    const result = { type: base.type, content: applyDelta(base.content, data) };
    remember(store, key, result);
    return result;
  }
  const type = TYPES[code];
  if (!type) throw new Error(`${pack.packPath}: unknown object type ${code} at offset ${offset}`);
  return { type, content: data };
}

/**
 * Inflates the zlib stream at `start` whose output is `size` bytes. A pack does not record where an
 * object's compressed bytes end, but zlib stops at the end of its stream and ignores what follows, so
 * read as much as deflate can need for `size` bytes (its worst case is barely above `size`), and more
 * only if some unusual encoder needed more: no table of every object's offset has to be built.
 */
function inflateAt(repo: GitRepo, fd: number, pack: PackIndex, start: number, size: number): Buffer {
  let want = size + (size >>> 3) + (size >>> 6) + 64;
  for (;;) {
    const stop = Math.min(start + want, pack.end);
    try {
      const out = inflateSync(readRange(repo, fd, start, stop));
      if (out.length !== size) throw new Error(`${pack.packPath}: object at ${start} inflates to ${out.length} bytes, its header says ${size}`);
      return out;
    } catch (err) {
      if ((err as { code?: string }).code !== 'Z_BUF_ERROR' || stop === pack.end) throw err;
      want *= 2;
    }
  }
}

function readRange(repo: GitRepo, fd: number, start: number, end: number): Buffer {
  const buf = Buffer.allocUnsafe(end - start);
  let done = 0;
  while (done < buf.length) {
    const n = repo.fs.readSync(fd, buf, done, buf.length - done, start + done);
    if (n === 0) throw new Error(`pack truncated: wanted bytes ${start}..${end}`);
    done += n;
  }
  return buf;
}

/** Delta bases and delta results are kept (later deltas may build on them), up to a fixed number of bytes. */
function remember(store: ObjectStore, key: string, obj: StoredObject): void {
  if (obj.content.length > MAX_BASE_BYTES / 4 || store.bases.has(key)) return;
  store.bases.set(key, obj);
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

function readLoose(repo: GitRepo, oid: string): StoredObject | undefined {
  let compressed: Buffer;
  try {
    compressed = repo.fs.readFileSync(path.join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const raw = inflateSync(compressed);
  const space = raw.indexOf(0x20);
  const nul = raw.indexOf(0, space);
  const type = raw.toString('latin1', 0, space) as StoredType;
  if (!['commit', 'tree', 'blob', 'tag'].includes(type) || nul < 0) throw new Error(`loose object ${oid} has a malformed header`);
  return { type, content: raw.subarray(nul + 1) };
}
