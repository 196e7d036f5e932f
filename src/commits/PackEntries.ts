/**
 * What a pack being written remembers of each object, in typed arrays: its id (20 bytes), where its entry starts in
 * the pack and the entry's CRC-32, the three things the .idx needs, its type and compressed length (to read a tree
 * back), and an open-addressing table from id to entry for "added twice?". About 50 bytes an object, where a Map of hex ids to objects cost some hundreds: a cold render of
 * 50,000 templates on 500 clusters packs about 3.5 million of them.
 */
export class PackEntries {
  #count = 0;
  #oids = new Uint8Array(20 * INITIAL);
  #offsets = new Float64Array(INITIAL);
  #crcs = new Uint32Array(INITIAL);
  /** Pack type code (1 commit, 2 tree, 3 blob) and compressed length: to read a tree or commit back from the pack. */
  #types = new Uint8Array(INITIAL);
  #lengths = new Uint32Array(INITIAL);
  /** Entry index + 1 in the slot of its id's hash; 0 = empty. Kept at most half full. */
  #table = new Int32Array(2 * INITIAL);

  get count(): number {
    return this.#count;
  }

  /** The entry of `oid` (20 bytes), or -1. */
  find(oid: Uint8Array): number {
    const mask = this.#table.length - 1;
    for (let slot = hashOf(oid) & mask; ; slot = (slot + 1) & mask) {
      const at = this.#table[slot]!;
      if (at === 0) return -1;
      if (this.#sameOid(at - 1, oid)) return at - 1;
    }
  }

  /** A new entry for `oid` (not there yet: see find) of that pack type code, written later (setWritten). */
  add(oid: Uint8Array, type: number): number {
    if (this.#count === this.#offsets.length) this.#grow();
    const i = this.#count++;
    this.#oids.set(oid, 20 * i);
    this.#types[i] = type;
    this.#offsets[i] = NOT_WRITTEN;
    this.#insert(i);
    return i;
  }

  /**
   * A new entry whose id is not known yet (computed with its compression, on another thread): found by no `find` until
   * setOid gives it one.
   */
  addPending(type: number): number {
    if (this.#count === this.#offsets.length) this.#grow();
    const i = this.#count++;
    this.#types[i] = type;
    this.#offsets[i] = PENDING;
    return i;
  }

  isPending(i: number): boolean {
    return this.#offsets[i] === PENDING;
  }

  /**
   * The id of a pending entry. When another entry has that id already, this one is a duplicate, never written (its
   * id still answers hexAt), and that entry is returned; otherwise `i`, found by its id from now on.
   */
  setOid(i: number, oid: Uint8Array): number {
    const first = this.find(oid);
    this.#oids.set(oid, 20 * i);
    if (first >= 0) {
      this.#offsets[i] = DUPLICATE;
      return first;
    }
    this.#offsets[i] = NOT_WRITTEN;
    this.#insert(i);
    return i;
  }

  oidAt(i: number): Uint8Array {
    return this.#oids.subarray(20 * i, 20 * i + 20);
  }

  hexAt(i: number): string {
    return Buffer.from(this.#oids.buffer, this.#oids.byteOffset + 20 * i, 20).toString('hex');
  }

  /** Written at `offset` of the pack (its header), with this CRC-32 over header and compressed bytes. */
  setWritten(i: number, offset: number, crc: number, deflatedLength: number): void {
    this.#offsets[i] = offset;
    this.#crcs[i] = crc;
    this.#lengths[i] = deflatedLength;
  }

  typeAt(i: number): number {
    return this.#types[i]!;
  }

  deflatedLengthAt(i: number): number {
    return this.#lengths[i]!;
  }

  /** Not written: the repository has it already. */
  setSkipped(i: number): void {
    this.#offsets[i] = SKIPPED;
  }

  offsetAt(i: number): number {
    return this.#offsets[i]!;
  }

  crcAt(i: number): number {
    return this.#crcs[i]!;
  }

  isWritten(i: number): boolean {
    return this.#offsets[i]! >= 0;
  }

  /** The written entries in id order, as the .idx lists them. */
  writtenInOidOrder(): Uint32Array {
    const written: number[] = [];
    for (let i = 0; i < this.#count; i++) if (this.isWritten(i)) written.push(i);
    // A native numeric sort on the first 3 bytes of the id (24 bits) with the entry in the low 29 bits: exact in a
    // double, no comparator call per pair. Only runs sharing those 3 bytes (a few per thousand) are compared whole.
    const keys = new Float64Array(written.length);
    written.forEach((i, k) => {
      keys[k] = (this.#oids[20 * i]! * 65536 + this.#oids[20 * i + 1]! * 256 + this.#oids[20 * i + 2]!) * 2 ** 29 + i;
    });
    keys.sort();
    const order = new Uint32Array(keys.length);
    for (let k = 0; k < keys.length; k++) order[k] = keys[k]! % 2 ** 29;
    for (let start = 0; start < order.length; ) {
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
    for (let k = 0; k < 20; k++) {
      const d = this.#oids[20 * a + k]! - this.#oids[20 * b + k]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  #sameOid(i: number, oid: Uint8Array): boolean {
    const base = 20 * i;
    for (let k = 0; k < 20; k++) if (this.#oids[base + k] !== oid[k]) return false;
    return true;
  }

  #insert(i: number): void {
    const mask = this.#table.length - 1;
    let slot = hashOf(this.oidAt(i)) & mask;
    while (this.#table[slot] !== 0) slot = (slot + 1) & mask;
    this.#table[slot] = i + 1;
  }

  #grow(): void {
    const size = this.#offsets.length * 2;
    if (size > MAX_ENTRIES) throw new Error(`a pack of more than ${MAX_ENTRIES} objects`);
    const oids = new Uint8Array(20 * size);
    oids.set(this.#oids);
    this.#oids = oids;
    const offsets = new Float64Array(size);
    offsets.set(this.#offsets);
    this.#offsets = offsets;
    const crcs = new Uint32Array(size);
    crcs.set(this.#crcs);
    this.#crcs = crcs;
    const types = new Uint8Array(size);
    types.set(this.#types);
    this.#types = types;
    const lengths = new Uint32Array(size);
    lengths.set(this.#lengths);
    this.#lengths = lengths;
    this.#table = new Int32Array(2 * size);
    for (let i = 0; i < this.#count; i++)
      if (this.#offsets[i] !== PENDING && this.#offsets[i] !== DUPLICATE) this.#insert(i);
  }
}

const INITIAL = 64;
/** The entry index has 29 bits in writtenInOidOrder's keys. */
const MAX_ENTRIES = 2 ** 29;
const NOT_WRITTEN = -1;
const SKIPPED = -2;
const PENDING = -3;
const DUPLICATE = -4;

/** Ids are SHA-1 digests: any 4 of their bytes are already a uniform hash. */
function hashOf(oid: Uint8Array): number {
  return (oid[4]! << 24) | (oid[5]! << 16) | (oid[6]! << 8) | oid[7]!;
}
