// APIEnablement filter: the cluster must serve the resource's group/version/kind. Clusters the previous
// result already targets pass; a cluster without status, or whose status has no apiEnablements field at all
// (hand-written status, an early collection), serves every API: what Flotilla knows nothing about is enabled.
import type { Cluster } from '../../api/cluster.ts';
import { fits, previouslyTargeted, unschedulable, type FilterPlugin } from '../framework.ts';

export type APIEnablementStatus = 'APIEnabled' | 'APIDisabled' | 'APIUnknown';

/**
 * Karmada's Cluster.APIEnablement: unlisted means disabled only when the list is known to be complete. Unlike
 * Karmada, an absent list (not an empty one) with no CompleteAPIEnablements condition is no list at all: unknown,
 * so enabled (a Cluster registered in Git has no status).
 */
export function apiEnablementOf(cluster: Cluster, apiVersion: string, kind: string): APIEnablementStatus {
  const status = cluster.status;
  if (!status) return 'APIEnabled';
  const complete = (status.conditions ?? []).some((c) => c.type === 'CompleteAPIEnablements' && c.status === 'True');
  // Karmada writes an empty list as no field (omitempty): with the condition saying it is complete, it is empty.
  if (status.apiEnablements === undefined && !complete) return 'APIEnabled';
  for (const group of status.apiEnablements ?? []) {
    if (group.groupVersion !== apiVersion) continue;
    if ((group.resources ?? []).some((r) => r.kind === kind)) return 'APIEnabled';
  }
  return complete ? 'APIDisabled' : 'APIUnknown';
}

const NO_API = 'cluster(s) did not have the API resource';

export const apiEnablement: FilterPlugin = {
  name: 'APIEnablement',
  filter({ request, cluster }) {
    if (previouslyTargeted(request, cluster.metadata.name)) return fits;
    const { apiVersion, kind } = request.resource;
    switch (apiEnablementOf(cluster, apiVersion, kind)) {
      case 'APIEnabled':
        return fits;
      case 'APIDisabled':
        return unschedulable(NO_API, `API ${apiVersion} ${kind} is not enabled`);
      case 'APIUnknown':
        return unschedulable(NO_API, `API ${apiVersion} ${kind} is not listed in status.apiEnablements`);
    }
  },
};
