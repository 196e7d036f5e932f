import { podSpecPathOf } from '../api/podSpecPaths.ts';

/** The pod spec of a built-in workload kind (api/podSpecPaths.ts), or undefined for any other kind or a missing one. */
export function podSpecOf(manifest: Record<string, unknown>): Record<string, unknown> | undefined {
  const path = podSpecPathOf(manifest.apiVersion, manifest.kind);
  if (!path) return undefined;
  let at: unknown = manifest;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[step];
  }
  return at as Record<string, unknown> | undefined;
}
