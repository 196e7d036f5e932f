// APIEnablement filter: the cluster must serve the resource's group/version/kind. Clusters the previous
// result already targets pass; a cluster without status, or whose status has no apiEnablements field and no
// CompleteAPIEnablements condition (a hand-written status), serves every API: what Flotilla knows nothing about is
// enabled.
import type { Cluster } from '../../api/cluster.ts';
import { fits, previouslyTargeted, unschedulable, type FilterPlugin } from '../framework.ts';

export type APIEnablementStatus = 'APIEnabled' | 'APIDisabled' | 'APIUnknown';

/**
 * Karmada's Cluster.APIEnablement: unlisted means disabled only when the list is known to be complete. Unlike
 * Karmada, an absent list (not an empty one) with no CompleteAPIEnablements condition is no list at all: unknown,
 * so enabled (a Cluster registered in Git has no status, a hand-written one may have no list).
 */
export function apiEnablementOf(cluster: Cluster, apiVersion: string, kind: string): APIEnablementStatus {
  const status = cluster.status;
  if (!status) return 'APIEnabled';
  const condition = (status.conditions ?? []).find((c) => c.type === 'CompleteAPIEnablements');
  const complete = condition?.status === 'True';
  // Karmada writes an empty list as no field (omitempty): with the condition, whatever it says, the list was
  // collected and is empty (Empty when discovery gave nothing).
  if (status.apiEnablements === undefined && !condition) return 'APIEnabled';
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
