import type { ClusterDelivery, RenderedDelivery } from '../deliveries/applyRendered.ts';
import type { ApplyAction } from '../deliveries/types.ts';
import type { CommitStatus } from './types.ts';

export const STATUS_CONTEXT_PREFIX = 'flotilla/apply/';

/** One commit status per cluster of the delivery, in cluster order. Pure. */
export function buildCommitStatuses(delivery: RenderedDelivery): CommitStatus[] {
  return [...delivery.clusters.keys()].sort().map((cluster) => ({
    context: `${STATUS_CONTEXT_PREFIX}${cluster}`,
    ...verdictOf(delivery.clusters.get(cluster)!),
  }));
}

/**
 * The worst thing that happened decides: an unreachable member or a crashed apply is an error (nothing is known),
 * failed or conflicting objects a failure, held deletions "held"; otherwise success. The description leads with
 * what the verdict is about, since forges cut it short.
 */
function verdictOf(d: ClusterDelivery): Omit<CommitStatus, 'context'> {
  const counts = new Map<ApplyAction, number>();
  for (const r of d.results) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  const n = (a: ApplyAction) => counts.get(a) ?? 0;
  const summary =
    (['created', 'configured', 'drift-repaired', 'unchanged', 'pruned', 'held', 'conflict', 'failed'] as const)
      .filter((a) => n(a) > 0)
      .map((a) => `${n(a)} ${a}`)
      .join(', ') || 'nothing to apply';
  const crashed = d.notes.find((x) => x.startsWith('apply failed:'));
  if (d.unreachable || crashed)
    return { verdict: 'error', description: `${d.cluster} ${crashed ? 'apply failed' : 'did not answer'}; ${summary}` };
  if (n('failed') + n('conflict') > 0)
    return {
      verdict: 'failure',
      description: `${n('failed') + n('conflict')} object(s) not applied on ${d.cluster}; ${summary}`,
    };
  if (n('held') > 0)
    return {
      verdict: 'held',
      description: `${n('held')} deletion(s) held by prune safety: add a Flotilla-Allow-Prune trailer to allow; ${summary}`,
    };
  return { verdict: 'success', description: `applied to ${d.cluster}: ${summary}` };
}
