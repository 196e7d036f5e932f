import { parseRefKey } from '../api/kinds.ts';
import type { GitRepo } from '../commits/types.ts';
import { readTemplateStatuses } from '../branches/status/readStatusBranch.ts';
import type { ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { APPLICATION_FAILOVER_TRAILER } from '../branches/rendered/trailers.ts';
import { applicationFailureDeadline } from '../evictions/applicationFailover.ts';

/**
 * For each template of an output whose application may fail over (its index lists them), the earliest moment one of
 * its clusters' copies will have been Unhealthy for longer than its tolerationSeconds, as the status commit shows it
 * now: refKey → ms since the epoch. A render at or after that moment evicts the cluster. Without the
 * Application-Failover trailer nothing is read: what a fleet without application failover pays on every pass.
 */
export async function readApplicationFailoverDeadlines(
  repo: GitRepo,
  index: ShardedIndex | null,
  renderTrailers: Readonly<Record<string, string>>,
  statusRef: string,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!renderTrailers[APPLICATION_FAILOVER_TRAILER] || !index) return out;
  const keys = index.applicationFailoverTemplates();
  if (keys.length === 0) return out;
  await index.load({ templates: keys });
  const health = await readTemplateStatuses(repo, statusRef, keys.map(parseRefKey));
  for (const key of keys) {
    const entry = index.template(key);
    const items = health.get(key);
    if (!entry?.applicationFailover || !items) continue;
    const evicting = new Set(entry.evicting ?? []);
    const at = applicationFailureDeadline(
      entry.clusters.filter((c) => !evicting.has(c)),
      evicting,
      items,
      entry.applicationFailover.tolerationSeconds,
    );
    if (at !== undefined) out.set(key, at);
  }
  return out;
}
