import type { LabelSelector } from '../api/policy.ts';
import { labelValueProblems, qualifiedNameProblems } from './labelFormats.ts';

/**
 * Kubernetes label-selector semantics: matchLabels and matchExpressions are ANDed; an empty selector
 * matches everything, one LabelSelectorAsSelector refuses (labelSelectorProblem) nothing: Karmada's matchers
 * (util.ResourceMatches, util.ClusterMatches) take its error as no match. A nil selector is the caller's decision
 * (Karmada treats it differently per field).
 */
export function matchLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (!validSelector(selector)) return false;
  const have = labels ?? {};
  // A scheduler asks this for every cluster of the fleet for every workload: no entry arrays made on each call.
  const wanted = selector.matchLabels;
  if (wanted) for (const key in wanted) if (Object.hasOwn(wanted, key) && have[key] !== wanted[key]) return false;
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.hasOwn(have, req.key);
    const value = have[req.key];
    switch (req.operator) {
      case 'In':
        if (!present || !(req.values ?? []).includes(value as string)) return false;
        break;
      case 'NotIn':
        if (present && (req.values ?? []).includes(value as string)) return false;
        break;
      case 'Exists':
        if (!present) return false;
        break;
      case 'DoesNotExist':
        if (present) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** Selectors come from parsed policies and are asked about every cluster and template: checked once each. */
const validity = new WeakMap<LabelSelector, boolean>();
function validSelector(selector: LabelSelector): boolean {
  let valid = validity.get(selector);
  if (valid === undefined) validity.set(selector, (valid = labelSelectorProblem(selector) === undefined));
  return valid;
}

/**
 * Why metav1.LabelSelectorAsSelector refuses a selector (labels.NewRequirement's checks: the key a qualified name,
 * In and NotIn with values, Exists and DoesNotExist without, each value a label value), with the path of the part at
 * fault under the selector; undefined when it is valid.
 */
export function labelSelectorProblem(
  selector: LabelSelector,
): { path: (string | number)[]; reason: string } | undefined {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const problem = qualifiedNameProblems(key)[0] ?? labelValueProblems(String(value))[0];
    if (problem) return { path: ['matchLabels', key], reason: `${JSON.stringify(key)}: ${problem}` };
  }
  for (const [i, req] of (selector.matchExpressions ?? []).entries()) {
    const path = ['matchExpressions', i];
    const values = req.values ?? [];
    if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(req.operator))
      return { path, reason: `${JSON.stringify(req.operator)} is not a valid label selector operator` };
    const keyProblem = qualifiedNameProblems(req.key ?? '')[0];
    if (keyProblem) return { path, reason: `key ${JSON.stringify(req.key ?? '')}: ${keyProblem}` };
    if ((req.operator === 'In' || req.operator === 'NotIn') && values.length === 0)
      return { path, reason: `${req.operator} needs at least one value` };
    if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && values.length > 0)
      return { path, reason: `${req.operator} takes no values` };
    for (const value of values) {
      const problem = labelValueProblems(String(value))[0];
      if (problem) return { path, reason: `value ${JSON.stringify(value)}: ${problem}` };
    }
  }
  return undefined;
}
