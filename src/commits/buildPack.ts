import { createHash } from 'node:crypto';
// zlib's own CRC-32 (Node 20.15+): the per-object checksums of the .idx, over every byte a pack writes.
import { crc32 } from 'node:zlib';
import type { ObjectType } from './types.ts';

export interface PackObject {
  oid: string;
  type: ObjectType;
  content: Uint8Array;
}

/** An object ready for a pack: compressed already, so the raw bytes need not be kept until the flush. */
export interface DeflatedObject {
  oid: string;
  type: ObjectType;
  /** Length of the raw content, which the pack entry's header records. */
  size: number;
  deflated: Buffer;
}

export interface PackTrailer {
  /** Hex SHA-1 trailer of the pack; git names the files pack-<checksum>.pack/.idx. */
  checksum: string;
  idx: Buffer;
}

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };

/**
 * Level 1, and a 4 KiB window with a small hash table: rendered objects are a few KiB, so a larger
 * window finds nothing more and zlib's default state (~256 KiB per object) only costs. Any window
 * size inflates the same (git, isomorphic-git).
 */
export const DEFLATE = { level: 1, windowBits: 12, memLevel: 4, chunkSize: 4096 } as const;

/**
 * A version 2 packfile as a stream of chunks, then (the generator's return value) its checksum and
 * version 2 .idx. The caller writes each chunk out as it comes, so the pack is never in memory whole.
 * No deltas. `oid` must be the object's real id.
 */
export function* packChunks(objects: readonly DeflatedObject[]): Generator<Buffer, PackTrailer, void> {
  const packHash = createHash('sha1');
  let offset = 0;
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  packHash.update(header);
  offset += header.length;
  yield header;

  const entries: IdxEntry[] = [];
  for (const obj of objects) {
    const head = objectHeader(TYPE_CODE[obj.type], obj.size);
    entries.push({ oid: obj.oid, offset, crc: crc32(obj.deflated, crc32(head)) });
    packHash.update(head);
    packHash.update(obj.deflated);
    offset += head.length + obj.deflated.length;
    yield head;
    yield obj.deflated;
  }

  const checksum = packHash.digest();
  yield checksum;
  return { checksum: checksum.toString('hex'), idx: buildIdx(entries, checksum) };
}

/** Type in bits 4-6 of the first byte, size as a little-endian base-128 varint split 4 + 7*k bits. */
function objectHeader(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

interface IdxEntry {
  oid: string;
  offset: number;
  crc: number;
}

function buildIdx(unsorted: IdxEntry[], packChecksum: Buffer): Buffer {
  const entries = [...unsorted].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const n = entries.length;
  const large = entries.filter((e) => e.offset >= 0x80000000);
  const buf = Buffer.alloc(8 + 256 * 4 + n * 28 + large.length * 8 + 40);
  buf.writeUInt32BE(0xff744f63, 0);
  buf.writeUInt32BE(2, 4);

  const fanout = new Uint32Array(256);
  for (const e of entries) fanout[parseInt(e.oid.slice(0, 2), 16)]!++;
  let total = 0;
  for (let i = 0; i < 256; i++) {
    total += fanout[i]!;
    buf.writeUInt32BE(total, 8 + i * 4);
  }

  const namesAt = 8 + 1024;
  const crcsAt = namesAt + n * 20;
  const offsetsAt = crcsAt + n * 4;
  const largeAt = offsetsAt + n * 4;
  let largeCount = 0;
  entries.forEach((e, i) => {
    buf.write(e.oid, namesAt + i * 20, 'hex');
    buf.writeUInt32BE(e.crc, crcsAt + i * 4);
    if (e.offset < 0x80000000) buf.writeUInt32BE(e.offset, offsetsAt + i * 4);
    else {
      // Packs over 2 GiB: the 31-bit slot points into the 64-bit offset table.
      buf.writeUInt32BE((0x80000000 | largeCount) >>> 0, offsetsAt + i * 4);
      buf.writeBigUInt64BE(BigInt(e.offset), largeAt + largeCount * 8);
      largeCount++;
    }
  });
  const trailerAt = largeAt + large.length * 8;
  packChecksum.copy(buf, trailerAt);
  createHash('sha1')
    .update(buf.subarray(0, trailerAt + 20))
    .digest()
    .copy(buf, trailerAt + 20);
  return buf;
}
