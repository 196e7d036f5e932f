import { sourceTreeEntries } from '../outputs/sourceLimits.ts';
import type { ResourceBinding } from '../api/binding.ts';
import type { Cluster, ClusterStatus, Condition } from '../api/cluster.ts';
import { groupOf, parseRefKey, refKey, versionOf, writtenAs, type ObjectRef } from '../api/kinds.ts';
import { formatTime } from '../time/formatTime.ts';
import { humanDuration } from '../time/humanDuration.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import {
  appliedFailedMessage,
  appliedPath,
  asKarmadaStatusItem,
  clusterStatusPath,
  isAwaitingApply,
  isHeldDeletion,
  templateStatusPath,
  type AppliedRecord,
  type TemplateStatusFile,
} from '../branches/status/statusFiles.ts';
import { bindingPath, CLUSTER_SCOPED_FOLDER, manifestPath } from '../branches/rendered/outputPaths.ts';
import { withoutWorkOnlyAnnotations, WORK_ONLY_ANNOTATIONS } from '../branches/rendered/workOnlyAnnotations.ts';
import type { IndexEntry } from '../branches/rendered/outputIndex.ts';
import { formatTaint } from '../registrations/editClusterFile.ts';
import { listFederatedHpas, readFederatedHpas } from './federatedHpaViews.ts';
import { listFederatedQuotas, readFederatedQuotas } from './federatedQuotaViews.ts';
import { crdPrinterColumns, type PrinterColumn } from './crdPrinterColumns.ts';
import { kindColumns } from './kindColumns.ts';
import { listPolicies, readPolicyViews } from './policyViews.ts';
import { replicasFromAutoscaler, replicasFromMembers } from './replicasFromMembers.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import { withoutSecretStatus } from '../statuses/withoutSecretStatus.ts';
import { redactSecret } from './redactSecret.ts';
import {
  customResourceDefinitions,
  readDocuments,
  readRegisteredClusters,
  tooLargeToRead,
  type BranchState,
  type Fleet,
  type RenderedIndex,
  type TemplateKind,
} from './readFleet.ts';
import { readFirstSeen } from './readFirstSeen.ts';
import { takesKind, type ResourceType } from './resolveResourceType.ts';
import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';
import { markerTool } from '../units/detectUnits.ts';
import { readUnitObjects } from '../units/readUnitObjects.ts';

type Obj = Record<string, unknown>;

export interface ListingQuery {
  name?: string;
  /** Undefined: `default`. Ignored with allNamespaces. */
  namespace?: string;
  allNamespaces: boolean;
  cluster?: string;
  wide: boolean;
  now: Date;
}

/** One `get`: the table (headers include NAMESPACE when it applies) and the objects behind its rows, for -o yaml|json. */
export interface Listing {
  headers: string[];
  rows: string[][];
  objects: Obj[];
  /** Namespaced type: the empty message names the namespace. */
  namespaced: boolean;
  /** What kubectl would print as a server's Warning: something the listing cannot show. */
  warnings?: string[];
}

const age = (now: Date, seconds: number | undefined) =>
  seconds === undefined ? '<unknown>' : humanDuration(now.getTime() - seconds * 1000);
/** The default Table convertor's Created At: the creation time in UTC, RFC 3339; Go's zero time when unknown. */
const createdAt = (seconds: number | undefined) =>
  seconds === undefined ? '0001-01-01T00:00:00Z' : formatTime(new Date(seconds * 1000));
const conditionStatus = (conditions: Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type)?.status ?? 'Unknown';

