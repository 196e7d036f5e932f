import {
  type Json,
  type KubeViolation,
  invalid,
  isObject,
  isSet,
  labelSelectorViolations,
  notSupported,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a policy/v1 PodDisruptionBudget being created
// (pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec), in its field paths and words.

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePositiveIntOrPercent, and IsNotMoreThan100Percent unless `capped` is false. */
export function intOrPercentViolations(path: (string | number)[], value: unknown, capped = true): KubeViolation[] {
  if (!isSet(value)) return [];
  if (typeof value === 'string') {
    if (!/^[0-9]+%$/.test(value))
      return [
        invalid(
          path,
          value,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ];
    return capped && Number.parseInt(value, 10) > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
  }
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

export function podDisruptionBudgetViolations(budget: Json): KubeViolation[] {
  const spec = isObject(budget?.spec) ? budget.spec : {};
  const errors: KubeViolation[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable))
    errors.push(invalid(['spec'], spec, 'minAvailable and maxUnavailable cannot be both set'));
  errors.push(...intOrPercentViolations(['spec', 'minAvailable'], spec.minAvailable));
  errors.push(...intOrPercentViolations(['spec', 'maxUnavailable'], spec.maxUnavailable));
  errors.push(...labelSelectorViolations(['spec', 'selector'], spec.selector));
  if (isSet(spec.unhealthyPodEvictionPolicy) && !EVICTION_POLICIES.includes(spec.unhealthyPodEvictionPolicy))
    errors.push(
      notSupported(['spec', 'unhealthyPodEvictionPolicy'], spec.unhealthyPodEvictionPolicy, EVICTION_POLICIES),
    );
  return errors;
}
