import { listFolderFiles } from '../commits/listFolderFiles.ts';
import { readInventories } from '../branches/status/readInventories.ts';
import { inventoryPath } from '../branches/status/inventory.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { parseBranchFile } from '../errors/parseBranchFile.ts';
import { readPathOids, readTextFiles } from '../commits/readPathOids.ts';
import type { SourceState } from './checkPruneSafety.ts';
import { readDeletingCommits } from './readDeletingCommits.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import type { ShardedIndex } from '../branches/rendered/outputIndex.ts';
import {
  bindingPath,
  clusterFolder,
  manifestPath,
  parseReleasedFile,
  RELEASED_PATH,
} from '../branches/rendered/outputPaths.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { parseRefKey, type ObjectRef } from '../api/kinds.ts';
import { applyClusterFolder, type ClusterApplyReport } from './applyClusterFolder.ts';
import { mapLimit } from '../concurrency/mapLimit.ts';
import { identityKey, missingFrom, type Inventory } from '../branches/status/inventory.ts';
import { planDelivery } from './planDelivery.ts';
import { recordPlannedInventory, type PlannedInventoryResult } from './recordPlannedInventory.ts';
import type { KubeTarget } from './KubeTarget.ts';
import type { RetryPolicy } from './sendRequest.ts';
import type { ConflictResolution } from './types.ts';
import {
  readExportedEndpoints,
  SERVICE_EXPORT_API_VERSION,
  type ExportedService,
} from '../branches/status/exportedEndpoints.ts';
import {
  deriveImportedServices,
  isServiceImport,
  SERVICE_IMPORT_KIND,
} from '../interpreters/deriveImportedServices.ts';
import type { AttachedBindingOf } from '../interpreters/controllerWorkMetadata.ts';
import {
  dispatchEndpointSlices,
  skippedProviderNotes,
  type RegisteredClusters,
} from '../interpreters/dispatchEndpointSlices.ts';
import { readMultiClusterServices } from '../branches/rendered/multiClusterServices.ts';
import type { MultiClusterService } from '../api/multiClusterService.ts';
import { CLUSTERS_PATH } from '../branches/rendered/outputPaths.ts';
import type { InterpreterSet } from '../interpreters/customizations.ts';
import { parseRegisteredClusters } from '../branches/rendered/registeredClusters.ts';

export interface ApplyRenderedOptions {
  repo: GitRepo;
  /** The rendered branch, e.g. refs/heads/flotilla/rendered. */
  outputRef: string;
  /** A commit of the rendered branch; its head when absent. */
  commit?: string;
  /** Member name → connection. Only these clusters are applied; other folders are left alone. */
  clusters: ReadonlyMap<string, KubeTarget>;
  /** Clusters applied at the same time. Default 4. */
  concurrency?: number;
  /** Branch holding the inventories. Default refs/heads/flotilla/status. */
  statusRef?: string;
  conflictResolution?: ConflictResolution;
  /** The rendered commit's customizations (the Lua Retain hooks run before an update). */
  interpreters?: InterpreterSet;
  fieldManager?: string;
  retry?: RetryPolicy;
  /** Objects in flight per cluster. Default 8. */
  objectConcurrency?: number;
  crdEstablishTimeoutMs?: number;
  /** Prune safety: share of a cluster's inventory whose deletion is held, exclusive. Default 0.5. */
  pruneThreshold?: number;
  /**
   * How the planned inventory reaches the status branch before the apply: by default `write()` commits it to
   * `repo`; a Pull agent with a remote repository also pushes it (and rebuilds on a lost race). Throwing stops
   * every cluster whose inventory had to grow from applying.
   */
  recordPlanned?: (write: () => Promise<PlannedInventoryResult>) => Promise<unknown>;
  /** Commit time of the planned-inventory commit. */
  now?: () => Date;
  /** With --leader-elect: the replica applying, named by the planned-inventory commit's `Replica` trailer. */
  replica?: string;
}

export interface ClusterDelivery extends ClusterApplyReport {
  /**
   * The inventory this pass started from, pending entries included (the status stage removes the status entries
   * of objects that left it).
   */
  previousInventory: Inventory;
  durationMs: number;
  /**
   * The source commit to remember as applied to this member: this pass's when the member answered, else the one
   * remembered before. The next pass looks for Flotilla-Allow-Prune trailers only after it.
   */
  appliedSource?: string;
  /**
   * The status branch held the member's Ready condition not True when the pass began, so nothing was applied nor pruned
   * there: Karmada's execution controller syncs no Work to such a cluster, so each Work keeps its Applied condition,
   * and one it never synced there has none yet.
   */
  notReady?: true;
}

