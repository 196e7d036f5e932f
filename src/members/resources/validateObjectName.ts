import { dns1035LabelProblems, dns1123LabelProblems, dns1123SubdomainProblems } from './fieldErrors.ts';

// metadata.name as kube-apiserver validates it, by kind: a Namespace is a DNS-1123 label (ValidateNamespaceName), a
// Service a DNS-1035 label (ValidateServiceName), the four RBAC kinds a path segment (ValidateRBACName, which lets
// `system:controller:x` through), everything else a DNS-1123 subdomain.

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
  if (group === '' && kind === 'Service') return dns1035LabelProblems(name);
  return dns1123SubdomainProblems(name);
}
