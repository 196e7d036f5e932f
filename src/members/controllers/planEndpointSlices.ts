import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../types.ts';

// The EndpointSlice controller's reconciler (k8s.io/endpointslice reconciler.go, utils.go), pure: a Service,
// the pods its selector picks and the slices this controller already manages for it in; the slices to create,
// update and delete out. Slices another controller manages (Karmada's, mirrored ones) never enter it.

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller.k8s.io';
const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** --max-endpoints-per-slice default. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export interface EndpointSlicePlan {
  /** New slices with metadata.generateName set; the caller names them. */
  create: KubeObject[];
  update: KubeObject[];
  delete: KubeObject[];
}

type Json = any;

/** Does the service's selector (a plain map) pick these labels? An empty selector picks nothing here. */
export function selectsPod(service: KubeObject, pod: KubeObject): boolean {
  const selector: Record<string, string> | undefined = service.spec?.selector;
  if (!selector || Object.keys(selector).length === 0) return false;
  if (pod.metadata.namespace !== service.metadata.namespace) return false;
  const labels = pod.metadata.labels ?? {};
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Whether the controller serves this Service at all: a selector, and not an ExternalName alias. */
export function servesService(service: KubeObject): boolean {
  return Boolean(service.spec?.selector) && service.spec?.type !== 'ExternalName';
}

/** podutil.FindPort: a numeric targetPort as is; a named one through the pod's container ports of the same protocol. */
export function findPort(pod: KubeObject, servicePort: Json): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(String(target))) return Number(target);
  const protocol = servicePort.protocol ?? 'TCP';
  for (const container of pod.spec?.containers ?? []) {
    for (const port of container.ports ?? []) {
      if (port.name === target && (port.protocol ?? 'TCP') === protocol) return port.containerPort;
    }
  }
  return undefined;
}

