import { isDeepStrictEqual } from 'node:util';
import { BUILTIN_API_SERVICE_PRIORITIES, CRD_API_SERVICE_PRIORITY } from '../resources/discoveryOrder.ts';
import type { KubeObject, StoreEvent } from '../types.ts';
import type { Controller } from './Controller.ts';
import type { ControllerDeps } from './ControllerDeps.ts';

export const APISERVICES = 'apiregistration.k8s.io/apiservices';
const CRDS = 'apiextensions.k8s.io/customresourcedefinitions';
const SERVICES = '/services';
const ENDPOINTS = '/endpoints';
const AUTOMANAGED = 'kube-aggregator.kubernetes.io/automanaged';
/** Not an APIService name (those are `version.group`): the key that registers the served group versions. */
const REGISTER = ':autoregister';

export interface AvailableCondition {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** What the availability check reads besides the APIService: Services and Endpoints by namespace and name. */
export interface AvailabilityLookups {
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
  /** Whether this server itself answers discovery for the group version (the metrics it serves). */
  servesLocally(group: string, version: string): boolean;
}

/**
 * kube-aggregator's available-condition controllers (pkg/controllers/status/local and remote): a Local APIService
 * is always available; one backed by a Service needs the Service, for a ClusterIP Service the port and Endpoints
 * with an address on that port's name, then an answer from discovery. The emulator runs no Service's process, so
 * discovery answers only for what it serves itself and is otherwise refused at the Service's address.
 */
export function apiServiceAvailability(apiService: KubeObject, lookups: AvailabilityLookups): AvailableCondition {
  const ref = apiService.spec?.service;
  if (!ref) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const { name, namespace } = ref as { name: string; namespace: string };
  const port = Number(ref.port ?? 443);
  const service = lookups.service(namespace, name);
  if (!service)
    return { status: 'False', reason: 'ServiceNotFound', message: `service/${name} in "${namespace}" is not present` };
  if ((service.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
    const servicePort = (service.spec?.ports ?? []).find((p: { port?: number }) => p.port === port);
    if (!servicePort)
      return {
        status: 'False',
        reason: 'ServicePortError',
        message: `service/${name} in "${namespace}" is not listening on port ${port}`,
      };
    const endpoints = lookups.endpoints(namespace, name);
    if (!endpoints)
      return {
        status: 'False',
        reason: 'EndpointsNotFound',
        message: `cannot find endpoints for service/${name} in "${namespace}"`,
      };
    const portName = servicePort.name ?? '';
    const active = (endpoints.subsets ?? []).some(
      (s: { addresses?: unknown[]; ports?: { name?: string }[] }) =>
        (s.addresses?.length ?? 0) > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === portName),
    );
    if (!active)
      return {
        status: 'False',
        reason: 'MissingEndpoints',
        message: `endpoints for service/${name} in "${namespace}" have no addresses with port name "${portName}"`,
      };
  }
  const { group = '', version = '' } = apiService.spec ?? {};
  if (lookups.servesLocally(group, version)) return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  // NewClusterIPServiceResolver: the Service's cluster IP (an ExternalName's name) at the APIService's port.
  const host = service.spec?.type === 'ExternalName' ? service.spec.externalName : service.spec?.clusterIP;
  const address = `${host}:${port}`;
  const url = `https://${address}${apiService.metadata.name === 'v1.' ? `/api/${version}` : `/apis/${group}/${version}`}`;
  return {
    status: 'False',
    reason: 'FailedDiscoveryCheck',
    message: `failing or missing response from ${url}: Get "${url}": dial tcp ${address}: connect: connection refused`,
  };
}

/**
 * SetAPIServiceCondition: the Available condition replaced in place, its lastTransitionTime moved only when its
 * status changes; written in APIServiceCondition's field order.
 */
export function withAvailableCondition(
  conditions: readonly Record<string, unknown>[] | undefined,
  next: AvailableCondition,
  now: string,
): Record<string, unknown>[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === 'Available');
  const previous = index >= 0 ? list[index] : undefined;
  const condition = {
    type: 'Available',
    status: next.status,
    lastTransitionTime: previous && previous.status === next.status ? previous.lastTransitionTime : now,
    reason: next.reason,
    message: next.message,
  };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}

