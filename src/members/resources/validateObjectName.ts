import { dns1123LabelProblems, dns1123SubdomainProblems } from './fieldErrors.ts';

// metadata.name as kube-apiserver validates it, by kind: a Namespace is a DNS-1123 label (ValidateNamespaceName), a
// Service a DNS-1035 label (ValidateServiceName), the four RBAC kinds a path segment (ValidateRBACName, which lets
// `system:controller:x` through), everything else a DNS-1123 subdomain.

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/**
 * Why kube-apiserver refuses this name for an object of `group`/`kind`, in its words (apimachinery's Is* messages,
 * each with its example and regex, one error each); empty when it takes it.
 */
export function nameInvalidReasons(group: string, kind: string, name: string): string[] {
  if (group === 'rbac.authorization.k8s.io' && RBAC_KINDS.has(kind)) {
    if (name === '.' || name === '..') return [`may not be '${name}'`];
    for (const ch of ['/', '%']) if (name.includes(ch)) return [`may not contain '${ch}'`];
    return [];
  }
  if (group === '' && kind === 'Namespace') return dns1123LabelProblems(name);
  if (group === '' && kind === 'Service') {
    const problems: string[] = [];
    if (name.length > 63) problems.push('must be no more than 63 characters');
    if (!DNS1035.test(name))
      problems.push(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      );
    return problems;
  }
  return dns1123SubdomainProblems(name);
}
