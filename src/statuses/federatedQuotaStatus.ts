// Karmada's federated-resource-quota-status controller (pkg/controllers/federatedresourcequota/
// federated_resource_quota_status_controller.go) with FederatedQuotaEnforcement off: aggregatedStatusFormWorks and
// calculateUsed over the member ResourceQuotas' entries of the quota's template status file.
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import type { FederatedQuotaStatusFile, ClusterQuotaStatus } from '../branches/status/federatedQuotaStatus.ts';
import {
  addQuantity,
  canonicalQuantity,
  formatQuantity,
  parseQuantity,
  type Quantity,
} from '../quantities/canonicalQuantity.ts';

type ResourceList = Record<string, string>;

/**
 * The quota's status: overall is spec.overall; one aggregatedStatus item per cluster whose ResourceQuota is applied
 * and has a reflected status (a Work not applied, or with no manifest status yet, is skipped), its hard and used,
 * sorted by cluster name; overallUsed the sum of used (Quantity.Add in that order: a sum is written in the format of
 * its first non-zero term). Empty lists are left out, as their omitempty tags leave them.
 */
export function federatedQuotaStatus(
  ref: { namespace: string; name: string },
  overall: ResourceList,
  items: readonly AggregatedStatusItem[],
): FederatedQuotaStatusFile {
  const aggregated: ClusterQuotaStatus[] = items
    .filter((i) => i.applied && i.status !== undefined)
    .map((i) => {
      const hard = resourceList(i.status!.hard);
      const used = resourceList(i.status!.used);
      return { clusterName: i.clusterName, ...(hard ? { hard } : {}), ...(used ? { used } : {}) };
    })
    .sort((a, b) => (a.clusterName < b.clusterName ? -1 : a.clusterName > b.clusterName ? 1 : 0));
  const overallUsed = sumUsed(aggregated);
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { namespace: ref.namespace, name: ref.name },
    status: {
      ...(Object.keys(overall).length > 0 ? { overall: sortedList(overall) } : {}),
      ...(overallUsed ? { overallUsed } : {}),
      ...(aggregated.length > 0 ? { aggregatedStatus: aggregated } : {}),
    },
  };
}

/** calculateUsed: each resource's quantities added cluster by cluster. */
export function sumUsed(aggregated: readonly ClusterQuotaStatus[]): ResourceList | undefined {
  const sums = new Map<string, Quantity>();
  for (const { used } of aggregated)
    for (const [name, text] of Object.entries(used ?? {})) {
      const q = parseQuantity(text);
      if (!q) continue;
      const had = sums.get(name);
      sums.set(name, had ? addQuantity(had, q) : q);
    }
  if (sums.size === 0) return undefined;
  return Object.fromEntries([...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, q]) => [k, formatQuantity(q)]));
}

/** A member's ResourceList as the typed one Karmada unmarshals and marshals again: canonical, by name. */
function resourceList(value: unknown): ResourceList | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const out: ResourceList = {};
  for (const [name, q] of Object.entries(value)) {
    const text = canonicalQuantity(q, false);
    if (typeof text === 'string') out[name] = text;
  }
  return Object.keys(out).length > 0 ? sortedList(out) : undefined;
}

function sortedList(list: ResourceList): ResourceList {
  return Object.fromEntries(Object.entries(list).sort(([a], [b]) => (a < b ? -1 : 1)));
}
