// ClusterAffinity filter: the cluster must match placement.clusterAffinity, or the clusterAffinities term
// being tried (plus that term's overflowAffinities for workloads). No affinity at all: every cluster fits.
import type { Cluster } from '../../api/cluster.ts';
import type { ClusterAffinity, Placement } from '../../api/policy.ts';
import { matchLabelSelector } from '../../labels/matchLabelSelector.ts';
import { matchClusterAffinity } from '../../selectors/matchClusterAffinity.ts';
import { fits, isWorkload, unschedulable, type FilterPlugin } from '../framework.ts';

/** The affinities a cluster may match: the active one first, then its overflow tiers in order. */
export function activeAffinities(
  placement: Placement,
  affinityName: string | undefined,
  workload: boolean,
): ClusterAffinity[] | undefined {
  if (placement.clusterAffinity) return [placement.clusterAffinity];
  const term = placement.clusterAffinities?.find((t) => t.affinityName === (affinityName ?? ''));
  if (!term) return undefined;
  return workload ? [term, ...(term.overflowAffinities ?? [])] : [term];
}

/** Names the first part of the affinity the cluster fails (parts are ANDed, checked in Karmada's order). */
export function explainAffinityMismatch(affinity: ClusterAffinity, cluster: Cluster): string {
  return affinityMismatch(affinity, cluster) ?? 'not in clusterNames';
}

/**
 * matchClusterAffinity and, when it fails, which part failed, in one pass: undefined when the cluster matches. The
 * filter turns most clusters of a fleet away for most workloads, so matching and then explaining apart (matching the
 * parts again) cost the scheduler a third of its time.
 */
function affinityMismatch(affinity: ClusterAffinity, cluster: Cluster): string | undefined {
  if (affinity.exclude?.includes(cluster.metadata.name)) return 'listed in exclude';
  if (affinity.labelSelector && !matchLabelSelector(affinity.labelSelector, cluster.metadata.labels))
    return 'labels do not match labelSelector';
  if (affinity.fieldSelector && !matchClusterAffinity({ fieldSelector: affinity.fieldSelector }, cluster))
    return 'fields do not match fieldSelector';
  const names = affinity.clusterNames;
  if (names && names.length > 0 && !names.includes(cluster.metadata.name)) return 'not in clusterNames';
  return undefined;
}

export const NO_AFFINITY_MATCH = 'cluster(s) did not match the placement cluster affinity constraint';

export const clusterAffinity: FilterPlugin = {
  name: 'ClusterAffinity',
  filter({ request, cluster, affinityName }) {
    const affinities = activeAffinities(request.placement, affinityName, isWorkload(request));
    if (!affinities) return fits;
    const first = affinities[0] as ClusterAffinity;
    const reason = affinityMismatch(first, cluster);
    if (reason === undefined) return fits;
    for (let i = 1; i < affinities.length; i++) if (matchClusterAffinity(affinities[i], cluster)) return fits;
    if (request.placement.clusterAffinity) return unschedulable(NO_AFFINITY_MATCH, reason);
    const overflow = affinities.length > 1 ? ' nor its overflowAffinities' : '';
    return unschedulable(NO_AFFINITY_MATCH, `${reason} of affinity term ${affinityName ?? ''}${overflow}`);
  },
};
