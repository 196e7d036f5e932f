import type { LabelSelector } from '../api/policy.ts';

/**
 * Kubernetes label-selector semantics: matchLabels and matchExpressions are ANDed; an empty selector
 * matches everything. A nil selector is the caller's decision (Karmada treats it differently per field).
 */
export function matchLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
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
