import { badRequest } from '../ApiError.ts';
import {
  LabelSelectorSyntaxError,
  matchesLabelRequirements,
  parseLabelSelector as parseSelector,
  type LabelRequirement,
} from '../../labels/parseLabelSelector.ts';

export { matchesLabelRequirements, type LabelRequirement };

/** The `labelSelector` query parameter: a selector kubectl's grammar does not read is the API server's 400. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  try {
    return parseSelector(text);
  } catch (err) {
    if (err instanceof LabelSelectorSyntaxError) throw badRequest(err.message);
    throw err;
  }
}
