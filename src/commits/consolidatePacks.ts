import { createHash } from 'node:crypto';
import path from 'node:path';
import { PackEntries } from './PackEntries.ts';
import { tempName } from './tempPackName.ts';
import { writePackIdx } from './writePackIdx.ts';
import type { GitRepo } from './types.ts';

/**
 * Every flush writes one pack, so a long-running reconciler leaves one per sync and per status commit: thousands a
 * day. Each is one more index for every object lookup and every repository open to read (1,000 extra packs doubled
 * an L one-template sync, 118 → 233 ms), and past git's gc.autoPackLimit (50) the next native `git push` into the
 * repository starts a full `git repack` of every object. Beyond this many packs, the small ones are merged.
 */
export const PACK_LIMIT = 16;
/**
 * Packs this large are never merged: copying them would stall the flush that triggered the merge (a cold render's
 * pack is GBs at XL). They are few by nature: each came from a render of a whole fleet, or from many merges.
 */
export const MAX_MERGED_BYTES = 256 * 1024 * 1024;

/** A pack in objects/pack: its name without extension (`pack-<checksum>`) and the .pack's size. */
export interface PackFile {
  name: string;
  bytes: number;
}

/**
 * Which packs to merge into one (pure): none while there are at most `limit`. Otherwise the smallest ones, so that
 * the packs kept, from the largest down, each hold at least twice the bytes of the next (a geometric progression,
 * as `git repack --geometric=2` keeps them): a pack is copied again only once the packs below it add up to its
 * size, so each object is copied O(log n) times over a repository's life, and the packs left number O(log n).
 */
export function packsToMerge(packs: readonly PackFile[], limit = PACK_LIMIT): PackFile[] {
  if (packs.length <= limit) return [];
  const small = packs
    .filter((p) => p.bytes < MAX_MERGED_BYTES)
    .sort((a, b) => a.bytes - b.bytes || (a.name < b.name ? -1 : 1));
  // The largest pack that is less than twice the one below it breaks the progression: it and all below are merged.
  let count = 0;
  for (let j = small.length - 1; j >= 1; j--) {
    if (small[j]!.bytes < 2 * small[j - 1]!.bytes) {
      count = j + 1;
      break;
    }
  }
  let sum = 0;
  for (let i = 0; i < count; i++) {
    if (sum + small[i]!.bytes > MAX_MERGED_BYTES) {
      count = i;
      break;
    }
    sum += small[i]!.bytes;
  }
  // The merged pack must itself be at most half the next one kept: absorb those it would outgrow.
  while (count < small.length && small[count]!.bytes < 2 * sum && sum + small[count]!.bytes <= MAX_MERGED_BYTES) {
    sum += small[count]!.bytes;
    count++;
  }
  return count >= 2 ? small.slice(0, count) : [];
}

export interface MergedPacks {
  /** Absolute path of the new .pack. */
  packFile: string;
  /** How many packs it replaced, and the objects it holds. */
  merged: number;
  objects: number;
}

/**
 * Merges the small packs of the repository when it has more than `limit` (packsToMerge), and returns what it did;
 * null when nothing was to merge, or another process is merging. Entries are copied byte for byte, each pack's
 * run of entries in one piece, so nothing is inflated or compressed again and a delta's offset to its base (in the
 * same run) stays true. The new pack and its index are in place before the old ones are removed (index first, as git
 * finds packs by their index), so every object can always be read: a reader that had an old pack's index finds the
 * pack gone, lists the folder again and reads the new one, as after `git repack`. Packs kept by git (`.keep`),
 * fetched partially (`.promisor`) or named by a multi-pack index are left alone, and so is a pack whose trailing checksum does not match (merging
 * would spread the damage) or that holds an object another merged pack holds too (dropping one copy would shift
 * the offsets its run's deltas count on).
 */