/** Reads what one resource type needs from the three branches and lays it out as kubectl would. */
export async function readListing(fleet: Fleet, type: ResourceType, q: ListingQuery): Promise<Listing> {
  switch (type.type) {
    case 'clusters':
      return listClusters(fleet, q);
    case 'bindings':
      return listBindings(fleet, type.scope, q);
    case 'works':
      return listWorks(fleet, q);
    case 'templates':
      return listTemplates(fleet, type, q);
    case 'federatedhpas':
      return listFederatedHpas(await readFederatedHpas(fleet), q);
    case 'federatedresourcequotas':
      return listFederatedQuotas(await readFederatedQuotas(fleet), q);
    case 'policies': {
      const { views, filesWithErrors } = await readPolicyViews(fleet, type.kind);
      const listing = listPolicies(views, type.kind, q);
      if (filesWithErrors.length === 0) return listing;
      const shown = filesWithErrors.slice(0, 3).join(', ');
      const more = filesWithErrors.length > 3 ? ` and ${filesWithErrors.length - 3} more` : '';
      return {
        ...listing,
        warnings: [
          `${filesWithErrors.length} file${filesWithErrors.length > 1 ? 's' : ''} of the source commit do${filesWithErrors.length > 1 ? '' : 'es'} not validate (${shown}${more}): what they define is not listed; flotilla validate says why`,
        ],
      };
    }
  }
}

export interface ClusterView {
  cluster: Cluster;
  file: string;
  applied?: AppliedRecord;
}

/** Registrations from the source commit, status from the status branch. */
export async function readClusterViews(fleet: Fleet): Promise<Map<string, ClusterView>> {
  const registered = await readRegisteredClusters(fleet);
  const statusDocs = fleet.status
    ? await readDocuments(
        fleet.repo,
        fleet.status,
        [...registered.keys()].flatMap((n) => [clusterStatusPath(n), appliedPath(n)]),
      )
    : new Map<string, unknown[]>();
  const out = new Map<string, ClusterView>();
  for (const [name, { cluster, file }] of registered) {
    const status = (statusDocs.get(clusterStatusPath(name))?.[0] as Cluster | undefined)?.status;
    const applied = statusDocs.get(appliedPath(name))?.[0] as AppliedRecord | undefined;
    out.set(name, { cluster: { ...cluster, ...(status ? { status } : {}) }, file, ...(applied ? { applied } : {}) });
  }
  return out;
}

async function listClusters(fleet: Fleet, q: ListingQuery): Promise<Listing> {
  const views = [...(await readClusterViews(fleet)).values()].filter(
    (v) => q.name === undefined || v.cluster.metadata.name === q.name,
  );
  const ages = await readFirstSeen(
    fleet.repo,
    fleet.source.commit.oid,
    views.map((v) => v.file),
  );
  const headers = [
    'NAME',
    'VERSION',
    'MODE',
    'READY',
    'AGE',
    ...(q.wide ? ['PROVIDER', 'REGION', 'ZONES', 'TAINTS'] : []),
  ];
  const rows = views.map(({ cluster: c, file }) => {
    const status: ClusterStatus | undefined = c.status;
    return [
      c.metadata.name!,
      status?.kubernetesVersion ?? '<unknown>',
      c.spec?.syncMode ?? 'Push',
      conditionStatus(status?.conditions, 'Ready'),
      age(q.now, ages.get(file)),
      ...(q.wide
        ? [
            c.spec?.provider ?? '<none>',
            c.spec?.region ?? '<none>',
            (c.spec?.zones ?? (c.spec?.zone ? [c.spec.zone] : [])).join(',') || '<none>',
            (c.spec?.taints ?? []).map(formatTaint).join(',') || '<none>',
          ]
        : []),
    ];
  });
  return { headers, rows, objects: views.map((v) => v.cluster as unknown as Obj), namespaced: false };
}

/** The template status files of the given refs, by path. */
async function readTemplateStatuses(
  fleet: Fleet,
  refs: readonly ObjectRef[],
): Promise<Map<string, TemplateStatusFile>> {
  if (!fleet.status) return new Map();
  const docs = await readDocuments(fleet.repo, fleet.status, refs.map(templateStatusPath));
  return new Map([...docs].map(([p, d]) => [p, withoutSecretStatus(d[0] as TemplateStatusFile)]));
}

