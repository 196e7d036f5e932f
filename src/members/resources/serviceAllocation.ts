import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../types.ts';

type Json = any;

const needsClusterIP = (svc: KubeObject) => (svc.spec?.type ?? 'ClusterIP') !== 'ExternalName';
const needsNodePorts = (svc: KubeObject) => svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';

/**
 * An update that leaves out a Service's allocated addresses keeps them (the service registry's
 * patchAllocatedValues): the cluster IP(s), and each port's node port matched by port name unless another port
 * of the new spec already uses it. So a `kubectl replace` of the original manifest does not renumber anything.
 */
export function keepAllocatedValues(before: KubeObject, after: KubeObject): void {
  if (!before.spec || !after.spec) return;
  if (needsClusterIP(before) && needsClusterIP(after)) {
    if (!after.spec.clusterIP) after.spec.clusterIP = before.spec.clusterIP;
    if (
      (!Array.isArray(after.spec.clusterIPs) || after.spec.clusterIPs.length === 0) &&
      Array.isArray(before.spec.clusterIPs) &&
      before.spec.clusterIPs.length > 0
    ) {
      after.spec.clusterIPs = [...before.spec.clusterIPs];
    }
  }
  if (needsNodePorts(before) && needsNodePorts(after)) {
    const ports = (svc: KubeObject): Json[] => (Array.isArray(svc.spec?.ports) ? svc.spec.ports : []);
    const newPorts = new Set(
      ports(after)
        .map((p) => p?.nodePort)
        .filter(Boolean),
    );
    const used = new Set(
      ports(before)
        .map((p) => p?.nodePort)
        .filter((n) => n && newPorts.has(n)),
    );
    const byName = new Map<string, number>(ports(before).map((p) => [p?.name ?? '', p?.nodePort]));
    for (const p of ports(after)) {
      if (!p || typeof p !== 'object' || p.nodePort) continue;
      const old = byName.get(p.name ?? '');
      if (old && !used.has(old)) p.nodePort = old;
    }
  }
}

/** The member's service CIDR and node port range: kube-apiserver's defaults (--service-cluster-ip-range, --service-node-port-range). */
const SERVICE_CIDR = { base: ipv4ToNumber('10.96.0.0')!, bits: 12, text: '10.96.0.0/12' };
export const NODE_PORTS = { first: 30000, last: 32767 };

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** The bitmap allocator's range: the CIDR without its network and broadcast addresses. */
function inServiceRange(ip: string): boolean {
  const n = ipv4ToNumber(ip);
  if (n === undefined) return false;
  const size = 2 ** (32 - SERVICE_CIDR.bits);
  return n > SERVICE_CIDR.base && n < SERVICE_CIDR.base + size - 1;
}

/** What other Services hold: their cluster IPs and node ports (health-check ones included). */
export interface TakenAddresses {
  clusterIPs: ReadonlySet<string>;
  nodePorts: ReadonlySet<number>;
}

/**
 * The service registry's allocation of the addresses a create (or an update, for those the stored Service did not
 * hold) asks for by value: each cluster IP must be in the service CIDR and free, each node port in the node port
 * range and free (alloc.go: allocClusterIPs, initNodePorts/updateNodePorts). The first failure, as the registry stops
 * at it; the allocation runs before validation.
 */
