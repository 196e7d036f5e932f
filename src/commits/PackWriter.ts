import { createHash, type Hash } from 'node:crypto';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { objectHeader, objectHeaderLength, TYPE_CODE, TYPE_NAME, type PackObject } from './buildPack.ts';
import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { consolidatePacks } from './consolidatePacks.ts';
import { DeflateOffload, type DeflateSlot } from './DeflateOffload.ts';
import { existingObjects, type LooseListings } from './findExistingObjects.ts';
import { PackEntries } from './PackEntries.ts';
import { tempName } from './tempPackName.ts';
import { writePackIdx } from './writePackIdx.ts';
import type { GitRepo, ObjectType } from './types.ts';

export interface FlushResult {
  /** Absolute path of the new .pack, or null when every object already existed. */
  packFile: string | null;
  written: number;
  /** Objects left out because the repository already had them. */
  skipped: number;
}

/** An object on its way through the compressor: its entry and type (the compressor sets its size, id and CRC). */
interface Queued extends DeflateSlot {
  entry: number;
  type: number;
}

/** The temp pack being written: bytes go out 1 MiB at a time. */
interface TempPack {
  file: string;
  fd: number;
  /** Bytes in the file, and in `buffer` after them. */
  offset: number;
  buffer: Buffer;
  buffered: number;
}

/**
 * Writes new objects as ONE packfile + .idx per flush. Writing loose objects through isomorphic-git costs ~1.7 ms
 * each (notes §C finding 1); a pack of 20k objects takes about a second. Objects go to a temp pack as the compressor
 * hands them back, so what a pack holds is on disk, not in memory, while the caller goes on adding: per object only
 * its id, offset and CRC stay (PackEntries), whatever the pack's size. The header's object count is written last
 * and the checksum taken over the finished file, as git fast-import does. Trees and commits added but not yet
 * flushed are readable through `get`, so trees built on top of each other before a flush resolve.
 */
export class PackWriter {
  readonly repo: GitRepo;
  #entries = new PackEntries();
  /** Raw trees and commits not written yet, for `get`. Blobs are not kept raw. */
  #structure = new Map<string, PackObject>();
  #pack: TempPack | null = null;
  #written = 0;
  #skipped = 0;
  /** addBlob was called since the last settle: some entries may have no id yet. */
  #unsettled = false;
  /** The loose object directories listed while writing this pack. */
  #loose: LooseListings = new Map();
  /** A write failed: the pack would lack objects, so this writer never writes one. */
  #failure: Error | null = null;

  constructor(repo: GitRepo) {
    this.repo = repo;
  }

  /** Compresses queued objects (on a second thread once they pass one batch) and hands each batch to #write. */
  #deflate = new DeflateOffload<Queued>((batch) => this.#write(batch));

