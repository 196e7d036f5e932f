import { parseTree } from './parseTree.ts';
import { readObject } from './readObject.ts';
import type { PackWriter } from './PackWriter.ts';
import type { GitRepo, TreeEntry } from './types.ts';

/**
 * The entries of one tree object, modes exactly as stored. Looks in `pending` first, so a tree
 * queued in a PackWriter but not flushed yet can serve as a base.
 */
export async function readTree(repo: GitRepo, oid: string, pending?: PackWriter): Promise<TreeEntry[]> {
  return parseTree(readTreeBytes(repo, oid, pending));
}

/** The raw body of one tree object (a queued one first, as readTree): for edits that patch it in place. */
export function readTreeBytes(repo: GitRepo, oid: string, pending?: PackWriter): Uint8Array {
  const queued = pending?.get(oid);
  if (queued) {
    if (queued.type !== 'tree') throw new Error(`object ${oid} is a ${queued.type}, not a tree`);
    return queued.content;
  }
  const found = readObject(repo, oid);
  if (found.type !== 'tree') throw new Error(`object ${oid} is a ${found.type}, not a tree`);
  return found.content;
}
