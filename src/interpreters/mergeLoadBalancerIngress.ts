type Ingress = Record<string, unknown> & { hostname?: string; ip?: string; ipMode?: string; ports?: PortStatus[] };
type PortStatus = { port?: number; protocol?: string; error?: string };

/**
 * The members' load-balancer ingresses as one list (helper.DedupeAndSortServiceLoadBalancerIngress and its Ingress
 * twin): one entry per hostname, IP and ipMode, with the union of their port statuses sorted by port, protocol and
 * error; entries with a hostname first, by hostname, then by IP, then ipMode (an absent one last).
 */
export function mergeLoadBalancerIngress(lists: readonly unknown[]): Ingress[] {
  const merged = new Map<string, { ingress: Ingress; ports: Map<string, PortStatus> }>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!raw || typeof raw !== 'object') continue;
      const ingress = raw as Ingress;
      const key = JSON.stringify([ingress.hostname ?? '', ingress.ip ?? '', ingress.ipMode ?? null]);
      let entry = merged.get(key);
      if (!entry) merged.set(key, (entry = { ingress, ports: new Map() }));
      // The last entry with this key gives the other fields, as Karmada's map assignment does.
      entry.ingress = ingress;
      for (const p of Array.isArray(ingress.ports) ? ingress.ports : [])
        entry.ports.set(JSON.stringify([p?.port ?? 0, p?.protocol ?? '', p?.error ?? null]), p);
    }
  }
  const out = [...merged.values()].map(({ ingress, ports }) => {
    const { ports: _old, ...rest } = ingress;
    const sorted = [...ports.values()].sort(comparePorts);
    return sorted.length > 0 ? { ...rest, ports: sorted } : rest;
  });
  return out.sort(compareIngress);
}

function compareIngress(a: Ingress, b: Ingress): number {
  const ha = a.hostname ?? '';
  const hb = b.hostname ?? '';
  if (ha !== hb) {
    if (hb === '') return -1;
    if (ha === '') return 1;
    return ha < hb ? -1 : 1;
  }
  const ia = a.ip ?? '';
  const ib = b.ip ?? '';
  if (ia !== ib) return ia < ib ? -1 : 1;
  if (a.ipMode === b.ipMode) return 0;
  if (b.ipMode === undefined) return -1;
  if (a.ipMode === undefined) return 1;
  return a.ipMode < b.ipMode ? -1 : 1;
}

function comparePorts(a: PortStatus, b: PortStatus): number {
  if ((a.port ?? 0) !== (b.port ?? 0)) return (a.port ?? 0) - (b.port ?? 0);
  if ((a.protocol ?? '') !== (b.protocol ?? '')) return (a.protocol ?? '') < (b.protocol ?? '') ? -1 : 1;
  if (a.error === b.error) return 0;
  if (a.error === undefined) return -1;
  if (b.error === undefined) return 1;
  return a.error < b.error ? -1 : 1;
}
