// multiclusterservices/<namespace>/<name>.yaml on the status branch: the status conditions Karmada's
// multiclusterservice and endpointslice dispatch controllers set on a CrossCluster MultiClusterService
// (ServiceApplied, EndpointSliceDispatched), as the reconciler's status side derives them from the rendered branch
// and the consumers' inventories (statuses/multiClusterServiceConditions.ts). Written only when a condition changes.
// Part of the branch contract (docs/BRANCHES.md, docs/schemas/status-multiclusterservice.schema.json).
import { stringify } from 'yaml';
import type { NETWORKING_API_VERSION, MULTI_CLUSTER_SERVICE_KIND } from '../../api/multiClusterService.ts';
import { parseYamlValue } from '../../yaml/blockYaml.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../../yaml/goYamlSchema.ts';

export const MULTI_CLUSTER_SERVICE_STATUS_FOLDER = 'multiclusterservices/';

/** metav1.Condition as Karmada sets it with meta.SetStatusCondition. */
export interface StatusCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface MultiClusterServiceStatusFile {
  apiVersion: typeof NETWORKING_API_VERSION;
  kind: typeof MULTI_CLUSTER_SERVICE_KIND;
  metadata: { namespace: string; name: string };
  status: { conditions: StatusCondition[] };
}

export function multiClusterServiceStatusPath(namespace: string, name: string): string {
  return `${MULTI_CLUSTER_SERVICE_STATUS_FOLDER}${namespace}/${name}.yaml`;
}

export function serializeMultiClusterServiceStatus(file: MultiClusterServiceStatusFile): string {
  return stringify(file, GO_YAML_STRINGIFY_OPTIONS);
}

/** The conditions of a status file, or none when it is absent or unreadable (a hand edit is simply rewritten). */
export function parseMultiClusterServiceConditions(text: string | undefined): StatusCondition[] {
  if (!text) return [];
  try {
    const value = parseYamlValue(text) as Partial<MultiClusterServiceStatusFile> | null;
    const conditions = value?.status?.conditions;
    return Array.isArray(conditions) ? conditions : [];
  } catch {
    return [];
  }
}
