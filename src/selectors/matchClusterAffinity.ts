import type { Cluster } from '../api/cluster.ts';
import type { ClusterAffinity, FieldSelectorRequirement } from '../api/policy.ts';
import { labelValueProblems, qualifiedNameProblems } from '../labels/labelFormats.ts';
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
  const fields = affinity.fieldSelector?.matchExpressions ?? [];
  if (fields.length > 0 && !matchFields(fields, cluster)) return false;
  if (affinity.clusterNames && affinity.clusterNames.length > 0 && !affinity.clusterNames.includes(name)) return false;
  return true;
}

/**
 * Zone requirements against spec.zones (matchZones: an unknown operator never matches); the others, together, as a
 * node selector over the fields provider and region, each present when not empty (NodeSelectorRequirementsAsSelector:
 * a requirement it refuses, such as an empty key or In without values, makes the whole selector match nothing).
 */
function matchFields(requirements: readonly FieldSelectorRequirement[], cluster: Cluster): boolean {
  if (!validFieldSelector(requirements)) return false;
  for (const req of requirements) {
    if (req.key === 'zone' ? !matchZones(req, clusterZones(cluster)) : !matchNodeSelectorRequirement(req, cluster))
      return false;
  }
  return true;
}

/** The scheduler asks every cluster about each placement's requirements: checked once per list. */
const validity = new WeakMap<readonly FieldSelectorRequirement[], boolean>();
function validFieldSelector(requirements: readonly FieldSelectorRequirement[]): boolean {
  let valid = validity.get(requirements);
  if (valid === undefined)
    validity.set(
      requirements,
      (valid = requirements.every((req) => req.key === 'zone' || validNodeSelectorRequirement(req))),
    );
  return valid;
}

function matchZones(req: FieldSelectorRequirement, zones: readonly string[]): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return zones.some((z) => values.includes(z));
    case 'NotIn':
      return !zones.some((z) => values.includes(z));
    case 'Exists':
      return zones.length > 0;
    case 'DoesNotExist':
      return zones.length === 0;
    default:
      return false;
  }
}

/** labels.NewRequirement's checks for a node selector operator. */
function validNodeSelectorRequirement(req: FieldSelectorRequirement): boolean {
  const values = req.values ?? [];
  if (qualifiedNameProblems(req.key ?? '').length > 0) return false;
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      return values.length > 0 && values.every((v) => labelValueProblems(String(v)).length === 0);
    case 'Exists':
    case 'DoesNotExist':
      return values.length === 0;
    case 'Gt':
    case 'Lt':
      return values.length === 1 && INTEGER.test(String(values[0]));
    default:
      return false;
  }
}
const INTEGER = /^[+-]?\d+$/;

/** A cluster's fields as node labels: provider and region, each present when not empty. */
function fieldOf(cluster: Cluster, key: string): string | undefined {
  const value = key === 'provider' ? cluster.spec.provider : key === 'region' ? cluster.spec.region : undefined;
  return value === '' ? undefined : value;
}

function matchNodeSelectorRequirement(req: FieldSelectorRequirement, cluster: Cluster): boolean {
  const value = fieldOf(cluster, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !INTEGER.test(value)) return false;
      const have = BigInt(value);
      const want = BigInt(String(values[0]));
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

export function clusterZones(cluster: Cluster): string[] {
  if (cluster.spec.zones && cluster.spec.zones.length > 0) return cluster.spec.zones;
  return cluster.spec.zone ? [cluster.spec.zone] : [];
}