export interface RenderedDelivery {
  renderedCommit: string;
  /** The Source-Commit trailer of the rendered commit (below a hand-made one: of the last commit Flotilla wrote). */
  sourceCommit: string | undefined;
  clusters: Map<string, ClusterDelivery>;
}

/**
 * Applies the rendered branch at one commit to every given member: each cluster's folder is read from Git, then
 * the clusters are applied in parallel (at most `concurrency` at once). A cluster that fails, however it fails,
 * ends as a report with failed results; it never stops or delays the others beyond its own slot.
 */
export async function applyRendered(opts: ApplyRenderedOptions): Promise<RenderedDelivery> {
  const commit = opts.commit ?? (await readRef(opts.repo, opts.outputRef));
  if (!commit) throw new Error(`rendered branch ${opts.outputRef} does not exist; fix: run flotilla render first`);
  // Below a hand-made commit on the output branch, the source is the one Flotilla last rendered.
  const last = await readLastRenderAt(opts.repo, commit);
  const info = last.head!;
  const sourceCommit = last.source;
  const records = await readInventories(opts.repo, opts.statusRef ?? DEFAULT_STATUS_REF, [...opts.clusters.keys()]);
  const index = await openIndex(opts.repo, info.tree);
  const source = sourceStateOf(index);
  const observed = await readObservedClusters(opts.repo, opts.statusRef ?? DEFAULT_STATUS_REF);
  const rootFiles = await readTextFiles(opts.repo, info.tree, [RELEASED_PATH, CLUSTERS_PATH]);
  const releasedText = rootFiles.get(RELEASED_PATH);
  const released = parseBranchFile(opts.commit ?? opts.outputRef, RELEASED_PATH, () => parseReleased(releasedText));
  const suspended = await suspendedObjects(index);

  const names = [...opts.clusters.keys()].sort();
  const statusRef = opts.statusRef ?? DEFAULT_STATUS_REF;
  // Every folder is read before anything is applied, so what the apply may create is recorded first.
  const folders = new Map(
    await mapLimit(names, opts.concurrency ?? 4, async (name): Promise<[string, ClusterFolder | Error]> => {
      try {
        return [name, await readClusterFolder(opts.repo, info.tree, name, index)];
      } catch (err) {
        return [name, err instanceof Error ? err : new Error(String(err))];
      }
    }),
  );
  const services = await readMultiClusterServices(opts.repo, info.tree);
  const registered: RegisteredClusters = new Map(
    parseRegisteredClusters(rootFiles.get(CLUSTERS_PATH) ?? '{}').map((c) => [c.name, observed.get(c.name)?.status]),
  );
  const rendered = { ref: opts.commit ?? opts.outputRef, tree: info.tree };
  await addImportedServices(opts.repo, statusRef, rendered, folders, { services, registered });
  const readyOf = (name: string) => observed.get(name)?.status?.conditions?.find((c) => c.type === 'Ready');
  // Karmada's execution controller syncs no Work to a cluster whose Ready condition is not True (util.IsClusterReady:
  // it returns an error and requeues), nor deletes one there (handleWorkDelete, Karmada issue 5150). A cluster just
  // back counts as not Ready until its success threshold passes, so it loses nothing still wanted. A cluster with no
  // Ready condition on the status branch yet is Ready here, as the scheduler takes it (see README, Failover).
  const notReady = new Set(names.filter((name) => (readyOf(name)?.status ?? 'True') !== 'True'));
  const planned = new Map<string, Inventory>();
  for (const [name, folder] of folders) {
    // Nothing is created there this pass: nothing to record first.
    if (folder instanceof Error || notReady.has(name)) continue;
    const refs = plannedRefs(folder.manifests);
    const record = records.get(name);
    if (missingFrom([...(record?.objects ?? []), ...(record?.pending ?? [])], refs).length > 0) planned.set(name, refs);
  }
  let notRecorded: Error | undefined;
  if (planned.size > 0) {
    const write = () =>
      recordPlannedInventory({
        repo: opts.repo,
        statusRef,
        planned,
        renderedCommit: commit,
        inventoryPath,
        ...(opts.now ? { now: opts.now } : {}),
        ...(opts.replica ? { replica: opts.replica } : {}),
      });
    try {
      await (opts.recordPlanned ? opts.recordPlanned(write) : write());
    } catch (err) {
      notRecorded = err instanceof Error ? err : new Error(String(err));
    }
  }

  const reports = await mapLimit(names, opts.concurrency ?? 4, async (name): Promise<ClusterDelivery> => {
    const started = Date.now();
    const record = records.get(name);
    const previousInventory = record?.objects ?? [];
    // What the status stage clears entries by: pending entries too (a conflict's entry goes when its file goes).
    const remembered = [...previousInventory, ...(record?.pending ?? [])];
    try {
      const folder = folders.get(name)!;
      if (folder instanceof Error) throw folder;
      // Applying objects no inventory names would reopen the gap the record closes: a kill before the status
      // commit would leave them unprunable. Nothing is applied until the record can be written.
      if (notRecorded && planned.has(name))
        throw new Error(
          `recording the planned inventory on ${statusRef} failed, so nothing was applied: ${notRecorded.message}; fix: nothing to do if the branch is writable, the next pass retries`,
        );
      const ready = readyOf(name);
      const held = notReady.has(name) && ready ? describeNotReady(name, ready) : undefined;
      if (held)
        folder.notes.push(
          `${held}: nothing applied nor pruned until it is Ready, as Karmada's execution controller syncs no Work to a cluster that is not Ready; fix: nothing to do, the first pass after it is Ready again applies`,
        );
      const report = await applyClusterFolder({
        cluster: name,
        manifests: folder.manifests,
        kube: opts.clusters.get(name)!,
        inventory: previousInventory,
        released: released.get(name) ?? new Set(),
        suspended: suspended.get(name) ?? NOTHING_SUSPENDED,
        pending: [...(record?.pending ?? []), ...(notRecorded ? [] : (planned.get(name) ?? []))],
        prune: folder.complete && !held,
        ...(held ? { notReady: `not applied: ${held}` } : {}),
        conflictResolution: opts.conflictResolution,
        ...(opts.interpreters ? { interpreters: opts.interpreters } : {}),
        fieldManager: opts.fieldManager,
        retry: opts.retry,
        concurrency: opts.objectConcurrency,
        crdEstablishTimeoutMs: opts.crdEstablishTimeoutMs,
        pruneSafety: {
          source,
          ...(opts.pruneThreshold !== undefined ? { threshold: opts.pruneThreshold } : {}),
          // The commits rendered since the one last applied here: each deletion is judged by the trailer of its own.
          readDeletions: () =>
            readDeletingCommits(opts.repo, {
              head: commit,
              stopAtSource: record?.sourceCommit,
              clusters: new Set([name]),
            }),
          derived: (ref) => isDerivedImport(ref) || isDispatchedSlice(ref, registered),
        },
      });
      report.results.unshift(...folder.unreadable);
      report.notes.unshift(...folder.notes);
      const appliedSource = report.unreachable || held ? record?.sourceCommit : (sourceCommit ?? record?.sourceCommit);
      return {
        ...report,
        previousInventory: remembered,
        durationMs: Date.now() - started,
        ...(appliedSource ? { appliedSource } : {}),
        ...(held ? { notReady: true as const } : {}),
      };
    } catch (err) {
      // A bug or an unreadable blob: this cluster reports the failure, the others carry on.
      const message = err instanceof Error ? err.message : String(err);
      // A recorded plan stays: the apply may have created some of it before failing.
      const pending = [...(record?.pending ?? []), ...(!notRecorded && planned.has(name) ? planned.get(name)! : [])];
      return {
        cluster: name,
        results: [],
        inventory: previousInventory,
        pending,
        writes: 0,
        notes: [`apply failed: ${message}`],
        previousInventory: remembered,
        durationMs: Date.now() - started,
        ...(record?.sourceCommit ? { appliedSource: record.sourceCommit } : {}),
      };
    }
  });
  return { renderedCommit: commit, sourceCommit, clusters: new Map(reports.map((r) => [r.cluster, r])) };
}

