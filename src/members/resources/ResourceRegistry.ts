import type { ResourceType } from '../types.ts';
import { builtinResources } from './builtinResources.ts';
import {
  aggregatedDiscoveryOrder,
  byString,
  type OrderedGroup,
  type PrioritisedVersion,
  servedPriority,
} from './discoveryOrder.ts';

export const groupVersionOf = (rt: Pick<ResourceType, 'group' | 'version'>): string =>
  rt.group ? `${rt.group}/${rt.version}` : rt.version;

/** Storage key shared by every version of one resource: `group/plural`. */
export const resourceKeyOf = (rt: Pick<ResourceType, 'group' | 'plural'>): string => `${rt.group}/${rt.plural}`;

/**
 * The table that drives discovery, openapi and routing. Built-in kinds are fixed; CRDs add and remove rows at
 * runtime, and `revision` changes so openapi hashes (which kubectl caches by) change with them.
 */
export class ResourceRegistry {
  private types: ResourceType[] = builtinResources();
  revision = 0;

  all(): readonly ResourceType[] {
    return this.types;
  }

  /** The served group versions in aggregated discovery's order, by the priorities their APIServices start with. */
  groupVersions(): OrderedGroup[] {
    const served = new Map<string, PrioritisedVersion>();
    for (const rt of this.types)
      if (!served.has(groupVersionOf(rt)))
        served.set(groupVersionOf(rt), { group: rt.group, version: rt.version, priority: servedPriority(rt) });
    return aggregatedDiscoveryOrder([...served.values()]);
  }

  /** A group version's kinds by resource name, the order kube-apiserver's discovery lists them in. */
  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.types
      .filter((rt) => rt.group === group && rt.version === version)
      .sort((a, b) => byString(a.plural, b.plural));
  }

  byPlural(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.find((rt) => rt.group === group && rt.version === version && rt.plural === plural);
  }

  byKind(group: string, kind: string, version?: string): ResourceType | undefined {
    return this.types.find(
      (rt) => rt.group === group && rt.kind === kind && (version === undefined || rt.version === version),
    );
  }

  /** The first (preferred) version's row for a storage key. */
  byResourceKey(key: string): ResourceType | undefined {
    return this.types.find((rt) => resourceKeyOf(rt) === key);
  }

  /** Replaces every row a CRD contributed; an empty list removes the CRD's kinds. */
  setCrdTypes(crdName: string, types: ResourceType[]): void {
    this.types = [...this.types.filter((rt) => rt.crd !== crdName), ...types];
    this.revision++;
  }
}
