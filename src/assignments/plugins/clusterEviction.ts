// ClusterEviction filter: a cluster the binding is being evicted from (a graceful eviction task names it) takes no
// new placement until the task ends, so replicas cannot bounce back onto the cluster they are leaving.
import { fits, unschedulable, type FilterPlugin } from '../framework.ts';

export const clusterEviction: FilterPlugin = {
  name: 'ClusterEviction',
  filter({ request, cluster }) {
    return (request.evictingClusters ?? []).includes(cluster.metadata.name)
      ? unschedulable('cluster(s) is in the process of eviction', "in the binding's graceful eviction tasks")
      : fits;
  },
};
