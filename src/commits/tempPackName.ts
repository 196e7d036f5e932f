import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** A temp file in the pack folder, with git's own prefix, so `git gc` cleans leftovers of a crash. */
export function tempName(dir: string): string {
  return path.join(dir, `tmp_pack_${process.pid}_${randomBytes(6).toString('hex')}`);
}
