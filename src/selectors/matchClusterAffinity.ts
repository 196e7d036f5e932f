import type { Cluster } from '../api/cluster.ts';
import type { ClusterAffinity, FieldSelectorRequirement } from '../api/policy.ts';
import { matchLabelSelector } from '../labels/matchLabelSelector.ts';

/**
 * Karmada's ClusterMatches (pkg/util/selector.go): not excluded AND labels match AND fields match AND
 * (clusterNames empty OR lists the cluster). An empty affinity matches every cluster.
 */
export function matchClusterAffinity(affinity: ClusterAffinity | undefined, cluster: Cluster): boolean {
  if (!affinity) return true;
  const name = cluster.metadata.name;
  if (affinity.exclude?.includes(name)) return false;
  if (affinity.labelSelector && !matchLabelSelector(affinity.labelSelector, cluster.metadata.labels)) return false;
  for (const req of affinity.fieldSelector?.matchExpressions ?? []) {
    if (!matchFieldRequirement(req, cluster)) return false;
  }
  if (affinity.clusterNames && affinity.clusterNames.length > 0 && !affinity.clusterNames.includes(name)) return false;
  return true;
}

function matchFieldRequirement(req: FieldSelectorRequirement, cluster: Cluster): boolean {
  const values = req.values ?? [];
  if (req.key === 'zone') {
    // Matched against spec.zones[] (a legacy spec.zone was moved there at parse time):
    // In = any overlap, so a cluster with no zones never matches In; NotIn = no listed zone.
    const zones = clusterZones(cluster);
    const overlap = zones.some((z) => values.includes(z));
    return req.operator === 'In' ? overlap : !overlap;
  }
  // An empty provider/region counts as an absent field.
  const value = req.key === 'provider' ? cluster.spec.provider : cluster.spec.region;
  const present = value !== undefined && value !== '';
  if (req.operator === 'In') return present && values.includes(value);
  return !present || !values.includes(value);
}

export function clusterZones(cluster: Cluster): string[] {
  if (cluster.spec.zones && cluster.spec.zones.length > 0) return cluster.spec.zones;
  return cluster.spec.zone ? [cluster.spec.zone] : [];
}