/**
 * The aggregator's APIService controllers: at start the autoregister controller creates a Local APIService for
 * each served built-in group version (labelled automanaged onstart) and, continuously, one for each served version
 * of a CRD (automanaged true, removed with it); the available-condition controllers keep each APIService's
 * Available condition.
 */
export function apiServiceController(deps: ControllerDeps): Controller {
  const { store, registry } = deps;
  const apiServiceType = () => registry.byResourceKey(APISERVICES)!;

  const lookups: AvailabilityLookups = {
    service: (namespace, name) => store.get(SERVICES, namespace, name),
    endpoints: (namespace, name) => store.get(ENDPOINTS, namespace, name),
    servesLocally: (group, version) => registry.inGroupVersion(group, version).some((rt) => !rt.crd),
  };

  function desiredApiServices(): Map<string, KubeObject> {
    const desired = new Map<string, KubeObject>();
    const add = (group: string, version: string, priority: readonly [number, number], managed: string) =>
      desired.set(`${version}.${group}`, {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: `${version}.${group}`, labels: { [AUTOMANAGED]: managed } },
        spec: { group, version, groupPriorityMinimum: priority[0], versionPriority: priority[1] },
      });
    for (const { group, versions } of registry.groupVersions())
      for (const version of versions) {
        if (registry.inGroupVersion(group, version).every((rt) => rt.crd)) continue;
        const priority = BUILTIN_API_SERVICE_PRIORITIES[group ? `${group}/${version}` : version];
        if (priority) add(group, version, priority, 'onstart');
      }
    for (const crd of store.list(CRDS)) {
      if (crd.metadata.deletionTimestamp) continue;
      for (const v of crd.spec?.versions ?? [])
        if (v.served && !desired.has(`${v.name}.${crd.spec.group}`))
          add(crd.spec.group, v.name, CRD_API_SERVICE_PRIORITY, 'true');
    }
    return desired;
  }

  let started = false;
  function register(): void {
    const desired = desiredApiServices();
    for (const [name, wanted] of desired) {
      const current = store.get(APISERVICES, undefined, name);
      const onStart = wanted.metadata.labels?.[AUTOMANAGED] === 'onstart';
      if (!current) {
        if (!onStart || !started) store.create(apiServiceType(), wanted);
        continue;
      }
      const managed = current.metadata.labels?.[AUTOMANAGED];
      if (managed === undefined || (onStart && started) || isDeepStrictEqual(current.spec, wanted.spec)) continue;
      store.update(apiServiceType(), { ...structuredClone(current), spec: wanted.spec }, 'main');
    }
    for (const current of store.list(APISERVICES)) {
      const name = current.metadata.name!;
      if (current.metadata.labels?.[AUTOMANAGED] === 'true' && !desired.has(name))
        store.delete(apiServiceType(), undefined, name);
    }
    started = true;
  }

  function reconcile(key: string): void {
    if (key === REGISTER) return register();
    const apiService = store.get(APISERVICES, undefined, key);
    if (!apiService) return;
    const conditions = withAvailableCondition(
      apiService.status?.conditions,
      apiServiceAvailability(apiService, lookups),
      deps.now(),
    );
    if (isDeepStrictEqual(conditions, apiService.status?.conditions ?? [])) return;
    store.update(apiServiceType(), { ...structuredClone(apiService), status: { ...apiService.status, conditions } });
  }

  const backedBy = (namespace: string | undefined, name: string | undefined) =>
    store
      .list(APISERVICES)
      .filter((a) => a.spec?.service?.namespace === namespace && a.spec?.service?.name === name)
      .map((a) => a.metadata.name!);

  return {
    name: 'apiservice',
    keysFor(event: StoreEvent): string[] {
      const { metadata } = event.object;
      if (event.resource === APISERVICES) return event.type === 'DELETED' ? [REGISTER] : [metadata.name!];
      if (event.resource === CRDS) return [REGISTER];
      if (event.resource === SERVICES || event.resource === ENDPOINTS)
        return backedBy(metadata.namespace, metadata.name);
      return [];
    },
    reconcile,
    initialKeys: () => [REGISTER, ...store.list(APISERVICES).map((a) => a.metadata.name!)],
  };
}
