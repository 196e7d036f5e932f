import { applyJsonPatch, type JsonPatchOperation } from '../../patches/jsonPatch.ts';
import { ApiError } from '../ApiError.ts';

const OPERATIONS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** A JSON patch request body (RFC 6902) applied to a copy of `target`, with kube-apiserver's status codes. */
export function jsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new ApiError(400, 'BadRequest', 'json patch must be an array of operations');
  for (const op of operations as { op?: unknown }[]) {
    if (!OPERATIONS.has(String(op?.op)))
      throw new ApiError(400, 'BadRequest', `unknown json patch operation "${String(op?.op)}"`);
  }
  // An operation that does not apply (a failed test, a missing path or key) is kube-apiserver's generic 422: its
  // patch handler passes the library's error to NewGenericServerResponse, which keeps only its own words.
  let result: ReturnType<typeof applyJsonPatch> | undefined;
  try {
    result = applyJsonPatch(target, operations as JsonPatchOperation[]);
  } catch {
    result = undefined;
  }
  if (!result?.ok) throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request');
  return result.document;
}
