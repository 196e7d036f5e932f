import type { ObjectType } from './types.ts';

export interface PackObject {
  oid: string;
  type: ObjectType;
  content: Uint8Array;
}

export const TYPE_CODE: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3 };
export const TYPE_NAME: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob' };

/**
 * Level 1 and a 4 KiB window: rendered objects are a few KiB, so a larger window finds nothing more and costs its
 * set-up on every object. The hash table stays at zlib's default size (memLevel 8): with memLevel 4 its chains are so
 * long that a 20 KiB tree of object ids (a cluster's folder at XL, rewritten by every sync that touches the cluster)
 * took 0.7-1.2 ms instead of 0.17, and a 1 KiB manifest no less. Any window size inflates the same (git,
 * isomorphic-git).
 */
export const DEFLATE = { level: 1, windowBits: 12, memLevel: 8, chunkSize: 4096 } as const;

/**
 * A version 2 pack entry's header, before its zlib stream (no deltas): type in bits 4-6 of the first byte, size as a
 * little-endian base-128 varint split 4 + 7*k bits.
 */
/** The length of the entry header `bytes` starts with (objectHeader's): its bytes up to the first without bit 7. */
export function objectHeaderLength(bytes: Uint8Array): number {
  let length = 1;
  while (bytes[length - 1]! & 0x80) length++;
  return length;
}

export function objectHeader(type: number, size: number): Buffer {
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