async function listBindings(fleet: Fleet, scope: 'namespaced' | 'cluster', q: ListingQuery): Promise<Listing> {
  const rendered = requireRendered(fleet);
  const folder = scope === 'cluster' ? CLUSTER_SCOPED_FOLDER : q.allNamespaces ? undefined : (q.namespace ?? 'default');
  const paths = [...(await rendered.list('bindings')).keys()].filter((p) => {
    const [top, ns, file] = p.split('/');
    if (top !== 'bindings' || !file) return false;
    if (scope === 'cluster' ? ns !== CLUSTER_SCOPED_FOLDER : ns === CLUSTER_SCOPED_FOLDER) return false;
    return folder === undefined || ns === folder;
  });
  const docs = await readDocuments(fleet.repo, rendered, paths);
  const bindings = paths
    .map((p) => ({ path: p, binding: docs.get(p)?.[0] as ResourceBinding | undefined }))
    .filter(
      (b): b is { path: string; binding: ResourceBinding } =>
        Boolean(b.binding) && (q.name === undefined || b.binding!.metadata.name === q.name),
    );
  const refOf = (b: ResourceBinding): ObjectRef => ({
    apiVersion: b.spec.resource.apiVersion,
    kind: b.spec.resource.kind,
    namespace: b.spec.resource.namespace ?? '',
    name: b.spec.resource.name,
  });
  const statuses = await readTemplateStatuses(
    fleet,
    bindings.map((b) => refOf(b.binding)),
  );
  const ages = await readFirstSeen(
    fleet.repo,
    rendered.commit.oid,
    bindings.map((b) => b.path),
  );
  const showNs = scope === 'namespaced' && q.allNamespaces;
  const headers = [
    ...(showNs ? ['NAMESPACE'] : []),
    'NAME',
    'SCHEDULED',
    'FULLYAPPLIED',
    'AGE',
    ...(q.wide ? ['REPLICAS', 'CLUSTERS'] : []),
  ];
  const objects: Obj[] = [];
  const rows = bindings.map(({ path, binding: b }) => {
    const status = statuses.get(templateStatusPath(refOf(b)));
    const conditions = [
      ...(b.status?.conditions ?? []).filter((c) => c.type !== 'FullyApplied'),
      ...(status?.conditions ?? []),
    ];
    const items = (status?.aggregatedStatus ?? []).filter((i) => !isHeldDeletion(i)).map(bindingStatusItem);
    objects.push({
      ...b,
      status: {
        ...(b.status ?? {}),
        conditions,
        // omitempty, as ResourceBindingStatus tags it: a binding with no Work has none.
        ...(items.length > 0 ? { aggregatedStatus: items } : {}),
      },
    });
    return [
      ...(showNs ? [b.metadata.namespace ?? ''] : []),
      b.metadata.name!,
      conditionStatus(b.status?.conditions, 'Scheduled'),
      // kubectl prints a printer column whose condition is not set yet as an empty cell.
      status?.conditions.find((c) => c.type === 'FullyApplied')?.status ?? '',
      age(q.now, ages.get(path)),
      ...(q.wide
        ? [
            b.spec.replicas === undefined ? '<none>' : String(b.spec.replicas),
            (b.spec.clusters ?? []).map((c) => `${c.name}:${c.replicas}`).join(',') || '<none>',
          ]
        : []),
    ];
  });
  return { headers, rows, objects, namespaced: scope === 'namespaced' && !q.allNamespaces };
}

/**
 * A binding's aggregatedStatus item: Karmada's AggregatedStatusItem, plus the status branch's unhealthySince, which
 * says since when failover.application counts.
 */
function bindingStatusItem(item: AggregatedStatusItem): Obj {
  return { ...asKarmadaStatusItem(item), ...(item.unhealthySince ? { unhealthySince: item.unhealthySince } : {}) };
}