  /**
   * Hashes and queues one object for compression; returns its oid. Adding the same content twice is a no-op. The
   * raw bytes are not held after this returns: they are copied into the compressor's batch, and once compressed
   * they go to the temp pack.
   */
  add(type: ObjectType, content: Uint8Array): string {
    const digest = createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest();
    const oid = digest.toString('hex');
    if (this.#entries.find(digest) >= 0) return oid;
    const entry = this.#entries.add(digest, TYPE_CODE[type]);
    this.#deflate.add({ entry, type: TYPE_CODE[type], deflated: NOT_YET }, content, TYPE_CODE[type]);
    if (type !== 'blob') this.#structure.set(oid, { oid, type, content });
    return oid;
  }

  /**
   * add('blob', content) (a string: its UTF-8 bytes), answered with the object's entry in this pack instead of its hex
   * id: a number, where a render that keeps one per written file until the tree is built would otherwise keep millions
   * of 40-character strings. The id is computed with the compression, on the compressor's thread (hashing was a tenth
   * of a cold render on the thread that renders), so `oidOf` answers once `settle` has resolved; adding the same
   * content twice writes it once. Valid until the next flush.
   */
  addBlob(content: Uint8Array | string): number {
    this.#unsettled = true;
    const entry = this.#entries.addPending(TYPE_CODE.blob);
    const slot: Queued = { entry, type: TYPE_CODE.blob, deflated: NOT_YET };
    if (typeof content === 'string') this.#deflate.addText(slot, content, TYPE_CODE.blob);
    else this.#deflate.add(slot, content, TYPE_CODE.blob);
    return entry;
  }

  /** Waits until every object added so far has its id (and is in the temp pack): then oidOf answers for each. */
  async settle(): Promise<void> {
    if (!this.#unsettled) return;
    this.#unsettled = false;
    try {
      if (this.#failure) throw this.#failure;
      await this.#deflate.drain(true);
    } catch (err) {
      this.#failure = err as Error;
      this.#closeTemp(true);
      throw err;
    }
  }

  /** The hex id of an entry addBlob returned, once settled. */
  oidOf(entry: number): string {
    if (!(entry >= 0 && entry < this.#entries.count)) throw new Error(`no entry ${entry} in this pack`);
    if (this.#entries.isPending(entry)) throw new Error(`entry ${entry} has no id yet: await settle() first`);
    return this.#entries.hexAt(entry);
  }

  /** Forgets every queued object, ends the compressor's thread and removes the temp pack: a pack that will not be written. */
  async discard(): Promise<void> {
    await this.#deflate.discard();
    this.#closeTemp(true);
    this.#reset();
  }

  /** A queued tree or commit (blobs are not kept), read back from the temp pack once written there. */
  get(oid: string): PackObject | undefined {
    const raw = this.#structure.get(oid);
    if (raw) return raw;
    const entry = this.#pack && /^[0-9a-f]{40}$/.test(oid) ? this.#entries.find(Buffer.from(oid, 'hex')) : -1;
    const type = entry >= 0 ? TYPE_NAME[this.#entries.typeAt(entry)] : undefined;
    if (!type || type === 'blob' || !this.#entries.isWritten(entry)) return undefined;
    const pack = this.#pack!;
    this.#writeBuffered(pack);
    const at = this.#entries.offsetAt(entry);
    // The entry's header is a few bytes (type and size); the zlib stream follows it.
    const head = Buffer.alloc(16);
    this.repo.fs.readSync(pack.fd, head, 0, head.length, at);
    const start = objectHeaderLength(head);
    const deflated = Buffer.allocUnsafe(this.#entries.deflatedLengthAt(entry));
    this.repo.fs.readSync(pack.fd, deflated, 0, deflated.length, at + start);
    return { oid, type, content: inflateSync(deflated) };
  }

  /** Objects added since the last flush. */
  get size(): number {
    return this.#entries.count;
  }

  /**
   * Finishes the pack with what the repository lacks: the count patched into the header, the checksum, then the
   * .idx. The .pack is renamed into place before the .idx, because readers (git, isomorphic-git) discover packs by
   * listing *.idx: a reader never sees an index whose pack is incomplete. On failure no file is left and the
   * writer stays failed (its objects went to the temp pack, which is gone): render again with a new one. Past a
   * few packs in the repository, the small ones are merged after the new one is in place (consolidatePacks). The file
   * operations are synchronous: a one-template sync's pack is a few dozen KiB, and each trip through the thread
   * pool cost more than its write.
   */
  async flush(): Promise<FlushResult> {
    try {
      if (this.#failure) throw this.#failure;
      await this.#deflate.drain();
      const result = { written: this.#written, skipped: this.#skipped };
      if (this.#written === 0) {
        this.#closeTemp(true);
        this.#reset();
        return { packFile: null, ...result };
      }
      const pack = this.#pack!;
      const checksum = await this.#finishPack(pack);
      const packDir = path.dirname(pack.file);
      const base = path.join(packDir, `pack-${checksum.toString('hex')}`);
      this.#closeTemp(false);
      this.#renameOrDiscard(pack.file, `${base}.pack`);
      const idx = tempName(packDir);
      try {
        await writePackIdx(this.repo.fs, idx, this.#entries, checksum);
      } catch (err) {
        this.repo.fs.rmSync(idx, { force: true });
        throw err;
      }
      this.#renameOrDiscard(idx, `${base}.idx`);
      this.#reset();
      await mergeSmallPacks(this.repo);
      return { packFile: `${base}.pack`, ...result };
    } catch (err) {
      this.#failure = err as Error;
      this.#closeTemp(true);
      throw err;
    }
  }

  /** A compressed batch out to the temp pack, each object the repository lacks after the ones before. */
  #write(batch: Queued[]): void {
    // A blob's id comes with its compressed bytes: the first of equal blobs is written, the others are its duplicates.
    const fresh = batch.filter(
      (q) => !this.#entries.isPending(q.entry) || this.#entries.setOid(q.entry, q.oid!) === q.entry,
    );
    const oids = fresh.map((q) => this.#entries.hexAt(q.entry));
    const existing = existingObjects(this.repo, oids, this.#loose);
    for (const [i, q] of fresh.entries()) {
      const oid = oids[i]!;
      if (existing.has(oid)) {
        this.#entries.setSkipped(q.entry);
        this.#skipped++;
        this.#structure.delete(oid);
        continue;
      }
      const pack = (this.#pack ??= this.#openTemp());
      const head = objectHeader(q.type, q.size!);
      const crc = q.crc!;
      this.#entries.setWritten(q.entry, pack.offset + pack.buffered, crc, q.deflated.length);
      this.#append(pack, head);
      if (q.type !== TYPE_CODE.blob) this.#structure.delete(oid); // read back from the pack from now on
      this.#append(pack, q.deflated);
      this.#written++;
    }
  }

  #openTemp(): TempPack {
    const packDir = path.join(this.repo.gitdir, 'objects', 'pack');
    this.repo.fs.mkdirSync(packDir, { recursive: true });
    const file = tempName(packDir);
    const fd = this.repo.fs.openSync(file, 'w+', 0o444);
    const pack: TempPack = { file, fd, offset: 0, buffer: Buffer.allocUnsafeSlow(WRITE_BATCH), buffered: 0 };
    // The object count is not known yet: #finishPack writes it.
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    this.#append(pack, header);
    return pack;
  }

  #append(pack: TempPack, bytes: Uint8Array): void {
    if (pack.buffered + bytes.length > pack.buffer.length) this.#writeBuffered(pack);
    if (bytes.length >= pack.buffer.length) {
      writeAll(this.repo.fs, pack.fd, bytes);
      pack.offset += bytes.length;
      return;
    }
    pack.buffer.set(bytes, pack.buffered);
    pack.buffered += bytes.length;
  }

  #writeBuffered(pack: TempPack): void {
    if (pack.buffered === 0) return;
    writeAll(this.repo.fs, pack.fd, pack.buffer.subarray(0, pack.buffered));
    pack.offset += pack.buffered;
    pack.buffered = 0;
  }

  /** The object count into the header, then the SHA-1 of the whole file appended: returns that checksum. */
  async #finishPack(pack: TempPack): Promise<Buffer> {
    this.#writeBuffered(pack);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.#written, 0);
    this.repo.fs.writeSync(pack.fd, count, 0, 4, 8);
    const hash: Hash = createHash('sha1');
    const chunk = pack.buffer;
    // A cold render's pack is most of a GB at 50,000 templates: read back and hashed for seconds, with turns.
    const turns = eventLoopTurns();
    for (let at = 0; at < pack.offset; ) {
      if (turns.due()) await turns.give();
      const read = this.repo.fs.readSync(pack.fd, chunk, 0, Math.min(chunk.length, pack.offset - at), at);
      if (read === 0) throw new Error(`temp pack ${pack.file} ended at ${at} of ${pack.offset} bytes`);
      hash.update(chunk.subarray(0, read));
      at += read;
    }
    const checksum = hash.digest();
    this.repo.fs.writeSync(pack.fd, checksum, 0, checksum.length, pack.offset);
    return checksum;
  }

  #closeTemp(remove: boolean): void {
    const pack = this.#pack;
    if (!pack) return;
    this.#pack = null;
    try {
      this.repo.fs.closeSync(pack.fd);
    } finally {
      if (remove) this.repo.fs.rmSync(pack.file, { force: true });
    }
  }

  #reset(): void {
    this.#entries = new PackEntries();
    this.#loose = new Map();
    this.#structure = new Map();
    this.#written = 0;
    this.#skipped = 0;
    this.#unsettled = false;
  }

  #renameOrDiscard(tmp: string, target: string): void {
    try {
      this.repo.fs.renameSync(tmp, target);
    } catch (err) {
      this.repo.fs.rmSync(tmp, { force: true });
      throw err;
    }
  }
}

/**
 * Each flush adds a pack: past a few, the small ones are merged (consolidatePacks). The new objects are in place and
 * readable whatever the merge does, so its failure (a full disk) fails nothing: the packs stay as they were, and the
 * next flush tries again.
 */
async function mergeSmallPacks(repo: GitRepo): Promise<void> {
  try {
    await consolidatePacks(repo);
  } catch {
    // left as they were (see above)
  }
}

const WRITE_BATCH = 1024 * 1024;
/** A queued object's bytes before the compressor has filled them in. */
const NOT_YET = Buffer.alloc(0);

/** A write may take fewer bytes than given (a full disk shows up on the next one): keep going. */
function writeAll(fs: GitRepo['fs'], fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) {
    const written = fs.writeSync(fd, data, done, data.length - done);
    if (written === 0) throw Object.assign(new Error('pack write made no progress (disk full?)'), { code: 'ENOSPC' });
    done += written;
  }
}
