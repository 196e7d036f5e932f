// A container's env var value is a string in the Kubernetes API (core/v1 EnvVar.value). YAML makes `value: true`,
// `value: 8080` or `value: 1.0` a boolean or a number, which every member's API server refuses ("cannot unmarshal
// bool into Go struct field EnvVar...value of type string"), and Karmada's at creation: a located problem here.
import { nonStringEnvValues } from '../../api/podSpecPaths.ts';
import type { SchemaIssue } from './validateAgainstSchema.ts';

/** Issues for env values of the template's containers that are not strings; none for kinds without a pod spec. */
export function validateEnvValues(manifest: Record<string, unknown>): SchemaIssue[] {
  return nonStringEnvValues(manifest).map(({ path, container, name, value }) => {
    const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
    const env = typeof name === 'string' ? name : `#${Number(path[path.length - 2]) + 1}`;
    return {
      path,
      code: 'INVALID_VALUE',
      message: `env ${env} of container ${String((container as { name?: unknown }).name ?? path[path.length - 4])} has the ${Array.isArray(value) ? 'list' : typeof value} ${shown} as its value: Kubernetes takes only a string there, and every member's API server would refuse the object`,
      fix: typeof value === 'object' ? 'write the value as one string' : `quote it: value: "${shown}"`,
    };
  });
}