/**
 * Each folder with ServiceImports gets their derived Service and the exporters' slices, and each consumer of a
 * CrossCluster MultiClusterService the providers' slices, built from the endpoints recorded on the status branch
 * (never from the rendered branch, which holds no pod IP): applied, inventoried and pruned like the folder's own
 * objects, so they go when the import, the export or the MultiClusterService goes. When the endpoints cannot be
 * read, such a folder prunes nothing: a slice missing from a failed read is not a slice that went. `rendered` is the
 * rendered commit's tree, and the ref or commit it was read at (what names a corrupt binding file).
 */
async function addImportedServices(
  repo: GitRepo,
  statusRef: string,
  rendered: { ref: string; tree: string },
  folders: Map<string, ClusterFolder | Error>,
  mcs: { services: { path: string; mcs: MultiClusterService }[]; registered: RegisteredClusters },
): Promise<void> {
  // Every folder may consume a MultiClusterService (no consumers named means all), and lose the slices it had.
  const importing = [...folders.values()].filter(
    (f): f is ClusterFolder =>
      !(f instanceof Error) && (mcs.services.length > 0 || [...f.manifests.values()].some(isServiceImport)),
  );
  if (importing.length === 0) return;
  let exported: Map<string, ExportedService[]>;
  try {
    exported = await readExportedEndpoints(repo, statusRef);
  } catch (err) {
    for (const f of importing) {
      f.complete = false;
      f.notes.push(
        `the exported endpoints could not be read (${(err as Error).message}); imported slices left as they are, nothing pruned`,
      );
    }
    return;
  }
  let exportedByServiceExport: Map<string, ExportedService[]> | undefined;
  const importBindings = await readImportBindings(repo, rendered, importing);
  for (const [name, f] of folders) {
    if (f instanceof Error || !importing.includes(f)) continue;
    // A Service derived-<name> that Git itself places here (the ServiceImport's dependency) is Git's to apply.
    const present = new Set([...f.manifests.values()].map(identityOf));
    // Which services go through a ServiceExport is read once, and only for a folder that imports one.
    const imports = [...f.manifests.values()].some(isServiceImport);
    for (const d of [
      ...(imports
        ? deriveImportedServices(
            name,
            f.manifests,
            (exportedByServiceExport ??= await viaServiceExport(repo, rendered.tree, exported)),
            importBindings,
          )
        : []),
      ...dispatchEndpointSlices(name, mcs.services, mcs.registered, exported),
    ])
      if (!present.has(identityOf(d.manifest))) f.manifests.set(d.path, d.manifest);
    for (const { mcs: service } of mcs.services) f.notes.push(...skippedProviderNotes(name, service, mcs.registered));
  }
}