async function listWorks(fleet: Fleet, q: ListingQuery): Promise<Listing> {
  const rendered = requireRendered(fleet);
  const wantNs = q.allNamespaces ? undefined : q.namespace;
  const nsFolder = wantNs === undefined ? undefined : wantNs || CLUSTER_SCOPED_FOLDER;
  // Each cluster's folder of that namespace, not every cluster's whole folder: at 50,000 templates × 500 clusters the
  // clusters hold three million files. A name is in its file's name, but for a long one (a prefix and a hash).
  const clusters = q.cluster !== undefined ? [q.cluster] : await rendered.folders('clusters');
  const listed = await Promise.all(
    clusters.map((c) => rendered.list(nsFolder === undefined ? `clusters/${c}` : `clusters/${c}/${nsFolder}`)),
  );
  const named = q.name === undefined ? undefined : `_${q.name}.yaml`;
  const paths = listed
    .flatMap((files) => [...files.keys()])
    .filter((p) => {
      const file = p.split('/')[3];
      if (!file || !file.endsWith('.yaml')) return false;
      return named === undefined || file.endsWith(named) || file.includes('~');
    });
  const docs = await readDocuments(fleet.repo, rendered, paths);
  const items = paths
    .map((p) => ({ path: p, cluster: p.split('/')[1]!, manifest: docs.get(p)?.[0] as Obj | undefined }))
    .filter(
      (w): w is { path: string; cluster: string; manifest: Obj } =>
        Boolean(w.manifest) && (q.name === undefined || (w.manifest!.metadata as Obj | undefined)?.name === q.name),
    );
  const refs = items.map((w) => refOfManifest(w.manifest));
  const statuses = await readTemplateStatuses(fleet, refs);
  // Only a binding's Works carry its dispatching options; namespace sync writes its Works without them.
  const byBinding = items.map((w) => madeByBinding(w.manifest));
  const boundPaths = [...new Set(refs.filter((_, i) => byBinding[i]).map((ref) => bindingPath(ref)))];
  const bindings = boundPaths.length > 0 ? await readDocuments(fleet.repo, rendered, boundPaths) : new Map();
  const indexed = await rendered.index.entriesOf(refs.map(refKey));
  const headers = ['CLUSTER', 'NAMESPACE', 'KIND', 'NAME', 'APPLIED', ...(q.wide ? ['HEALTH', 'SOURCE'] : [])];
  const objects: Obj[] = [];
  const rows = items.map((w, i) => {
    const ref = refs[i]!;
    const entry = statuses.get(templateStatusPath(ref))?.aggregatedStatus.find((a) => a.clusterName === w.cluster);
    const meta = (w.manifest.metadata ?? {}) as { annotations?: Record<string, string> };
    const suspended = indexed.get(refKey(ref))?.suspended?.includes(w.cluster) ?? false;
    const binding = byBinding[i] ? (bindings.get(bindingPath(ref))?.[0] as ResourceBinding | undefined) : undefined;
    const options = binding
      ? {
          suspendDispatching: suspended,
          preserveResourcesOnDeletion: binding.spec?.preserveResourcesOnDeletion === true,
        }
      : undefined;
    const work = workObject(w.cluster, redactSecret(w.manifest), entry, suspended, options);
    objects.push(work);
    const applied = (work.status as WorkStatus).conditions.find((c) => c.type === 'Applied');
    return [
      w.cluster,
      ref.namespace || '<none>',
      ref.kind,
      ref.name,
      // Karmada's Work column, .status.conditions[?(@.type=="Applied")].status: empty before any apply, as kubectl
      // prints a column that finds nothing.
      applied?.status ?? '',
      ...(q.wide
        ? [entry?.health ?? 'Unknown', meta.annotations?.[SOURCE_COMMIT_ANNOTATION]?.slice(0, 12) ?? '<none>']
        : []),
    ];
  });
  return { headers, rows, objects, namespaced: false };
}

