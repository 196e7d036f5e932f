// Karmada's federated-resource-quota-sync controller (pkg/controllers/federatedresourcequota/
// federated_resource_quota_sync_controller.go, buildWorks): for each registered cluster a FederatedResourceQuota's
// static assignments name, a Work holding a ResourceQuota of the quota's namespace and name whose spec.hard is that
// assignment's. Nothing else of the quota reaches it: no labels, no overrides (the controller applies none).
import { assignedHard, type FederatedResourceQuota } from '../api/federatedResourceQuota.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { controllerWorkMetadata } from '../interpreters/controllerWorkMetadata.ts';
import { canonicalQuantity } from '../quantities/canonicalQuantity.ts';
import { SOURCE_COMMIT_ANNOTATION } from './changedText.ts';

/**
 * The manifest of the quota's Work for `cluster`, as ctrlutil.CreateOrUpdateWork and the Work webhook leave it; undefined
 * when no assignment names the cluster. Its hard limits are the typed ResourceList marshalled again: canonical
 * quantities, by name. The Work sets no conflict resolution, so none is written (the applier's default, abort, holds);
 * its template UID is the empty one of an object the controller built, which Karmada writes as it is.
 */
export function federatedQuotaManifest(
  quota: FederatedResourceQuota,
  ref: ObjectRef,
  cluster: string,
  sourceCommit?: string,
): Record<string, unknown> | undefined {
  const hard = assignedHard(quota, cluster);
  if (hard === undefined) return undefined;
  // CreateOrUpdateWork records the resource's UID, and the ResourceQuota this controller builds has none yet.
  const { labels, annotations } = controllerWorkMetadata(cluster, ref, { labels: {}, annotations: {} }, { uid: '' });
  if (sourceCommit !== undefined) annotations[SOURCE_COMMIT_ANNOTATION] = sourceCommit;
  const names = Object.keys(hard).sort();
  return {
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { name: ref.name, namespace: ref.namespace, labels, annotations },
    // `hard: {}` marshals to nothing (omitempty): the ResourceQuota has an empty spec.
    spec:
      names.length === 0 ? {} : { hard: Object.fromEntries(names.map((n) => [n, canonicalQuantity(hard[n], false)])) },
  };
}