/**
 * The conflict resolution of each ServiceImport's binding on the rendered branch, by the ServiceImport's path in its
 * folder: what the attached bindings of its derived Service and imported slices copy (buildAttachedBinding). A binding
 * missing or unreadable gives none, which reads as Abort: the applier then takes over nothing it did not create. An
 * unreadable one is a hand edit or a bad merge, not a choice: each folder holding such a ServiceImport gets a note
 * naming the binding file (parseBranchFile's message, with its fix), so the Abort is not mistaken for the policy's.
 */
async function readImportBindings(
  repo: GitRepo,
  rendered: { ref: string; tree: string },
  folders: readonly ClusterFolder[],
): Promise<Map<string, AttachedBindingOf>> {
  const bindingOf = new Map<string, { folder: ClusterFolder; file: string }>();
  for (const f of folders)
    for (const [path, m] of f.manifests) {
      if (!isServiceImport(m)) continue;
      const meta = (m as { metadata?: { name?: unknown; namespace?: unknown } }).metadata;
      if (typeof meta?.name !== 'string') continue;
      const namespace = typeof meta.namespace === 'string' ? meta.namespace : 'default';
      const file = bindingPath({
        apiVersion: SERVICE_EXPORT_API_VERSION,
        kind: SERVICE_IMPORT_KIND,
        namespace,
        name: meta.name,
      });
      bindingOf.set(path, { folder: f, file });
    }
  if (bindingOf.size === 0) return new Map();
  const files = [...new Set([...bindingOf.values()].map((b) => b.file))];
  const texts = await readTextFiles(repo, rendered.tree, files);
  // Each binding file parsed once, however many folders import its ServiceImport.
  const parsed = new Map<string, unknown | Error>();
  for (const file of files) {
    const text = texts.get(file);
    try {
      parsed.set(
        file,
        text
          ? parseBranchFile(
              rendered.ref,
              file,
              () =>
                (parseYamlValue(text) as { spec?: { conflictResolution?: unknown } } | null)?.spec?.conflictResolution,
            )
          : undefined,
      );
    } catch (err) {
      parsed.set(file, err instanceof Error ? err : new Error(String(err)));
    }
  }
  const out = new Map<string, AttachedBindingOf>();
  for (const [path, { folder, file }] of bindingOf) {
    const conflictResolution = parsed.get(file);
    if (conflictResolution instanceof Error)
      folder.notes.push(
        `ServiceImport ${path}: its derived Service and imported slices are applied with conflict resolution Abort, as its binding could not be read: ${conflictResolution.message}`,
      );
    out.set(path, { conflictResolution: typeof conflictResolution === 'string' ? conflictResolution : undefined });
  }
  return out;
}

