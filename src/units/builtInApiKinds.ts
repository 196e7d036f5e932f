/**
 * The group/version and group/version/kind entries of `.Capabilities.APIVersions` a chart sees beside helm's own
 * group/versions. `helm template` knows group/versions only (`policy/v1` is there, `policy/v1/PodDisruptionBudget` is
 * not), and not all of them (`apiregistration.k8s.io/v1`, served by kube-apiserver's aggregator, is missing), while
 * Argo CD passes the target cluster's both ways; charts test either (traefik picks its PodDisruptionBudget's
 * apiVersion by `Has "policy/v1/PodDisruptionBudget"`, and without it wrote `policy/v1beta1`, which no member
 * serves; prometheus-adapter its APIService's by `Has "apiregistration.k8s.io/v1"`). These are the built-in kinds
 * every Kubernetes from 1.25 serves: a member's custom kinds are the unit's `apiVersions` to name.
 */
const KINDS: Record<string, readonly string[]> = {
  v1: [
    'ConfigMap',
    'Endpoints',
    'Event',
    'LimitRange',
    'Namespace',
    'Node',
    'PersistentVolume',
    'PersistentVolumeClaim',
    'Pod',
    'PodTemplate',
    'ReplicationController',
    'ResourceQuota',
    'Secret',
    'Service',
    'ServiceAccount',
  ],
  'apps/v1': ['ControllerRevision', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet'],
  'autoscaling/v1': ['HorizontalPodAutoscaler'],
  'autoscaling/v2': ['HorizontalPodAutoscaler'],
  'batch/v1': ['CronJob', 'Job'],
  'policy/v1': ['PodDisruptionBudget'],
  'networking.k8s.io/v1': ['Ingress', 'IngressClass', 'NetworkPolicy'],
  'discovery.k8s.io/v1': ['EndpointSlice'],
  'rbac.authorization.k8s.io/v1': ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
  'storage.k8s.io/v1': ['CSIDriver', 'CSINode', 'CSIStorageCapacity', 'StorageClass', 'VolumeAttachment'],
  'admissionregistration.k8s.io/v1': ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
  'apiextensions.k8s.io/v1': ['CustomResourceDefinition'],
  'apiregistration.k8s.io/v1': ['APIService'],
  'scheduling.k8s.io/v1': ['PriorityClass'],
  'coordination.k8s.io/v1': ['Lease'],
  'node.k8s.io/v1': ['RuntimeClass'],
  'certificates.k8s.io/v1': ['CertificateSigningRequest'],
  'events.k8s.io/v1': ['Event'],
};

/** The oldest Kubernetes serving all of KINDS (policy/v1beta1 and batch/v1beta1 CronJob went in 1.25). */
const SINCE_MINOR = 25;

/**
 * The group/version and group/version/kind strings for a chart rendered for `kubeVersion` (the unit's option; undefined: helm's
 * default, a current release); none for a Kubernetes older than 1.25, where some of these kinds were not served yet.
 */
export function builtInApiKinds(kubeVersion: string | undefined): string[] {
  if (kubeVersion !== undefined) {
    const m = /^v?(\d+)\.(\d+)/.exec(kubeVersion.trim());
    if (!m || Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < SINCE_MINOR)) return [];
  }
  return Object.entries(KINDS).flatMap(([gv, kinds]) => [gv, ...kinds.map((kind) => `${gv}/${kind}`)]);
}
