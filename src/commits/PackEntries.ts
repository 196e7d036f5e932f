import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';

/**
 * What a pack being written remembers of each object, in typed arrays: its id (20 bytes), where its entry starts in
 * the pack and the entry's CRC-32, the three things the .idx needs, its type and compressed length (to read a tree
 * back), and an open-addressing table from id to entry for "added twice?". About 50 bytes an object, where a Map of hex ids to objects cost some hundreds: a cold render of
 * 50,000 templates on 500 clusters packs about 3.5 million of them.
 *
 * The arrays come in blocks of a fixed number of entries and the table in 256 parts, one per first byte of the id:
 * growing adds a block or rehashes one part, never copies or rehashes millions of entries at once (one such step held
 * a cold render's event loop for seconds, and held the old arrays and the new ones in memory together).
 */
export class PackEntries {
  #count = 0;
  #blocks: Block[] = [];
  /** Entry index + 1 in the slot of its id's hash; 0 = empty. Each part is kept at most half full. */
  #tables = Array.from({ length: TABLES }, () => new Int32Array(INITIAL_TABLE));
  /** Entries in each part of the table. */
  #filled = new Uint32Array(TABLES);

  get count(): number {
    return this.#count;
  }

  /** The entry of `oid` (20 bytes), or -1. */
  find(oid: Uint8Array): number {
    const table = this.#tables[oid[0]!]!;
    const mask = table.length - 1;
    for (let slot = hashOf(oid) & mask; ; slot = (slot + 1) & mask) {
      const at = table[slot]!;
      if (at === 0) return -1;
      if (this.#sameOid(at - 1, oid)) return at - 1;
    }
  }

  /** A new entry for `oid` (not there yet: see find) of that pack type code, written later (setWritten). */
  add(oid: Uint8Array, type: number): number {
    const i = this.#next();
    const b = this.#block(i);
    const k = i & BLOCK_MASK;
    b.oids.set(oid, 20 * k);
    b.types[k] = type;
    b.offsets[k] = NOT_WRITTEN;
    this.#insert(i);
    return i;
  }

  /**
   * A new entry whose id is not known yet (computed with its compression, on another thread): found by no `find` until
   * setOid gives it one.
   */
  addPending(type: number): number {
    const i = this.#next();
    const b = this.#block(i);
    b.types[i & BLOCK_MASK] = type;
    b.offsets[i & BLOCK_MASK] = PENDING;
    return i;
  }

  isPending(i: number): boolean {
    return this.offsetAt(i) === PENDING;
  }

  /**
   * The id of a pending entry. When another entry has that id already, this one is a duplicate, never written (its
   * id still answers hexAt), and that entry is returned; otherwise `i`, found by its id from now on.
   */
  setOid(i: number, oid: Uint8Array): number {
    const first = this.find(oid);
    const b = this.#block(i);
    const k = i & BLOCK_MASK;
    b.oids.set(oid, 20 * k);
    if (first >= 0) {
      b.offsets[k] = DUPLICATE;
      return first;
    }
    b.offsets[k] = NOT_WRITTEN;
    this.#insert(i);
    return i;
  }

  oidAt(i: number): Uint8Array {
    const k = i & BLOCK_MASK;
    return this.#block(i).oids.subarray(20 * k, 20 * k + 20);
  }

  /** The id's first byte: the .idx's fan-out counts entries by it. */
  firstByteAt(i: number): number {
    return this.#block(i).oids[20 * (i & BLOCK_MASK)]!;
  }

  hexAt(i: number): string {
    const oids = this.#block(i).oids;
    return Buffer.from(oids.buffer, oids.byteOffset + 20 * (i & BLOCK_MASK), 20).toString('hex');
  }

  /** Written at `offset` of the pack (its header), with this CRC-32 over header and compressed bytes. */
  setWritten(i: number, offset: number, crc: number, deflatedLength: number): void {
    const b = this.#block(i);
    const k = i & BLOCK_MASK;
    b.offsets[k] = offset;
    b.crcs[k] = crc;
    b.lengths[k] = deflatedLength;
  }

  typeAt(i: number): number {
    return this.#block(i).types[i & BLOCK_MASK]!;
  }

  deflatedLengthAt(i: number): number {
    return this.#block(i).lengths[i & BLOCK_MASK]!;
  }

  /** Not written: the repository has it already. */
  setSkipped(i: number): void {
    this.#block(i).offsets[i & BLOCK_MASK] = SKIPPED;
  }

  offsetAt(i: number): number {
    return this.#block(i).offsets[i & BLOCK_MASK]!;
  }

  crcAt(i: number): number {
    return this.#block(i).crcs[i & BLOCK_MASK]!;
  }

  isWritten(i: number): boolean {
    return this.offsetAt(i) >= 0;
  }

  /**
   * The written entries in id order, as the .idx lists them. Millions of them after a cold render: the event loop
   * gets a turn between steps now and then.
   */
  async writtenInOidOrder(): Promise<Uint32Array> {
    const turns = eventLoopTurns();
    const written: number[] = [];
    for (let i = 0; i < this.#count; i++) {
      if ((i & BLOCK_MASK) === 0 && turns.due()) await turns.give();
      if (this.isWritten(i)) written.push(i);
    }
    // A native numeric sort on the first 3 bytes of the id (24 bits) with the entry in the low 29 bits: exact in a
    // double, no comparator call per pair. Only runs sharing those 3 bytes (a few per thousand) are compared whole.
    // The keys are first placed by the id's first byte, and each of those 256 ranges sorted apart: one sort of
    // millions of keys held the event loop for half a second.
    const starts = new Uint32Array(257);
    for (const i of written) starts[this.firstByteAt(i) + 1]!++;
    for (let b = 0; b < 256; b++) starts[b + 1]! += starts[b]!;
    const next = starts.slice(0, 256);
    const keys = new Float64Array(written.length);
    for (let k = 0; k < written.length; k++) {
      if ((k & BLOCK_MASK) === 0 && turns.due()) await turns.give();
      const id = this.oidAt(written[k]!);
      keys[next[id[0]!]!++] = (id[0]! * 65536 + id[1]! * 256 + id[2]!) * 2 ** 29 + written[k]!;
    }
    for (let b = 0; b < 256; b++) {
      if (turns.due()) await turns.give();
      keys.subarray(starts[b]!, starts[b + 1]!).sort();
    }
    const order = new Uint32Array(keys.length);
    for (let k = 0; k < keys.length; k++) order[k] = keys[k]! % 2 ** 29;
    for (let start = 0; start < order.length; ) {
      if (turns.due()) await turns.give();
      let end = start + 1;
      const prefix = Math.floor(keys[start]! / 2 ** 29);
      while (end < order.length && Math.floor(keys[end]! / 2 ** 29) === prefix) end++;
      if (end - start > 1) {
        const run = [...order.subarray(start, end)].sort((a, b) => this.#compareOids(a, b));
        order.set(run, start);
      }
      start = end;
    }
    return order;
  }

  #compareOids(a: number, b: number): number {
    const x = this.oidAt(a);
    const y = this.oidAt(b);
    for (let k = 0; k < 20; k++) {
      const d = x[k]! - y[k]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  #sameOid(i: number, oid: Uint8Array): boolean {
    const oids = this.#block(i).oids;
    const base = 20 * (i & BLOCK_MASK);
    for (let k = 0; k < 20; k++) if (oids[base + k] !== oid[k]) return false;
    return true;
  }

  #block(i: number): Block {
    return this.#blocks[i >>> BLOCK_BITS]!;
  }

  /** The next entry's index, with a block for it. */
  #next(): number {
    const i = this.#count;
    if (i >= MAX_ENTRIES) throw new Error(`a pack of more than ${MAX_ENTRIES} objects`);
    if ((i & BLOCK_MASK) === 0) this.#blocks.push(newBlock());
    this.#count++;
    return i;
  }

