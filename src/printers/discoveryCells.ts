import type { PrintedObject } from './printedObject.ts';

// The cells of `kubectl get endpointslices` as the API server prints them (printEndpointSlice,
// formatDiscoveryPorts, formatDiscoveryEndpoints): at most three ports or addresses, then "+ N more...", and
// <unset> for none. printColumns.ts assembles them into the column set.

function listWithMore(items: string[], max = 3): string {
  const shown = items.slice(0, max).join(',');
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

export const endpointSlicePorts = (o: PrintedObject): string =>
  listWithMore((o.ports ?? []).map((p: any) => (p?.port != null ? String(p.port) : (p?.name ?? '*'))));

export const endpointSliceEndpoints = (o: PrintedObject): string =>
  listWithMore((o.endpoints ?? []).flatMap((e: any) => e?.addresses ?? []));

/**
 * The ENDPOINTS cell of `kubectl get endpoints` (printEndpoints, formatEndpoints): the ready addresses as ip:port
 * per port (bare IPs for a headless subset without ports), at most three, then "+ N more...", <none> without subsets.
 */
export function endpointsAddresses(o: PrintedObject): string {
  const subsets: any[] = o.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const subset of subsets) {
    const addresses: any[] = subset?.addresses ?? [];
    const ports: any[] = subset?.ports ?? [];
    const hostPorts = ports.length === 0 ? [undefined] : ports.map((p) => p?.port);
    for (const port of hostPorts) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === 3) break;
        const ip = String(a?.ip ?? '');
        list.push(port === undefined ? ip : `${ip.includes(':') ? `[${ip}]` : ip}:${port}`);
      }
    }
  }
  const shown = list.join(',');
  return count > 3 ? `${shown} + ${count - 3} more...` : shown;
}
