import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../types.ts';
import { findPort, selectsPod } from './planEndpointSlices.ts';
import { isReady, isTerminal } from './workloadPods.ts';

// The endpoints controller of kube-controller-manager (pkg/controller/endpoint/endpoints_controller.go syncService,
// pkg/api/v1/endpoints/util.go RepackSubsets), pure: a Service, its namespace's pods and the Endpoints of the same
// name in; the Endpoints to write out, or undefined when what is stored is already right. Differences: subsets and
// their ports come out in a stable order of their own where Kubernetes orders them by an object hash, and no
// endpoints.kubernetes.io/last-change-trigger-time annotation is written (the EndpointSlices carry none either).

const HEADLESS_LABEL = 'service.kubernetes.io/headless';
const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
/** maxCapacity: an Endpoints object holds at most this many addresses, ready and not ready together. */
export const MAX_ENDPOINTS_CAPACITY = 1000;

type Json = any;

/** Whether the controller keeps Endpoints for this Service: it has a selector and is not an ExternalName alias. */
export function managesEndpoints(service: KubeObject): boolean {
  return service.spec?.selector != null && service.spec?.type !== 'ExternalName';
}

/** endpointsliceutil.ShouldPodBeInEndpoints: not finished, holding an IP, and not terminating unless tolerated. */
function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  if (isTerminal(pod)) return false;
  if (!pod.status?.podIP && !(pod.status?.podIPs ?? []).length) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** podToEndpointAddressForService: the pod IP of the Service's first IP family, the node and a reference to the pod. */