export async function consolidatePacks(repo: GitRepo, limit = PACK_LIMIT): Promise<MergedPacks | null> {
  const dir = path.join(repo.gitdir, 'objects', 'pack');
  const fs = repo.fs;
  let files: string[];
  try {
    files = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const idx = files.filter((f) => /^pack-[0-9a-f]{40}\.idx$/.test(f));
  // A multi-pack index (`git maintenance`, `git repack --write-midx`) names the packs: git is in charge of them.
  if (idx.length <= limit || files.includes('multi-pack-index')) return null;
  const present = new Set(files);
  const packs: PackFile[] = [];
  for (const f of idx) {
    const name = f.slice(0, -'.idx'.length);
    if (present.has(`${name}.keep`) || present.has(`${name}.promisor`)) continue;
    try {
      packs.push({ name, bytes: fs.statSync(path.join(dir, `${name}.pack`)).size });
    } catch {
      // removed since the listing (another repack)
    }
  }
  const chosen = packsToMerge(packs, limit);
  if (chosen.length === 0) return null;
  const lock = takeLock(fs, path.join(dir, LOCK_FILE));
  if (lock === null) return null;
  let temp: string | null = null;
  try {
    const entries = new PackEntries();
    const runs: Run[] = [];
    for (const p of chosen) {
      const run = readRun(fs, dir, p.name);
      if (
        run &&
        new Set(run.oids.map((oid) => oid.toString('hex'))).size === run.oids.length &&
        !run.oids.some((oid) => entries.find(oid) >= 0)
      ) {
        for (const oid of run.oids) entries.add(oid, 0);
        runs.push(run);
      }
    }
    if (runs.length < 2) return null;
    temp = tempName(dir);
    const out = fs.openSync(temp, 'w', 0o444);
    const hash = createHash('sha1');
    const total = runs.reduce((n, r) => n + r.oids.length, 0);
    let at = 0;
    const write = (bytes: Buffer) => {
      hash.update(bytes);
      for (let done = 0; done < bytes.length; ) done += fs.writeSync(out, bytes, done, bytes.length - done);
      at += bytes.length;
    };
    try {
      const header = Buffer.alloc(12);
      header.write('PACK', 0, 'latin1');
      header.writeUInt32BE(2, 4);
      header.writeUInt32BE(total, 8);
      write(header);
      for (const run of runs) {
        // The run's entries move from offset 12 of their pack to `at` of the new one, all by the same distance.
        const shift = at - 12;
        copyRun(fs, run, write);
        for (let k = 0; k < run.oids.length; k++) {
          const i = entries.find(run.oids[k]!);
          entries.setWritten(i, run.offsets[k]! + shift, run.crcs[k]!, 0);
        }
      }
      const checksum = hash.digest();
      fs.writeSync(out, checksum, 0, checksum.length, at);
      fs.closeSync(out);
      const base = path.join(dir, `pack-${checksum.toString('hex')}`);
      fs.renameSync(temp, `${base}.pack`);
      temp = tempName(dir);
      await writePackIdx(fs, temp, entries, checksum);
      fs.renameSync(temp, `${base}.idx`);
      temp = null;
      for (const run of runs) removePack(fs, dir, run.name);
      return { packFile: `${base}.pack`, merged: runs.length, objects: total };
    } catch (err) {
      try {
        fs.closeSync(out);
      } catch {
        // closed already
      }
      throw err;
    }
  } finally {
    if (temp) fs.rmSync(temp, { force: true });
    releaseLock(fs, lock);
  }
}

/** One pack's entries as the merge copies them: their ids, offsets and CRCs from its index. */
interface Run {
  name: string;
  packPath: string;
  /** Bytes of the .pack, checksum included. */
  bytes: number;
  oids: Buffer[];
  offsets: number[];
  crcs: number[];
}

/** A pack's index read whole (the packs merged are small); null when it is not one this merge can copy. */
function readRun(fs: GitRepo['fs'], dir: string, name: string): Run | null {
  const packPath = path.join(dir, `${name}.pack`);
  let index: Buffer;
  let bytes: number;
  try {
    index = fs.readFileSync(path.join(dir, `${name}.idx`));
    bytes = fs.statSync(packPath).size;
  } catch {
    return null; // removed since the listing
  }
  if (index.length < NAMES_AT + 40 || index.readUInt32BE(0) !== 0xff744f63 || index.readUInt32BE(4) !== 2) return null;
  const count = index.readUInt32BE(NAMES_AT - 4);
  const crcsAt = NAMES_AT + 20 * count;
  const offsetsAt = crcsAt + 4 * count;
  const largeAt = offsetsAt + 4 * count;
  if (index.length < largeAt + 40) return null;
  const oids: Buffer[] = [];
  const offsets: number[] = [];
  const crcs: number[] = [];
  for (let k = 0; k < count; k++) {
    const small = index.readUInt32BE(offsetsAt + 4 * k);
    const offset = small & 0x80000000 ? Number(index.readBigUInt64BE(largeAt + 8 * (small & 0x7fffffff))) : small;
    if (offset < 12 || offset >= bytes - 20) return null;
    oids.push(index.subarray(NAMES_AT + 20 * k, NAMES_AT + 20 * (k + 1)));
    offsets.push(offset);
    crcs.push(index.readUInt32BE(crcsAt + 4 * k));
  }
  return { name, packPath, bytes, oids, offsets, crcs };
}

/**
 * Copies a pack's entries (everything between its 12-byte header and its checksum) through `write`, checking the
 * header's count and the pack's own checksum on the way: a pack that does not match its checksum throws.
 */
function copyRun(fs: GitRepo['fs'], run: Run, write: (bytes: Buffer) => void): void {
  const fd = fs.openSync(run.packPath, 'r');
  try {
    const own = createHash('sha1');
    const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(12, run.bytes)));
    const header = readExactly(fs, fd, chunk.subarray(0, 12), 0);
    if (header.toString('latin1', 0, 4) !== 'PACK' || header.readUInt32BE(8) !== run.oids.length)
      throw new Error(`${run.packPath}: its header does not match its index`);
    own.update(header);
    const end = run.bytes - 20;
    for (let at = 12; at < end; ) {
      const piece = readExactly(fs, fd, chunk.subarray(0, Math.min(chunk.length, end - at)), at);
      own.update(piece);
      write(piece);
      at += piece.length;
    }
    const trailer = readExactly(fs, fd, Buffer.alloc(20), end);
    if (!own.digest().equals(trailer)) throw new Error(`${run.packPath}: its checksum does not match its content`);
  } finally {
    fs.closeSync(fd);
  }
}

