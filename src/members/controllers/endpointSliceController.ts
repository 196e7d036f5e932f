import { nameFromGenerateName } from '../store/randomSuffix.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import {
  desiredEndpoints,
  ENDPOINTSLICE_CONTROLLER,
  MANAGED_BY_LABEL,
  planEndpointSlices,
  SERVICE_NAME_LABEL,
  servesService,
} from './planEndpointSlices.ts';
import { PODS } from './workloadPods.ts';
import { SERVICES, servicesSelectingPod } from './servicesSelectingPod.ts';

const SLICES = 'discovery.k8s.io/endpointslices';
const NODES = '/nodes';
const ZONE_LABEL = 'topology.kubernetes.io/zone';

const managedByUs = (slice: KubeObject) => slice.metadata.labels?.[MANAGED_BY_LABEL] === ENDPOINTSLICE_CONTROLLER;

/**
 * The EndpointSlice controller of kube-controller-manager: for each Service with a selector, slices of its
 * selected pods' IPs (ready or not, with conditions), labelled kubernetes.io/service-name and managed-by
 * endpointslice-controller.k8s.io and owned by the Service. Only slices carrying that managed-by value are read
 * or written, so slices other controllers (Karmada's) write into the member stay exactly as written.
 */
export function endpointSliceController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const sliceType = () => registry.byResourceKey(SLICES)!;

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const service = store.get(SERVICES, namespace, name);
    // A deleted Service's slices go with it through their ownerReference (garbage collector).
    if (!service || service.metadata.deletionTimestamp || !servesService(service)) return;
    const existing = store
      .list(SLICES, namespace)
      .filter(
        (s) => managedByUs(s) && s.metadata.labels?.[SERVICE_NAME_LABEL] === name && !s.metadata.deletionTimestamp,
      );
    const zoneOf = (node: string) => store.get(NODES, undefined, node)?.metadata.labels?.[ZONE_LABEL];
    const plan = planEndpointSlices(service, desiredEndpoints(service, store.list(PODS, namespace), zoneOf), existing);
    for (const slice of plan.delete) store.delete(sliceType(), slice.metadata.namespace, slice.metadata.name!);
    for (const slice of plan.update) store.update(sliceType(), slice);
    for (const slice of plan.create) {
      slice.metadata.name = nameFromGenerateName(slice.metadata.generateName!);
      store.create(sliceType(), slice);
    }
  }

  return {
    name: 'endpointslice',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === SERVICES && event.type !== 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === PODS) return servicesSelectingPod(store, event);
      // A managed slice changed or removed by someone else is put back, as the controller's slice tracker does.
      if (event.resource === SLICES && (managedByUs(o) || (event.previous && managedByUs(event.previous)))) {
        const service =
          o.metadata.labels?.[SERVICE_NAME_LABEL] ?? event.previous?.metadata.labels?.[SERVICE_NAME_LABEL];
        return service ? [keyOf(o.metadata.namespace, service)] : [];
      }
      return [];
    },
    reconcile,
    initialKeys: () => store.list(SERVICES).map((s) => keyOf(s.metadata.namespace, s.metadata.name!)),
  };
}