function endpointAddress(service: KubeObject, pod: KubeObject): Json | undefined {
  const family: string = service.spec?.ipFamilies?.[0] ?? 'IPv4';
  const ips: string[] = (pod.status?.podIPs ?? []).map((p: Json) => p.ip);
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  const ip = ips.find((candidate) => (family === 'IPv6') === candidate.includes(':'));
  if (!ip) return undefined;
  const hostname: string | undefined = pod.spec?.hostname;
  // endpointsliceutil.ShouldSetHostname
  const setHostname =
    Boolean(hostname) &&
    pod.spec?.subdomain === service.metadata.name &&
    pod.metadata.namespace === service.metadata.namespace;
  return {
    ip,
    ...(setHostname ? { hostname } : {}),
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
}

interface Subset {
  addresses: Json[];
  notReady: Json[];
  ports: Json[];
}

/**
 * RepackSubsets: every (address, port) pair grouped so that each subset holds the addresses offering exactly the
 * same ports; an address ready on one path and not ready on another counts as not ready for that port. Ports
 * missing (a headless Service without ports) are kept as a port-less subset.
 */
function repackSubsets(subsets: Subset[]): Json[] {
  const addressKey = (a: Json) => `${a.ip}/${a.targetRef?.uid ?? ''}`;
  const canonical = new Map<string, Json>();
  const byPort = new Map<string, { port: Json | undefined; ready: Map<string, boolean> }>();
  const portKey = (p: Json | undefined) =>
    p ? JSON.stringify([p.name ?? '', p.port, p.protocol ?? 'TCP', p.appProtocol ?? '']) : 'none';
  for (const subset of subsets) {
    for (const port of subset.ports.length > 0 ? subset.ports : [undefined]) {
      const key = portKey(port);
      let entry = byPort.get(key);
      if (!entry) byPort.set(key, (entry = { port, ready: new Map() }));
      for (const [list, ready] of [
        [subset.addresses, true],
        [subset.notReady, false],
      ] as const) {
        for (const address of list) {
          const k = addressKey(address);
          if (!canonical.has(k)) canonical.set(k, address);
          const was = entry.ready.get(k);
          if (was === undefined || was) entry.ready.set(k, ready);
        }
      }
    }
  }
  const bySet = new Map<string, { ready: Map<string, boolean>; ports: Json[] }>();
  for (const { port, ready } of byPort.values()) {
    const setKey = JSON.stringify([...ready].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let group = bySet.get(setKey);
    if (!group) bySet.set(setKey, (group = { ready, ports: [] }));
    if (port) group.ports.push(port);
  }
  const byIp = (a: Json, b: Json) =>
    compareIps(a.ip, b.ip) || String(a.targetRef?.uid ?? '').localeCompare(String(b.targetRef?.uid ?? ''));
  const out = [...bySet.values()].map(({ ready, ports }) => {
    const addresses = [...ready].filter(([, r]) => r).map(([k]) => canonical.get(k));
    const notReadyAddresses = [...ready].filter(([, r]) => !r).map(([k]) => canonical.get(k));
    const sortedPorts = [...ports].sort((a, b) => portKey(a).localeCompare(portKey(b)));
    return {
      ...(addresses.length > 0 ? { addresses: addresses.sort(byIp) } : {}),
      ...(notReadyAddresses.length > 0 ? { notReadyAddresses: notReadyAddresses.sort(byIp) } : {}),
      ...(sortedPorts.length > 0 ? { ports: sortedPorts } : {}),
    };
  });
  return out.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** IPv4 addresses compare by their bytes (10.0.0.9 before 10.0.0.10), as net.IP's bytes.Compare does. */
function compareIps(a: string, b: string): number {
  const bytes = (ip: string) => (ip.includes(':') ? [ip] : ip.split('.').map(Number));
  const [x, y] = [bytes(a), bytes(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i]! < y[i]!) return -1;
    if (x[i]! > y[i]!) return 1;
  }
  return x.length - y.length;
}

/**
 * truncateEndpoints: over capacity, the ready addresses are kept first, each subset cut in proportion to its share
 * (rounded up, the last ones taking what is left). True when anything was cut.
 */
function truncate(subsets: Json[]): boolean {
  const totalReady = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
  const totalNotReady = subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
  if (totalReady + totalNotReady <= MAX_ENDPOINTS_CAPACITY) return false;
  const truncateReady = totalReady > MAX_ENDPOINTS_CAPACITY;
  const max = truncateReady ? MAX_ENDPOINTS_CAPACITY : MAX_ENDPOINTS_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const subset of subsets) {
    const inSubset = (truncateReady ? subset.addresses : subset.notReadyAddresses)?.length ?? 0;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      subset.addresses = (subset.addresses ?? []).slice(0, toBeAdded);
      delete subset.notReadyAddresses;
      canBeAdded -= subset.addresses.length;
    } else {
      subset.notReadyAddresses = (subset.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= subset.notReadyAddresses.length;
    }
  }
  return true;
}

/** The subsets the Service's selected pods make, repacked and sorted. */
export function endpointSubsets(service: KubeObject, pods: readonly KubeObject[]): Json[] {
  const tolerateUnready = service.spec?.publishNotReadyAddresses === true;
  const servicePorts: Json[] = service.spec?.ports ?? [];
  const subsets: Subset[] = [];
  for (const pod of pods) {
    if (!selectsPod(service, pod) || !shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const address = endpointAddress(service, pod);
    if (!address) continue;
    const ready = tolerateUnready || isReady(pod);
    const add = (ports: Json[]) =>
      subsets.push({ addresses: ready ? [address] : [], notReady: ready ? [] : [address], ports });
    if (servicePorts.length === 0) {
      // Only a headless Service may have no ports; it still lists its pods.
      if (service.spec?.clusterIP === 'None') add([]);
      continue;
    }
    for (const sp of servicePorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue; // a named targetPort this pod does not declare
      add([
        {
          name: sp.name ?? '',
          port,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
        },
      ]);
    }
  }
  return repackSubsets(subsets);
}

/** Labels of the Service, with the headless label only when the Service has no cluster IP. */
function endpointsLabels(service: KubeObject): Record<string, string> {
  const labels = { ...(service.metadata.labels ?? {}) };
  const clusterIP: string | undefined = service.spec?.clusterIP;
  if (!clusterIP || clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return labels;
}

/**
 * The Endpoints the Service should have, given what is stored (`current`): a new object to create, the stored one
 * with its subsets, labels and capacity annotation rewritten, or undefined when nothing differs. The comparison
 * ignores the headless label, as syncService does.
 */
export function planEndpoints(
  service: KubeObject,
  pods: readonly KubeObject[],
  current: KubeObject | undefined,
): KubeObject | undefined {
  const subsets = endpointSubsets(service, pods);
  if (current) {
    const stored = { ...(current.metadata.labels ?? {}) };
    delete stored[HEADLESS_LABEL];
    const storedCount = (current.subsets ?? []).reduce(
      (n: number, s: Json) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0),
      0,
    );
    const capacityMarkedRight =
      storedCount <= MAX_ENDPOINTS_CAPACITY && !current.metadata.annotations?.[OVER_CAPACITY_ANNOTATION];
    if (
      isDeepStrictEqual(current.subsets ?? [], subsets) &&
      isDeepStrictEqual(stored, service.metadata.labels ?? {}) &&
      capacityMarkedRight
    )
      return undefined;
  }
  const annotations = { ...(current?.metadata.annotations ?? {}) };
  if (truncate(subsets)) annotations[OVER_CAPACITY_ANNOTATION] = 'truncated';
  else delete annotations[OVER_CAPACITY_ANNOTATION];
  const base: KubeObject = current
    ? structuredClone(current)
    : {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: service.metadata.name!, namespace: service.metadata.namespace! },
      };
  base.metadata.labels = endpointsLabels(service);
  if (Object.keys(annotations).length > 0) base.metadata.annotations = annotations;
  else delete base.metadata.annotations;
  if (subsets.length > 0) base.subsets = subsets;
  else delete base.subsets;
  return base;
}
