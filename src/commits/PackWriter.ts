import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { packChunks, type DeflatedObject, type PackObject, type PackTrailer } from './buildPack.ts';
import { DeflateOffload } from './DeflateOffload.ts';
import { findExistingObjects } from './findExistingObjects.ts';
import { hashObject } from './hashObject.ts';
import type { GitRepo, ObjectType } from './types.ts';

export interface FlushResult {
  /** Absolute path of the new .pack, or null when every object already existed. */
  packFile: string | null;
  written: number;
  /** Objects left out because the repository already had them. */
  skipped: number;
}

/**
 * Collects new objects in memory and writes them as ONE packfile + .idx per flush, streamed to
 * disk object by object. Writing loose objects through isomorphic-git costs ~1.7 ms each (notes §C
 * finding 1); a pack of 20k objects takes about a second. Trees and commits added but not yet
 * flushed are readable through `get`, so trees built on top of each other before a flush resolve.
 */
export class PackWriter {
  readonly repo: GitRepo;
  #pending = new Map<string, DeflatedObject>();
  /** Raw trees and commits, for `get`: trees are read back while later edits build on them. Blobs are not kept raw. */
  #structure = new Map<string, PackObject>();

  constructor(repo: GitRepo) {
    this.repo = repo;
  }

  /** Compresses queued objects (on a second thread once they pass one batch): each DeflatedObject is complete after drain(). */
  #deflate = new DeflateOffload();

  /**
   * Hashes and queues one object for compression; returns its oid. Adding the same content twice is a
   * no-op. A blob's raw bytes are not held after this returns: they are copied into the compressor's
   * batch, and a fleet's manifests stay queued only compressed, about a third of their size.
   */
  add(type: ObjectType, content: Uint8Array): string {
    const oid = hashObject(type, content);
    if (this.#pending.has(oid)) return oid;
    const queued: DeflatedObject = { oid, type, size: content.byteLength, deflated: NOT_YET };
    this.#deflate.add(queued, content);
    this.#pending.set(oid, queued);
    if (type !== 'blob') this.#structure.set(oid, { oid, type, content });
    return oid;
  }

  /** Forgets every queued object and ends the compressor's thread, if one started: a pack that will not be written. */
  async discard(): Promise<void> {
    this.#pending = new Map();
    this.#structure = new Map();
    await this.#deflate.discard();
  }

  /** A queued tree or commit (blobs are held compressed only). */
  get(oid: string): PackObject | undefined {
    return this.#structure.get(oid);
  }

  get size(): number {
    return this.#pending.size;
  }

  /**
   * Writes the queued objects the repository lacks. The .pack is renamed into place before
   * the .idx, because readers (git, isomorphic-git) discover packs by listing *.idx: a reader
   * never sees an index whose pack is incomplete. On failure the objects stay queued. The file
   * operations are synchronous: a one-template sync's pack is a few dozen KiB, and each trip
   * through the thread pool cost more than its write (a cold render's pack goes out 1 MiB a call).
   */
  async flush(): Promise<FlushResult> {
    await this.#deflate.drain();
    const batch = this.#pending;
    const structure = this.#structure;
    this.#pending = new Map();
    this.#structure = new Map();
    try {
      const existing = await findExistingObjects(this.repo, batch.keys());
      // Commits, then trees, then blobs: the order git uses, which keeps history walks local.
      const order = { commit: 0, tree: 1, blob: 2 } as const;
      const objects = [...batch.values()]
        .filter((o) => !existing.has(o.oid))
        .sort((a, b) => order[a.type] - order[b.type]);
      if (objects.length === 0) return { packFile: null, written: 0, skipped: existing.size };

      const packDir = path.join(this.repo.gitdir, 'objects', 'pack');
      this.repo.fs.mkdirSync(packDir, { recursive: true });
      const { tmp, trailer } = this.#writeTemp(packDir, packChunks(objects));
      const base = path.join(packDir, `pack-${trailer.checksum}`);
      this.#renameOrDiscard(tmp, `${base}.pack`);
      this.#writeAtomically(packDir, `${base}.idx`, trailer.idx);
      return { packFile: `${base}.pack`, written: objects.length, skipped: existing.size };
    } catch (err) {
      for (const [oid, obj] of batch) if (!this.#pending.has(oid)) this.#pending.set(oid, obj);
      for (const [oid, obj] of structure) if (!this.#structure.has(oid)) this.#structure.set(oid, obj);
      throw err;
    }
  }

  /** Streams the pack into a temp file, 1 MiB per write, and returns the generator's trailer. */
  #writeTemp(dir: string, chunks: Generator<Buffer, PackTrailer, void>): { tmp: string; trailer: PackTrailer } {
    const fs = this.repo.fs;
    const tmp = tempName(dir);
    try {
      const fd = fs.openSync(tmp, 'w', 0o444);
      try {
        let batch: Buffer[] = [];
        let batched = 0;
        for (;;) {
          const next = chunks.next();
          if (next.done) {
            if (batched > 0) writeAll(fs, fd, Buffer.concat(batch, batched));
            return { tmp, trailer: next.value };
          }
          batch.push(next.value);
          batched += next.value.length;
          if (batched >= WRITE_BATCH) {
            writeAll(fs, fd, Buffer.concat(batch, batched));
            batch = [];
            batched = 0;
          }
        }
      } finally {
        fs.closeSync(fd);
      }
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }

  #writeAtomically(dir: string, target: string, data: Buffer): void {
    const tmp = tempName(dir);
    try {
      this.repo.fs.writeFileSync(tmp, data, { mode: 0o444 });
    } catch (err) {
      this.repo.fs.rmSync(tmp, { force: true });
      throw err;
    }
    this.#renameOrDiscard(tmp, target);
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

const WRITE_BATCH = 1024 * 1024;
/** A queued object's bytes before the compressor has filled them in. */
const NOT_YET = Buffer.alloc(0);

/** A write may take fewer bytes than given (a full disk shows up on the next one): keep going. */
function writeAll(fs: GitRepo['fs'], fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) {
    const written = fs.writeSync(fd, data, done, data.length - done);
    if (written === 0) throw Object.assign(new Error('pack write made no progress (disk full?)'), { code: 'ENOSPC' });
    done += written;
  }
}

/** git's own temp-file prefix, so `git gc` cleans leftovers of a crash. */
function tempName(dir: string): string {
  return path.join(dir, `tmp_pack_${process.pid}_${randomBytes(6).toString('hex')}`);
}
