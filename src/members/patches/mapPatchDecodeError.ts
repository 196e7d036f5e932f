import { goJsonKind } from './jsonPatch.ts';
import { isPlainObject } from './plainObject.ts';

/**
 * What kube-apiserver answers a merge or strategic merge patch body that is not a JSON object (endpoints/handlers
 * patch.go): both decode it into a map[string]interface{} first, the merge patch under fieldValidation Strict or
 * Warn only and with an "error decoding patch" prefix; a null merge patch is evanphx/json-patch's ErrBadJSONPatch,
 * a null strategic one patches nothing. Undefined when the body decodes.
 */
export function mapPatchDecodeError(
  kind: 'merge' | 'strategic',
  body: unknown,
  ignoreFieldValidation: boolean,
): string | undefined {
  if (isPlainObject(body)) return undefined;
  if (body === null) return kind === 'merge' ? 'Invalid JSON Patch' : undefined;
  const decoded = kind === 'strategic' || !ignoreFieldValidation;
  // readBody gives undefined for an empty body, where Go's decoder runs out of input.
  const error =
    body === undefined
      ? 'unexpected end of JSON input'
      : `json: cannot unmarshal ${goJsonKind(body)} into Go value of type map[string]interface {}`;
  if (!decoded) return body === undefined ? 'Invalid JSON Patch' : undefined;
  return kind === 'merge' ? `error decoding patch: ${error}` : error;
}
