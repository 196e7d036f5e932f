import type { ObservedCluster } from '../api/cluster.ts';
import type { GitRepo } from '../commits/types.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import type { ShardedIndex, WaitingFor } from '../branches/rendered/outputIndex.ts';
import { findRetriableBindings } from './pendingBindings.ts';
import { PENDING_BINDINGS_TRAILER } from '../branches/rendered/trailers.ts';
import { CLUSTER_STATUS_FILE, CLUSTER_STATUS_NONE, CLUSTER_STATUS_TRAILER } from '../branches/rendered/trailers.ts';

/**
 * The pending bindings of an output (its index) that `observed` can give another result than the cluster state its
 * render read (the render's Cluster-Status trailer: a status commit, none, or a file), refKey → why. Without a
 * Pending-Bindings trailer nothing is read: what a fleet with nothing pending pays on every pass.
 */
export async function readRetriableBindings(
  repo: GitRepo,
  index: ShardedIndex | null,
  renderTrailers: Readonly<Record<string, string>>,
  observed: ReadonlyMap<string, ObservedCluster>,
): Promise<Map<string, string>> {
  if (!renderTrailers[PENDING_BINDINGS_TRAILER]) return new Map();
  const keys = index?.pendingTemplates() ?? [];
  if (!index || keys.length === 0) return new Map();
  await index.load({ templates: keys });
  const pending = new Map<string, WaitingFor>();
  for (const key of keys) {
    const waiting = index.template(key)?.waiting;
    if (waiting) pending.set(key, waiting);
  }
  const from = renderTrailers[CLUSTER_STATUS_TRAILER];
  // State that came from a file cannot be compared with: every pending binding is tried again (few, and cheap).
  if (from === CLUSTER_STATUS_FILE)
    return new Map([...pending.keys()].map((key) => [key, 'the last render read its cluster state from a file']));
  // No trailer: that render read no cluster state at all (it records one whenever it read any).
  const before =
    from && from !== CLUSTER_STATUS_NONE ? await readObservedClusters(repo, from) : new Map<string, ObservedCluster>();
  return findRetriableBindings(pending, before, observed);
}
