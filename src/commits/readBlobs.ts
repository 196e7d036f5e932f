import { readBlob } from './readBlob.ts';
import type { GitRepo } from './types.ts';

/**
 * Reads many blobs with at most `concurrency` reads in flight (an injected fs may be slow to answer;
 * node's own fs answers readObject's positional reads synchronously). Duplicate oids are read once.
 */
export async function readBlobs(
  repo: GitRepo,
  oids: Iterable<string>,
  concurrency = 16,
): Promise<Map<string, Uint8Array>> {
  const queue = [...new Set(oids)];
  const out = new Map<string, Uint8Array>();
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const oid = queue[next++]!;
      out.set(oid, await readBlob(repo, oid));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker));
  return new Map(queue.map((oid) => [oid, out.get(oid)!]));
}
