import type { ResourceType, Subresource } from '../types.ts';
import { hpaV1Columns, isHpaV1 } from './hpaVersions.ts';
import { ageColumn, nameColumn, printColumnsByKind } from '../../printers/tableColumns.ts';

/** `all`: the workloads and their services; `api-extensions`: what extends the API or its admission. */
type Category = 'all' | 'api-extensions';
const ALL: Category[] = ['all'];
const API_EXTENSIONS: Category[] = ['api-extensions'];

interface Row {
  gv: string;
  kind: string;
  plural: string;
  scope: 'Namespaced' | 'Cluster';
  short?: string[];
  sub?: Subresource[];
  /** The categories its REST storage's Categories() returns. */
  categories?: Category[];
  computed?: 'metrics' | 'review';
}

// The built-in kinds a member serves: core/apps/batch/networking/policy/autoscaling/coordination plus the ones
// Karmada commonly propagates (RBAC, storage classes, priority classes) and CRDs themselves.
const ROWS: Row[] = [
  {
    gv: 'v1',
    kind: 'Pod',
    plural: 'pods',
    scope: 'Namespaced',
    short: ['po'],
    sub: ['status', 'log', 'exec', 'attach', 'portforward'],
    categories: ALL,
  },
  {
    gv: 'v1',
    kind: 'Service',
    plural: 'services',
    scope: 'Namespaced',
    short: ['svc'],
    sub: ['status'],
    categories: ALL,
  },
  { gv: 'v1', kind: 'ConfigMap', plural: 'configmaps', scope: 'Namespaced', short: ['cm'] },
  { gv: 'v1', kind: 'Secret', plural: 'secrets', scope: 'Namespaced' },
  {
    gv: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    scope: 'Cluster',
    short: ['ns'],
    sub: ['finalize', 'status'],
  },
  { gv: 'v1', kind: 'Node', plural: 'nodes', scope: 'Cluster', short: ['no'], sub: ['status'] },
  { gv: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', scope: 'Namespaced', short: ['sa'] },
  {
    gv: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    scope: 'Namespaced',
    short: ['pvc'],
    sub: ['status'],
  },
  { gv: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', scope: 'Cluster', short: ['pv'], sub: ['status'] },
  { gv: 'v1', kind: 'Event', plural: 'events', scope: 'Namespaced', short: ['ev'] },
  { gv: 'v1', kind: 'Endpoints', plural: 'endpoints', scope: 'Namespaced', short: ['ep'] },
  { gv: 'v1', kind: 'LimitRange', plural: 'limitranges', scope: 'Namespaced', short: ['limits'] },
  { gv: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', scope: 'Namespaced', short: ['quota'], sub: ['status'] },
  {
    gv: 'v1',
    kind: 'ReplicationController',
    plural: 'replicationcontrollers',
    scope: 'Namespaced',
    short: ['rc'],
    sub: ['status', 'scale'],
    categories: ALL,
  },
  {
    gv: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    scope: 'Namespaced',
    short: ['deploy'],
    sub: ['status', 'scale'],
    categories: ALL,
  },
  {
    gv: 'apps/v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    scope: 'Namespaced',
    short: ['rs'],
    sub: ['status', 'scale'],
    categories: ALL,
  },
  {
    gv: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    scope: 'Namespaced',
    short: ['sts'],
    sub: ['status', 'scale'],
    categories: ALL,
  },
  {
    gv: 'apps/v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    scope: 'Namespaced',
    short: ['ds'],
    sub: ['status'],
    categories: ALL,
  },
  { gv: 'apps/v1', kind: 'ControllerRevision', plural: 'controllerrevisions', scope: 'Namespaced' },
  { gv: 'batch/v1', kind: 'Job', plural: 'jobs', scope: 'Namespaced', sub: ['status'], categories: ALL },
  {
    gv: 'batch/v1',
    kind: 'CronJob',
    plural: 'cronjobs',
    scope: 'Namespaced',
    short: ['cj'],
    sub: ['status'],
    categories: ALL,
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'Ingress',
    plural: 'ingresses',
    scope: 'Namespaced',
    short: ['ing'],
    sub: ['status'],
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    scope: 'Namespaced',
    short: ['netpol'],
  },
  { gv: 'networking.k8s.io/v1', kind: 'IngressClass', plural: 'ingressclasses', scope: 'Cluster' },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    scope: 'Namespaced',
    short: ['pdb'],
    sub: ['status'],
  },
  {
    gv: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    scope: 'Namespaced',
    short: ['hpa'],
    sub: ['status'],
    categories: ALL,
  },
  // What `kubectl autoscale` posts; stored as v2 and converted (hpaVersions.ts). After v2: v2 is the preferred version.
  {
    gv: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    scope: 'Namespaced',
    short: ['hpa'],
    sub: ['status'],
    categories: ALL,
  },
  { gv: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', scope: 'Namespaced' },
  { gv: 'discovery.k8s.io/v1', kind: 'EndpointSlice', plural: 'endpointslices', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', plural: 'clusterroles', scope: 'Cluster' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', scope: 'Cluster' },
  { gv: 'storage.k8s.io/v1', kind: 'StorageClass', plural: 'storageclasses', scope: 'Cluster', short: ['sc'] },
  { gv: 'scheduling.k8s.io/v1', kind: 'PriorityClass', plural: 'priorityclasses', scope: 'Cluster', short: ['pc'] },
  // What real applications install beside their workloads (cert-manager, MetalLB, SPIRE, metrics adapters): stored
  // and served like any object; the emulator calls no webhook and proxies no aggregated API.
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    plural: 'validatingwebhookconfigurations',
    scope: 'Cluster',
    categories: API_EXTENSIONS,
  },
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    plural: 'mutatingwebhookconfigurations',
    scope: 'Cluster',
    categories: API_EXTENSIONS,
  },
  { gv: 'storage.k8s.io/v1', kind: 'CSIDriver', plural: 'csidrivers', scope: 'Cluster' },
  { gv: 'node.k8s.io/v1', kind: 'RuntimeClass', plural: 'runtimeclasses', scope: 'Cluster' },
  {
    gv: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    plural: 'apiservices',
    scope: 'Cluster',
    sub: ['status'],
    categories: API_EXTENSIONS,
  },
  // Access and identity reviews (`kubectl auth can-i`, `auth whoami`): answered, never stored (serveReview.ts).
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    plural: 'selfsubjectaccessreviews',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    plural: 'selfsubjectrulesreviews',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    plural: 'subjectaccessreviews',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    plural: 'localsubjectaccessreviews',
    scope: 'Namespaced',
    computed: 'review',
  },
  {
    gv: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    scope: 'Cluster',
    computed: 'review',
  },
  // What metrics-server serves, computed from the pods' simulated usage (src/members/metrics/).
  { gv: 'metrics.k8s.io/v1beta1', kind: 'PodMetrics', plural: 'pods', scope: 'Namespaced', computed: 'metrics' },
  { gv: 'metrics.k8s.io/v1beta1', kind: 'NodeMetrics', plural: 'nodes', scope: 'Cluster', computed: 'metrics' },
  {
    gv: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    scope: 'Cluster',
    short: ['crd', 'crds'],
    sub: ['status'],
    categories: API_EXTENSIONS,
  },
];

// Kinds whose spec is driven by a controller; ConfigMaps and the like carry no generation, as on a real server.
const GENERATION_KINDS = new Set([
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'ReplicationController',
  'Ingress',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'HorizontalPodAutoscaler',
  'CustomResourceDefinition',
  'PriorityClass',
]);

export function builtinResources(): ResourceType[] {
  return ROWS.map((row) => {
    const [group, version] = row.gv.includes('/') ? (row.gv.split('/') as [string, string]) : ['', row.gv];
    const columns = printColumnsByKind[row.kind] ?? [nameColumn, ageColumn];
    return {
      group,
      version,
      kind: row.kind,
      plural: row.plural,
      singular: row.kind.toLowerCase(),
      namespaced: row.scope === 'Namespaced',
      shortNames: row.short ?? [],
      categories: row.categories ?? [],
      subresources: row.sub ?? [],
      tracksGeneration: GENERATION_KINDS.has(row.kind),
      columns: isHpaV1({ group, version, kind: row.kind }) ? hpaV1Columns(columns) : columns,
      strategicMerge: true,
      ...(row.computed ? { computed: row.computed } : {}),
    };
  });
}
