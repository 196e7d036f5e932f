import { formatLabelSelector } from '../labels/formatLabelSelector.ts';
import { formatLabels } from '../labels/formatLabels.ts';
import { canonicalQuantity } from '../quantities/canonicalQuantity.ts';
import { hpaTargets } from '../printers/hpaTargets.ts';
import { ingressHosts } from '../printers/ingressHosts.ts';
import { jobCompletions, jobStatus } from '../printers/jobCells.ts';
import { loadBalancerAddresses, serviceExternalIp } from '../printers/serviceExternalIp.ts';
import { humanDuration } from '../time/humanDuration.ts';

type Obj = Record<string, unknown>;
type Condition = { type?: unknown; status?: unknown };

/** What a cell may depend on beyond the object: -o wide (it widens clipped cells) and the clock (durations). */
export interface CellContext {
  wide: boolean;
  now: Date;
}

/**
 * kubectl's columns for one kind, between NAME and AGE; `wide` ones come after AGE with -o wide. Kinds the API server
 * prints with its default Table convertor (Roles, ClusterRoles) or the CRD convertor have CREATED AT, an RFC 3339
 * time, where the others have AGE.
 */
export interface KindColumns {
  /** The NAME cell when it is more than the name (a default StorageClass is marked). */
  name?: (manifest: Obj, name: string) => string;
  headers: string[];
  cells: (manifest: Obj, status: Obj | undefined, ctx: CellContext) => string[];
  wideHeaders: string[];
  wideCells: (manifest: Obj, status: Obj | undefined) => string[];
  ageHeader?: 'AGE' | 'CREATED AT';
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as Obj)[k] : undefined), o);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function containers(m: Obj): { names: string; images: string } {
  const list = (get(m, 'spec', 'template', 'spec', 'containers') ??
    get(m, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers') ??
    []) as { name?: string; image?: string }[];
  return {
    names: list.map((c) => c.name ?? '').join(',') || '<none>',
    images: list.map((c) => c.image ?? '').join(',') || '<none>',
  };
}

/** metav1.FormatLabelSelector: requirements sorted by key, matchExpressions included; none selects nothing shown. */
function selectorCell(selector: unknown): string {
  return (selector && typeof selector === 'object' ? formatLabelSelector(selector) : '') || '<none>';
}

/** Since the Job started, until it completed or now; empty before it started. */
function jobDuration(status: Obj | undefined, now: Date): string {
  const started = str(status?.startTime);
  if (!started) return '';
  const completed = str(status?.completionTime);
  return humanDuration((completed ? Date.parse(completed) : now.getTime()) - Date.parse(started));
}

/** printBoolPtr; the API server defaults an unset suspend to false. */
const boolCell = (v: unknown): string => (v === true ? 'True' : 'False');

/** An IntOrString as Go prints it. */
const intOrString = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A');

/** A replica count the API server defaults to 1 when the template leaves it out. */
const replicas = (m: Obj): number => {
  const r = get(m, 'spec', 'replicas');
  return typeof r === 'number' ? r : 1;
};

/** GetAccessModesAsString: the short names in this order, each once, whatever order the object lists them in. */
const ACCESS_MODES: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];
const accessModes = (modes: unknown): string =>
  ACCESS_MODES.filter(([mode]) => list(modes).includes(mode))
    .map(([, short]) => short)
    .join(',');

const annotation = (m: Obj, key: string): unknown => get(m, 'metadata', 'annotations', key);

/**
 * An autoscaling/v1 HPA's CPU target and utilization as the metrics the API server converts them to; with no metric
 * at all the API server defaults a CPU utilization target of 80% (autoscaling/v2 SetDefaults, v1 conversion).
 */
