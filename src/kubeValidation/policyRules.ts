import {
  type Json,
  type KubeViolation,
  goPointerText,
  intOrPercentViolations,
  invalid,
  isObject,
  isSet,
  labelSelectorViolations,
  notSupported,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a policy/v1 PodDisruptionBudget being created
// (pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec), in its field paths and words.

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

export function podDisruptionBudgetViolations(budget: Json): KubeViolation[] {
  const spec = isObject(budget?.spec) ? budget.spec : {};
  const errors: KubeViolation[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable))
    errors.push(invalid(['spec'], undefined, 'minAvailable and maxUnavailable cannot be both set', goSpecText(spec)));
  errors.push(...intOrPercentViolations(['spec', 'minAvailable'], spec.minAvailable));
  errors.push(...intOrPercentViolations(['spec', 'maxUnavailable'], spec.maxUnavailable));
  errors.push(...labelSelectorViolations(['spec', 'selector'], spec.selector));
  if (isSet(spec.unhealthyPodEvictionPolicy) && !EVICTION_POLICIES.includes(spec.unhealthyPodEvictionPolicy))
    errors.push(
      notSupported(['spec', 'unhealthyPodEvictionPolicy'], spec.unhealthyPodEvictionPolicy, EVICTION_POLICIES),
    );
  return errors;
}

/** The spec as the API server prints it in a message (Go's %#v of policy.PodDisruptionBudgetSpec). */
const goSpecText = (spec: Json): string =>
  `policy.PodDisruptionBudgetSpec{MinAvailable:${goPointerText('intstr.IntOrString', spec.minAvailable)}, Selector:${goPointerText('v1.LabelSelector', spec.selector)}, MaxUnavailable:${goPointerText('intstr.IntOrString', spec.maxUnavailable)}, UnhealthyPodEvictionPolicy:${goPointerText('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`;
