import type { ConfigModel } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
import type { ObjectRef } from '../api/kinds.ts';
import type { PropagationPolicy } from '../api/policy.ts';
import { bestSelectorMatch, ImplicitPriority } from '../selectors/matchResourceSelector.ts';
import { describePolicy, skipReason } from './matchPolicy.ts';

/**
 * PropagationPolicies and ClusterPropagationPolicies whose resourceSelectors match no template of the commit:
 * usually a misspelt name, kind or label, which would otherwise go unnoticed until nothing runs. A warning, not an
 * error (a policy may be pushed before its templates). Needs the whole commit: an incremental render sees a part.
 */
export function findIdlePolicies(model: ConfigModel): Problem[] {
  const templates = [...model.templates.values()].filter((t) => !skipReason(t));
  const problems: Problem[] = [];
  for (const { object: policy, source } of model.propagationPolicies) {
    const namespaced = policy.kind === 'PropagationPolicy';
    if (templates.some((t) => policySelects(policy, { ...t.ref, labels: t.labels }))) continue;
    problems.push({
      ...source,
      code: 'POLICY_SELECTS_NOTHING',
      severity: 'warning',
      message: `${describePolicy(policy)} selects no resource template in this commit${namespaced ? ` (it only sees namespace ${policy.metadata.namespace})` : ''}`,
      fix: 'check the apiVersion, kind, name, namespace and labelSelector of spec.resourceSelectors, or add the templates it is meant for',
    });
  }
  return problems;
}

/** Whether the policy's resourceSelectors match the object (a PropagationPolicy sees only its own namespace). */
export function policySelects(
  policy: PropagationPolicy,
  object: ObjectRef & { labels?: Record<string, string> },
): boolean {
  if (
    policy.kind === 'PropagationPolicy' &&
    (object.namespace === '' || object.namespace !== policy.metadata.namespace)
  )
    return false;
  return bestSelectorMatch(policy.spec.resourceSelectors, object) !== ImplicitPriority.NotMatched;
}
