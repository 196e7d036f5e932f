// The names kubectl knows a built-in kind by: its resource (plural) and short names, as kube-apiserver's discovery
// lists them (each REST storage's ShortNames() and Categories(), Kubernetes 1.32). The member emulator serves its
// kinds under them; `flotilla get` resolves the same words a user types to kubectl.

/** A category word kubectl expands to the kinds that join it. */
export type ResourceCategory = 'all' | 'api-extensions';

/** One built-in kind's names. `group` is '' for the core group. */
export interface BuiltinResourceName {
  group: string;
  kind: string;
  plural: string;
  short: readonly string[];
  categories: readonly ResourceCategory[];
}

type Row = readonly [kind: string, plural: string, ...short: string[]];

/** The rows of one group; a kind in IN_ALL or API_EXTENSIONS joins that category. */
const names = (group: string, rows: readonly Row[]) =>
  rows.map(
    ([kind, plural, ...short]): BuiltinResourceName => ({
      group,
      kind,
      plural,
      short,
      categories: IN_ALL.has(kind) ? ['all'] : API_EXTENSIONS.has(kind) ? ['api-extensions'] : [],
    }),
  );

// The workloads and their services (`kubectl get all`), and what extends the API or its admission.
const IN_ALL = new Set([
  'Pod',
  'ReplicationController',
  'Service',
  'DaemonSet',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'HorizontalPodAutoscaler',
  'CronJob',
  'Job',
]);
const API_EXTENSIONS = new Set([
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration',
  'CustomResourceDefinition',
  'APIService',
]);

export const BUILTIN_RESOURCE_NAMES: readonly BuiltinResourceName[] = [
  ...names('', [
    ['Binding', 'bindings'],
    ['ComponentStatus', 'componentstatuses', 'cs'],
    ['ConfigMap', 'configmaps', 'cm'],
    ['Endpoints', 'endpoints', 'ep'],
    ['Event', 'events', 'ev'],
    ['LimitRange', 'limitranges', 'limits'],
    ['Namespace', 'namespaces', 'ns'],
    ['Node', 'nodes', 'no'],
    ['PersistentVolumeClaim', 'persistentvolumeclaims', 'pvc'],
    ['PersistentVolume', 'persistentvolumes', 'pv'],
    ['Pod', 'pods', 'po'],
    ['PodTemplate', 'podtemplates'],
    ['ReplicationController', 'replicationcontrollers', 'rc'],
    ['ResourceQuota', 'resourcequotas', 'quota'],
    ['Secret', 'secrets'],
    ['ServiceAccount', 'serviceaccounts', 'sa'],
    ['Service', 'services', 'svc'],
  ]),
  ...names('admissionregistration.k8s.io', [
    ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
    ['ValidatingAdmissionPolicy', 'validatingadmissionpolicies'],
    ['ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings'],
    ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
  ]),
  ...names('apiextensions.k8s.io', [['CustomResourceDefinition', 'customresourcedefinitions', 'crd', 'crds']]),
  ...names('apiregistration.k8s.io', [['APIService', 'apiservices']]),
  ...names('apps', [
    ['ControllerRevision', 'controllerrevisions'],
    ['DaemonSet', 'daemonsets', 'ds'],
    ['Deployment', 'deployments', 'deploy'],
    ['ReplicaSet', 'replicasets', 'rs'],
    ['StatefulSet', 'statefulsets', 'sts'],
  ]),
  ...names('authentication.k8s.io', [
    ['SelfSubjectReview', 'selfsubjectreviews'],
    ['TokenReview', 'tokenreviews'],
  ]),
  ...names('authorization.k8s.io', [
    ['LocalSubjectAccessReview', 'localsubjectaccessreviews'],
    ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'],
    ['SelfSubjectRulesReview', 'selfsubjectrulesreviews'],
    ['SubjectAccessReview', 'subjectaccessreviews'],
  ]),
  ...names('autoscaling', [['HorizontalPodAutoscaler', 'horizontalpodautoscalers', 'hpa']]),
  ...names('batch', [
    ['CronJob', 'cronjobs', 'cj'],
    ['Job', 'jobs'],
  ]),
  ...names('certificates.k8s.io', [['CertificateSigningRequest', 'certificatesigningrequests', 'csr']]),
  ...names('coordination.k8s.io', [['Lease', 'leases']]),
  ...names('discovery.k8s.io', [['EndpointSlice', 'endpointslices']]),
  ...names('events.k8s.io', [['Event', 'events', 'ev']]),
  ...names('flowcontrol.apiserver.k8s.io', [
    ['FlowSchema', 'flowschemas'],
    ['PriorityLevelConfiguration', 'prioritylevelconfigurations'],
  ]),
  // What metrics-server serves beside the built-in API.
  ...names('metrics.k8s.io', [
    ['NodeMetrics', 'nodes'],
    ['PodMetrics', 'pods'],
  ]),
  ...names('networking.k8s.io', [
    ['IngressClass', 'ingressclasses'],
    ['Ingress', 'ingresses', 'ing'],
    ['NetworkPolicy', 'networkpolicies', 'netpol'],
  ]),
  ...names('node.k8s.io', [['RuntimeClass', 'runtimeclasses']]),
  ...names('policy', [['PodDisruptionBudget', 'poddisruptionbudgets', 'pdb']]),
  ...names('rbac.authorization.k8s.io', [
    ['ClusterRoleBinding', 'clusterrolebindings'],
    ['ClusterRole', 'clusterroles'],
    ['RoleBinding', 'rolebindings'],
    ['Role', 'roles'],
  ]),
  ...names('scheduling.k8s.io', [['PriorityClass', 'priorityclasses', 'pc']]),
  ...names('storage.k8s.io', [
    ['CSIDriver', 'csidrivers'],
    ['CSINode', 'csinodes'],
    ['CSIStorageCapacity', 'csistoragecapacities'],
    ['StorageClass', 'storageclasses', 'sc'],
    ['VolumeAttachment', 'volumeattachments'],
  ]),
];

/** The names of a built-in kind of `group`, or undefined for a kind kube-apiserver does not serve itself. */
export function builtinResourceName(group: string, kind: string): BuiltinResourceName | undefined {
  return BUILTIN_RESOURCE_NAMES.find((n) => n.group === group && n.kind === kind);
}
