import { readObject } from './readObject.ts';
import type { GitRepo } from './types.ts';

/** The content of one blob. Throws ObjectNotFoundError (code 'NotFoundError') when it is missing. */
export async function readBlob(repo: GitRepo, oid: string): Promise<Uint8Array> {
  const found = readObject(repo, oid);
  if (found.type !== 'blob') throw new Error(`object ${oid} is a ${found.type}, not a blob`);
  return found.content;
}
