import { readObject, type ReadLimits } from './readObject.ts';
import type { GitRepo } from './types.ts';

/**
 * The content of one blob. Throws ObjectNotFoundError (code 'NotFoundError') when it is missing, and
 * ObjectTooLargeError, before inflating it, when it is larger than `limits.maxBytes`.
 */
export async function readBlob(repo: GitRepo, oid: string, limits: ReadLimits = {}): Promise<Uint8Array> {
  const found = readObject(repo, oid, limits);
  if (found.type !== 'blob') throw new Error(`object ${oid} is a ${found.type}, not a blob`);
  return found.content;
}
