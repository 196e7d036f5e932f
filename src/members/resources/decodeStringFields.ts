import { bytesFieldDecodeError, invalidBase64Values } from '../../api/bytesFields.ts';
import { integerFieldDecodeError, nonIntegerValues } from '../../api/integerFields.ts';
import { nonStringValues, stringFieldDecodeError } from '../../api/stringFields.ts';

/**
 * What kube-apiserver's JSON decoding says of a string-typed field (a label, ConfigMap data, an env value) that is not
 * a string, of an integer field (replicas, a port) that is not an integer, or of a bytes field (a Secret's data) that
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
    bytesFieldDecodeError(kind, version, invalidBase64Values(object, group ? `${group}/${version}` : version, kind))
  );
}
