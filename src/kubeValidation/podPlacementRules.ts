import { labelValueDetails } from '../labels/objectMetaRules.ts';
import {
  dns1123LabelProblems,
  dns1123SubdomainProblems,
  duplicate,
  fieldOf,
  forbidden,
  invalid,
  isObject,
  isSet,
  type KubeViolation,
  labelSelectorViolations,
  list,
  notSupported,
  qualifiedNameViolations,
  required,
  type Json,
} from './fieldViolations.ts';

// Where a pod may run, as kube-apiserver 1.32 validates it in a pod spec (pkg/apis/core/validation: validateAffinity,
// ValidateTolerations, validateTopologySpreadConstraints), in its field paths and words. Where the API server names a
// field other than the one at fault (a toleration's value reported at its operator), the violation is located at the
// field at fault and keeps the API server's name.

type Path = (string | number)[];

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** ValidateTolerations: an empty operator is Equal, an empty effect matches every effect. */
export function tolerationViolations(tolerations: Json[], at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  tolerations.forEach((toleration, i) => {
    const where = [...at, i];
    const key = String(toleration?.key ?? '');
    const operator = String(toleration?.operator ?? '');
    const value = String(toleration?.value ?? '');
    const effect = String(toleration?.effect ?? '');
    if (key) errors.push(...qualifiedNameViolations([...where, 'key'], key));
    if (!key && operator !== 'Exists')
      errors.push(
        invalid(
          [...where, 'operator'],
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (isSet(toleration?.tolerationSeconds) && effect !== 'NoExecute')
      errors.push(invalid([...where, 'effect'], effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    // The value's problems are reported at the operator, the field that decides whether a value may be given.
    const atValue = { path: [...where, 'value'], field: fieldOf([...where, 'operator']) };
    if (operator === '' || operator === 'Equal') {
      const problems = labelValueDetails(value);
      if (problems.length > 0) errors.push(invalid(atValue, value, problems.join(';')));
    } else if (operator === 'Exists') {
      if (value) errors.push(invalid(atValue, value, "value must be empty when `operator` is 'Exists'"));
    } else errors.push(notSupported([...where, 'operator'], operator, ['Equal', 'Exists']));
    if (effect && !TAINT_EFFECTS.includes(effect))
      errors.push(notSupported([...where, 'effect'], effect, TAINT_EFFECTS));
  });
  return errors;
}

/** validateAffinity: node affinity, then pod affinity, then pod anti-affinity. */
export function affinityViolations(affinity: Json, at: Path): KubeViolation[] {
  if (!isObject(affinity)) return [];
  const errors: KubeViolation[] = [];
  const node = affinity.nodeAffinity;
  if (isObject(node)) {
    const where = [...at, 'nodeAffinity'];
    const requiredTerms = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (isSet(requiredTerms)) {
      const termsAt = [...where, 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'];
      const terms = list(requiredTerms.nodeSelectorTerms);
      if (terms.length === 0) errors.push(required(termsAt, 'must have at least one node selector term'));
      terms.forEach((term, i) => errors.push(...nodeSelectorTermViolations(term, [...termsAt, i])));
    }
    list(node.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      const termAt = [...where, 'preferredDuringSchedulingIgnoredDuringExecution', i];
      errors.push(...weightViolations(term?.weight, [...termAt, 'weight']));
      errors.push(...nodeSelectorTermViolations(term?.preference, [...termAt, 'preference']));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const terms = affinity[kind];
    if (!isObject(terms)) continue;
    const where = [...at, kind];
    list(terms.requiredDuringSchedulingIgnoredDuringExecution).forEach((term, i) =>
      errors.push(...podAffinityTermViolations(term, [...where, 'requiredDuringSchedulingIgnoredDuringExecution', i])),
    );
    list(terms.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      const termAt = [...where, 'preferredDuringSchedulingIgnoredDuringExecution', i];
      errors.push(...weightViolations(term?.weight, [...termAt, 'weight']));
      errors.push(...podAffinityTermViolations(term?.podAffinityTerm, [...termAt, 'podAffinityTerm']));
    });
  }
  return errors;
}

function weightViolations(weight: unknown, at: Path): KubeViolation[] {
  const value = typeof weight === 'number' ? weight : 0;
  return value > 0 && value <= 100 ? [] : [invalid(at, value, 'must be in the range 1-100')];
}

/**
 * ValidateNodeSelectorTerm. A requirement's values are not held to the label value format: Kubernetes 1.32 checks only
 * their count (that check came with 1.33's AllowInvalidLabelValueInRequiredNodeAffinity).
 */
function nodeSelectorTermViolations(term: Json, at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  list(term?.matchExpressions).forEach((requirement, j) => {
    const where = [...at, 'matchExpressions', j];
    const values = list(requirement?.values);
    switch (requirement?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(required([...where, 'values'], "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(
            forbidden([...where, 'values'], "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
          );
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1)
          errors.push(required([...where, 'values'], "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        break;
      default:
        errors.push(invalid([...where, 'operator'], requirement?.operator ?? '', 'not a valid selector operator'));
    }
    errors.push(...qualifiedNameViolations([...where, 'key'], String(requirement?.key ?? '')));
  });
  list(term?.matchFields).forEach((requirement, j) => {
    const where = [...at, 'matchFields', j];
    const values = list(requirement?.values);
    const operator = requirement?.operator;
    if (operator !== 'In' && operator !== 'NotIn')
      errors.push(invalid([...where, 'operator'], operator ?? '', 'not a valid selector operator'));
    else if (values.length !== 1)
      errors.push(
        required(
          [...where, 'values'],
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
    // metadata.name is the one field a node is selected by.
    if (requirement?.key !== 'metadata.name')
      errors.push(invalid([...where, 'key'], requirement?.key ?? '', 'not a valid field selector key'));
    else
      values.forEach((value, k) => {
        for (const p of dns1123SubdomainProblems(String(value)))
          errors.push(invalid([...where, 'values', k], String(value), p));
      });
  });
  return errors;
}

/**
 * validatePodAffinityTerm. A namespace's problem is reported at `namespace` (singular), as the API server names it.
 * matchLabelKeys are checked against the term's own selector: for a Pod the API server first adds to that selector a
 * requirement per key the pod's labels have, which can only add reports.
 */
function podAffinityTermViolations(term: Json, at: Path): KubeViolation[] {
  const errors = [
    ...labelSelectorViolations([...at, 'labelSelector'], term?.labelSelector),
    ...labelSelectorViolations([...at, 'namespaceSelector'], term?.namespaceSelector),
  ];
  list(term?.namespaces).forEach((namespace, i) => {
    for (const p of dns1123LabelProblems(String(namespace)))
      errors.push(invalid({ path: [...at, 'namespaces', i], field: fieldOf([...at, 'namespace']) }, namespace, p));
  });
  const selector = term?.labelSelector;
  const matchLabelKeys = list(term?.matchLabelKeys).map(String);
  const mismatchLabelKeys = list(term?.mismatchLabelKeys).map(String);
  for (const [field, keys] of [
    ['matchLabelKeys', matchLabelKeys],
    ['mismatchLabelKeys', mismatchLabelKeys],
  ] as const) {
    if (keys.length === 0) continue;
    if (!isSet(selector)) errors.push(forbidden([...at, field], 'must not be specified when labelSelector is not set'));
    else keys.forEach((key, i) => errors.push(...qualifiedNameViolations([...at, field, i], key)));
  }
  if (isSet(selector)) {
    // A key is refused when the selector's expressions repeat one it already has (the API server's own expression
    // from matchLabelKeys would be that repeat); the report names the term's index, not matchLabelKeys'.
    const keyIndex = new Map(matchLabelKeys.map((key, i) => [key, i]));
    const selectorKeys = new Set(Object.keys(isObject(selector.matchLabels) ? selector.matchLabels : {}));
    for (const requirement of list(selector.matchExpressions)) {
      const key = String(requirement?.key ?? '');
      const i = keyIndex.get(key);
      if (i !== undefined && selectorKeys.has(key))
        errors.push(
          invalid(
            { path: [...at, 'matchLabelKeys', i], field: fieldOf([...at, i]) },
            key,
            'exists in both matchLabelKeys and labelSelector',
          ),
        );
      selectorKeys.add(key);
    }
  }
  const mismatched = new Set(mismatchLabelKeys);
  matchLabelKeys.forEach((key, i) => {
    if (mismatched.has(key))
      errors.push(invalid([...at, 'matchLabelKeys', i], key, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  const topologyKey = String(term?.topologyKey ?? '');
  if (!topologyKey) errors.push(required([...at, 'topologyKey'], 'can not be empty'));
  errors.push(...qualifiedNameViolations([...at, 'topologyKey'], topologyKey));
  return errors;
}

/**
 * validateTopologySpreadConstraints. Two constraints of one topologyKey and whenUnsatisfiable are reported at the
 * first of them. Kubernetes 1.32 does not merge matchLabelKeys into the selector before checking them.
 */
export function topologySpreadViolations(constraints: Json[], at: Path): KubeViolation[] {
  const errors: KubeViolation[] = [];
  constraints.forEach((c, i) => {
    const where = [...at, i];
    const maxSkew = c?.maxSkew ?? 0;
    if (!(maxSkew > 0)) errors.push(invalid([...where, 'maxSkew'], maxSkew, 'must be greater than zero'));
    if (!c?.topologyKey) errors.push(required([...where, 'topologyKey'], 'can not be empty'));
    const when = c?.whenUnsatisfiable ?? '';
    if (!WHEN_UNSATISFIABLE.includes(when))
      errors.push(notSupported([...where, 'whenUnsatisfiable'], when, WHEN_UNSATISFIABLE));
    const repeated = constraints
      .slice(i + 1)
      .some(
        (other) => (other?.topologyKey ?? '') === (c?.topologyKey ?? '') && (other?.whenUnsatisfiable ?? '') === when,
      );
    if (repeated)
      errors.push(duplicate([...where, '{topologyKey, whenUnsatisfiable}'], `{${c?.topologyKey ?? ''}, ${when}}`));
    if (isSet(c?.minDomains)) {
      if (!(c.minDomains > 0))
        errors.push(invalid([...where, 'minDomains'], c.minDomains, 'must be greater than zero'));
      if (when !== 'DoNotSchedule')
        errors.push(
          invalid(
            [...where, 'minDomains'],
            c.minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`,
          ),
        );
    }
    for (const policy of ['nodeAffinityPolicy', 'nodeTaintsPolicy'])
      if (isSet(c?.[policy]) && !NODE_INCLUSION_POLICIES.includes(c[policy]))
        errors.push(notSupported([...where, policy], c[policy], NODE_INCLUSION_POLICIES));
    const keys = list(c?.matchLabelKeys).map(String);
    if (keys.length > 0) {
      const selector = c?.labelSelector;
      if (!isSet(selector))
        errors.push(forbidden([...where, 'matchLabelKeys'], 'must not be specified when labelSelector is not set'));
      const selected = new Set([
        ...Object.keys(isObject(selector?.matchLabels) ? selector.matchLabels : {}),
        ...list(selector?.matchExpressions).map((e) => String(e?.key ?? '')),
      ]);
      keys.forEach((key, k) => {
        errors.push(...qualifiedNameViolations([...where, 'matchLabelKeys', k], key));
        if (selected.has(key))
          errors.push(invalid([...where, 'matchLabelKeys', k], key, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errors.push(...labelSelectorViolations([...where, 'labelSelector'], c?.labelSelector));
  });
  return errors;
}
