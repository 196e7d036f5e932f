// SpreadConstraint filter: a cluster must carry the field each spread constraint spreads by.
// (cluster always exists; region and provider must be non-empty; zone needs at least one zone.)
import { clusterZones } from '../../selectors/matchClusterAffinity.ts';
import { fits, unschedulable, type FilterPlugin } from '../framework.ts';

export const spreadConstraint: FilterPlugin = {
  name: 'SpreadConstraint',
  filter({ request, cluster }) {
    for (const sc of request.placement.spreadConstraints ?? []) {
      if (sc.spreadByField === 'provider' && !cluster.spec.provider)
        return unschedulable('cluster(s) did not have provider property', 'spec.provider is empty');
      if (sc.spreadByField === 'region' && !cluster.spec.region)
        return unschedulable('cluster(s) did not have region property', 'spec.region is empty');
      if (sc.spreadByField === 'zone' && clusterZones(cluster).length === 0)
        return unschedulable('cluster(s) did not have zones property', 'spec.zones is empty');
    }
    return fits;
  },
};
