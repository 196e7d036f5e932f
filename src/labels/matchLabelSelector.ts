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
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (have[key] !== value) return false;
  }
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