export function allocationError(
  service: KubeObject,
  before: KubeObject | undefined,
  taken: TakenAddresses,
): { field: string; body: string } | undefined {
  const spec = service.spec ?? {};
  if (needsClusterIP(service)) {
    const held = new Set<string>(before?.spec?.clusterIPs ?? []);
    const ips: unknown[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
    for (const ip of ips) {
      if (typeof ip !== 'string' || ip === 'None' || ip === '' || held.has(ip)) continue;
      const shown = `[]string{${ips.map((i) => JSON.stringify(String(i))).join(', ')}}`;
      if (ipv4ToNumber(ip) !== undefined && !inServiceRange(ip))
        return {
          field: 'spec.clusterIPs',
          body: `Invalid value: ${shown}: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR.text}`,
        };
      if (taken.clusterIPs.has(ip))
        return {
          field: 'spec.clusterIPs',
          body: `Invalid value: ${shown}: failed to allocate IP ${ip}: provided IP is already allocated`,
        };
    }
  }
  const heldPorts = new Set<number>(
    (Array.isArray(before?.spec?.ports) ? before.spec.ports : []).map((p: Json) => p?.nodePort).filter(Boolean),
  );
  const ports: Json[] = Array.isArray(spec.ports) ? spec.ports : [];
  for (const [i, p] of ports.entries()) {
    const port = p?.nodePort;
    if (typeof port !== 'number' || port === 0 || heldPorts.has(port)) continue;
    const field = `spec.ports[${i}].nodePort`;
    if (port < NODE_PORTS.first || port > NODE_PORTS.last)
      return {
        field,
        body: `Invalid value: ${port}: provided port is not in the valid range. The range of valid ports is ${NODE_PORTS.first}-${NODE_PORTS.last}`,
      };
    if (taken.nodePorts.has(port)) return { field, body: `Invalid value: ${port}: provided port is already allocated` };
  }
  return undefined;
}

const externallyAccessible = (svc: KubeObject) =>
  svc.spec?.type === 'LoadBalancer' ||
  svc.spec?.type === 'NodePort' ||
  (svc.spec?.type === 'ClusterIP' && Array.isArray(svc.spec?.externalIPs) && svc.spec.externalIPs.length > 0);

/**
 * The Service strategy's dropTypeDependentFields (pkg/registry/core/service/strategy.go): an update to a type that
 * does not use a field, leaving that field as it was, clears it (node ports going NodePort → ClusterIP, the cluster
 * IPs going to ExternalName, ...), so a `kubectl patch` of the type alone is not refused for what the old type filled.
 */
export function dropTypeDependentFields(before: KubeObject, after: KubeObject): void {
  const oldSpec = before.spec ?? {};
  const spec = after.spec;
  if (!spec) return;
  const same = (a: unknown, b: unknown) => isDeepStrictEqual(a ?? null, b ?? null);
  if (needsClusterIP(before) && !needsClusterIP(after)) {
    if (same(oldSpec.clusterIP || null, spec.clusterIP || null) && same(oldSpec.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(oldSpec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (same(oldSpec.ipFamilyPolicy, spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const nodePorts = (svc: KubeObject): number[] =>
    (Array.isArray(svc.spec?.ports) ? svc.spec.ports : []).map((p: Json) => p?.nodePort).filter(Boolean);
  // Ports may be added, removed or changed as long as no node port is new.
  const noNewNodePorts = nodePorts(after).every((n) => nodePorts(before).includes(n));
  if (needsNodePorts(before) && !needsNodePorts(after) && noNewNodePorts)
    for (const p of Array.isArray(spec.ports) ? spec.ports : []) if (p && typeof p === 'object') delete p.nodePort;
  const needsHealthCheck = (svc: KubeObject) =>
    svc.spec?.type === 'LoadBalancer' && svc.spec?.externalTrafficPolicy === 'Local';
  if (
    needsHealthCheck(before) &&
    !needsHealthCheck(after) &&
    same(oldSpec.healthCheckNodePort, spec.healthCheckNodePort)
  )
    delete spec.healthCheckNodePort;
  const leavesLoadBalancer = oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer';
  if (
    leavesLoadBalancer &&
    typeof spec.allocateLoadBalancerNodePorts === 'boolean' &&
    spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts
  )
    delete spec.allocateLoadBalancerNodePorts;
  if (leavesLoadBalancer && same(oldSpec.loadBalancerClass, spec.loadBalancerClass)) delete spec.loadBalancerClass;
  if (
    externallyAccessible(before) &&
    !externallyAccessible(after) &&
    same(oldSpec.externalTrafficPolicy, spec.externalTrafficPolicy)
  )
    delete spec.externalTrafficPolicy;
}