/** The labels Karmada's binding controller (mergeLabel) and Work webhook give a Work, which its manifest carries too. */
const WORK_LABELS = [
  'resourcebinding.karmada.io/permanent-id',
  'clusterresourcebinding.karmada.io/permanent-id',
  'work.karmada.io/permanent-id',
];
/**
 * The annotations the binding controller gives a Work (mergeAnnotations, mergeConflictResolution, as on its manifest;
 * RecordAppliedOverrides, on the Work alone).
 */
const WORK_ANNOTATIONS = [
  'resourcebinding.karmada.io/namespace',
  'resourcebinding.karmada.io/name',
  'clusterresourcebinding.karmada.io/name',
  'work.karmada.io/conflict-resolution',
  ...WORK_ONLY_ANNOTATIONS,
];

const picked = (from: Record<string, string>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => Object.hasOwn(from, k)).map((k) => [k, from[k]!]));

interface WorkCondition {
  type: 'Dispatching' | 'Applied';
  status: 'True' | 'False';
  reason: string;
  message: string;
}

interface WorkStatus {
  conditions: WorkCondition[];
  manifestStatuses?: Obj[];
}

/**
 * A Work's status as Karmada's controllers write it, from the template's status-branch entry for the cluster: the
 * execution controller's Dispatching condition (set before it applies anything) and Applied condition (with its reasons
 * and messages; one manifest per Work, so 0/1), and the work status controller's manifest status (identifier, reflected
 * status, health) once the object was read back. The entry keeps no time, so the conditions carry none.
 */
function workStatus(ref: ObjectRef, entry: AggregatedStatusItem | undefined, suspended: boolean): WorkStatus {
  const conditions: WorkCondition[] = [
    suspended
      ? {
          type: 'Dispatching',
          status: 'False',
          reason: 'SuspendDispatching',
          message: 'Work dispatching is in a suspended state.',
        }
      : {
          type: 'Dispatching',
          status: 'True',
          reason: 'Dispatching',
          message: 'Work is being dispatched to member clusters.',
        },
  ];
  if (!entry || isAwaitingApply(entry)) return { conditions };
  conditions.push(
    entry.applied
      ? {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
        }
      : {
          type: 'Applied',
          status: 'False',
          reason: 'AppliedFailed',
          message: appliedFailedMessage(entry),
        },
  );
  // Applied and not yet read back (no status, health not interpreted): Karmada's Work has no manifest status yet.
  if (!entry.applied || (!entry.status && entry.health === 'Unknown')) return { conditions };
  const group = groupOf(ref.apiVersion);
  return {
    conditions,
    manifestStatuses: [
      {
        // buildStatusIdentifier sets no resource; ResourceIdentifier writes it all the same (no omitempty).
        identifier: {
          ordinal: 0,
          ...(group ? { group } : {}),
          version: versionOf(ref.apiVersion),
          kind: ref.kind,
          resource: '',
          ...(ref.namespace ? { namespace: ref.namespace } : {}),
          name: ref.name,
        },
        ...(entry.status ? { status: entry.status } : {}),
        health: entry.health,
      },
    ],
  };
}

/** Whether the binding controller wrote the manifest's Work: it names its binding, as mergeAnnotations does. */
function madeByBinding(manifest: Obj): boolean {
  const annotations = (manifest.metadata as { annotations?: Record<string, string> } | undefined)?.annotations ?? {};
  return (
    annotations['resourcebinding.karmada.io/name'] !== undefined ||
    annotations['clusterresourcebinding.karmada.io/name'] !== undefined
  );
}

/**
 * A Karmada Work holding one manifest, with its status from the status branch; a binding's Work also says both
 * options the binding controller always sets (ensureWork: WithSuspendDispatching, WithPreserveResourcesOnDeletion).
 */