function hpaMetrics(m: Obj, s: Obj | undefined): { metrics: unknown[]; current: unknown } {
  const cpu = (v: unknown, key: 'target' | 'current') => ({
    type: 'Resource',
    resource: { name: 'cpu', [key]: { type: 'Utilization', averageUtilization: v } },
  });
  if (String(m.apiVersion ?? '') === 'autoscaling/v1') {
    const target = get(m, 'spec', 'targetCPUUtilizationPercentage');
    const current = s?.currentCPUUtilizationPercentage;
    return {
      metrics: [cpu(typeof target === 'number' ? target : 80, 'target')],
      current: typeof current === 'number' ? [cpu(current, 'current')] : [],
    };
  }
  const metrics = list(get(m, 'spec', 'metrics'));
  return { metrics: metrics.length > 0 ? metrics : [cpu(80, 'target')], current: s?.currentMetrics };
}

/** rbac.SubjectsStrings: the subjects of one kind, a ServiceAccount as namespace/name. */
const subjects = (m: Obj, kind: string): string =>
  list<{ kind?: unknown; name?: unknown; namespace?: unknown }>(m.subjects)
    .filter((s) => s?.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s.namespace) ?? ''}/${str(s.name) ?? ''}` : (str(s.name) ?? '')))
    .join(', ');

const bindingColumns: KindColumns = {
  headers: ['ROLE'],
  cells: (m) => [`${str(get(m, 'roleRef', 'kind')) ?? ''}/${str(get(m, 'roleRef', 'name')) ?? ''}`],
  wideHeaders: ['USERS', 'GROUPS', 'SERVICEACCOUNTS'],
  wideCells: (m) => [subjects(m, 'User'), subjects(m, 'Group'), subjects(m, 'ServiceAccount')],
};

const NONE: KindColumns = { headers: [], cells: () => [], wideHeaders: [], wideCells: () => [] };

/**
 * The printer columns kubectl shows for the kinds templates usually are (k8s.io/kubernetes/pkg/printers/internalversion
 * printers.go), from the template and its aggregated status; other kinds get NAME AGE only. Pure.
 */
export function kindColumns(kind: string): KindColumns {
  switch (kind) {
    case 'Deployment':
      return {
        headers: ['READY', 'UP-TO-DATE', 'AVAILABLE'],
        cells: (m, s) => [
          `${num(s?.readyReplicas)}/${typeof get(m, 'spec', 'replicas') === 'number' ? get(m, 'spec', 'replicas') : 1}`,
          String(num(s?.updatedReplicas)),
          String(num(s?.availableReplicas)),
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selectorCell(get(m, 'spec', 'selector'))],
      };
    case 'StatefulSet':
      return {
        headers: ['READY'],
        cells: (m, s) => [
          `${num(s?.readyReplicas)}/${typeof get(m, 'spec', 'replicas') === 'number' ? get(m, 'spec', 'replicas') : 1}`,
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES'],
        wideCells: (m) => [containers(m).names, containers(m).images],
      };
    case 'DaemonSet':
      return {
        headers: ['DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR'],
        cells: (m, s) =>
          [
            s?.desiredNumberScheduled,
            s?.currentNumberScheduled,
            s?.numberReady,
            s?.updatedNumberScheduled,
            s?.numberAvailable,
          ]
            .map((v) => String(num(v)))
            .concat(formatLabels(get(m, 'spec', 'template', 'spec', 'nodeSelector'))),
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selectorCell(get(m, 'spec', 'selector'))],
      };
    case 'Job':
      return {
        headers: ['STATUS', 'COMPLETIONS', 'DURATION'],
        cells: (m, s, ctx) => [
          jobStatus(s?.conditions, false),
          jobCompletions(get(m, 'spec'), s?.succeeded),
          jobDuration(s, ctx.now),
        ],
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selectorCell(get(m, 'spec', 'selector'))],
      };
    case 'CronJob':
      return {
        headers: ['SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE'],
        cells: (m, s, ctx) => {
          const last = str(s?.lastScheduleTime);
          return [
            str(get(m, 'spec', 'schedule')) ?? '',
            str(get(m, 'spec', 'timeZone')) ?? '<none>',
            boolCell(get(m, 'spec', 'suspend')),
            String(list(s?.active).length),
            last ? humanDuration(ctx.now.getTime() - Date.parse(last)) : '<none>',
          ];
        },
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [
          containers(m).names,
          containers(m).images,
          selectorCell(get(m, 'spec', 'jobTemplate', 'spec', 'selector')),
        ],
      };
    case 'Service':
      return {
        headers: ['TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)'],
        cells: (m, s, ctx) => {
          const ports = list<{ port?: number; protocol?: string; nodePort?: number }>(get(m, 'spec', 'ports'))
            .map((p) => `${p.port ?? 0}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
            .join(',');
          // The API server fills clusterIPs from clusterIP; the template may say either.
          const clusterIp = list<string>(get(m, 'spec', 'clusterIPs'))[0] ?? str(get(m, 'spec', 'clusterIP'));
          return [
            str(get(m, 'spec', 'type')) ?? 'ClusterIP',
            clusterIp || '<none>',
            serviceExternalIp(get(m, 'spec'), get(s, 'loadBalancer', 'ingress'), ctx.wide),
            ports || '<none>',
          ];
        },
        wideHeaders: ['SELECTOR'],
        wideCells: (m) => [formatLabels(get(m, 'spec', 'selector'))],
      };
    case 'Ingress':
      return {
        ...NONE,
        headers: ['CLASS', 'HOSTS', 'ADDRESS', 'PORTS'],
        cells: (m, s, ctx) => [
          str(get(m, 'spec', 'ingressClassName')) ?? '<none>',
          ingressHosts(get(m, 'spec', 'rules')),
          loadBalancerAddresses(get(s, 'loadBalancer', 'ingress'), ctx.wide),
          list(get(m, 'spec', 'tls')).length > 0 ? '80, 443' : '80',
        ],
      };
    case 'PodDisruptionBudget':
      return {
        ...NONE,
        headers: ['MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS'],
        cells: (m, s) => [
          intOrString(get(m, 'spec', 'minAvailable')),
          intOrString(get(m, 'spec', 'maxUnavailable')),
          String(num(s?.disruptionsAllowed)),
        ],
      };
    case 'ConfigMap':
      return {
        ...NONE,
        headers: ['DATA'],
        cells: (m) => [
          String(Object.keys((m.data ?? {}) as Obj).length + Object.keys((m.binaryData ?? {}) as Obj).length),
        ],
      };
    case 'Secret':
      return {
        ...NONE,
        headers: ['TYPE', 'DATA'],
        cells: (m) => [
          (m.type as string | undefined) ?? 'Opaque',
          String(Object.keys({ ...((m.data ?? {}) as Obj), ...((m.stringData ?? {}) as Obj) }).length),
        ],
      };
    case 'CronFederatedHPA':
      // Karmada's printer columns (pkg/apis/autoscaling/v1alpha1/cronfederatedhpa_types.go); a FederatedHPA has its
      // own view (federatedHpaViews.ts).
      return {
        ...NONE,
        headers: ['REFERENCE-KIND', 'REFERENCE-NAME'],
        cells: (m) => [
          String(get(m, 'spec', 'scaleTargetRef', 'kind') ?? '<none>'),
          String(get(m, 'spec', 'scaleTargetRef', 'name') ?? '<none>'),
        ],
      };
    case 'Namespace':
      return { ...NONE, headers: ['STATUS'], cells: () => ['Active'] };
    case 'ReplicaSet':
      return {
        headers: ['DESIRED', 'CURRENT', 'READY'],
        cells: (m, s) => [String(replicas(m)), String(num(s?.replicas)), String(num(s?.readyReplicas))],
        wideHeaders: ['CONTAINERS', 'IMAGES', 'SELECTOR'],
        wideCells: (m) => [containers(m).names, containers(m).images, selectorCell(get(m, 'spec', 'selector'))],
      };
    case 'HorizontalPodAutoscaler':
      return {
        ...NONE,
        headers: ['REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS'],
        cells: (m, s) => {
          const { metrics, current } = hpaMetrics(m, s);
          const min = get(m, 'spec', 'minReplicas');
          return [
            `${str(get(m, 'spec', 'scaleTargetRef', 'kind')) ?? ''}/${str(get(m, 'spec', 'scaleTargetRef', 'name')) ?? ''}`,
            hpaTargets(metrics, current),
            String(typeof min === 'number' ? min : 1),
            String(num(get(m, 'spec', 'maxReplicas'))),
            String(num(s?.currentReplicas)),
          ];
        },
      };
    case 'PersistentVolumeClaim':
      return {
        headers: ['STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS'],
        cells: (m, s) => {
          // A bound claim's capacity and modes are its volume's, from its status; the API server defaults the phase.
          const volume = str(get(m, 'spec', 'volumeName')) ?? '';
          const capacity = get(s, 'capacity', 'storage');
          return [
            get(m, 'metadata', 'deletionTimestamp') ? 'Terminating' : (str(s?.phase) ?? 'Pending'),
            volume,
            volume && capacity !== undefined ? String(canonicalQuantity(capacity, false) ?? '') : '',
            volume ? accessModes(s?.accessModes) : '',
            // GetPersistentVolumeClaimClass: the beta annotation wins over the field.
            str(annotation(m, 'volume.beta.kubernetes.io/storage-class')) ??
              str(get(m, 'spec', 'storageClassName')) ??
              '',
            str(get(m, 'spec', 'volumeAttributesClassName')) || '<unset>',
          ];
        },
        wideHeaders: ['VOLUMEMODE'],
        wideCells: (m) => [str(get(m, 'spec', 'volumeMode')) ?? 'Filesystem'],
      };
    case 'NetworkPolicy':
      return { ...NONE, headers: ['POD-SELECTOR'], cells: (m) => [selectorCell(get(m, 'spec', 'podSelector') ?? {})] };
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return bindingColumns;
    case 'StorageClass':
      return {
        ...NONE,
        name: (m, name) =>
          annotation(m, 'storageclass.kubernetes.io/is-default-class') === 'true' ||
          annotation(m, 'storageclass.beta.kubernetes.io/is-default-class') === 'true'
            ? `${name} (default)`
            : name,
        headers: ['PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION'],
        cells: (m) => [
          str(m.provisioner) ?? '',
          str(m.reclaimPolicy) ?? 'Delete',
          str(m.volumeBindingMode) ?? 'Immediate',
          String(m.allowVolumeExpansion === true),
        ],
      };
    case 'ServiceAccount':
      return { ...NONE, headers: ['SECRETS'], cells: (m) => [String(list(m.secrets).length)] };
    case 'Role':
    case 'ClusterRole':
      return { ...NONE, ageHeader: 'CREATED AT' };
    case 'CustomResourceDefinition':
      // The CRD registry's own convertor (apiextensions-apiserver customresourcedefinition/tableconvertor).
      return {
        headers: ['SCOPE', 'VERSIONS'],
        cells: (m) => [
          str(get(m, 'spec', 'scope')) ?? '',
          list<{ name?: unknown; served?: unknown; storage?: unknown }>(get(m, 'spec', 'versions'))
            .filter((v) => v?.served === true)
            .map((v) => `${str(v.name) ?? ''}${v.storage === true ? '(storage)' : ''}`)
            .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
            .join(','),
        ],
        ageHeader: 'CREATED AT',
        wideHeaders: ['GROUP', 'KIND', 'SHORTNAMES', 'ESTABLISHED'],
        wideCells: (m, s) => [
          str(get(m, 'spec', 'group')) ?? '',
          str(get(m, 'spec', 'names', 'kind')) ?? '',
          list<string>(get(m, 'spec', 'names', 'shortNames')).join(','),
          String(list<Condition>(s?.conditions).some((c) => c?.type === 'Established' && c.status === 'True')),
        ],
      };
    default:
      return NONE;
  }
}
