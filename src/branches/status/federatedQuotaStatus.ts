// federatedresourcequotas/<namespace>/<name>.yaml on the status branch: a FederatedResourceQuota's status as Karmada's
// federated-resource-quota-status controller writes it with FederatedQuotaEnforcement off (overall, overallUsed,
// aggregatedStatus), from the member ResourceQuotas its static assignments made. Written with the ResourceQuota's
// template status file, by whoever writes that (statuses/buildStatusFiles.ts). Part of the branch contract
// (docs/BRANCHES.md, docs/schemas/status-federatedresourcequota.schema.json).
import type { ObjectRef } from '../../api/kinds.ts';

export const FEDERATED_QUOTA_STATUS_FOLDER = 'federatedresourcequotas/';

/** ClusterQuotaStatus: the cluster and its ResourceQuota's status (hard, used), inlined. */
export interface ClusterQuotaStatus {
  clusterName: string;
  hard?: Record<string, string>;
  used?: Record<string, string>;
}

export interface FederatedQuotaStatusFile {
  apiVersion: 'policy.karmada.io/v1alpha1';
  kind: 'FederatedResourceQuota';
  metadata: { namespace: string; name: string };
  status: {
    overall?: Record<string, string>;
    overallUsed?: Record<string, string>;
    aggregatedStatus?: ClusterQuotaStatus[];
  };
}

export function federatedQuotaStatusPath(namespace: string, name: string): string {
  return `${FEDERATED_QUOTA_STATUS_FOLDER}${namespace}/${name}.yaml`;
}

/** The quota status file a member ResourceQuota's status may feed; undefined for any other kind. */
export function federatedQuotaStatusPathOf(ref: ObjectRef): string | undefined {
  return ref.apiVersion === 'v1' && ref.kind === 'ResourceQuota' && ref.namespace
    ? federatedQuotaStatusPath(ref.namespace, ref.name)
    : undefined;
}
