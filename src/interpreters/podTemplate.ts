import { podSpecAt } from '../api/podSpecPaths.ts';

/** The pod spec of a built-in workload kind (api/podSpecPaths.ts), or undefined for any other kind or a missing one. */
export function podSpecOf(manifest: Record<string, unknown>): Record<string, unknown> | undefined {
  return podSpecAt(manifest)?.spec;
}
