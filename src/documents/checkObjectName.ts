// Every part of an object's identity (apiVersion, kind, namespace, name) becomes part of an output path, a binding
// name and a refKey, so each is checked against what Kubernetes itself accepts before anything is built from it.
// The rules are the API server's (k8s.io/apimachinery/pkg/util/validation, apiextensions validation of CRD names,
// the per-kind name validators of pkg/apis/*/validation); a value Kubernetes would refuse can never be applied,
// and refusing it here keeps `..`, `/`, NUL and case tricks out of every path.
import { DNS1123_SUBDOMAIN } from '../labels/labelFormats.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** What Flotilla accepts of an RBAC name (Kubernetes only refuses '/', '%', '.' and '..'): `system:controller:x` and the like. */
const RBAC_NAME = /^[A-Za-z0-9:_.@-]+$/;
/** What Flotilla accepted as any name before names were checked per kind: such a name may have rendered output. */
const LEGACY_SAFE = /^[a-z0-9A-Z:_.-]+$/;

export interface IdentityProblem {
  /** Where in the document: ['kind'], ['apiVersion'], ['metadata', 'name'], ['metadata', 'namespace']. */
  path: string[];
  field: string;
  message: string;
  fix: string;
  /**
   * Kubernetes refuses the value but it cannot leave a folder either (e.g. upper case in a ConfigMap name): output an
   * older Flotilla rendered under it may exist, and is held rather than pruned.
   */
  pathSafe?: true;
}

/** How Kubernetes validates metadata.name of one kind. */
export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'rbac';

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/**
 * The name rule of a kind: Namespace is a DNS-1123 label (ValidateNamespaceName), Service a DNS-1035 label
 * (ValidateServiceName), the four RBAC kinds a path segment (ValidateRBACName), everything else, custom resources
 * included, a DNS-1123 subdomain (NameIsDNSSubdomain).
 */
export function nameRuleOf(apiVersion: string, kind: string): NameRule {
  if (kind === 'Namespace' && apiVersion === 'v1') return 'label';
  if (kind === 'Service' && apiVersion === 'v1') return 'dns1035';
  if (RBAC_KINDS.has(kind) && apiVersion.startsWith('rbac.authorization.k8s.io/')) return 'rbac';
  return 'subdomain';
}

/**
 * All problems with one object's identity; empty when Kubernetes would accept it and every path built from it is
 * safe. `namespace` undefined: not set.
 */
export function checkObjectIdentity(ref: {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string | undefined;
}): IdentityProblem[] {
  return [
    ...checkApiVersion(ref.apiVersion),
    ...checkKind(ref.kind),
    ...checkObjectName(ref.name, 'metadata.name', false, nameRuleOf(ref.apiVersion, ref.kind)),
    ...(ref.namespace !== undefined ? checkObjectName(ref.namespace, 'metadata.namespace', true) : []),
  ];
}

/**
 * A kind as a CustomResourceDefinition may declare it: lowercased, a DNS-1035 label (letters, digits and '-',
 * starting with a letter, at most 63), mixed case allowed. Every built-in kind is a Go type name, which fits.
 */
export function checkKind(kind: string): IdentityProblem[] {
  if (kind.length <= 63 && DNS1035_LABEL.test(kind.toLowerCase())) return [];
  // `Deployment.apps` is how kubectl names a resource type, not a kind: the group goes into apiVersion.
  const dotted = /^([A-Za-z][A-Za-z0-9]*)\.(.+)$/.exec(kind);
  const group = dotted && DNS1123_SUBDOMAIN.test(dotted[2]!) ? dotted[2]! : undefined;
  return [
    {
      path: ['kind'],
      field: 'kind',
      message: `kind ${show(kind)} is not a Kubernetes kind: a kind is letters and digits (a Go type name such as Deployment), at most 63 characters${group ? '; the API group belongs in apiVersion' : ''}`,
      fix: group
        ? `write kind: ${dotted![1]} and put the group in apiVersion (apiVersion: ${group}/<version>)`
        : 'use the kind the API serves (kubectl api-resources lists them)',
    },
  ];
}

/** `[group/]version`: the group a DNS-1123 subdomain (at most 253), the version a DNS-1035 label (at most 63). */
export function checkApiVersion(apiVersion: string): IdentityProblem[] {
  const parts = apiVersion.split('/');
  const version = parts[parts.length - 1]!;
  const group = parts.length === 2 ? parts[0]! : '';
  const ok =
    parts.length <= 2 &&
    version.length <= 63 &&
    DNS1035_LABEL.test(version) &&
    (parts.length === 1 || (group.length <= 253 && DNS1123_SUBDOMAIN.test(group)));
  if (ok) return [];
  return [
    {
      path: ['apiVersion'],
      field: 'apiVersion',
      message: `apiVersion ${show(apiVersion)} is not <group>/<version> or <version>: the group is a lowercase DNS name such as apps or example.com, the version a label such as v1`,
      fix: 'use the apiVersion the API serves for this kind (kubectl api-resources lists them), e.g. v1 or apps/v1',
    },
  ];
}

/**
 * A name or namespace under the rule of its kind. Names become path segments of the output branch, so whatever
 * could leave its folder (`..`, slashes, NUL, absolute paths, over-long names) is refused before any path is built.
 */
export function checkObjectName(
  value: string,
  field: string,
  isNamespace = false,
  rule: NameRule = 'subdomain',
): IdentityProblem[] {
  const kind: NameRule = isNamespace ? 'label' : rule;
  const max = kind === 'subdomain' || kind === 'rbac' ? 253 : 63;
  const path = field.split('.');
  const problems: IdentityProblem[] = [];
  if (value.length > max) {
    problems.push({
      path,
      field,
      message: `${field} is ${value.length} characters, over Kubernetes' limit of ${max}`,
      fix: `shorten ${field} to at most ${max} characters`,
    });
  }
  if (/[/\\\0%]/.test(value) || value.includes('..') || value === '.') {
    problems.push({
      path,
      field,
      message: `${field} ${show(value)} contains a path separator, '%', NUL or '..'`,
      fix: FIXES[kind],
    });
    return problems;
  }
  const valid =
    kind === 'label'
      ? DNS1123_LABEL.test(value)
      : kind === 'dns1035'
        ? DNS1035_LABEL.test(value)
        : kind === 'rbac'
          ? RBAC_NAME.test(value)
          : DNS1123_SUBDOMAIN.test(value);
  if (!valid) {
    const safe = problems.length === 0 && LEGACY_SAFE.test(value);
    problems.push({
      path,
      field,
      message: `${field} ${show(value)} is not a valid ${DESCRIPTIONS[kind]}`,
      fix: FIXES[kind],
      ...(safe ? { pathSafe: true as const } : {}),
    });
  }
  return problems;
}

const DESCRIPTIONS: Record<NameRule, string> = {
  subdomain: 'Kubernetes name (a DNS-1123 subdomain)',
  label: 'namespace name (a DNS-1123 label)',
  dns1035: 'Service name (a DNS-1035 label)',
  rbac: "RBAC name (Flotilla accepts letters, digits, '-', '.', '_', '@' and ':')",
};

const FIXES: Record<NameRule, string> = {
  subdomain: "use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
  label:
    "use a DNS-1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63",
  dns1035:
    "use lowercase letters, digits and '-', starting with a letter and ending with a letter or digit, at most 63",
  rbac: "use letters, digits, '-', '.', '_', '@' and ':' (as in system:controller:name)",
};

function show(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
