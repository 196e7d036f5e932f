import { labelSelectorProblem } from '../../labels/matchLabelSelector.ts';
import type { LabelSelector } from '../../api/policy.ts';
import { formatPath } from './formatPath.ts';
import { isPlainObject } from './validateAgainstSchema.ts';

/** A label selector Karmada admits but Kubernetes cannot read: it matches nothing. */
export interface VoidLabelSelector {
  path: (string | number)[];
  message: string;
  fix: string;
}

/**
 * Every `labelSelector` of a Karmada object that metav1.LabelSelectorAsSelector refuses. Karmada's webhooks let them
 * through and its matchers take the error as no match, so the policy selects no template, or places on, targets or
 * weighs no cluster, with no word anywhere: a warning is the least a reader of the commit should get.
 */
export function findVoidLabelSelectors(value: unknown, path: (string | number)[] = []): VoidLabelSelector[] {
  const out: VoidLabelSelector[] = [];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) out.push(...findVoidLabelSelectors(item, [...path, i]));
    return out;
  }
  if (!isPlainObject(value)) return out;
  for (const [key, child] of Object.entries(value)) {
    // An override's values are the template's fields (a pod's topologySpreadConstraints have labelSelectors too):
    // the member's API server judges those, not Karmada's matchers.
    if (key === 'overriders') continue;
    const at = [...path, key];
    const problem =
      key === 'labelSelector' && isPlainObject(child) ? labelSelectorProblem(child as LabelSelector) : undefined;
    if (problem)
      out.push({
        path: [...at, ...problem.path],
        message: `${formatPath(at)} is not a label selector Kubernetes can read (${problem.reason}): Karmada matches nothing with it`,
        fix: 'In and NotIn need values, Exists and DoesNotExist take none, and keys and values must be valid label names',
      });
    else out.push(...findVoidLabelSelectors(child, at));
  }
  return out;
}
