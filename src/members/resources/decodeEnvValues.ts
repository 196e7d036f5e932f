import { podSpecPathOf } from '../../api/podSpecPaths.ts';

/**
 * What kube-apiserver's JSON decoding says of a container env value that is not a string (core/v1 EnvVar.value is
 * one): the object cannot be decoded at all, a 400 before any validation. Undefined when every value is a string.
 */
export function envValueDecodeError(group: string, version: string, kind: string, object: unknown): string | undefined {
  const apiVersion = group ? `${group}/${version}` : version;
  const path = podSpecPathOf(apiVersion, kind);
  if (!path) return undefined;
  let spec: unknown = object;
  for (const step of path) {
    if (spec === null || typeof spec !== 'object') return undefined;
    spec = (spec as Record<string, unknown>)[step];
  }
  if (spec === null || typeof spec !== 'object') return undefined;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = (spec as Record<string, unknown>)[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) {
      const env = (container as { env?: unknown } | null)?.env;
      if (!Array.isArray(env)) continue;
      for (const variable of env) {
        const value = (variable as { value?: unknown } | null)?.value;
        if (value === undefined || value === null || typeof value === 'string') continue;
        const goType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
        return `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${goType} into Go struct field EnvVar.${[...path, list, 'env', 'value'].join('.')} of type string`;
      }
    }
  }
  return undefined;
}
