import { nonStringEnvValues } from '../../api/podSpecPaths.ts';

/**
 * What kube-apiserver's JSON decoding says of a container env value that is not a string (core/v1 EnvVar.value is
 * one): the object cannot be decoded at all, a 400 before any validation. Undefined when every value is a string.
 */
export function envValueDecodeError(group: string, version: string, kind: string, object: unknown): string | undefined {
  const [first] = nonStringEnvValues(object, group ? `${group}/${version}` : version, kind);
  if (!first) return undefined;
  const { path, value } = first;
  const goType = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  // Go names the field by its path without list indexes.
  const field = path.filter((step) => typeof step === 'string').join('.');
  return `${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${goType} into Go struct field EnvVar.${field} of type string`;
}
