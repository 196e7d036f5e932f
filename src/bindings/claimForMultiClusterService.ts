// Karmada's multiclusterservice controller claiming the Service a CrossCluster MultiClusterService names
// (pkg/controllers/multiclusterservice/mcs_controller.go: claimMultiClusterServiceForService, buildResourceBinding):
// the MultiClusterService takes the place of a PropagationPolicy, with placement clusterNames = providers ∪ consumers
// and conflictResolution Overwrite. Every later stage (scheduler, binding controller) runs as for a policy's claim.
import type { ResourceBinding } from '../api/binding.ts';
import { refKey, WORK_API_VERSION, type ObjectRef } from '../api/kinds.ts';
import type { ConfigModel, Template } from '../api/model.ts';
import {
  MULTI_CLUSTER_SERVICE_KIND,
  NETWORKING_API_VERSION,
  type MultiClusterService,
} from '../api/multiClusterService.ts';
import type { PropagationPolicy } from '../api/policy.ts';
import { isCrossCluster, isMultiClusterService, serviceClusters } from '../interpreters/dispatchEndpointSlices.ts';
import { bindingName, permanentId } from '../names/bindingName.ts';
import type { ClaimedBinding } from './claimTemplate.ts';
import { describePolicy, policyKey } from './matchPolicy.ts';

/** util.ResourceTemplateClaimedByLabel's value, workv1alpha2.BindingManagedByLabel's too. */
const CLAIMED_BY = 'MultiClusterService';

/** The MultiClusterService's refKey for the Service `ref`, or undefined when `ref` is no Service. */
export function multiClusterServiceKeyOf(ref: ObjectRef): string | undefined {
  if (ref.apiVersion !== 'v1' || ref.kind !== 'Service') return undefined;
  return refKey({
    apiVersion: NETWORKING_API_VERSION,
    kind: MULTI_CLUSTER_SERVICE_KIND,
    namespace: ref.namespace,
    name: ref.name,
  });
}

/** The Service's refKey for the MultiClusterService `ref`, or undefined when `ref` is no MultiClusterService. */
export function serviceKeyOf(ref: ObjectRef): string | undefined {
  if (ref.apiVersion !== NETWORKING_API_VERSION || ref.kind !== MULTI_CLUSTER_SERVICE_KIND) return undefined;
  return refKey({ apiVersion: 'v1', kind: 'Service', namespace: ref.namespace, name: ref.name });
}

/** The CrossCluster MultiClusterService of the same namespace and name as this Service, when the model holds one. */
export function multiClusterServiceFor(template: Template, model: ConfigModel): MultiClusterService | undefined {
  const key = multiClusterServiceKeyOf(template.ref);
  const mcs = key ? model.templates.get(key)?.manifest : undefined;
  return isMultiClusterService(mcs) && isCrossCluster(mcs) ? mcs : undefined;
}

/**
 * The binding of a Service claimed by its MultiClusterService. The stand-in policy carries the MultiClusterService's
 * identity (the index records it as the claim; explain and plan name it) and the placement Karmada builds.
 */
export function claimForMultiClusterService(
  template: Template,
  mcs: MultiClusterService,
  model: ConfigModel,
  previous: ResourceBinding | undefined,
): ClaimedBinding {
  const namespace = mcs.metadata.namespace ?? 'default';
  const policy = {
    apiVersion: NETWORKING_API_VERSION,
    kind: MULTI_CLUSTER_SERVICE_KIND,
    metadata: { name: mcs.metadata.name, namespace },
    spec: {
      resourceSelectors: [{ apiVersion: 'v1', kind: 'Service', namespace, name: mcs.metadata.name }],
      placement: { clusterAffinity: { clusterNames: serviceClusters(mcs, model.clusters.keys()) } },
      conflictResolution: 'Overwrite',
    },
  } as unknown as PropagationPolicy;
  const key = policyKey(policy);
  const ref = template.ref;
  const uid = (template.manifest.metadata as { uid?: string } | undefined)?.uid;
  const binding: ResourceBinding = {
    apiVersion: WORK_API_VERSION,
    kind: 'ResourceBinding',
    metadata: {
      name: bindingName(ref.kind, ref.name),
      namespace: ref.namespace,
      labels: {
        'binding.karmada.io/managed-by': CLAIMED_BY,
        'multiclusterservice.karmada.io/permanent-id': permanentId(`mcs/${key}`),
        'resourcebinding.karmada.io/permanent-id': permanentId(`binding/${refKey(ref)}`),
      },
      annotations: {
        'multiclusterservice.karmada.io/name': mcs.metadata.name,
        'multiclusterservice.karmada.io/namespace': namespace,
        'flotilla.io/policy': key,
      },
    },
    spec: {
      resource: {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        namespace: ref.namespace,
        name: ref.name,
        ...(uid ? { uid } : {}),
      },
      clusters: previous?.spec.clusters ?? [],
      placement: policy.spec.placement ?? {},
      conflictResolution: 'Overwrite',
    },
  };
  return {
    status: 'claimed',
    policy: { object: policy, source: model.templates.get(multiClusterServiceKeyOf(ref)!)!.source },
    policyKey: key,
    reason: `claimed by ${describePolicy(policy)} (type CrossCluster): placed on its provider and consumer clusters`,
    binding,
    replicas: 0,
  };
}