  #insert(i: number): void {
    const oid = this.oidAt(i);
    const t = oid[0]!;
    if (2 * ++this.#filled[t]! > this.#tables[t]!.length) this.#growTable(t);
    place(this.#tables[t]!, hashOf(oid), i + 1);
  }

  #growTable(t: number): void {
    const old = this.#tables[t]!;
    const table = new Int32Array(2 * old.length);
    for (const at of old) if (at !== 0) place(table, hashOf(this.oidAt(at - 1)), at);
    this.#tables[t] = table;
  }
}

/** The arrays of BLOCK consecutive entries. */
interface Block {
  oids: Uint8Array;
  offsets: Float64Array;
  crcs: Uint32Array;
  /** Pack type code (1 commit, 2 tree, 3 blob) and compressed length: to read a tree or commit back from the pack. */
  types: Uint8Array;
  lengths: Uint32Array;
}

/** 4,096 entries a block: ~150 KB, so a small pack stays small and a cold render's adds ~900 blocks. */
const BLOCK_BITS = 12;
const BLOCK = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK - 1;
const TABLES = 256;
const INITIAL_TABLE = 16;
/** The entry index has 29 bits in writtenInOidOrder's keys. */
const MAX_ENTRIES = 2 ** 29;
const NOT_WRITTEN = -1;
const SKIPPED = -2;
const PENDING = -3;
const DUPLICATE = -4;

function newBlock(): Block {
  return {
    oids: new Uint8Array(20 * BLOCK),
    offsets: new Float64Array(BLOCK),
    crcs: new Uint32Array(BLOCK),
    types: new Uint8Array(BLOCK),
    lengths: new Uint32Array(BLOCK),
  };
}

/** Puts `value` in the first empty slot from `hash` on (linear probing; the table has one). */
function place(table: Int32Array, hash: number, value: number): void {
  const mask = table.length - 1;
  let slot = hash & mask;
  while (table[slot] !== 0) slot = (slot + 1) & mask;
  table[slot] = value;
}

/** Ids are SHA-1 digests: any 4 of their bytes are already a uniform hash. */
function hashOf(oid: Uint8Array): number {
  return (oid[4]! << 24) | (oid[5]! << 16) | (oid[6]! << 8) | oid[7]!;
}
