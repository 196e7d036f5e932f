import { formatLabelSelector } from '../labels/formatLabelSelector.ts';
import { formatLabels } from '../labels/formatLabels.ts';
import { canonicalQuantity } from '../quantities/canonicalQuantity.ts';
import { humanDuration } from '../time/humanDuration.ts';
import { endpointSliceEndpoints, endpointSlicePorts, endpointsAddresses } from './discoveryCells.ts';
import { hpaTargets } from './hpaTargets.ts';
import { ingressHosts } from './ingressHosts.ts';
import { jobCompletions, jobStatus } from './jobCells.ts';
import { podCells } from './podCells.ts';
import type { PrintColumn, PrintedObject } from './printedObject.ts';
import { loadBalancerAddresses, serviceExternalIp } from './serviceExternalIp.ts';

// The columns the real API server prints for each kind (k8s.io/kubernetes/pkg/printers/internalversion): the member
// emulator serves them as Tables, so `kubectl get` against a member looks as it does against a real cluster, and
// `flotilla get` prints a template from Git with the same columns, as kubectl against Karmada's API server would.

const NONE = '<none>';

export const nameColumn: PrintColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  priority: 0,
  description: 'Name must be unique within a namespace.',
  cell: (o) => o.metadata.name ?? '',
};

export function age(o: PrintedObject, now: number): string {
  const created = o.metadata.creationTimestamp;
  return created ? humanDuration(now - Date.parse(created)) : '<unknown>';
}

export const ageColumn: PrintColumn = {
  name: 'Age',
  type: 'string',
  priority: 0,
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
  cell: age,
};

const col = (name: string, type: PrintColumn['type'], cell: PrintColumn['cell'], priority: 0 | 1 = 0): PrintColumn => ({
  name,
  type,
  priority,
  description: '',
  cell,
});

const int = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** layoutContainerCells: each container's name and image, comma-joined. */
function containerCells(template: any): { names: string; images: string } {
  const containers: any[] = template?.spec?.containers ?? [];
  return { names: containers.map((c) => c.name).join(','), images: containers.map((c) => c.image).join(',') };
}
const containersCol = col('Containers', 'string', (o) => containerCells(o.spec?.template).names, 1);
const imagesCol = col('Images', 'string', (o) => containerCells(o.spec?.template).images, 1);
const selectorCol = col('Selector', 'string', (o) => formatSelectorCell(o.spec?.selector), 1);

/** metav1.FormatLabelSelector: requirements sorted by key, `<none>` for a selector that selects everything. */
export function formatSelectorCell(selector: any): string {
  return (selector && typeof selector === 'object' ? formatLabelSelector(selector) : '') || NONE;
}

/** `true/total` of the pod's readiness gates, each read from the first condition of its type. */
function readinessGates(o: PrintedObject): string {
  const gates: any[] = o.spec?.readinessGates ?? [];
  if (gates.length === 0) return NONE;
  const conditions: any[] = o.status?.conditions ?? [];
  const met = gates.filter((g) => conditions.find((c) => c?.type === g?.conditionType)?.status === 'True').length;
  return `${met}/${gates.length}`;
}

const podColumns: PrintColumn[] = [
  nameColumn,
  col('Ready', 'string', (o, now) => podCells(o, now).ready),
  col('Status', 'string', (o, now) => podCells(o, now).status),
  col('Restarts', 'string', (o, now) => podCells(o, now).restarts),
  ageColumn,
  col('IP', 'string', (o) => o.status?.podIP ?? NONE, 1),
  col('Node', 'string', (o) => o.spec?.nodeName ?? NONE, 1),
  col('Nominated Node', 'string', (o) => o.status?.nominatedNodeName ?? NONE, 1),
  col('Readiness Gates', 'string', readinessGates, 1),
];

/** findNodeRoles: each non-empty node-role.kubernetes.io/<role> label and the value of kubernetes.io/role, once. */
function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (key === 'kubernetes.io/role' && value) roles.add(value);
  }
  return [...roles].sort().join(',');
}

