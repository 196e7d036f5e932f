import { badRequest } from '../ApiError.ts';
import {
  FieldSelectorError,
  matchesFieldRequirements,
  parseFieldSelector as parseSelector,
  type FieldRequirement,
} from '../../fieldSelectors/parseFieldSelector.ts';

export { matchesFieldRequirements, type FieldRequirement };

/** A `fieldSelector` parameter read as kube-apiserver reads it; one it cannot read is its 400. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  return asBadRequest(() => parseSelector(text));
}

/** The kernel's refusal of a selector, as the API server answers it. */
export function asBadRequest<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof FieldSelectorError) throw badRequest(err.message);
    throw err;
  }
}