/** getEndpointPorts: the Service's ports resolved against one pod; a named port the pod lacks is left out. */
export function endpointPorts(service: KubeObject, pod: KubeObject): Json[] {
  const ports: Json[] = [];
  for (const sp of service.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    ports.push({
      name: sp.name ?? '',
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return ports;
}

const isReady = (pod: KubeObject): boolean =>
  (pod.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');

/** ShouldPodBeInEndpoints with terminating pods included: not finished, and holding an IP. */
function podHasEndpoint(pod: KubeObject): boolean {
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return Boolean(pod.status?.podIP);
}

/** podToEndpoint: serving follows readiness, ready also requires not terminating; publishNotReadyAddresses forces both. */
export function podToEndpoint(service: KubeObject, pod: KubeObject, nodeZone?: string): Json {
  const publish = service.spec?.publishNotReadyAddresses === true;
  const serving = publish || isReady(pod);
  const terminating = Boolean(pod.metadata.deletionTimestamp);
  const ready = publish || (serving && !terminating);
  const hostname: string | undefined = pod.spec?.hostname;
  const setHostname = Boolean(hostname) && pod.spec?.subdomain === service.metadata.name;
  return {
    addresses: [pod.status.podIP],
    conditions: { ready, serving, terminating },
    ...(setHostname ? { hostname } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
    ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    ...(nodeZone ? { zone: nodeZone } : {}),
  };
}

/** The labels every managed slice carries: the Service's own, then the two the controller owns. */
function sliceLabels(service: KubeObject): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {})) {
    if (k !== SERVICE_NAME_LABEL && k !== MANAGED_BY_LABEL && k !== HEADLESS_LABEL) labels[k] = v;
  }
  if (service.spec?.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata.name!;
  labels[MANAGED_BY_LABEL] = ENDPOINTSLICE_CONTROLLER;
  return labels;
}

function newSlice(service: KubeObject, ports: Json[], endpoints: Json[]): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${service.metadata.name}-`,
      namespace: service.metadata.namespace!,
      labels: sliceLabels(service),
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: service.metadata.name!,
          uid: service.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: 'IPv4',
    endpoints,
    ports,
  };
}

const portsKey = (ports: Json[]): string =>
  JSON.stringify([...ports].map((p) => [p.name ?? '', p.port ?? 0, p.protocol ?? 'TCP', p.appProtocol ?? '']).sort());

/** An endpoint's identity across syncs: the pod it points at, else its first address. */
const endpointKey = (ep: Json): string => ep.targetRef?.uid ?? ep.addresses?.[0] ?? '';

export interface DesiredEndpoint {
  ports: Json[];
  endpoint: Json;
}

/** Every endpoint the Service should have, each with the ports resolved for its pod. */
export function desiredEndpoints(
  service: KubeObject,
  pods: KubeObject[],
  zoneOfNode: (node: string) => string | undefined = () => undefined,
): DesiredEndpoint[] {
  return pods
    .filter((pod) => selectsPod(service, pod) && podHasEndpoint(pod))
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!))
    .map((pod) => ({
      ports: endpointPorts(service, pod),
      endpoint: podToEndpoint(service, pod, pod.spec?.nodeName ? zoneOfNode(pod.spec.nodeName) : undefined),
    }));
}

/**
 * reconcileByPortMapping, per set of resolved ports: existing slices keep the endpoints still wanted (updated in
 * place when changed) and lose the rest; new endpoints fill slices with room before new slices of at most
 * `maxPerSlice` are made; slices left empty, or for a port set no pod has any more, are deleted. A Service with
 * no endpoints at all keeps exactly one placeholder slice with no ports and no endpoints.
 */
export function planEndpointSlices(
  service: KubeObject,
  desired: DesiredEndpoint[],
  existing: KubeObject[],
  maxPerSlice = MAX_ENDPOINTS_PER_SLICE,
): EndpointSlicePlan {
  const plan: EndpointSlicePlan = { create: [], update: [], delete: [] };
  const labels = sliceLabels(service);
  const wantedByPorts = new Map<string, { ports: Json[]; endpoints: Map<string, Json> }>();
  for (const { ports, endpoint } of desired) {
    const key = portsKey(ports);
    let group = wantedByPorts.get(key);
    if (!group) wantedByPorts.set(key, (group = { ports, endpoints: new Map() }));
    group.endpoints.set(endpointKey(endpoint), endpoint);
  }

  const isPlaceholder = (slice: KubeObject) => (slice.ports ?? []).length === 0 && (slice.endpoints ?? []).length === 0;
  const placeholders = existing.filter(isPlaceholder);
  const existingByPorts = new Map<string, KubeObject[]>();
  for (const slice of existing) {
    if (isPlaceholder(slice)) continue;
    const key = portsKey(slice.ports ?? []);
    existingByPorts.set(key, [...(existingByPorts.get(key) ?? []), slice]);
  }
  for (const [key, slices] of existingByPorts) if (!wantedByPorts.has(key)) plan.delete.push(...slices);

  for (const [key, { ports, endpoints: wanted }] of wantedByPorts) {
    const remaining = new Map(wanted);
    const kept: { slice: KubeObject; endpoints: Json[]; changed: boolean }[] = [];
    for (const slice of existingByPorts.get(key) ?? []) {
      let changed = false;
      const endpoints: Json[] = [];
      for (const ep of slice.endpoints ?? []) {
        const want = remaining.get(endpointKey(ep));
        if (!want) {
          changed = true;
          continue;
        }
        remaining.delete(endpointKey(ep));
        if (!isDeepStrictEqual(want, ep)) changed = true;
        endpoints.push(want);
      }
      if (endpoints.length === 0) plan.delete.push(slice);
      else kept.push({ slice, endpoints, changed });
    }
    // Fill slices already being written first, then untouched ones, so fewer slices change.
    const fillOrder = [...kept.filter((k) => k.changed), ...kept.filter((k) => !k.changed)];
    const toPlace = [...remaining.values()];
    for (const k of fillOrder) {
      while (toPlace.length > 0 && k.endpoints.length < maxPerSlice) {
        k.endpoints.push(toPlace.shift());
        k.changed = true;
      }
    }
    for (const k of kept) {
      const labelsChanged = !isDeepStrictEqual(k.slice.metadata.labels ?? {}, labels);
      if (!k.changed && !labelsChanged && isDeepStrictEqual(k.slice.ports, ports)) continue;
      plan.update.push({
        ...structuredClone(k.slice),
        metadata: { ...structuredClone(k.slice.metadata), labels },
        endpoints: k.endpoints,
        ports,
      });
    }
    while (toPlace.length > 0) plan.create.push(newSlice(service, ports, toPlace.splice(0, maxPerSlice)));
  }

  const slicesRemain =
    plan.create.length + [...existingByPorts.values()].flat().filter((s) => !plan.delete.includes(s)).length > 0;
  if (slicesRemain) plan.delete.push(...placeholders);
  else if (placeholders.length === 0) plan.create.push(newSlice(service, [], []));
  else {
    const [keep, ...extra] = placeholders;
    plan.delete.push(...extra);
    if (!isDeepStrictEqual(keep!.metadata.labels ?? {}, labels))
      plan.update.push({ ...structuredClone(keep!), metadata: { ...structuredClone(keep!.metadata), labels } });
  }
  return plan;
}