const nodeColumns: PrintColumn[] = [
  nameColumn,
  col('Status', 'string', (o) => {
    const ready = (o.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
    const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
    return o.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
  }),
  col('Roles', 'string', (o) => nodeRoles(o.metadata.labels) || NONE),
  ageColumn,
  col('Version', 'string', (o) => o.status?.nodeInfo?.kubeletVersion ?? ''),
  col(
    'Internal-IP',
    'string',
    (o) => (o.status?.addresses ?? []).find((a: any) => a.type === 'InternalIP')?.address ?? NONE,
    1,
  ),
  col(
    'External-IP',
    'string',
    (o) => (o.status?.addresses ?? []).find((a: any) => a.type === 'ExternalIP')?.address ?? NONE,
    1,
  ),
  col('OS-Image', 'string', (o) => o.status?.nodeInfo?.osImage || '<unknown>', 1),
  col('Kernel-Version', 'string', (o) => o.status?.nodeInfo?.kernelVersion || '<unknown>', 1),
  col('Container-Runtime', 'string', (o) => o.status?.nodeInfo?.containerRuntimeVersion || '<unknown>', 1),
];

const deploymentColumns: PrintColumn[] = [
  nameColumn,
  col('Ready', 'string', (o) => `${int(o.status?.readyReplicas)}/${int(o.spec?.replicas)}`),
  col('Up-to-date', 'integer', (o) => int(o.status?.updatedReplicas)),
  col('Available', 'integer', (o) => int(o.status?.availableReplicas)),
  ageColumn,
  containersCol,
  imagesCol,
  selectorCol,
];

const replicaSetColumns: PrintColumn[] = [
  nameColumn,
  col('Desired', 'integer', (o) => int(o.spec?.replicas)),
  col('Current', 'integer', (o) => int(o.status?.replicas)),
  col('Ready', 'integer', (o) => int(o.status?.readyReplicas)),
  ageColumn,
  containersCol,
  imagesCol,
  selectorCol,
];

const statefulSetColumns: PrintColumn[] = [
  nameColumn,
  col('Ready', 'string', (o) => `${int(o.status?.readyReplicas)}/${int(o.spec?.replicas)}`),
  ageColumn,
  containersCol,
  imagesCol,
];

const daemonSetColumns: PrintColumn[] = [
  nameColumn,
  col('Desired', 'integer', (o) => int(o.status?.desiredNumberScheduled)),
  col('Current', 'integer', (o) => int(o.status?.currentNumberScheduled)),
  col('Ready', 'integer', (o) => int(o.status?.numberReady)),
  col('Up-to-date', 'integer', (o) => int(o.status?.updatedNumberScheduled)),
  col('Available', 'integer', (o) => int(o.status?.numberAvailable)),
  col('Node Selector', 'string', (o) => formatLabels(o.spec?.template?.spec?.nodeSelector)),
  ageColumn,
  containersCol,
  imagesCol,
  selectorCol,
];

const jobColumns: PrintColumn[] = [
  nameColumn,
  col('Status', 'string', (o) => jobStatus(o.status?.conditions, Boolean(o.metadata.deletionTimestamp))),
  col('Completions', 'string', (o) => jobCompletions(o.spec, o.status?.succeeded)),
  col('Duration', 'string', (o, now) => {
    if (!o.status?.startTime) return '';
    const end = o.status.completionTime ? Date.parse(o.status.completionTime) : now;
    return humanDuration(end - Date.parse(o.status.startTime));
  }),
  ageColumn,
  containersCol,
  imagesCol,
  selectorCol,
];

const cronJobColumns: PrintColumn[] = [
  nameColumn,
  col('Schedule', 'string', (o) => o.spec?.schedule ?? ''),
  col('Timezone', 'string', (o) => o.spec?.timeZone ?? NONE),
  // printBoolPtr writes the words, not a boolean cell.
  col('Suspend', 'boolean', (o) => (o.spec?.suspend == null ? '<unset>' : o.spec.suspend ? 'True' : 'False')),
  col('Active', 'integer', (o) => (o.status?.active ?? []).length),
  col('Last Schedule', 'string', (o, now) =>
    o.status?.lastScheduleTime ? humanDuration(now - Date.parse(o.status.lastScheduleTime)) : NONE,
  ),
  ageColumn,
  col('Containers', 'string', (o) => containerCells(o.spec?.jobTemplate?.spec?.template).names, 1),
  col('Images', 'string', (o) => containerCells(o.spec?.jobTemplate?.spec?.template).images, 1),
  col('Selector', 'string', (o) => formatSelectorCell(o.spec?.jobTemplate?.spec?.selector), 1),
];

const serviceColumns: PrintColumn[] = [
  nameColumn,
  col('Type', 'string', (o) => o.spec?.type ?? 'ClusterIP'),
  // The API server prints the first of clusterIPs, which it fills from clusterIP; an ExternalName Service has none.
  col('Cluster-IP', 'string', (o) => o.spec?.clusterIPs?.[0] ?? NONE),
  // Its Tables are always generated wide, so balancer addresses are never clipped here.
  col('External-IP', 'string', (o) => serviceExternalIp(o.spec, o.status?.loadBalancer?.ingress, true)),
  col(
    'Port(s)',
    'string',
    (o) =>
      (o.spec?.ports ?? [])
        .map((p: any) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
        .join(',') || NONE,
  ),
  ageColumn,
  col('Selector', 'string', (o) => formatLabels(o.spec?.selector), 1),
];

const dataCount = (o: PrintedObject) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length;

const ingressColumns: PrintColumn[] = [
  nameColumn,
  col('Class', 'string', (o) => o.spec?.ingressClassName ?? NONE),
  col('Hosts', 'string', (o) => ingressHosts(o.spec?.rules)),
  col('Address', 'string', (o) => loadBalancerAddresses(o.status?.loadBalancer?.ingress, true)),
  col('Ports', 'string', (o) => (o.spec?.tls?.length ? '80, 443' : '80')),
  ageColumn,
];

const hpaColumns: PrintColumn[] = [
  nameColumn,
  col('Reference', 'string', (o) => `${o.spec?.scaleTargetRef?.kind ?? ''}/${o.spec?.scaleTargetRef?.name ?? ''}`),
  col('Targets', 'string', (o) => hpaTargets(o.spec?.metrics, o.status?.currentMetrics)),
  col('MinPods', 'string', (o) => (o.spec?.minReplicas == null ? '<unset>' : String(o.spec.minReplicas))),
  col('MaxPods', 'integer', (o) => int(o.spec?.maxReplicas)),
  col('Replicas', 'integer', (o) => int(o.status?.currentReplicas)),
  ageColumn,
];

const pdbColumns: PrintColumn[] = [
  nameColumn,
  col('Min Available', 'string', (o) => (o.spec?.minAvailable === undefined ? 'N/A' : String(o.spec.minAvailable))),
  col('Max Unavailable', 'string', (o) =>
    o.spec?.maxUnavailable === undefined ? 'N/A' : String(o.spec.maxUnavailable),
  ),
  col('Allowed Disruptions', 'integer', (o) => int(o.status?.disruptionsAllowed)),
  ageColumn,
];

/** kubectl's short access modes (GetAccessModesAsString): in this order, each once. */
const ACCESS_MODES: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];
const accessModes = (modes: unknown): string =>
  Array.isArray(modes)
    ? ACCESS_MODES.filter(([mode]) => modes.includes(mode))
        .map(([, short]) => short)
        .join(',')
    : '';
const terminatingOr = (o: PrintedObject, phase: unknown) =>
  o.metadata.deletionTimestamp ? 'Terminating' : typeof phase === 'string' ? phase : '';
const volumeMode = col('VolumeMode', 'string', (o) => o.spec?.volumeMode ?? '<unset>', 1);
const attributesClass = col('VolumeAttributesClass', 'string', (o) => o.spec?.volumeAttributesClassName ?? '<unset>');

/** Quantity.String: canonical form, and the zero quantity "0" for one not set. */
const quantityText = (value: unknown): string => String(canonicalQuantity(value ?? '0', false));

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass: the beta annotation, when present, over the field. */
const storageClassOf = (o: PrintedObject): string =>
  o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? o.spec?.storageClassName ?? '';

// Capacity and access modes are a bound claim's, from its status (printPersistentVolumeClaim).
const pvcColumns: PrintColumn[] = [
  nameColumn,
  col('Status', 'string', (o) => terminatingOr(o, o.status?.phase)),
  col('Volume', 'string', (o) => o.spec?.volumeName ?? ''),
  col('Capacity', 'string', (o) => (o.spec?.volumeName ? quantityText(o.status?.capacity?.storage) : '')),
  col('Access Modes', 'string', (o) => (o.spec?.volumeName ? accessModes(o.status?.accessModes) : '')),
  col('StorageClass', 'string', storageClassOf),
  attributesClass,
  ageColumn,
  volumeMode,
];

const pvColumns: PrintColumn[] = [
  nameColumn,
  col('Capacity', 'string', (o) => quantityText(o.spec?.capacity?.storage)),
  col('Access Modes', 'string', (o) => accessModes(o.spec?.accessModes)),
  col('Reclaim Policy', 'string', (o) => o.spec?.persistentVolumeReclaimPolicy ?? ''),
  col('Status', 'string', (o) => terminatingOr(o, o.status?.phase)),
  col('Claim', 'string', (o) => (o.spec?.claimRef ? `${o.spec.claimRef.namespace}/${o.spec.claimRef.name}` : '')),
  col('StorageClass', 'string', storageClassOf),
  attributesClass,
  col('Reason', 'string', (o) => o.status?.reason ?? ''),
  ageColumn,
  volumeMode,
];

const createdAt = col('Created At', 'date', (o) => (o.metadata.creationTimestamp ?? '').replace(/\.\d+Z$/, 'Z'));

/**
 * `<used>/<hard>` of each quota'd resource, sorted, requests and limits apart (printResourceQuota reads status.hard,
 * which the quota controller copies from spec.hard; the emulator runs none, so spec.hard stands in until it is set).
 */
const quotaUsage =
  (limits: boolean) =>
  (o: PrintedObject): string => {
    const hard: Record<string, unknown> = o.status?.hard ?? o.spec?.hard ?? {};
    return Object.keys(hard)
      .filter((name) => name.startsWith('limits.') === limits)
      .sort()
      .map((name) => `${name}: ${quantityText(o.status?.used?.[name])}/${quantityText(hard[name])}`)
      .join(', ');
  };

const subjectsOf = (o: PrintedObject, kind: string): string =>
  (o.subjects ?? [])
    .filter((s: { kind?: string }) => s?.kind === kind)
    .map((s: { name?: string; namespace?: string }) =>
      kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name,
    )
    .join(', ');

const bindingColumns: PrintColumn[] = [
  nameColumn,
  col('Role', 'string', (o) => (o.roleRef ? `${o.roleRef.kind}/${o.roleRef.name}` : '')),
  ageColumn,
  col('Users', 'string', (o) => subjectsOf(o, 'User'), 1),
  col('Groups', 'string', (o) => subjectsOf(o, 'Group'), 1),
  col('ServiceAccounts', 'string', (o) => subjectsOf(o, 'ServiceAccount'), 1),
];

const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';

/** The controller an object's ownerReferences name, as `kind.group/name` (printControllerRevision). */
const controllerOf = (o: PrintedObject): string => {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller);
  if (!ref) return '<none>';
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  return `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}/${ref.name}`;
};

