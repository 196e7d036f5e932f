import { applyJsonPatch, type JsonPatchOperation } from '../../patches/jsonPatch.ts';
import { ApiError, badRequest } from '../ApiError.ts';
import { isPlainObject } from './plainObject.ts';

/**
 * A JSON patch request body (RFC 6902) applied to a copy of `target`, with kube-apiserver's status codes
 * (endpoints/handlers/patch.go applyJSPatch). `fieldValidation` is the request's, '' when it names none.
 */
export function jsonPatch(target: unknown, operations: unknown, fieldValidation = ''): unknown {
  const decodeError = jsonPatchDecodeError(operations, fieldValidation === 'Ignore');
  if (decodeError) throw badRequest(decodeError);
  // Go decodes a null patch as no operations at all.
  if (operations === null) return structuredClone(target);
  // An operation that does not apply (an unknown op, a failed test, a missing path or key) is kube-apiserver's generic
  // 422: its patch handler passes the library's error to NewGenericServerResponse, which keeps only its own words.
  let result: ReturnType<typeof applyJsonPatch> | undefined;
  try {
    result = applyJsonPatch(target, operations as JsonPatchOperation[]);
  } catch {
    result = undefined;
  }
  if (!result?.ok) throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request');
  return result.document;
}

/**
 * What Go's encoding/json says of a body that is not a list of operations, first error in document order. Under
 * fieldValidation Strict or Warn (the default) the handler decodes into its own []jsonPatchOp, whose op, path and
 * from are strings; under Ignore only jsonpatch.DecodePatch reads it, into a list of maps.
 */
export function jsonPatchDecodeError(operations: unknown, ignoreFieldValidation: boolean): string | undefined {
  const cannot = (value: unknown, into: string) => `json: cannot unmarshal ${goJsonKind(value)} into ${into}`;
  if (operations === null) return undefined;
  // An empty body (readBody's undefined) is where Go's decoder runs out of input.
  if (operations === undefined)
    return ignoreFieldValidation
      ? 'unexpected end of JSON input'
      : 'error decoding patch: unexpected end of JSON input';
  if (!Array.isArray(operations))
    return ignoreFieldValidation
      ? cannot(operations, 'Go value of type jsonpatch.Patch')
      : `error decoding patch: ${cannot(operations, 'Go value of type []handlers.jsonPatchOp')}`;
  for (const operation of operations) {
    if (operation === null) continue;
    if (!isPlainObject(operation))
      return ignoreFieldValidation
        ? cannot(operation, 'Go value of type jsonpatch.Operation')
        : `error decoding patch: ${cannot(operation, 'Go value of type handlers.jsonPatchOp')}`;
    if (ignoreFieldValidation) continue;
    for (const [field, value] of Object.entries(operation)) {
      if ((field === 'op' || field === 'path' || field === 'from') && value !== null && typeof value !== 'string')
        return `error decoding patch: ${cannot(value, `Go struct field jsonPatchOp.${field} of type string`)}`;
    }
  }
  return undefined;
}

const OPERATION_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * The fields of a JSON patch that the handler's []jsonPatchOp does not declare under fieldValidation Strict or Warn,
 * matched case-sensitively, each as [index, field] as sigs.k8s.io/json names it.
 */
export function jsonPatchUnknownFields(operations: unknown): { path: (string | number)[] }[] {
  if (!Array.isArray(operations)) return [];
  return operations.flatMap((operation, i) =>
    isPlainObject(operation)
      ? Object.keys(operation)
          .filter((field) => !OPERATION_FIELDS.has(field))
          .map((field) => ({ path: [i, field] }))
      : [],
  );
}

/** The JSON kind Go's UnmarshalTypeError names. */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}
