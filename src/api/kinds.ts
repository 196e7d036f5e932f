// The Karmada kinds Flotilla reads from a config repo, declared once. Everything else is a resource template.

export const POLICY_API_VERSION = 'policy.karmada.io/v1alpha1';
export const CLUSTER_API_VERSION = 'cluster.karmada.io/v1alpha1';
export const WORK_API_VERSION = 'work.karmada.io/v1alpha2';
export const APPS_API_VERSION = 'apps.karmada.io/v1alpha1';
export const CONFIG_API_VERSION = 'config.karmada.io/v1alpha1';
export const FLOTILLA_API_VERSION = 'flotilla.io/v1alpha1';
/** The Kubernetes multi-cluster services API (ServiceExport, ServiceImport), as Karmada serves it. */
export const MCS_API_VERSION = 'multicluster.x-k8s.io/v1alpha1';

export const POLICY_KINDS = [
  'PropagationPolicy',
  'ClusterPropagationPolicy',
  'OverridePolicy',
  'ClusterOverridePolicy',
  'ClusterTaintPolicy',
] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** Identity of any Kubernetes object: what a file path in the output is derived from. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The resource name the API server derives from a kind it has no other word for (lowercase, then s, es or ies). */
export function defaultPlural(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

export function versionOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

/** `<apiVersion>/<kind>/<namespace>/<name>`: the ref format of the plan JSON contract. */
export function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.namespace}/${ref.name}`;
}

/** The inverse of refKey. */
export function parseRefKey(key: string): ObjectRef {
  // `<apiVersion>/<kind>/<namespace>/<name>` where apiVersion may itself contain one '/'.
  const parts = key.split('/');
  const name = parts.pop()!;
  const namespace = parts.pop()!;
  const kind = parts.pop()!;
  return { apiVersion: parts.join('/'), kind, namespace, name };
}

/** kubectl's way of naming an object in messages: `Deployment default/nginx`. */
/**
 * Whether a document, as its source wrote it, is the object `ref` names. A cluster-scoped object's namespace, if its
 * source wrote one, is no part of its identity; a namespaced one that writes none has the namespace it was placed in.
 */
export function writtenAs(ref: ObjectRef, document: unknown): boolean {
  const m = document as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
  const meta = m?.metadata ?? {};
  return (
    m?.kind === ref.kind &&
    meta.name === ref.name &&
    (ref.namespace === '' || (meta.namespace ?? ref.namespace) === ref.namespace)
  );
}

export function describeRef(ref: Pick<ObjectRef, 'kind' | 'namespace' | 'name'>): string {
  return ref.namespace ? `${ref.kind} ${ref.namespace}/${ref.name}` : `${ref.kind} ${ref.name}`;
}

/**
 * Kinds whose objects have no namespace: every built-in kind kube-apiserver (release-1.36, the kinds table's) serves
 * cluster-scoped, at each version it serves, and Karmada's own. A custom kind is cluster-scoped when a CRD in the same
 * repo says `scope: Cluster` (see documents/clusterScopedKinds.ts); unknown kinds default to namespaced. In Karmada
 * only a ClusterPropagationPolicy selects such an object, and its binding is a ClusterResourceBinding.
 */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'v1/ComponentStatus',
  'v1/Namespace',
  'v1/Node',
  'v1/PersistentVolume',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1alpha1/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1alpha1/MutatingAdmissionPolicyBinding',
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
  'apiregistration.k8s.io/v1/APIService',
  'authentication.k8s.io/v1/SelfSubjectReview',
  'authentication.k8s.io/v1/TokenReview',
  'authorization.k8s.io/v1/SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview',
  'authorization.k8s.io/v1/SubjectAccessReview',
  'certificates.k8s.io/v1/CertificateSigningRequest',
  'certificates.k8s.io/v1alpha1/ClusterTrustBundle',
  'certificates.k8s.io/v1beta1/ClusterTrustBundle',
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema',
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration',
  'internal.apiserver.k8s.io/v1alpha1/StorageVersion',
  'networking.k8s.io/v1/IPAddress',
  'networking.k8s.io/v1/IngressClass',
  'networking.k8s.io/v1/ServiceCIDR',
  'networking.k8s.io/v1beta1/IPAddress',
  'networking.k8s.io/v1beta1/ServiceCIDR',
  'node.k8s.io/v1/RuntimeClass',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'resource.k8s.io/v1/DeviceClass',
  'resource.k8s.io/v1/ResourceSlice',
  'resource.k8s.io/v1alpha3/DeviceTaintRule',
  'resource.k8s.io/v1alpha3/ResourcePoolStatusRequest',
  'resource.k8s.io/v1beta1/DeviceClass',
  'resource.k8s.io/v1beta1/ResourceSlice',
  'resource.k8s.io/v1beta2/DeviceClass',
  'resource.k8s.io/v1beta2/DeviceTaintRule',
  'resource.k8s.io/v1beta2/ResourceSlice',
  'scheduling.k8s.io/v1/PriorityClass',
  'storage.k8s.io/v1/CSIDriver',
  'storage.k8s.io/v1/CSINode',
  'storage.k8s.io/v1/StorageClass',
  'storage.k8s.io/v1/VolumeAttachment',
  'storage.k8s.io/v1/VolumeAttributesClass',
  'storage.k8s.io/v1beta1/VolumeAttributesClass',
  'storagemigration.k8s.io/v1beta1/StorageVersionMigration',
  'policy.karmada.io/v1alpha1/ClusterPropagationPolicy',
  'policy.karmada.io/v1alpha1/ClusterOverridePolicy',
  'policy.karmada.io/v1alpha1/ClusterTaintPolicy',
  'cluster.karmada.io/v1alpha1/Cluster',
]);
