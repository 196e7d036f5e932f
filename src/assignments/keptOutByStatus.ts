// Which clusters only cluster status keeps out of a result: the filters that read status (APIEnablement, TaintToleration)
// said no, and every other filter (affinity, spread fields, eviction tasks: all from Git) would say yes. Such a result
// can change when the status does, which is what makes a binding wait on it (outputs/pendingBindings.ts).
import type { Cluster } from '../api/cluster.ts';
import { filterPlugins } from './plugins/registry.ts';
import type { ClusterExplanation, FilterPluginName, SchedulingRequest } from './types.ts';

const STATUS_FILTERS: ReadonlySet<FilterPluginName> = new Set(['APIEnablement', 'TaintToleration']);

/** The clusters a status filter left out of `explanation` that every other filter lets in, by name. */
export function keptOutByStatus(
  req: SchedulingRequest,
  explanation: readonly ClusterExplanation[],
  clusters: readonly Cluster[],
  affinityName: string | undefined,
): string[] {
  // Built on the first cluster a status filter left out: most results have none, and every render asks.
  let byName: Map<string, Cluster> | undefined;
  const others = filterPlugins.filter((p) => !STATUS_FILTERS.has(p.name));
  return explanation.flatMap((e) => {
    const cluster =
      e.outcome === 'filtered' && STATUS_FILTERS.has(e.plugin)
        ? (byName ??= new Map(clusters.map((c) => [c.metadata.name, c]))).get(e.cluster)
        : undefined;
    if (!cluster) return [];
    const fits = others.every(
      (p) =>
        p.filter({ request: req, cluster, ...(affinityName !== undefined ? { affinityName } : {}) }).code === 'Success',
    );
    return fits ? [e.cluster] : [];
  });
}
