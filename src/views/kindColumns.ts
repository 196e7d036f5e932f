import type { PrintColumn, PrintedObject } from '../printers/printedObject.ts';
import { printColumnsByKind } from '../printers/tableColumns.ts';

type Obj = Record<string, unknown>;
type Condition = { type?: unknown; status?: unknown };

/** What a cell may depend on beyond the object: -o wide and the clock (durations). */
export interface CellContext {
  wide: boolean;
  now: Date;
}

/**
 * kubectl's columns for one kind besides NAME and AGE: `headers` are the default ones (AGE goes before the one at
 * `ageIndex`, after the last when absent), `wide` ones come after AGE with -o wide. Kinds the API server prints with
 * its default Table convertor (Roles, ClusterRoles) have CREATED AT, an RFC 3339 time, where the others have AGE.
 */
export interface KindColumns {
  /** The NAME cell when it is more than the name (a default StorageClass is marked). */
  name?: (manifest: Obj, name: string) => string;
  headers: string[];
  cells: (manifest: Obj, status: Obj | undefined, ctx: CellContext) => string[];
  wideHeaders: string[];
  wideCells: (manifest: Obj, status: Obj | undefined, ctx: CellContext) => string[];
  ageHeader?: 'AGE' | 'CREATED AT';
  ageIndex?: number;
}

const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as Obj)[k] : undefined), o);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const record = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

const WORKLOADS_WITH_REPLICAS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

/** A CPU utilization metric, as autoscaling/v2 writes it. */
const cpuMetric = (averageUtilization: unknown, key: 'target' | 'current') => ({
  type: 'Resource',
  resource: { name: 'cpu', [key]: { type: 'Utilization', averageUtilization } },
});

/**
 * The template as the API server stores it, for the fields kubectl's printers read: a template in Git is what was
 * written, not what a `kubectl get` against Karmada's API server reads back, which has its defaults (a replica
 * count of 1, an HPA's minimum of 1 and 80% CPU target, a claim's Filesystem mode and Pending phase, a Service's
 * clusterIPs from its clusterIP, a Secret's stringData merged into data) and an autoscaling/v1 HPA converted to the
 * v2 metrics the printer reads. `status` is the aggregated one, or a member's.
 */
function asStored(kind: string, manifest: Obj, status: Obj | undefined): PrintedObject {
  const spec = record(manifest.spec);
  const stored: PrintedObject = { ...manifest, metadata: record(manifest.metadata), ...(status ? { status } : {}) };
  const withSpec = (extra: Obj): PrintedObject => ({ ...stored, spec: { ...spec, ...extra } });
  const withStatus = (extra: Obj) => ({ ...(stored.status as Obj | undefined), ...extra });
  if (WORKLOADS_WITH_REPLICAS.has(kind) && typeof spec.replicas !== 'number') return withSpec({ replicas: 1 });
  switch (kind) {
    case 'CronJob':
      return withSpec({ suspend: spec.suspend ?? false });
    case 'PersistentVolumeClaim':
      return {
        ...withSpec({ volumeMode: spec.volumeMode ?? 'Filesystem' }),
        status: withStatus({ phase: status?.phase ?? 'Pending' }),
      };
    case 'PersistentVolume':
      return {
        ...withSpec({
          volumeMode: spec.volumeMode ?? 'Filesystem',
          persistentVolumeReclaimPolicy: spec.persistentVolumeReclaimPolicy ?? 'Retain',
        }),
        status: withStatus({ phase: status?.phase ?? 'Pending' }),
      };
    case 'Service': {
      // NormalizeClusterIPs: the plural from the singular, when only the singular is given.
      const single = str(spec.clusterIP);
      return list(spec.clusterIPs).length === 0 && single ? withSpec({ clusterIPs: [single] }) : withSpec({});
    }
    case 'Secret':
      return { ...stored, data: { ...record(manifest.data), ...record(manifest.stringData) } };
    case 'HorizontalPodAutoscaler': {
      const minReplicas = spec.minReplicas ?? 1;
      if (String(manifest.apiVersion ?? '') === 'autoscaling/v1') {
        const current = status?.currentCPUUtilizationPercentage;
        return {
          ...withSpec({ minReplicas, metrics: [cpuMetric(spec.targetCPUUtilizationPercentage ?? 80, 'target')] }),
          status: withStatus({ currentMetrics: typeof current === 'number' ? [cpuMetric(current, 'current')] : [] }),
        };
      }
      const metrics = list(spec.metrics);
      return withSpec({ minReplicas, metrics: metrics.length > 0 ? metrics : [cpuMetric(80, 'target')] });
    }
    default:
      return stored;
  }
}

/** A Table cell as kubectl prints it. */
const cellText = (value: string | number | boolean | null): string => (value === null ? '<none>' : String(value));

const isAge = (c: PrintColumn) => c.name === 'Age' || c.name === 'Created At';

/**
 * The printer columns kubectl shows for a template's kind: the API server's Table columns
 * (printers/tableColumns.ts, which the member emulator serves too) over the template as stored with its aggregated
 * status; other kinds get NAME AGE only. Pure.
 */
export function kindColumns(kind: string): KindColumns {
  if (kind === 'CustomResourceDefinition') return CRD_COLUMNS;
  // A custom kind may be named like an Object member (a CRD's `toString`): only the table's own kinds count.
  if (!Object.hasOwn(printColumnsByKind, kind)) return NONE;
  const table = printColumnsByKind[kind]!;
  const [nameColumn, ...rest] = table;
  const shown = rest.filter((c) => c.priority === 0 && !isAge(c));
  const wide = rest.filter((c) => c.priority === 1);
  const age = rest.filter((c) => c.priority === 0).findIndex(isAge);
  const cells = (columns: PrintColumn[]) => (manifest: Obj, status: Obj | undefined, ctx: CellContext) => {
    const stored = asStored(kind, manifest, status);
    return columns.map((c) => cellText(c.cell(stored, ctx.now.getTime())));
  };
  return {
    ...(nameColumn?.name === 'Name'
      ? {
          name: (manifest: Obj, name: string) =>
            cellText(nameColumn.cell({ ...manifest, metadata: { ...record(manifest.metadata), name } }, 0)),
        }
      : {}),
    headers: shown.map((c) => c.name.toUpperCase()),
    cells: cells(shown),
    wideHeaders: wide.map((c) => c.name.toUpperCase()),
    wideCells: cells(wide),
    ...(rest.some((c) => c.name === 'Created At') ? { ageHeader: 'CREATED AT' as const } : {}),
    ...(age >= 0 && age < shown.length ? { ageIndex: age } : {}),
  };
}

// The CRD registry's own convertor (apiextensions-apiserver customresourcedefinition/tableconvertor), which the
// member emulator, at Kubernetes 1.32, does not have.
const CRD_COLUMNS: KindColumns = {
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

const NONE: KindColumns = { headers: [], cells: () => [], wideHeaders: [], wideCells: () => [] };