/**
 * A ServiceImport's derived object by Karmada's names (derived-<name> Service, imported-<cluster>-<slice> slice):
 * only such objects ever leave an inventory without their file leaving the rendered branch.
 */
function isDerivedImport(ref: ObjectRef): boolean {
  return (
    (ref.apiVersion === 'v1' && ref.kind === 'Service' && ref.name.startsWith('derived-')) ||
    (ref.apiVersion === 'discovery.k8s.io/v1' && ref.kind === 'EndpointSlice' && ref.name.startsWith('imported-'))
  );
}

/**
 * A slice a MultiClusterService dispatched, by Karmada's name `<provider>-<slice>`: it follows its provider's recorded
 * endpoints and the MultiClusterService, never a file of its own.
 */
function isDispatchedSlice(ref: ObjectRef, registered: RegisteredClusters): boolean {
  if (ref.apiVersion !== 'discovery.k8s.io/v1' || ref.kind !== 'EndpointSlice') return false;
  for (const cluster of registered.keys()) if (ref.name.startsWith(`${cluster}-`)) return true;
  return false;
}

function identityOf(m: unknown): string {
  const o = (m ?? {}) as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  return identityKey({
    apiVersion: String(o.apiVersion ?? ''),
    kind: String(o.kind ?? ''),
    namespace: String(o.metadata?.namespace ?? ''),
    name: String(o.metadata?.name ?? ''),
  });
}

/** What applying a folder may create: every object in it (the applier's own phases, without the prune). */
function plannedRefs(manifests: ReadonlyMap<string, unknown>): Inventory {
  const plan = planDelivery({ manifests, inventory: [], prune: false });
  return [...plan.namespaces, ...plan.crds, ...plan.rest].map((o) => o.ref);
}

const NOTHING_SUSPENDED: ReadonlySet<string> = new Set();

/** Why nothing goes to a cluster this pass: its Ready condition as the status branch holds it. */
function describeNotReady(
  name: string,
  ready: { status: string; reason?: string; lastTransitionTime?: string },
): string {
  const since = ready.lastTransitionTime ? ` since ${ready.lastTransitionTime}` : '';
  return `${name} is Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}${since}`;
}

/**
 * Cluster → identity keys of the objects whose dispatching is suspended there (the index's `suspended`): Karmada's
 * execution controller does not sync a Work that says suspendDispatching, whatever the member holds.
 */
async function suspendedObjects(index: ShardedIndex | null): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const keys = index?.suspendedTemplates() ?? [];
  if (!index || keys.length === 0) return out;
  await index.load({ templates: keys });
  for (const key of keys) {
    const id = identityKey(parseRefKey(key));
    for (const cluster of index.template(key)?.suspended ?? []) {
      const set = out.get(cluster) ?? new Set<string>();
      set.add(id);
      out.set(cluster, set);
    }
  }
  return out;
}

/** The renderer's index of the rendered commit; null when absent or unreadable (a branch Flotilla did not write). */
async function openIndex(repo: GitRepo, tree: string): Promise<ShardedIndex | null> {
  try {
    return await openOutputIndex(repo, tree);
  } catch {
    return null;
  }
}

/**
 * A rendered commit whose index names no source file came from a source with no config file at all: an emptied
 * repo or a wrong branch pushed over main. That is a broken source, never a request to delete everything.
 */
function sourceStateOf(index: ShardedIndex | null): SourceState {
  return index && index.sourceFileCount() === 0 ? 'empty' : 'ok';
}

