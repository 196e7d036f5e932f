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
