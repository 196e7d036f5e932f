import { podSpecAt } from '../../api/podSpecPaths.ts';

/**
 * What kube-apiserver's JSON decoding says of a container env value that is not a string (core/v1 EnvVar.value is
 * one): the object cannot be decoded at all, a 400 before any validation. Undefined when every value is a string.
 */
export function envValueDecodeError(group: string, version: string, kind: string, object: unknown): string | undefined {
  const found = podSpecAt(object, group ? `${group}/${version}` : version, kind);
  if (!found) return undefined;
  const { path, spec } = found;
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = spec[list];
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