function workObject(
  cluster: string,
  manifest: Obj,
  entry: AggregatedStatusItem | undefined,
  suspended: boolean,
  options?: { suspendDispatching: boolean; preserveResourcesOnDeletion: boolean },
): Obj {
  const meta = (manifest.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const annotations = meta.annotations ?? {};
  const workLabels = picked(meta.labels ?? {}, WORK_LABELS);
  const workAnnotations = picked(annotations, WORK_ANNOTATIONS);
  const ref = refOfManifest(manifest);
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: annotations['work.karmada.io/name'] ?? ref.name,
      namespace: annotations['work.karmada.io/namespace'] ?? `karmada-es-${cluster}`,
      ...(Object.keys(workLabels).length > 0 ? { labels: workLabels } : {}),
      ...(Object.keys(workAnnotations).length > 0 ? { annotations: workAnnotations } : {}),
    },
    spec: { workload: { manifests: [withoutWorkOnlyAnnotations(manifest)] }, ...options },
    status: workStatus(ref, entry, suspended),
  };
}

function refOfManifest(m: Obj): ObjectRef {
  const meta = (m.metadata ?? {}) as { name?: string; namespace?: string };
  return {
    apiVersion: String(m.apiVersion ?? ''),
    kind: String(m.kind ?? ''),
    namespace: meta.namespace ?? '',
    name: meta.name ?? '',
  };
}

/**
 * The keys of the templates of one name, in one namespace or cluster-scoped, of the kinds `ofType` takes: its key for
 * each version of the kind, looked up by key (the shards holding them are read, not every shard of the fleet).
 */
async function keysNamed(
  index: RenderedIndex,
  ofType: (k: TemplateKind) => boolean,
  namespace: string,
  name: string,
): Promise<string[]> {
  const candidates = (await index.kinds())
    .filter(ofType)
    .flatMap((k) => [namespace, ''].map((ns) => refKey({ ...k, namespace: ns, name })));
  return [...(await index.entriesOf(candidates)).keys()];
}

async function listTemplates(
  fleet: Fleet,
  type: Extract<ResourceType, { type: 'templates' }>,
  q: ListingQuery,
): Promise<Listing> {
  const rendered = requireRendered(fleet);
  const wantNs = q.allNamespaces ? undefined : (q.namespace ?? 'default');
  // What the keys tell (kind, namespace, name) first: only the entries of those are parsed.
  const ofType = (k: TemplateKind) => takesKind(type, k);
  const keys =
    q.name !== undefined && wantNs !== undefined
      ? await keysNamed(rendered.index, ofType, wantNs, q.name)
      : (await rendered.index.templateKeysOfKinds(ofType)).filter((key) => {
          const ref = parseRefKey(key);
          return (
            (wantNs === undefined || ref.namespace === '' || ref.namespace === wantNs) &&
            (q.name === undefined || ref.name === q.name)
          );
        });
  const entries = [...(await rendered.index.entriesOf(keys))]
    .map(([key, entry]) => ({ ref: parseRefKey(key), entry }))
    .filter(
      ({ entry }) =>
        (q.cluster === undefined || entry.clusters.includes(q.cluster)) &&
        // A FederatedResourceQuota's ResourceQuota is in its Works only: Karmada's API server holds no such object,
        // its members do.
        (q.cluster !== undefined || entry.quotaOverall === undefined),
    )
    .sort((a, b) => (a.ref.namespace + '/' + a.ref.name < b.ref.namespace + '/' + b.ref.name ? -1 : 1));
  const clusterScoped = entries.length > 0 && entries.every((e) => e.ref.namespace === '');
  const views = await readTemplateViews(fleet, entries, q.cluster);
  const ages = await readFirstSeen(fleet.repo, fleet.source.commit.oid, [...new Set(entries.map((e) => e.entry.file))]);
  const showNs = q.allNamespaces && !clusterScoped;
  const custom = await customColumns(fleet, entries[0]?.ref);
  if (custom) {
    const shown = custom.filter((c) => q.wide || !c.wide);
    return {
      headers: [
        ...(showNs ? ['NAMESPACE'] : []),
        'NAME',
        ...shown.map((c) => c.header),
        ...(q.wide ? ['CLUSTERS'] : []),
      ],
      rows: views.map(({ ref, entry, object }) => [
        ...(showNs ? [ref.namespace] : []),
        ref.name,
        ...shown.map((c) => c.cell(object, age(q.now, ages.get(entry.file)), q.now)),
        ...(q.wide ? [entry.clusters.join(',') || '<none>'] : []),
      ]),
      objects: views.map((v) => v.object),
      namespaced: !clusterScoped && !q.allNamespaces,
    };
  }
  const cols = kindColumns(type.kind);
  // AGE where kubectl puts it: last of the default columns but for a few kinds (a ResourceQuota's comes second).
  const ageAt = cols.ageIndex ?? cols.headers.length;
  const withAge = <T>(cells: T[], ageCell: T) => [...cells.slice(0, ageAt), ageCell, ...cells.slice(ageAt)];
  const headers = [
    ...(showNs ? ['NAMESPACE'] : []),
    'NAME',
    ...withAge(cols.headers, cols.ageHeader ?? 'AGE'),
    ...(q.wide ? [...cols.wideHeaders, 'CLUSTERS'] : []),
  ];
  const ctx = { wide: q.wide, now: q.now };
  const rows = views.map(({ ref, entry, manifest, status }) => [
    ...(showNs ? [ref.namespace] : []),
    cols.name ? cols.name(manifest, ref.name) : ref.name,
    ...withAge(
      cols.cells(manifest, status, ctx),
      cols.ageHeader === 'CREATED AT' ? createdAt(ages.get(entry.file)) : age(q.now, ages.get(entry.file)),
    ),
    ...(q.wide ? [...cols.wideCells(manifest, status, ctx), entry.clusters.join(',') || '<none>'] : []),
  ]);
  const objects = views.map((v) => v.object);
  return { headers, rows, objects, namespaced: !clusterScoped && !q.allNamespaces };
}