interface ClusterFolder {
  manifests: Map<string, unknown>;
  /** Every file read and parsed: only then may the apply prune. */
  complete: boolean;
  notes: string[];
  unreadable: ClusterApplyReport['results'];
}

async function readClusterFolder(
  repo: GitRepo,
  rootTree: string,
  cluster: string,
  index: ShardedIndex | null,
): Promise<ClusterFolder> {
  const prefix = clusterFolder(cluster);
  const files = await listFolderFiles(repo, rootTree, prefix);
  const paths = [...files.keys()].filter((p) => p.endsWith('.yaml'));
  const notes: string[] = [];
  const manifests = new Map<string, unknown>();
  const unreadable: ClusterApplyReport['results'] = [];
  if (paths.length === 0) {
    // Git stores no empty folders: a missing folder may mean "nothing for this cluster" or a broken render. The
    // renderer's index tells them apart: when no template it lists goes to this cluster, the folder is truly empty
    // and its deletions go to prune safety (which holds "everything" without the trailer). Without that evidence,
    // deleting everything on a guess is the one mistake that cannot be undone, so nothing is pruned.
    if (index && !(await placesAnything(index, cluster))) {
      notes.push(`${prefix} is empty in the rendered commit: the source places nothing on ${cluster}`);
      return { manifests, complete: true, notes, unreadable };
    }
    notes.push(`${prefix} is missing from the rendered commit; nothing applied and nothing pruned`);
    return { manifests, complete: false, notes, unreadable };
  }
  const blobs = await readBlobs(
    repo,
    paths.map((p) => files.get(p)!.oid),
  );
  const decoder = new TextDecoder();
  for (const p of paths) {
    try {
      manifests.set(p, parseYamlValue(decoder.decode(blobs.get(files.get(p)!.oid)!)));
    } catch (err) {
      unreadable.push({
        ref: { apiVersion: '', kind: '', namespace: '', name: '' },
        path: p,
        action: 'failed',
        message: `unreadable YAML: ${(err as Error).message}`,
      });
    }
  }
  if (unreadable.length > 0)
    notes.push(`${unreadable.length} file(s) under ${prefix} could not be parsed; pruning skipped`);
  return { manifests, complete: unreadable.length === 0, notes, unreadable };
}

/**
 * The blobs under one folder of a commit, keyed by their full path. Only the trees on the way down are read, so a
 * cluster's cost (and a Pull agent's) does not grow with the other clusters' folders.
 */
/** Whether any template of the index goes to `cluster`. An index that cannot be read says yes: nothing is pruned on a guess. */
async function placesAnything(index: ShardedIndex, cluster: string): Promise<boolean> {
  try {
    await index.loadAll();
  } catch {
    return true;
  }
  return index.templates().some(([, t]) => t.clusters.includes(cluster));
}

/** Cluster → identity keys of objects released under preserveResourcesOnDeletion (works/outputPaths.ts RELEASED_PATH). */
function parseReleased(text: string | undefined): Map<string, Set<string>> {
  return new Map(
    [...parseReleasedFile(text)].map(([cluster, keys]) => [
      cluster,
      new Set([...keys].map((k) => identityKey(parseRefKey(k)))),
    ]),
  );
}

/**
 * The recorded services a cluster exports with a ServiceExport the rendered branch places there: only those reach a
 * ServiceImport. A provider of a MultiClusterService records its slices too, but Karmada's collect controller labels
 * that Work for the MultiClusterService alone, and the service-import side derives only from ServiceExport Works.
 */
async function viaServiceExport(
  repo: GitRepo,
  tree: string,
  exported: ReadonlyMap<string, ExportedService[]>,
): Promise<Map<string, ExportedService[]>> {
  const pathOf = (cluster: string, s: ExportedService) =>
    manifestPath(cluster, {
      apiVersion: SERVICE_EXPORT_API_VERSION,
      kind: 'ServiceExport',
      namespace: s.namespace,
      name: s.name,
    });
  const paths = [...exported].flatMap(([cluster, services]) => services.map((s) => pathOf(cluster, s)));
  const present = await readPathOids(repo, tree, paths);
  return new Map(
    [...exported].map(([cluster, services]) => [cluster, services.filter((s) => present.has(pathOf(cluster, s)))]),
  );
}
