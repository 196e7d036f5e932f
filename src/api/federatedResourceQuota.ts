// policy.karmada.io/v1alpha1 FederatedResourceQuota (pkg/apis/policy/v1alpha1/federatedresourcequota_types.go): a
// namespace's quota across clusters. What Karmada does with it by default (FederatedQuotaEnforcement off) is its sync
// controller's: each static assignment becomes a ResourceQuota of the quota's name and namespace on that cluster.
import { POLICY_API_VERSION, type ObjectRef } from './kinds.ts';
import type { ObjectMeta } from './policy.ts';

export const FEDERATED_RESOURCE_QUOTA_KIND = 'FederatedResourceQuota';

export interface FederatedResourceQuota {
  apiVersion: typeof POLICY_API_VERSION;
  kind: typeof FEDERATED_RESOURCE_QUOTA_KIND;
  metadata: ObjectMeta;
  spec: {
    overall: Record<string, string | number>;
    staticAssignments?: { clusterName: string; hard: Record<string, string | number> }[];
  };
}

export function isFederatedResourceQuota(
  manifest: Record<string, unknown>,
): manifest is Record<string, unknown> & FederatedResourceQuota {
  return manifest.apiVersion === POLICY_API_VERSION && manifest.kind === FEDERATED_RESOURCE_QUOTA_KIND;
}

/**
 * The identity of what the quota puts on members: a ResourceQuota of its namespace and name. Karmada's Work for it is
 * named as a ResourceQuota template's would be (names.GenerateWorkName), so the two are one object on a member.
 */
export function memberQuotaRef(namespace: string, name: string): ObjectRef {
  return { apiVersion: 'v1', kind: 'ResourceQuota', namespace, name };
}

/**
 * A cluster's hard limits (extractClusterHardResourceList): the first assignment naming it, undefined when none does.
 * Karmada's webhook lets a cluster be named twice; the later ones are never read.
 */
export function assignedHard(
  quota: FederatedResourceQuota,
  cluster: string,
): Record<string, string | number> | undefined {
  return quota.spec.staticAssignments?.find((a) => a.clusterName === cluster)?.hard;
}

/** The clusters its static assignments name, registered or not, each once, in order. */
export function assignedClusters(quota: FederatedResourceQuota): string[] {
  return [...new Set((quota.spec.staticAssignments ?? []).map((a) => a.clusterName))];
}
