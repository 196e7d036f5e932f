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
  const result = applyJsonPatch(target, operations as JsonPatchOperation[]);
  if (!result.ok) throw new ApiError(422, 'Invalid', `jsonpatch: ${result.message}`);
  return result.document;
}