/**
 * The printer columns of a custom kind whose CustomResourceDefinition is a template of the repo, for the version the
 * listed object is at; undefined for other kinds, which print kubectl's built-in columns.
 */
async function customColumns(fleet: Fleet, ref: ObjectRef | undefined): Promise<PrinterColumn[] | undefined> {
  if (!ref || ref.kind === 'CustomResourceDefinition') return undefined;
  const crds = await customResourceDefinitions(requireRendered(fleet).index);
  if (crds.length === 0) return undefined;
  const group = groupOf(ref.apiVersion);
  const crd = (await readTemplates(fleet, crds)).find((c) => {
    const spec = (c?.spec ?? {}) as { group?: unknown; names?: { kind?: unknown } };
    return spec.group === group && spec.names?.kind === ref.kind;
  });
  return crd ? crdPrinterColumns(crd, versionOf(ref.apiVersion)) : undefined;
}

/** One template as `get` shows it: the manifest (replicas as the members run them), its status, and the -o json object. */
export interface TemplateView {
  ref: ObjectRef;
  entry: IndexEntry;
  manifest: Obj;
  /** The aggregated status, or with `cluster` that member's reflected status. */
  status: Obj | undefined;
  /** What `get -o json` prints for it (a Secret redacted). */
  object: Obj;
}

/**
 * The templates as `get` lists them: each from its source file (with `cluster`, the member's copy as rendered), with
 * the template's status file from the status branch.
 */
