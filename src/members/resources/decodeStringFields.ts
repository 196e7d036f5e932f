import { bytesFieldDecodeError, invalidBase64Values } from '../../api/bytesFields.ts';
import { integerFieldDecodeError, nonIntegerValues } from '../../api/integerFields.ts';
import { nonScalarValues, scalarFieldDecodeError } from '../../api/scalarFields.ts';
import { nonStringValues, stringFieldDecodeError } from '../../api/stringFields.ts';

/**
 * What kube-apiserver's JSON decoding says of a string-typed field (a label, ConfigMap data, an env value) that is not
 * a string, of an integer field (replicas, a port) that is not an integer, of a boolean or numeric field of any
 * built-in type that holds something else, or of a bytes field (a Secret's data) that
 * is not base64: the object cannot be decoded at all, a 400 before any validation. Undefined when every one holds its type.
 */
export function stringFieldsDecodeError(
  group: string,
  version: string,
  kind: string,
  object: unknown,
): string | undefined {
  return (
    stringFieldDecodeError(kind, version, nonStringValues(object, group ? `${group}/${version}` : version, kind)) ??
    integerFieldDecodeError(kind, version, nonIntegerValues(object, group, kind)) ??
    scalarFieldDecodeError(kind, version, isObject(object) ? nonScalarValues(object) : []) ??
    bytesFieldDecodeError(kind, version, invalidBase64Values(object, group ? `${group}/${version}` : version, kind))
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
