import {
  type Json,
  type KubeViolation,
  dns1123SubdomainProblems,
  invalid,
  list,
  notSupported,
  required,
} from './fieldViolations.ts';

// What kube-apiserver 1.32 refuses in a Role, ClusterRole, RoleBinding or ClusterRoleBinding being created
// (pkg/apis/rbac/validation: ValidatePolicyRule, ValidateRoleBindingSubject, ValidateRoleBinding), in its field
// paths and words, on the object as defaulted (roleRef.apiGroup, each subject's apiGroup).

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** A Role's (namespaced) or ClusterRole's rules. */
export function roleViolations(role: Json, namespaced: boolean): KubeViolation[] {
  return list(role?.rules).flatMap((rule, i) => policyRuleViolations(rule, namespaced, ['rules', i]));
}

function policyRuleViolations(rule: Json, namespaced: boolean, at: (string | number)[]): KubeViolation[] {
  const errors: KubeViolation[] = [];
  if (list(rule?.verbs).length === 0) errors.push(required([...at, 'verbs'], 'verbs must contain at least one value'));
  const urls = list(rule?.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced)
      errors.push(invalid([...at, 'nonResourceURLs'], urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length || list(rule.resources).length || list(rule.resourceNames).length)
      errors.push(
        invalid([...at, 'nonResourceURLs'], urls, 'rules cannot apply to both regular resources and non-resource URLs'),
      );
    return errors;
  }
  if (list(rule?.apiGroups).length === 0)
    errors.push(required([...at, 'apiGroups'], 'resource rules must supply at least one api group'));
  if (list(rule?.resources).length === 0)
    errors.push(required([...at, 'resources'], 'resource rules must supply at least one resource'));
  return errors;
}

/** A RoleBinding's (namespaced) or ClusterRoleBinding's roleRef and subjects. */
export function bindingViolations(binding: Json, namespaced: boolean): KubeViolation[] {
  const errors: KubeViolation[] = [];
  const ref = binding?.roleRef ?? {};
  if (ref.apiGroup !== RBAC_GROUP) errors.push(notSupported(['roleRef', 'apiGroup'], ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['ClusterRole', 'Role'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errors.push(notSupported(['roleRef', 'kind'], ref.kind ?? '', kinds));
  if (!ref.name) errors.push(required(['roleRef', 'name']));
  list(binding?.subjects).forEach((subject, i) => {
    const at = ['subjects', i];
    if (!subject?.name) errors.push(required([...at, 'name']));
    switch (subject?.kind) {
      case 'ServiceAccount':
        if (subject.name)
          for (const p of dns1123SubdomainProblems(subject.name))
            errors.push(invalid([...at, 'name'], subject.name, p));
        if (subject.apiGroup) errors.push(notSupported([...at, 'apiGroup'], subject.apiGroup, ['']));
        if (!namespaced && !subject.namespace) errors.push(required([...at, 'namespace']));
        break;
      case 'User':
      case 'Group':
        if (subject.apiGroup !== RBAC_GROUP)
          errors.push(notSupported([...at, 'apiGroup'], subject.apiGroup ?? '', [RBAC_GROUP]));
        break;
      default:
        errors.push(notSupported([...at, 'kind'], subject?.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
  return errors;
}
