// A container's env var value is a string in the Kubernetes API (core/v1 EnvVar.value). YAML makes `value: true`,
// `value: 8080` or `value: 1.0` a boolean or a number, which every member's API server refuses ("cannot unmarshal
// bool into Go struct field EnvVar...value of type string"), and Karmada's at creation: a located problem here.
import { podSpecAt } from '../../api/podSpecPaths.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Issues for env values of the template's containers that are not strings; none for kinds without a pod spec. */
export function validateEnvValues(manifest: Record<string, unknown>): SchemaIssue[] {
  const found = podSpecAt(manifest);
  if (!found) return [];
  const { path, spec } = found;
  const issues: SchemaIssue[] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container, c) => {
      const env = (container as { env?: unknown } | null)?.env;
      if (!Array.isArray(env)) return;
      env.forEach((variable, e) => {
        const value = (variable as { value?: unknown } | null)?.value;
        if (value === undefined || value === null || typeof value === 'string') return;
        const name = (variable as { name?: unknown }).name;
        const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
        issues.push({
          path: [...path, list, c, 'env', e, 'value'],
          code: 'INVALID_VALUE',
          message: `env ${typeof name === 'string' ? name : `#${e + 1}`} of container ${String((container as { name?: unknown }).name ?? c)} has the ${Array.isArray(value) ? 'list' : typeof value} ${shown} as its value: Kubernetes takes only a string there, and every member's API server would refuse the object`,
          fix: typeof value === 'object' ? 'write the value as one string' : `quote it: value: "${shown}"`,
        });
      });
    });
  }
  return issues;
}
