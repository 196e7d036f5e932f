import type { ConfigModel } from '../api/model.ts';
import type { Problem } from '../errors/problem.ts';
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
    const selects = templates.some((t) => {
      // A PropagationPolicy only selects namespaced objects of its own namespace.
      if (namespaced && (t.ref.namespace === '' || t.ref.namespace !== policy.metadata.namespace)) return false;
      return (
        bestSelectorMatch(policy.spec.resourceSelectors, { ...t.ref, labels: t.labels }) !== ImplicitPriority.NotMatched
      );
    });
    if (selects) continue;
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
