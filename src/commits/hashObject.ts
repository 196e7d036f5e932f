import { createHash } from 'node:crypto';
import type { ObjectType } from './types.ts';

/** Git's object id: SHA-1 of `<type> <size>\0` followed by the content. */
export function hashObject(type: ObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.byteLength}\0`).update(content).digest('hex');
}
