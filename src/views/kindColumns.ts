import { formatLabelSelector } from '../labels/formatLabelSelector.ts';
import { formatLabels } from '../labels/formatLabels.ts';
import { ingressHosts } from '../printers/ingressHosts.ts';
import { jobCompletions, jobStatus } from '../printers/jobCells.ts';
import { loadBalancerAddresses, serviceExternalIp } from '../printers/serviceExternalIp.ts';
import { humanDuration } from '../time/humanDuration.ts';

type Obj = Record<string, unknown>;

/** What a cell may depend on beyond the object: -o wide (it widens clipped cells) and the clock (durations). */
export interface CellContext {
  wide: boolean;
  now: Date;
}

/** kubectl's columns for one kind, between NAME and AGE; `wide` ones come after AGE with -o wide. */
export interface KindColumns {
  headers: string[];
  cells: (manifest: Obj, status: Obj | undefined, ctx: CellContext) => string[];
  wideHeaders: string[];
  wideCells: (manifest: Obj, status: Obj | undefined) => string[];
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
    default:
      return NONE;
  }
}
