import type { KubeObject } from '../types.ts';

// The cells of `kubectl get endpointslices` as the API server prints them (printEndpointSlice,
// formatDiscoveryPorts, formatDiscoveryEndpoints): at most three ports or addresses, then "+ N more...", and
// <unset> for none. printColumns.ts assembles them into the column set.

function listWithMore(items: string[], max = 3): string {
  const shown = items.slice(0, max).join(',');
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

export const endpointSlicePorts = (o: KubeObject): string =>
  listWithMore((o.ports ?? []).map((p: any) => (p?.port != null ? String(p.port) : (p?.name ?? '*'))));

export const endpointSliceEndpoints = (o: KubeObject): string =>
  listWithMore((o.endpoints ?? []).flatMap((e: any) => e?.addresses ?? []));
