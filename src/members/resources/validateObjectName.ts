// metadata.name as kube-apiserver validates it, by kind: a Namespace is a DNS-1123 label (ValidateNamespaceName), a
// Service a DNS-1035 label (ValidateServiceName), the four RBAC kinds a path segment (ValidateRBACName, which lets
// `system:controller:x` through), everything else a DNS-1123 subdomain.

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** Why kube-apiserver refuses this name for an object of `group`/`kind`, in its words; undefined when it takes it. */
export function nameInvalidReason(group: string, kind: string, name: string): string | undefined {
  if (group === 'rbac.authorization.k8s.io' && RBAC_KINDS.has(kind)) {
    if (name === '.' || name === '..') return `may not be '${name}'`;
    for (const ch of ['/', '%']) if (name.includes(ch)) return `may not contain '${ch}'`;
    return undefined;
  }
  if (group === '' && kind === 'Namespace') {
    if (name.length > 63) return 'must be no more than 63 characters';
    if (!LABEL.test(name))
      return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
    return undefined;
  }
  if (group === '' && kind === 'Service') {
    if (name.length > 63) return 'must be no more than 63 characters';
    if (!DNS1035.test(name))
      return "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    return undefined;
  }
  if (name.length > 253) return 'must be no more than 253 characters';
  if (!SUBDOMAIN.test(name))
    return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  return undefined;
}