const since = (at: unknown, now: number): string =>
  typeof at === 'string' && at ? humanDuration(now - Date.parse(at)) : '<unknown>';

/**
 * printEvent: first seen from firstTimestamp else eventTime; last seen from a series, else lastTimestamp, else the
 * first seen; the count of a series, else count, and 1 for a singleton of the events.k8s.io API that sets none.
 */
function eventCells(o: PrintedObject, now: number): { first: string; last: string; count: number } {
  const first = o.firstTimestamp ? since(o.firstTimestamp, now) : since(o.eventTime, now);
  if (o.series) return { first, last: since(o.series.lastObservedTime, now), count: int(o.series.count) };
  return { first, last: o.lastTimestamp ? since(o.lastTimestamp, now) : first, count: int(o.count) || 1 };
}

/** formatEventSource: component (else reportingComponent), then `, host` (else reportingInstance) when set. */
function eventSource(o: PrintedObject): string {
  const component = o.source?.component || o.reportingComponent || '';
  const instance = o.source?.host || o.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

const eventColumns: PrintColumn[] = [
  col('Last Seen', 'string', (o, now) => eventCells(o, now).last),
  col('Type', 'string', (o) => o.type ?? ''),
  col('Reason', 'string', (o) => o.reason ?? ''),
  col('Object', 'string', (o) => {
    const kind = String(o.involvedObject?.kind ?? '').toLowerCase();
    return o.involvedObject?.name ? `${kind}/${o.involvedObject.name}` : kind;
  }),
  col('Subobject', 'string', (o) => o.involvedObject?.fieldPath ?? '', 1),
  col('Source', 'string', eventSource, 1),
  col('Message', 'string', (o) => String(o.message ?? '').trim()),
  col('First Seen', 'string', (o, now) => eventCells(o, now).first, 1),
  col('Count', 'string', (o, now) => eventCells(o, now).count, 1),
  { ...nameColumn, priority: 1 },
];

/** printAPIService (kube-aggregator): the backing Service or Local, and the Available condition with its reason. */
const apiServiceAvailable = (o: PrintedObject): string => {
  const available = (o.status?.conditions ?? []).find((c: any) => c?.type === 'Available');
  if (!available) return 'Unknown';
  if (available.status === 'True' || !available.reason) return String(available.status ?? '');
  return `${available.status} (${available.reason})`;
};

const ingressClassParameters = (o: PrintedObject): string => {
  const p = o.spec?.parameters;
  if (!p) return NONE;
  return `${p.kind}${p.apiGroup != null ? `.${p.apiGroup}` : ''}/${p.name}`;
};

const webhookColumns: PrintColumn[] = [
  nameColumn,
  col('Webhooks', 'integer', (o) => (o.webhooks ?? []).length),
  ageColumn,
];

/** Column sets by kind; kinds not listed print NAME and AGE. */
export const printColumnsByKind: Record<string, PrintColumn[]> = {
  Pod: podColumns,
  Node: nodeColumns,
  Namespace: [nameColumn, col('Status', 'string', (o) => o.status?.phase ?? 'Active'), ageColumn],
  Deployment: deploymentColumns,
  ReplicaSet: replicaSetColumns,
  StatefulSet: statefulSetColumns,
  DaemonSet: daemonSetColumns,
  Job: jobColumns,
  CronJob: cronJobColumns,
  Service: serviceColumns,
  ConfigMap: [nameColumn, col('Data', 'integer', dataCount), ageColumn],
  Secret: [nameColumn, col('Type', 'string', (o) => o.type ?? 'Opaque'), col('Data', 'integer', dataCount), ageColumn],
  ServiceAccount: [nameColumn, col('Secrets', 'integer', (o) => (o.secrets ?? []).length), ageColumn],
  Ingress: ingressColumns,
  HorizontalPodAutoscaler: hpaColumns,
  PodDisruptionBudget: pdbColumns,
  PersistentVolumeClaim: pvcColumns,
  Event: eventColumns,
  ResourceQuota: [
    nameColumn,
    ageColumn,
    col('Request', 'string', quotaUsage(false)),
    col('Limit', 'string', quotaUsage(true)),
  ],
  Role: [nameColumn, createdAt],
  ClusterRole: [nameColumn, createdAt],
  RoleBinding: bindingColumns,
  ClusterRoleBinding: bindingColumns,
  StorageClass: [
    {
      ...nameColumn,
      // IsDefaultAnnotation: the GA annotation or the beta one.
      cell: (o) =>
        `${o.metadata.name}${o.metadata.annotations?.[DEFAULT_CLASS] === 'true' || o.metadata.annotations?.[BETA_DEFAULT_CLASS] === 'true' ? ' (default)' : ''}`,
    },
    col('Provisioner', 'string', (o) => o.provisioner ?? ''),
    col('ReclaimPolicy', 'string', (o) => o.reclaimPolicy ?? 'Delete'),
    col('VolumeBindingMode', 'string', (o) => o.volumeBindingMode ?? 'Immediate'),
    col('AllowVolumeExpansion', 'string', (o) => String(o.allowVolumeExpansion ?? false)),
    ageColumn,
  ],
  PriorityClass: [
    nameColumn,
    col('Value', 'integer', (o) => int(o.value)),
    col('Global-Default', 'boolean', (o) => o.globalDefault === true),
    ageColumn,
    col('PreemptionPolicy', 'string', (o) => o.preemptionPolicy ?? 'PreemptLowerPriority'),
  ],
  ControllerRevision: [
    nameColumn,
    col('Controller', 'string', controllerOf),
    col('Revision', 'string', (o) => String(o.revision ?? 0)),
    ageColumn,
  ],
  PersistentVolume: pvColumns,
  EndpointSlice: [
    nameColumn,
    col('AddressType', 'string', (o) => o.addressType ?? ''),
    col('Ports', 'string', endpointSlicePorts),
    col('Endpoints', 'string', endpointSliceEndpoints),
    ageColumn,
  ],
  Endpoints: [nameColumn, col('Endpoints', 'string', endpointsAddresses), ageColumn],
  Lease: [nameColumn, col('Holder', 'string', (o) => o.spec?.holderIdentity ?? ''), ageColumn],
  APIService: [
    nameColumn,
    col('Service', 'string', (o) =>
      o.spec?.service ? `${o.spec.service.namespace ?? ''}/${o.spec.service.name ?? ''}` : 'Local',
    ),
    col('Available', 'string', apiServiceAvailable),
    ageColumn,
  ],
  IngressClass: [
    nameColumn,
    col('Controller', 'string', (o) => o.spec?.controller ?? ''),
    col('Parameters', 'string', ingressClassParameters),
    ageColumn,
  ],
  NetworkPolicy: [
    nameColumn,
    col('Pod-Selector', 'string', (o) => (o.spec?.podSelector ? formatLabelSelector(o.spec.podSelector) : '') || NONE),
    ageColumn,
  ],
  ValidatingWebhookConfiguration: webhookColumns,
  MutatingWebhookConfiguration: webhookColumns,
  RuntimeClass: [nameColumn, col('Handler', 'string', (o) => o.handler ?? ''), ageColumn],
  ReplicationController: [
    nameColumn,
    col('Desired', 'integer', (o) => int(o.spec?.replicas)),
    col('Current', 'integer', (o) => int(o.status?.replicas)),
    col('Ready', 'integer', (o) => int(o.status?.readyReplicas)),
    ageColumn,
    containersCol,
    imagesCol,
    col('Selector', 'string', (o) => formatLabels(o.spec?.selector), 1),
  ],
  CSIDriver: [
    nameColumn,
    col('AttachRequired', 'boolean', (o) => o.spec?.attachRequired ?? true),
    col('PodInfoOnMount', 'boolean', (o) => o.spec?.podInfoOnMount ?? false),
    col('StorageCapacity', 'boolean', (o) => o.spec?.storageCapacity ?? false),
    col('TokenRequests', 'string', (o) =>
      o.spec?.tokenRequests ? o.spec.tokenRequests.map((t: any) => t?.audience ?? '').join(',') : '<unset>',
    ),
    col('RequiresRepublish', 'boolean', (o) => o.spec?.requiresRepublish ?? false),
    col('Modes', 'string', (o) => (o.spec?.volumeLifecycleModes ?? []).join(',') || NONE),
    ageColumn,
  ],
  // Served with the registry's default Table convertor, as Roles are.
  LimitRange: [nameColumn, createdAt],
  CustomResourceDefinition: [
    nameColumn,
    col('Created At', 'date', (o) => (o.metadata.creationTimestamp ?? '').replace(/\.\d+Z$/, 'Z')),
  ],
};
