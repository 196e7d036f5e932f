import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { readBlob } from './readBlob.ts';
import { ObjectTooLargeError } from './ObjectTooLargeError.ts';
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
  return (await readBlobsWithin(repo, oids, Infinity, concurrency)).blobs;
}

/**
 * readBlobs for content a pull request decides: a blob larger than `maxBytes` is not inflated (its size comes
 * from the object header) and is listed in `tooLarge` with that size instead. Once `totalBytes` have been read,
 * the blobs left are not read at all and are listed in `unread` (in the order given).
 */
export async function readBlobsWithin(
  repo: GitRepo,
  oids: Iterable<string>,
  maxBytes: number,
  concurrency = 16,
  totalBytes = Infinity,
): Promise<{ blobs: Map<string, Uint8Array>; tooLarge: Map<string, number>; unread: string[] }> {
  const queue = [...new Set(oids)];
  const out = new Map<string, Uint8Array>();
  const tooLarge = new Map<string, number>();
  const unread: string[] = [];
  const limits = Number.isFinite(maxBytes) ? { maxBytes } : {};
  let read = 0;
  let next = 0;
  // Node's fs answers synchronously, so a fleet's reads would hold the event loop from the first to the last.
  const turns = eventLoopTurns();
  const worker = async () => {
    while (next < queue.length) {
      if (turns.due()) {
        await turns.give();
        continue; // the others may have taken what was left meanwhile
      }
      const oid = queue[next++]!;
      if (read >= totalBytes) {
        unread.push(oid);
        continue;
      }
      try {
        const blob = await readBlob(repo, oid, limits);
        read += blob.length;
        out.set(oid, blob);
      } catch (err) {
        if (!(err instanceof ObjectTooLargeError)) throw err;
        tooLarge.set(oid, err.data.size);
      }
    }
  };
  // A byte budget is spent in order: one read at a time (node's fs answers synchronously anyway).
  const workers = Number.isFinite(totalBytes) ? 1 : concurrency;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, queue.length)) }, worker));
  const order = new Map(queue.map((oid, i) => [oid, i]));
  unread.sort((a, b) => order.get(a)! - order.get(b)!);
  return { blobs: new Map(queue.filter((oid) => out.has(oid)).map((oid) => [oid, out.get(oid)!])), tooLarge, unread };
}
