import type { StoreEvent } from '../types.ts';
import { activeNamespace } from './activeNamespace.ts';
import type { Controller } from './Controller.ts';
import { keyOf, splitKey, type ControllerDeps } from './ControllerDeps.ts';
import { managesEndpoints, planEndpoints } from './planEndpoints.ts';
import { PODS } from './workloadPods.ts';
import { SERVICES, servicesSelectingPod } from './servicesSelectingPod.ts';

const ENDPOINTS = '/endpoints';
/** Leader-election records kept in Endpoints have no Service and are never cleaned up (checkLeftoverEndpoints). */
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';

/**
 * The endpoints controller of kube-controller-manager, beside the EndpointSlice one: for each Service with a
 * selector, the core/v1 Endpoints of the same name with its pods' addresses (ready or not) per port, which
 * `kubectl get endpoints` and `kubectl describe endpoints` show. A Service without a selector keeps the Endpoints
 * someone else writes; a deleted Service's Endpoints are deleted (they carry no ownerReference), and so, at start,
 * are Endpoints left with no Service.
 */
export function endpointsController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const endpointsType = () => registry.byResourceKey(ENDPOINTS)!;

  function reconcile(key: string): void {
    const [namespace, name] = splitKey(key);
    const service = store.get(SERVICES, namespace, name);
    const current = store.get(ENDPOINTS, namespace, name);
    if (!service) {
      if (current && !current.metadata.annotations?.[LEADER_ANNOTATION]) store.delete(endpointsType(), namespace, name);
      return;
    }
    if (!managesEndpoints(service)) return;
    const next = planEndpoints(service, store.list(PODS, namespace), current);
    if (!next) return;
    if (current) store.update(endpointsType(), next);
    // A terminating namespace refuses the create; syncService drops the Service then (NamespaceTerminatingCause).
    else if (activeNamespace(store, namespace!)) store.create(endpointsType(), next);
  }

  return {
    name: 'endpoints',
    keysFor(event: StoreEvent): string[] {
      const o = event.object;
      if (event.resource === SERVICES) return [keyOf(o.metadata.namespace, o.metadata.name!)];
      if (event.resource === PODS) return servicesSelectingPod(store, event);
      // Only deletions are watched (onEndpointsDelete): an Endpoints removed by hand comes back.
      if (event.resource === ENDPOINTS && event.type === 'DELETED')
        return [keyOf(o.metadata.namespace, o.metadata.name!)];
      return [];
    },
    reconcile,
    initialKeys: () => [
      ...store.list(SERVICES).map((s) => keyOf(s.metadata.namespace, s.metadata.name!)),
      ...store.list(ENDPOINTS).map((e) => keyOf(e.metadata.namespace, e.metadata.name!)),
    ],
  };
}
