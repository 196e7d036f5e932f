import type { ObjectStore } from '../store/ObjectStore.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import { keyOf } from './ControllerDeps.ts';
import { selectsPod } from './planEndpointSlices.ts';

export const SERVICES = '/services';

/**
 * Keys of the Services in a pod event's namespace whose selector picks the pod now or picked it before the change:
 * the Services whose endpoints (slices and the core/v1 Endpoints alike) the change can move.
 */
export function servicesSelectingPod(store: ObjectStore, event: StoreEvent): string[] {
  const pods = [event.object, event.previous].filter((p): p is KubeObject => p !== undefined);
  return store
    .list(SERVICES, event.object.metadata.namespace)
    .filter((svc) => pods.some((pod) => selectsPod(svc, pod)))
    .map((svc) => keyOf(svc.metadata.namespace, svc.metadata.name!));
}
