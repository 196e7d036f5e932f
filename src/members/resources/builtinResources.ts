import { builtinResourceName } from '../../api/builtinResourceNames.ts';
import type { ResourceType, Subresource } from '../types.ts';
import { hpaV1Columns, isHpaV1 } from './hpaVersions.ts';
import { ageColumn, nameColumn, printColumnsByKind } from '../../printers/tableColumns.ts';

interface Row {
  gv: string;
  kind: string;
  scope: 'Namespaced' | 'Cluster';
  sub?: Subresource[];
  computed?: 'metrics' | 'review';
}

// The built-in kinds a member serves: core/apps/batch/networking/policy/autoscaling/coordination plus the ones
// Karmada commonly propagates (RBAC, storage classes, priority classes) and CRDs themselves.
const ROWS: Row[] = [
  {
    gv: 'v1',
    kind: 'Pod',
    scope: 'Namespaced',
    sub: ['status', 'log', 'exec', 'attach', 'portforward'],
  },
  {
    gv: 'v1',
    kind: 'Service',
    scope: 'Namespaced',
    sub: ['status'],
  },
  { gv: 'v1', kind: 'ConfigMap', scope: 'Namespaced' },
  { gv: 'v1', kind: 'Secret', scope: 'Namespaced' },
  {
    gv: 'v1',
    kind: 'Namespace',
    scope: 'Cluster',
    sub: ['finalize', 'status'],
  },
  { gv: 'v1', kind: 'Node', scope: 'Cluster', sub: ['status'] },
  { gv: 'v1', kind: 'ServiceAccount', scope: 'Namespaced' },
  {
    gv: 'v1',
    kind: 'PersistentVolumeClaim',
    scope: 'Namespaced',
    sub: ['status'],
  },
  { gv: 'v1', kind: 'PersistentVolume', scope: 'Cluster', sub: ['status'] },
  { gv: 'v1', kind: 'Event', scope: 'Namespaced' },
  { gv: 'v1', kind: 'Endpoints', scope: 'Namespaced' },
  { gv: 'v1', kind: 'LimitRange', scope: 'Namespaced' },
  { gv: 'v1', kind: 'ResourceQuota', scope: 'Namespaced', sub: ['status'] },
  {
    gv: 'v1',
    kind: 'ReplicationController',
    scope: 'Namespaced',
    sub: ['status', 'scale'],
  },
  {
    gv: 'apps/v1',
    kind: 'Deployment',
    scope: 'Namespaced',
    sub: ['status', 'scale'],
  },
  {
    gv: 'apps/v1',
    kind: 'ReplicaSet',
    scope: 'Namespaced',
    sub: ['status', 'scale'],
  },
  {
    gv: 'apps/v1',
    kind: 'StatefulSet',
    scope: 'Namespaced',
    sub: ['status', 'scale'],
  },
  {
    gv: 'apps/v1',
    kind: 'DaemonSet',
    scope: 'Namespaced',
    sub: ['status'],
  },
  { gv: 'apps/v1', kind: 'ControllerRevision', scope: 'Namespaced' },
  { gv: 'batch/v1', kind: 'Job', scope: 'Namespaced', sub: ['status'] },
  {
    gv: 'batch/v1',
    kind: 'CronJob',
    scope: 'Namespaced',
    sub: ['status'],
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'Ingress',
    scope: 'Namespaced',
    sub: ['status'],
  },
  {
    gv: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    scope: 'Namespaced',
  },
  { gv: 'networking.k8s.io/v1', kind: 'IngressClass', scope: 'Cluster' },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    scope: 'Namespaced',
    sub: ['status'],
  },
  {
    gv: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    scope: 'Namespaced',
    sub: ['status'],
  },
  // What `kubectl autoscale` posts; stored as v2 and converted (hpaVersions.ts). After v2: v2 is the preferred version.
  {
    gv: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    scope: 'Namespaced',
    sub: ['status'],
  },
  { gv: 'coordination.k8s.io/v1', kind: 'Lease', scope: 'Namespaced' },
  { gv: 'discovery.k8s.io/v1', kind: 'EndpointSlice', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'Role', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', scope: 'Namespaced' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', scope: 'Cluster' },
  { gv: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', scope: 'Cluster' },
  { gv: 'storage.k8s.io/v1', kind: 'StorageClass', scope: 'Cluster' },
  { gv: 'scheduling.k8s.io/v1', kind: 'PriorityClass', scope: 'Cluster' },
  // What real applications install beside their workloads (cert-manager, MetalLB, SPIRE, metrics adapters): stored
  // and served like any object; the emulator calls no webhook and proxies no aggregated API.
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    scope: 'Cluster',
  },
  {
    gv: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    scope: 'Cluster',
  },
  { gv: 'storage.k8s.io/v1', kind: 'CSIDriver', scope: 'Cluster' },
  { gv: 'node.k8s.io/v1', kind: 'RuntimeClass', scope: 'Cluster' },
  {
    gv: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    scope: 'Cluster',
    sub: ['status'],
  },
  // Access and identity reviews (`kubectl auth can-i`, `auth whoami`): answered, never stored (serveReview.ts).
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    scope: 'Cluster',
    computed: 'review',
  },
  {
    gv: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    scope: 'Namespaced',
    computed: 'review',
  },
  {
    gv: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    scope: 'Cluster',
    computed: 'review',
  },
  // What metrics-server serves, computed from the pods' simulated usage (src/members/metrics/).
  { gv: 'metrics.k8s.io/v1beta1', kind: 'PodMetrics', scope: 'Namespaced', computed: 'metrics' },
  { gv: 'metrics.k8s.io/v1beta1', kind: 'NodeMetrics', scope: 'Cluster', computed: 'metrics' },
  {
    gv: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    scope: 'Cluster',
    sub: ['status'],
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
    const names = builtinResourceName(group, row.kind);
    if (!names) throw new Error(`${row.kind}.${group}: not in src/api/builtinResourceNames.ts`);
    return {
      group,
      version,
      kind: row.kind,
      plural: names.plural,
      singular: row.kind.toLowerCase(),
      namespaced: row.scope === 'Namespaced',
      shortNames: [...names.short],
      categories: [...names.categories],
      subresources: row.sub ?? [],
      tracksGeneration: GENERATION_KINDS.has(row.kind),
      columns: isHpaV1({ group, version, kind: row.kind }) ? hpaV1Columns(columns) : columns,
      strategicMerge: true,
      ...(row.computed ? { computed: row.computed } : {}),
    };
  });
}
