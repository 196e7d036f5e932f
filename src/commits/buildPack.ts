import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { crc32 } from './crc32.ts';
import type { ObjectType } from './types.ts';

export interface PackObject {
  oid: string;
  type: ObjectType;
  content: Uint8Array;
}

export interface BuiltPack {
  /** Hex SHA-1 trailer of the pack; git names the files pack-<checksum>.pack/.idx. */
  checksum: string;
  pack: Buffer;
  idx: Buffer;
}

const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };

/**
 * Renders a version 2 packfile and its version 2 .idx, in memory. No deltas: objects are
 * only zlib-deflated, at level 1 because the pack is written on the hot path and
 * consolidation (git repack) can compress harder later. `oid` must be the object's real id.
 */
export function buildPack(objects: readonly PackObject[]): BuiltPack {
  const packHash = createHash('sha1');
  const chunks: Buffer[] = [];
  let offset = 0;
  const push = (chunk: Buffer) => {
    chunks.push(chunk);
    packHash.update(chunk);
    offset += chunk.length;
  };

  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  push(header);

  const entries = objects.map((obj) => {
    const start = offset;
    const head = objectHeader(TYPE_CODE[obj.type], obj.content.byteLength);
    const body = deflateSync(obj.content, { level: 1 });
    push(head);
    push(body);
    return { oid: obj.oid, offset: start, crc: crc32(body, crc32(head)) };
  });

  const checksum = packHash.digest();
  chunks.push(checksum);
  return { checksum: checksum.toString('hex'), pack: Buffer.concat(chunks), idx: buildIdx(entries, checksum) };
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
  createHash('sha1').update(buf.subarray(0, trailerAt + 20)).digest().copy(buf, trailerAt + 20);
  return buf;
}
