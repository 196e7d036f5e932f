// .flotilla/clusters.json on the rendered branch: which clusters the rendered source commit registers, and how each
// gets its workloads. A Pull agent, which mirrors only the rendered and status branches, reads it to tell a cluster
// with nothing placed (an empty or absent folder) from a name registered nowhere.
import type { Cluster, ResourceModel } from '../../api/cluster.ts';
import { DEFAULT_RESOURCE_MODELS, isDefaultResourceModels } from '../../api/clusterResourceModels.ts';
import { suggestName } from '../../text/suggestName.ts';

export interface RegisteredCluster {
  name: string;
  syncMode: Cluster['spec']['syncMode'];
  /** Written only when the Cluster has its own: a Pull agent grades its nodes by them. Absent: the defaults. */
  resourceModels?: ResourceModel[];
}

/** The file's bytes for these Clusters: sorted by name, so the same registrations always give the same file. */
export function serializeRegisteredClusters(clusters: Iterable<Cluster>): string {
  const list: RegisteredCluster[] = [...clusters]
    .map((c) => ({
      name: c.metadata.name,
      syncMode: c.spec.syncMode ?? 'Push',
      ...(isDefaultResourceModels(c.spec.resourceModels) ? {} : { resourceModels: c.spec.resourceModels }),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `${JSON.stringify({ clusters: list }, null, 1)}\n`;
}

export function parseRegisteredClusters(text: string): RegisteredCluster[] {
  const parsed = JSON.parse(text) as { clusters?: RegisteredCluster[] };
  return Array.isArray(parsed.clusters) ? parsed.clusters.filter((c) => typeof c?.name === 'string') : [];
}

/** Why `name` cannot be served, naming what is registered and the nearest name; undefined when it is registered. */
export function describeUnregistered(
  name: string,
  registered: readonly Pick<RegisteredCluster, 'name'>[],
): string | undefined {
  if (registered.some((c) => c.name === name)) return undefined;
  const names = registered.map((c) => c.name);
  const guess = suggestName(name, names);
  return `cluster ${name} is not registered; registered: ${names.join(', ') || 'none'}${guess ? ` (did you mean ${guess}?)` : ''}`;
}

/** The models a registered cluster's nodes are graded by: its own, else Karmada's defaults. */
export function resourceModelsOf(cluster: RegisteredCluster | undefined): readonly ResourceModel[] {
  return Array.isArray(cluster?.resourceModels) && cluster.resourceModels.length > 0
    ? cluster.resourceModels
    : DEFAULT_RESOURCE_MODELS;
}