export async function readTemplateViews(
  fleet: Fleet,
  entries: readonly { ref: ObjectRef; entry: IndexEntry }[],
  cluster?: string,
): Promise<TemplateView[]> {
  const rendered = requireRendered(fleet);
  // The member's copy as rendered (--cluster; without the Work's own annotations, which it never gets), else the
  // template as committed.
  const manifests = cluster
    ? (
        await readManifests(
          fleet,
          rendered,
          entries.map((e) => manifestPath(cluster, e.ref)),
        )
      ).map(withoutWorkOnlyAnnotations)
    : await readTemplates(fleet, [...entries]);
  const statuses = await readTemplateStatuses(
    fleet,
    entries.map((e) => e.ref),
  );
  // A FederatedHPA's count is the template's desired count (Karmada writes it there); a member's copy is as rendered.
  const autoscaled = cluster ? new Map() : await readAutoscaledReplicas(fleet.repo, fleet.status?.commit.oid ?? null);
  return entries.map(({ ref, entry }, i) => {
    const file = statuses.get(templateStatusPath(ref));
    const status = cluster ? file?.aggregatedStatus.find((a) => a.clusterName === cluster)?.status : file?.status;
    const manifest = replicasFromAutoscaler(
      replicasFromMembers(manifests[i] ?? {}, entry, status),
      autoscaled.get(refKey(ref)),
    );
    const object = redactSecret({
      ...manifest,
      ...(status || file
        ? {
            status: cluster
              ? (status ?? {})
              : {
                  ...(status ?? {}),
                  ...(file ? { conditions: file.conditions, aggregatedStatus: file.aggregatedStatus } : {}),
                },
          }
        : {}),
    });
    return { ref, entry, manifest, status, object };
  });
}

async function readManifests(fleet: Fleet, branch: BranchState, paths: string[]): Promise<(Obj | undefined)[]> {
  const docs = await readDocuments(fleet.repo, branch, paths);
  return paths.map((p) => docs.get(p)?.[0] as Obj | undefined);
}

/**
 * Each template from its source file (the index says which); a file may hold several documents. A Helm chart's or
 * Kustomize folder's template is in its unit's output, not in the marker file the index names.
 */
export async function readTemplates(
  fleet: Fleet,
  entries: { ref: ObjectRef; entry: { file: string } }[],
): Promise<(Obj | undefined)[]> {
  const files = [...new Set(entries.map((e) => e.entry.file))];
  const markers = files.filter((f) => markerTool(f.slice(f.lastIndexOf('/') + 1)) !== undefined);
  const [docs, units] = await Promise.all([
    readDocuments(
      fleet.repo,
      fleet.source,
      files.filter((f) => !markers.includes(f)),
    ),
    readUnitObjects(fleet.repo, fleet.source.commit.tree, markers, {
      maxEntries: sourceTreeEntries(fleet.limits),
    }).catch((err: unknown) => {
      throw tooLargeToRead(fleet, fleet.source.commit.oid, err);
    }),
  ]);
  for (const [marker, objects] of units)
    docs.set(
      marker,
      objects.templates.map((t) => t.manifest),
    );
  return entries.map(({ ref, entry }) => {
    const found = (docs.get(entry.file) ?? []).find((d) => writtenAs(ref, d)) as Obj | undefined;
    return withNamespaceOf(ref, found);
  });
}

/**
 * A template with the namespace of its identity, as the output branch writes it (renderWorkManifest) and Karmada's API
 * server holds it: a namespaced one's, which its file or chart may leave out (a chart's objects are the release's), and
 * none for a cluster-scoped one, whatever its source wrote (a chart's release namespace on a ClusterRole).
 */
function withNamespaceOf(ref: ObjectRef, m: Obj | undefined): Obj | undefined {
  const metadata = m?.metadata as Record<string, unknown> | undefined;
  if (!m || !metadata || metadata.namespace === (ref.namespace || undefined)) return m;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key === 'namespace') continue;
    out[key] = value;
    if (key === 'name' && ref.namespace) out.namespace = ref.namespace;
  }
  return { ...m, metadata: out };
}

function requireRendered(fleet: Fleet): NonNullable<Fleet['rendered']> {
  if (!fleet.rendered)
    throw Object.assign(
      new Error(
        "nothing is rendered yet (no flotilla/rendered branch, nor origin's copy of it); fix: in a clone, git fetch origin; else point --repo at the repository the reconciler renders to, or run flotilla sync to render here",
      ),
      { code: 'NO_OUTPUT_BRANCH' },
    );
  return fleet.rendered;
}
