// The EXTERNAL-IP of a Service and the ADDRESS of an Ingress as kube-apiserver's printers write them
// (k8s.io/kubernetes/pkg/printers/internalversion/printers.go). Shared by `flotilla get` and the member emulator's
// Tables so the two cannot drift apart.

const LOAD_BALANCER_WIDTH = 16;

type Ingress = { ip?: unknown; hostname?: unknown };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * loadBalancerStatusStringer: each ingress point's IP, else its hostname, once each and sorted; clipped to 16
 * characters unless wide. The API server always generates its Tables wide, so it never clips.
 */
export function loadBalancerAddresses(ingress: unknown, wide: boolean): string {
  const points = (Array.isArray(ingress) ? (ingress as Ingress[]) : [])
    .map((i) => (typeof i?.ip === 'string' && i.ip) || (typeof i?.hostname === 'string' && i.hostname) || '')
    .filter(Boolean);
  const text = [...new Set(points)].sort().join(',');
  return !wide && text.length > LOAD_BALANCER_WIDTH ? `${text.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : text;
}

/** getServiceExternalIP: where each Service type is reached from outside the cluster. */
export function serviceExternalIp(spec: unknown, loadBalancerIngress: unknown, wide: boolean): string {
  const s = (spec && typeof spec === 'object' ? spec : {}) as Record<string, unknown>;
  const externalIPs = strings(s.externalIPs);
  switch (typeof s.type === 'string' ? s.type : 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const balancer = loadBalancerAddresses(loadBalancerIngress, wide);
      if (externalIPs.length > 0) return [...(balancer ? balancer.split(',') : []), ...externalIPs].join(',');
      return balancer || '<pending>';
    }
    case 'ExternalName':
      return typeof s.externalName === 'string' ? s.externalName : '';
    default:
      return '<unknown>';
  }
}
