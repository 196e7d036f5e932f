// What the last render read beyond its source (cluster taints, autoscaler decisions), read again from the status
// commit its Cluster-Status trailer records, so a sync can tell what moved since and render only that.
import { CLUSTER_STATUS_TRAILER } from '../branches/rendered/trailers.ts';

/**
 * The state a render recorded under `recorded` (the short key its trailer holds; '' for none, which is `empty` with
 * nothing read), read again with `read` from its status commit; null when that cannot be done: the state came from a
 * file, the commit is gone, or what it gives no longer has the recorded key.
 */
export async function readRecordedState<T>(
  trailers: Readonly<Record<string, string | undefined>>,
  recorded: string,
  empty: T,
  read: (statusCommit: string) => Promise<T>,
  keyOf: (state: T) => string,
): Promise<T | null> {
  if (recorded === '') return empty;
  const from = recordedStatusCommit(trailers);
  if (!from) return null;
  const state = await read(from).catch(() => null);
  return state !== null && keyOf(state) === recorded ? state : null;
}

/** The status commit a render's Cluster-Status trailer names; undefined for `file`, `none` or no trailer. */
export function recordedStatusCommit(trailers: Readonly<Record<string, string | undefined>>): string | undefined {
  const from = trailers[CLUSTER_STATUS_TRAILER];
  return from && /^[0-9a-f]{40}$/.test(from) ? from : undefined;
}