function readExactly(fs: GitRepo['fs'], fd: number, into: Buffer, at: number): Buffer {
  for (let done = 0; done < into.length; ) {
    const read = fs.readSync(fd, into, done, into.length - done, at + done);
    if (read === 0) throw new Error(`pack ended at ${at + done} bytes`);
    done += read;
  }
  return into;
}

/** The index goes first: a reader listing the folder from then on does not find the pack. */
function removePack(fs: GitRepo['fs'], dir: string, name: string): void {
  for (const ext of ['.idx', '.pack', '.rev', '.bitmap', '.mtimes'])
    fs.rmSync(path.join(dir, `${name}${ext}`), { force: true });
}

/**
 * One merge at a time per repository, across processes: a file created exclusively. One left by a process that died
 * mid-merge is taken over once it is older than any merge lasts.
 */
function takeLock(fs: GitRepo['fs'], file: string): string | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.closeSync(fs.openSync(file, 'wx'));
      return file;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
      try {
        if (Date.now() - fs.statSync(file).mtimeMs < STALE_LOCK_MS) return null;
        fs.rmSync(file, { force: true });
      } catch {
        return null;
      }
    }
  }
  return null;
}

function releaseLock(fs: GitRepo['fs'], file: string): void {
  fs.rmSync(file, { force: true });
}

const LOCK_FILE = 'flotilla-merge.lock';
const STALE_LOCK_MS = 10 * 60 * 1000;
const COPY_CHUNK = 1024 * 1024;
/** Where an index's names start: after its magic, version and 256 fan-out counts (the last of them, the count). */
const NAMES_AT = 8 + 256 * 4;
