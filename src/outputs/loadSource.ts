import type { Problem } from '../errors/problem.ts';
import { hasLuaCustomizations } from '../interpreters/customizations.ts';
import { loadLuaRuntime } from '../interpreters/lua/luaRuntime.ts';
import { checkLuaScripts } from '../documents/checkLuaScripts.ts';
import { priorityClassKey } from '../bindings/schedulePriority.ts';
import { parseRefKey, refKey } from '../api/kinds.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import type { GitRepo, TreeChange } from '../commits/types.ts';
import { assembleModel, type AssembleOptions } from '../documents/assembleModel.ts';
import { clusterScopedKindsAfter, declaredKinds, kindKey } from '../documents/clusterScopedKinds.ts';
import type { ConfigModel, FileObjects } from '../api/model.ts';
import type { Cluster } from '../api/cluster.ts';
import type { ClusterStateMoves } from './clusterState.ts';
import { IGNORE_FILE, isConfigFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import type { IndexEntry, ShardedIndex } from '../branches/rendered/outputIndex.ts';
import type { ShrunkResult } from '../works/shrunkResults.ts';
import type { EndingEvictions, SteadyCandidates, SteadyResults } from './steadyResults.ts';
import {
  affectedByChange,
  dependenciesOf,
  type MovedClusters,
  multiClusterServicePartnersOf,
  namedTemplatesOnly,
  scalingRelativesOf,
} from './affectedByChange.ts';
import type { CachedFile } from './parsedFileCache.ts';
import { scopeOf } from './karmadaScope.ts';
import { lastGoodResolver, type LastGood, type RenderHistory } from './lastGoodKarmada.ts';
import {
  everyKarmadaFile,
  filesNamingCrds,
  holdsKarmadaObjects,
  karmadaFilesAt,
  karmadaOids,
  keptAsTheyAre,
  keptFilesFor,
  keptFor,
  readFiles,
  saveKarmadaFiles,
  sortedIncludes,
} from './karmadaFiles.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import { readIgnoreRules } from '../documents/readIgnoreRules.ts';
import { DEFAULT_SOURCE_LIMITS, sourceTreeEntries, type SourceLimits } from './sourceLimits.ts';
import { isUnitInput, markerTool, unitsReading, type SourceUnit, type UnitLayout } from '../units/detectUnits.ts';
import { readUnitLayout, readUnitLayoutChange } from '../units/readUnitLayout.ts';
import { renderUnits } from '../units/renderUnits.ts';
import { toolVersions } from '../units/unitTools.ts';
import { linkedManifests, SYMLINK_MODE } from './linkedManifests.ts';

export interface LoadedSource {
  model: ConfigModel;
  /** refKeys to render again. */
  affected: Set<string>;
  /** Source files read or removed by this change: their index entries are rewritten. */
  touchedFiles: Map<string, FileObjects | null>;
  full: boolean;
  /**
   * Names of the clusters changed, when the commit changed nothing but Cluster registrations (files
   * holding only clusters, before and after); null for any other change and for full renders.
   */
  onlyClustersChanged: ReadonlySet<string> | null;
  /** Templates not in `affected` whose result the relabel only takes clusters out of (outputs/steadyResults.ts). */
  shrunk?: ReadonlyMap<string, ShrunkResult>;
  /** The tools that render the commit's Helm and Kustomize units (the Render-Tools trailer); absent without units. */
  tools?: string;
}

/** The previous render a load starts from: its source tree and its index. */
export interface PreviousRender {
  tree: string;
  index: ShardedIndex;
  /**
   * Clusters whose state moved outside Git since that render (managed taints): what a change of their files in Git
   * would reach renders, as if they had changed there.
   */
  clustersMoved?: ClusterStateMoves;
  /** Every Helm and Kustomize unit runs again, as if each had changed (the tools did). */
  everyUnit?: boolean;
  /**
   * Templates whose graceful eviction tasks end now, which nothing else renders (renderRevision): they render, but for
   * those whose tasks keptResults can end (its `ending`).
   */
  endingEvictions?: EndingEvictions;
  /**
   * Of the templates a cluster-only change reaches only through their placement (candidates, with their index
   * entries), those whose last scheduling result stands (outputs/steadyResults.ts): they are not read or rendered.
   * Absent: every one is rendered.
   */
  keptResults?: (
    model: ConfigModel,
    candidates: SteadyCandidates,
    changedClusters: ReadonlySet<string>,
    /** The templates the change reaches so far: a dependency follows only parents that are not rendered. */
    affected: ReadonlySet<string>,
  ) => Promise<SteadyResults>;
}

/**
 * Builds the model a render needs. Cold (no previous render, or the ignore rules changed): every config
 * file is read. Incremental: only the files the diff names, the files holding Karmada objects (policies,
 * clusters: few), and the files of templates the change can affect — everything else is known from the
 * index on the output branch and never read. Either way a broken Karmada object keeps its last good definition
 * from the renders `history` names (lastGoodKarmada.ts); without one, it is absent. A tree too large to walk within
 * `limits` (sourceTreeEntries) throws TreeTooLargeError: the caller holds the commit.
 */
export async function loadSource(
  repo: GitRepo,
  tree: string,
  previous: PreviousRender | null,
  alsoAffected: ReadonlySet<string> = new Set(),
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
  history: RenderHistory | null = null,
): Promise<LoadedSource> {
  const { rules: ignore, problem } = await readIgnoreRules(repo, tree);
  const lastGood = lastGoodResolver(repo, history);
  const walk = { maxEntries: sourceTreeEntries(limits) };
  const withIgnoreProblem = (loaded: LoadedSource): LoadedSource => {
    if (problem) loaded.model.problems.push(problem);
    return loaded;
  };
  if (previous) {
    const added: Problem[] = [];
    const changes = await diffTrees(repo, previous.tree, tree, walk, (path, folder) => {
      if (isConfigFile(folder ? `${path}/x.yaml` : path, ignore)) added.push(notUtf8Problem(path, folder));
    });
    const loaded = changes.some((c) => c.path === IGNORE_FILE)
      ? null
      : await loadIncremental(repo, tree, previous, changes, ignore, alsoAffected, limits, lastGood);
    if (loaded) {
      loaded.model.problems.push(...added);
      return withIgnoreProblem(loaded);
    }
  }
  // A Helm chart's or a kustomization's files are its unit's inputs, never manifests: the unit stands for them.
  const notRead: Problem[] = [];
  const listed = await listTreeFiles(repo, tree, walk, (path, folder) => {
    if (isConfigFile(folder ? `${path}/x.yaml` : path, ignore)) notRead.push(notUtf8Problem(path, folder));
  });
  const layout = await readUnitLayout(repo, tree, ignore, walk, undefined, listed);
  const files = [...listed].filter(([path]) => isConfigFile(path, ignore) && !isUnitInput(layout, path));
  const parsed = await readFiles(
    repo,
    new Map(files.flatMap(([path, f]) => (f.mode === SYMLINK_MODE ? [] : [[path, f.oid] as const]))),
    limits,
  );
  const links = new Map(files.flatMap(([path, f]) => (f.mode === SYMLINK_MODE ? [[path, f.oid] as const] : [])));
  for (const [path, f] of await linkedManifests(repo, links)) parsed.set(path, f);
  for (const [marker, f] of await renderUnits(repo, tree, layout.units)) parsed.set(marker, f);
  const model = await assembleWithLastGood(lastGood, parsed.values());
  model.problems.push(...notRead);
  await previous?.index.loadAll();
  const affected = new Set<string>([
    ...model.templates.keys(),
    ...model.held,
    ...(previous?.index.templates() ?? []).map(([key]) => key),
  ]);
  const touched = new Map<string, FileObjects | null>(parsed);
  for (const [f] of previous?.index.files() ?? []) if (!touched.has(f)) touched.set(f, null);
  await saveKarmadaFiles(repo, tree, () => [...parsed].filter(([, f]) => holdsKarmadaObjects(f)).map(([path]) => path));
  return withIgnoreProblem({
    model,
    affected,
    touchedFiles: touched,
    full: true,
    onlyClustersChanged: null,
    ...(await usedTools(layout)),
  });
}

/** What an output index says of the source tree it was rendered from: that tree, and its files holding Karmada objects. */
export interface KarmadaFilesOfRender {
  tree: string;
  karmadaFiles: readonly string[];
}

/**
 * The files of `tree` that may hold Karmada objects (policies, clusters, customizations, CRDs, broken documents), as
 * loadSource reads them: the rendered tree's, corrected by the diff from it to this one (every file that tree changed,
 * added or renamed may hold some now), or, without a render or when the ignore rules changed, every config file. A
 * unit's inputs and symbolic links hold none a render reads. Past `limits`' walk, throws TreeTooLargeError.
 */
export async function karmadaFilePaths(
  repo: GitRepo,
  tree: string,
  rendered: KarmadaFilesOfRender | null,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<string[]> {
  const { rules: ignore } = await readIgnoreRules(repo, tree);
  const walk = { maxEntries: sourceTreeEntries(limits) };
  const changes = rendered ? await diffTrees(repo, rendered.tree, tree, walk) : null;
  if (rendered && changes && !changes.some((c) => c.path === IGNORE_FILE)) {
    const { layout } = await readUnitLayoutChange(repo, tree, ignore, { tree: rendered.tree, changes }, walk);
    const paths = new Set(rendered.karmadaFiles);
    for (const c of changes) {
      if (c.newOid && c.newMode !== SYMLINK_MODE) paths.add(c.path);
      else paths.delete(c.path);
    }
    return [...paths].filter((path) => isConfigFile(path, ignore) && !isUnitInput(layout, path)).sort();
  }
  const listed = await listTreeFiles(repo, tree, walk);
  const layout = await readUnitLayout(repo, tree, ignore, walk, undefined, listed);
  return [...listed]
    .filter(([path, f]) => f.mode !== SYMLINK_MODE && isConfigFile(path, ignore) && !isUnitInput(layout, path))
    .map(([path]) => path);
}

/**
 * The model of these files of `tree` alone (karmadaFilePaths'), as a render without earlier renders assembles it: a
 * broken Karmada object is absent. What views of Karmada's objects read: policies as Karmada's API server would store
 * them, and the problems of the files that define them, without reading a template.
 */
export async function loadKarmadaObjects(
  repo: GitRepo,
  tree: string,
  paths: readonly string[],
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<ConfigModel> {
  const files = await readFiles(repo, await karmadaOids(repo, tree, paths), limits);
  return assembleWithLastGood(lastGoodResolver(repo, null), files.values());
}

async function loadIncremental(
  repo: GitRepo,
  tree: string,
  previous: PreviousRender,
  changes: TreeChange[],
  ignore: IgnoreRules | undefined,
  alsoAffected: ReadonlySet<string>,
  limits: SourceLimits,
  lastGood: LastGood,
): Promise<LoadedSource | null> {
  const { index } = previous;
  // A change to a unit's input (its folder, a base, a file its kustomization names) renders the unit again; a marker
  // file removed (the folder is no unit any more) drops what the unit output, whatever its name.
  const { layout, before } = await readUnitLayoutChange(
    repo,
    tree,
    ignore,
    { tree: previous.tree, changes },
    { maxEntries: sourceTreeEntries(limits) },
  );
  const changedUnits = new Set<SourceUnit>(previous.everyUnit ? layout.units : []);
  for (const c of changes) for (const unit of unitsReading(layout.units, c.path)) changedUnits.add(unit);
  // A folder can become a unit, or stop being one, without a change of its own (an overlay naming it as a base came or
  // went): it renders, or its objects go.
  const goneUnits: string[] = [];
  if (before) {
    const was = new Set(before.units.map((u) => u.marker));
    const now = new Set(layout.units.map((u) => u.marker));
    for (const unit of layout.units) if (!was.has(unit.marker)) changedUnits.add(unit);
    for (const marker of was) if (!now.has(marker)) goneUnits.push(marker);
  }
  // A unit gone leaves its folder's files to be read as manifests, which no diff names: the commit is read whole.
  if (goneUnits.length > 0 && before?.units.some((u) => goneUnits.includes(u.marker) && !isUnitInput(layout, u.marker)))
    return null;
  // So does a file a chart no longer names as its values.
  if (before?.inputFiles.some((f) => !isUnitInput(layout, f))) return null;
  const changed = changes.filter(
    (c) =>
      (isConfigFile(c.path, ignore) && !isUnitInput(layout, c.path)) ||
      (!c.newOid && markerTool(c.path.slice(c.path.lastIndexOf('/') + 1)) !== undefined),
  );
  // Started here and awaited where their objects join the model: a chart's tool runs for tens of milliseconds, in which
  // this thread reads the index and the Karmada files. Each unit's output is keyed by its marker.
  const unitsRendered = renderUnits(repo, tree, [...changedUnits]);
  unitsRendered.catch(() => {}); // thrown where it is awaited; a load that fails before then leaves it unawaited
  const renderedMarkers = new Set([...changedUnits].map((u) => u.marker));
  const changedPaths = new Set([...changed.map((c) => c.path), ...renderedMarkers, ...goneUnits]);
  const touched = new Map<string, FileObjects | null>();
  const oldVersions: FileObjects[] = [];

  // Round 1: changed files (both versions), and the files holding Karmada objects: every one when one of them changed,
  // else those that concern the whole fleet; the rest, namespace by namespace, once the templates to render are known.
  // Files that became a unit's inputs were manifests (or broken ones) before: their own index entries go. When the
  // units changed, that is any file of the index (a folder with plain manifests gained a kustomization).
  const formerFiles = new Set(
    changes
      .map((c) => c.path)
      .filter((path) => isUnitInput(layout, path) && isConfigFile(path, ignore) && !renderedMarkers.has(path)),
  );
  if (before) {
    await index.loadAll();
    for (const [path] of index.files()) if (isUnitInput(layout, path) && !unitAt(layout, path)) formerFiles.add(path);
  }
  await index.load({ files: [...changedPaths, ...formerFiles] });
  const karmadaPaths = index.karmadaFiles();
  // The copy on disk, when it holds exactly this tree's Karmada files as they are but those this commit changed: the
  // files a render needs are then picked from it by namespace, without reading, or looking up the blob of, every
  // policy and cluster file.
  const changing = new Set(changed.map((c) => c.path));
  const kept = await keptAsTheyAre(repo, tree, karmadaPaths, { from: previous.tree, changes }, changing);
  // Only a Karmada file can be in the cache: with `kept`, a path it does not list is parsed without a look, and so is
  // a changed file (looking for its new version would read every entry).
  const mayBeKept = kept ? (path: string) => sortedIncludes(karmadaPaths, path) && !changing.has(path) : undefined;
  const changedFiles = await karmadaFilesAt(
    repo,
    new Map(changed.flatMap((c) => (c.newOid && c.newMode !== SYMLINK_MODE ? [[c.path, c.newOid] as const] : []))),
    mayBeKept,
    limits,
  );
  const loaded = new Map<string, FileObjects>();
  for (const [path, f] of changedFiles) loaded.set(path, f.objects());
  const links = new Map(
    changed.flatMap((c) => (c.newOid && c.newMode === SYMLINK_MODE ? [[c.path, c.newOid] as const] : [])),
  );
  for (const [path, f] of await linkedManifests(repo, links)) loaded.set(path, f);
  // Their previous versions are in the copy, but where only a read of every entry tells: parsed again instead.
  const oldKarmada = await readFiles(
    repo,
    new Map(changed.filter((c) => c.oldOid && index.file(c.path)?.karmada).map((c) => [c.path, c.oldOid!])),
    undefined,
    kept ? () => false : undefined,
  );
  for (const [marker, f] of await unitsRendered) {
    loaded.set(marker, f);
    touched.set(marker, f);
  }
  for (const marker of goneUnits) touched.set(marker, null);
  for (const path of formerFiles) if (index.file(path)) touched.set(path, null);
  for (const c of changed) touched.set(c.path, loaded.get(c.path) ?? null);
  // What the previous render read of them, with the last good definitions it kept (from the renders before it): what
  // a policy or cluster it held placed is affected too.
  oldVersions.push(...(await lastGood.files(oldKarmada.values(), 1)));
  // A changed policy, cluster or customization can affect any template, in any namespace; so can a cluster's state.
  const karmadaChanged = changed.some(
    (c) => index.file(c.path)?.karmada || oldKarmada.has(c.path) || holdsKarmada(loaded.get(c.path)),
  );
  const { clustersMoved } = previous;
  const everyPolicy = karmadaChanged || clustersMoved !== undefined;
  // Unless every Karmada object it changes is a namespaced policy or a rebalancer: then the templates of their namespaces only.
  const scope = karmadaChanged && !clustersMoved ? namespacesReached(changed, loaded, oldVersions) : undefined;
  const wholeFleet = everyPolicy && !scope;
  // Which Karmada files a render of templates in some namespaces needs (filesFor), path → file; all of them when the
  // change can reach the whole fleet.
  const lookedUp = () =>
    everyKarmadaFile(
      repo,
      tree,
      karmadaPaths.filter((path) => !changedPaths.has(path)),
      { from: previous.tree, changes },
      wholeFleet,
    );
  // A change to namespaced policies picks from the copy too, as if the files it changed were not there.
  const karmadaFor =
    kept && (!everyPolicy || scope)
      ? keptFilesFor(repo, kept, lookedUp, everyPolicy ? changedPaths : undefined)
      : await lookedUp();
  // No Karmada file changed: the copy holds this tree's as well, and the next sync diffs from here.
  if (kept && !everyPolicy) keptFor(kept, tree);
  const readKarmada = (files: ReadonlyMap<string, CachedFile>) => {
    for (const [path, f] of files) if (!loaded.has(path)) loaded.set(path, f.objects());
  };
  readKarmada(await karmadaFor(new Set()));

  // A changed file may now define an object another (unchanged) file defines: load that one too, so
  // the duplicate is seen and reported with both places.
  const extraFiles = new Set<string>();
  const definedInChanged = [...changedPaths]
    .flatMap((path) => loaded.get(path)?.templates ?? [])
    .flatMap((t) => [
      refKey({ ...t.ref, namespace: t.ref.namespace ?? 'default' }),
      refKey({ ...t.ref, namespace: '' }),
    ]);
  await index.load({ templates: definedInChanged });
  for (const path of changedPaths) {
    for (const t of loaded.get(path)?.templates ?? []) {
      for (const ns of [t.ref.namespace ?? 'default', '']) {
        const entry = index.template(refKey({ ...t.ref, namespace: ns }));
        // The other scoped units that output it too: their variants make one template with this one's.
        for (const other of entry ? [entry.file, ...(entry.units ?? []).map((u) => u.file)] : [])
          if (!changedPaths.has(other) && !loaded.has(other)) extraFiles.add(other);
      }
    }
  }
  await loadFiles(repo, tree, extraFiles, loaded, mayBeKept, layout, limits);

  // An index made by an earlier rule lists as Karmada files only the plain files with a cluster-scoped CRD, and its
  // outputs were neither checked nor defaulted by any CRD: once, the plain files its entries say hold a CRD are read,
  // written back as Karmada files (the rule's marker goes into the root with them, renderRevision.ts), and the objects
  // of their kinds render again, as after a change of each CRD (below). Units' CRDs place objects but check none.
  if (!index.karmadaFilesByCurrentRule()) {
    await index.loadAll();
    const crdFiles = filesNamingCrds(index).filter((path) => !unitAt(layout, path) && !isUnitInput(layout, path));
    await loadFiles(
      repo,
      tree,
      crdFiles.filter((path) => !loaded.has(path)),
      loaded,
      mayBeKept,
      layout,
      limits,
    );
    for (const path of crdFiles) if (!touched.has(path) && loaded.has(path)) touched.set(path, loaded.get(path)!);
  }

  // Whether a custom kind is cluster-scoped comes from CRDs anywhere, a chart's output too: those of the files not read
  // are in the index. A kind the change made, or unmade, cluster-scoped moves each of its objects, wherever defined,
  // into or out of a namespace: their files are read, and both identities rendered (the old one's output goes).
  const scopes = clusterScopedKindsAfter(index.clusterScopedKinds(), touched);
  // A CRD changed, added or removed checks and defaults every object of its kinds anew: they render again, as moved ones.
  const reschemed = new Set<string>(scopes.rescoped);
  for (const f of [...touched.values(), ...oldVersions])
    for (const kind of f ? declaredKinds(f) : []) reschemed.add(kind);
  const rescopedKeys: string[] = [];
  if (reschemed.size > 0) {
    await index.loadAll();
    const files = new Set<string>();
    for (const [key, entry] of index.templates()) {
      if (!reschemed.has(kindKey(parseRefKey(key)))) continue;
      rescopedKeys.push(key);
      files.add(entry.file);
    }
    await loadFiles(
      repo,
      tree,
      [...files].filter((path) => !loaded.has(path)),
      loaded,
      mayBeKept,
      layout,
      limits,
    );
    for (const path of files) if (!touched.has(path) && loaded.has(path)) touched.set(path, loaded.get(path)!);
  }
  const assemble = () => assembleWithLastGood(lastGood, loaded.values(), { clusterScopedKinds: scopes.kinds });

  // Round 2+: the files of affected templates, then of their dependencies, until nothing new is needed.
  let model = await assemble();
  // Its walk needs every index entry; after a change to namespaced policies only, those of their namespaces.
  const named = scope ? namedTemplatesOnly(changed, loaded, oldVersions) : undefined;
  if (wholeFleet) await index.loadAll();
  if (named) await index.load({ templates: named });
  // The walk also looks up the entry of every template the files read so far hold (a file with a broken object is
  // read on every sync, whatever namespace its templates are in).
  await index.load({ templates: model.templates.keys() });
  const placementOnly = new Map<string, IndexEntry>();
  const overrideReaders = new Map<string, IndexEntry>();
  const onEvicting = new Map<string, IndexEntry>();
  const ending = new Map<string, IndexEntry>();
  const moved = clustersMoved ? movedClusters(model, clustersMoved) : undefined;
  const affected = affectedByChange({
    index,
    model,
    changedFiles: changedPaths,
    oldVersions,
    ...(named
      ? { templatesInScope: [...named].flatMap((key) => entryOf(index, key)) }
      : scope
        ? { templatesInScope: await index.templatesIn(scope) }
        : {}),
    placementOnly,
    overrideReaders,
    onEvicting,
    ...(moved ? { clustersMoved: moved } : {}),
  });
  for (const key of rescopedKeys) affected.add(key);
  for (const [key, t] of model.templates) if (reschemed.has(kindKey(t.ref))) affected.add(key);
  if (previous.endingEvictions?.templates.size) {
    await index.load({ templates: previous.endingEvictions.templates });
    for (const key of previous.endingEvictions.templates) {
      const entry = index.template(key);
      if (!entry) continue;
      if (!affected.has(key) && !alsoAffected.has(key)) ending.set(key, entry);
      affected.add(key);
    }
    // Their namespaces' policies and overrides, read now (they would be for their render): keptResults reads them.
    if (ending.size > 0 && !wholeFleet) {
      const before = loaded.size;
      readKarmada(await karmadaFor(new Set([...ending.keys()].map((key) => parseRefKey(key).namespace))));
      if (loaded.size > before) model = await assemble();
    }
  }
  // Clusters alone changed, in Git or in their state: a template's files on the others stand while its replicas there
  // do (renderTemplates).
  const onlyClustersChanged = changedUnits.size > 0 ? null : changedClusters(changed, touched, oldVersions, moved);
  // Decided before any template is read: a workload whose scheduler keeps its last result renders nothing new.
  const shrunk = new Map<string, ShrunkResult>();
  const followed = new Map<string, readonly string[]>();
  if (
    onlyClustersChanged &&
    previous.keptResults &&
    placementOnly.size + overrideReaders.size + onEvicting.size + ending.size > 0
  ) {
    for (const key of alsoAffected) {
      placementOnly.delete(key);
      overrideReaders.delete(key);
      onEvicting.delete(key);
    }
    const steady = await previous.keptResults(
      model,
      {
        placementOnly,
        overrideReaders,
        onEvicting,
        ending,
        ...(previous.endingEvictions
          ? {
              copiesOfThisSource: previous.endingEvictions.copiesOfThisSource,
              ...(previous.endingEvictions.bindings ? { endingBindings: previous.endingEvictions.bindings } : {}),
            }
          : {}),
      },
      onlyClustersChanged,
      affected,
    );
    for (const key of steady.kept) affected.delete(key);
    for (const [key, s] of steady.shrunk) shrunk.set(key, s);
    for (const [key, parents] of steady.followed) followed.set(key, parents);
    // A Service whose MultiClusterService renders with it (its claim is the Service's placement) is rendered.
    const partners = new Map(
      [...shrunk.keys()].map((key) => [key, [...multiClusterServicePartnersOf(new Set([key]))]]),
    );
    await index.load({ templates: [...partners.values()].flat() });
    for (const [key, of] of partners) if (of.some((partner) => index.template(partner))) shrunk.delete(key);
    for (const key of shrunk.keys()) affected.delete(key);
    // Dependencies that do not merely follow render, with the new entries of their parents (distributeDependencies).
    for (const s of shrunk.values()) for (const dep of s.entry.deps ?? []) if (!shrunk.has(dep)) affected.add(dep);
    settleShrunk(shrunk, followed, affected);
  }
  await index.load({ templates: [...affected, ...alsoAffected] });
  for (const key of dependenciesOf(model, affected, index)) affected.add(key);
  // Templates the caller renders again for reasons outside the source (cluster state): their files are read below.
  for (const key of alsoAffected) if (index.template(key)) affected.add(key);
  // Templates held by a PATH_COLLISION with nothing rendered: tried again each time, so they render once it is gone.
  for (const key of index.blockedTemplates()) affected.add(key);
  // Templates waiting for their policy's dependentOverrides: tried again each time, as Karmada's detector retries.
  for (const key of index.awaitingTemplates()) affected.add(key);
  // A file the index names may be gone (deleted in this change): ask for each file once.
  const asked = new Set([...changedPaths, ...loaded.keys()]);
  // A template the last render held (defined twice, say) renders as every file that defines it says: the index lists
  // it under each of them, so those of the ones held are looked up, once.
  const heldLookedUp = new Set<string>();
  // One held since its first commit (defined twice there) has no entry of its own, only its files' entries: a changed
  // file that listed it may have ended the duplicate, and the definition left, in a file unchanged, renders now.
  const heldAtBirth = new Set(
    [...changedPaths].flatMap((path) =>
      (index.file(path)?.templates ?? []).filter((key) => !index.template(key) && !model.templates.has(key)),
    ),
  );
  for (;;) {
    settleShrunk(shrunk, followed, affected);
    await index.load({ templates: affected });
    const relatives = scalingRelativesOf(model, affected, index);
    // A Service and the MultiClusterService of its name render together: the claim is the Service's placement.
    const partners = multiClusterServicePartnersOf(affected);
    await index.load({ templates: partners });
    for (const key of partners) if (index.template(key) || model.templates.has(key)) relatives.add(key);
    if (relatives.size > 0) {
      for (const key of relatives) affected.add(key);
      continue; // their index entries first
    }
    const missing = new Set<string>();
    const held = new Set<string>();
    for (const key of affected) {
      const entry = index.template(key);
      // A scoped units' template is made of every unit's variant.
      for (const file of entry ? [entry.file, ...(entry.units ?? []).map((u) => u.file)] : [])
        if (!asked.has(file)) missing.add(file);
      if ((entry?.held || (!entry && heldAtBirth.has(key))) && !heldLookedUp.has(key)) held.add(key);
    }
    if (held.size > 0) {
      await index.loadAll();
      for (const [path, f] of index.files())
        if (!asked.has(path) && f.templates.some((key) => held.has(key))) missing.add(path);
      for (const key of held) heldLookedUp.add(key);
    }
    if (missing.size === 0) break;
    for (const file of missing) asked.add(file);
    await loadFiles(repo, tree, missing, loaded, mayBeKept, layout, limits);
    model = await assemble();
    for (const key of dependenciesOf(model, affected, index)) affected.add(key);
  }
  if (!wholeFleet) {
    const before = loaded.size;
    readKarmada(await karmadaFor(new Set([...affected].map((key) => parseRefKey(key).namespace))));
    if (loaded.size > before) model = await assemble();
  }
  // The PriorityClasses the policies name (schedulePriority): their value goes into the bindings those policies
  // build (claimTemplate), though neither the class nor its file changed.
  const classes = model.propagationPolicies
    .map((p) => priorityClassKey(p.object))
    .filter((key): key is string => key !== undefined && !model.templates.has(key));
  if (classes.length > 0) {
    await index.load({ templates: classes });
    const files = new Set(classes.flatMap((key) => index.template(key)?.file ?? []).filter((f) => !loaded.has(f)));
    if (files.size > 0) {
      await loadFiles(repo, tree, files, loaded, mayBeKept, layout, limits);
      model = await assemble();
    }
  }
  const unchangedKarmada = () => karmadaPaths.filter((path) => !changedPaths.has(path));
  await saveKarmadaFiles(
    repo,
    tree,
    () =>
      wholeFleet
        ? [...loaded].filter(([, f]) => holdsKarmadaObjects(f)).map(([path]) => path)
        : scope
          ? // This tree's Karmada files: the unchanged ones and the changed ones that still hold Karmada objects.
            [...unchangedKarmada(), ...[...changedPaths].filter((path) => holdsKarmada(loaded.get(path)))]
          : unchangedKarmada(),
    // Picked from the copy as if the changed files were not there (a cluster's or a customization's change too): a
    // save then replaces their entries only.
    kept
      ? {
          from: kept,
          previous: karmadaPaths,
          changed: new Map(
            changed.map((c) => {
              const old = oldKarmada.get(c.path);
              return [c.path, { before: old && scopeOf(old), oid: c.newOid }] as const;
            }),
          ),
        }
      : undefined,
  );
  return {
    model,
    affected,
    touchedFiles: touched,
    full: false,
    onlyClustersChanged,
    ...(shrunk.size > 0 ? { shrunk } : {}),
    ...(await usedTools(layout)),
  };
}

/**
 * The namespaces a change can reach when every Karmada object it changes (before or after) is a PropagationPolicy or
 * an OverridePolicy, which select and claim templates of their own namespace only, a ClusterOverridePolicy whose
 * every resource selector names a namespace, or a WorkloadRebalancer, which reschedules the workloads it lists, each
 * in the namespace its entry names ('' for a cluster-scoped one). Undefined for anything else (a cluster, a
 * ClusterPropagationPolicy, a customization, a file that does not parse or holds a broken object): that can reach any
 * template.
 */
function namespacesReached(
  changed: readonly { path: string }[],
  loaded: ReadonlyMap<string, FileObjects>,
  oldVersions: readonly FileObjects[],
): Set<string> | undefined {
  const namespaces = new Set<string>();
  const versions = [...changed.flatMap((c) => loaded.get(c.path) ?? []), ...oldVersions];
  for (const f of versions) {
    if (
      f.unreadable ||
      f.broken.length + f.clusters.length + f.clusterTaintPolicies.length > 0 ||
      f.interpreterCustomizations.length > 0
    )
      return undefined;
    for (const { object } of f.rebalancers) for (const w of object.spec.workloads) namespaces.add(w.namespace ?? '');
    for (const { object } of f.overridePolicies) {
      if (object.kind !== 'ClusterOverridePolicy') continue;
      // Its selectors reach their own namespaces when each names one; it claims nothing, so no older version's reach is left.
      const selectors = object.spec.resourceSelectors ?? [];
      if (selectors.length === 0 || selectors.some((s) => !s.namespace)) return undefined;
      for (const s of selectors) namespaces.add(s.namespace!);
    }
    for (const { object } of [...f.propagationPolicies, ...f.overridePolicies]) {
      if (object.kind === 'ClusterOverridePolicy') continue;
      const namespace = object.metadata.namespace;
      if ((object.kind !== 'PropagationPolicy' && object.kind !== 'OverridePolicy') || !namespace) return undefined;
      namespaces.add(namespace);
    }
  }
  // templatesIn looks for each namespace in every line it reads: past a few dozen, one walk of the fleet is cheaper, and a
  // rebalancer listing thousands of namespaces (one pull request) stays linear.
  return namespaces.size > 0 && namespaces.size <= MAX_SCOPED_NAMESPACES ? namespaces : undefined;
}

const MAX_SCOPED_NAMESPACES = 64;

function entryOf(index: ShardedIndex, key: string): [string, IndexEntry][] {
  const entry = index.template(key);
  return entry ? [[key, entry]] : [];
}

async function loadFiles(
  repo: GitRepo,
  tree: string,
  paths: Iterable<string>,
  into: Map<string, FileObjects>,
  mayBeKept: ((path: string) => boolean) | undefined,
  layout: UnitLayout,
  limits: SourceLimits,
): Promise<void> {
  // The index names a unit's templates by its marker file: the unit is rendered (from its cache, when unchanged).
  const units = new Set<SourceUnit>();
  const plain: string[] = [];
  for (const path of paths) {
    const unit = unitAt(layout, path);
    if (unit) units.add(unit);
    // A unit's input the index still names (it was a manifest before): the unit that reads it stands for it now.
    else if (!isUnitInput(layout, path)) plain.push(path);
  }
  for (const [path, f] of await karmadaFilesAt(repo, await readPathOids(repo, tree, plain), mayBeKept, limits))
    into.set(path, f.objects());
  for (const [marker, f] of await renderUnits(repo, tree, [...units])) into.set(marker, f);
}

async function usedTools(layout: UnitLayout): Promise<{ tools?: string }> {
  return layout.units.length > 0 ? { tools: await toolVersions(layout.units.map((u) => u.tool)) } : {};
}

/** The unit whose marker file this is. */
function unitAt(layout: UnitLayout, path: string): SourceUnit | undefined {
  return layout.units.find((u) => u.marker === path);
}

/** The model of these files, each broken or twice-defined Karmada object with its last good definition. */
async function assembleWithLastGood(
  lastGood: LastGood,
  files: Iterable<FileObjects>,
  opts: Omit<AssembleOptions, 'kept'> = {},
): Promise<ConfigModel> {
  const resolved = await lastGood.files(await checkLuaScripts([...files]));
  // A customization kept from an earlier render may be the only Lua left: the hooks it brings back need the runtime.
  if (resolved.some((f) => hasLuaCustomizations(f.interpreterCustomizations))) await loadLuaRuntime();
  const model = await assembleModel(resolved, opts);
  // Rare: only then are the objects defined twice looked up, and the model assembled again with what they keep.
  if (!model.problems.some((p) => p.code === 'DUPLICATE_OBJECT')) return model;
  const kept = await lastGood.definedTwice(resolved);
  return kept.size > 0 ? await assembleModel(resolved, { ...opts, kept }) : model;
}

/**
 * The registered clusters whose state moved, by what the move reaches: evicting ones with every one Git gives a
 * NoExecute taint when such a toleration ran out, and freed ones.
 */
function movedClusters(model: ConfigModel, moves: ClusterStateMoves): MovedClusters {
  const evicting: Cluster[] = [];
  const freed: Cluster[] = [];
  for (const { object } of model.clusters.values()) {
    const name = object.metadata.name;
    if (
      moves.evicting.has(name) ||
      (moves.noExecuteDue && (object.spec.taints ?? []).some((t) => t.effect === 'NoExecute'))
    )
      evicting.push(object);
    if (moves.freed.has(name)) freed.push(object);
  }
  return { evicting, freed };
}

/** The clusters changed, when nothing else did: those clustersOnly finds in the files, and those whose state moved. */
function changedClusters(
  changed: readonly TreeChange[],
  now: ReadonlyMap<string, FileObjects | null>,
  old: readonly FileObjects[],
  moved: MovedClusters | undefined,
): ReadonlySet<string> | null {
  const inGit = changed.length === 0 ? new Set<string>() : clustersOnly(changed, now, old);
  if (!inGit) return null;
  const names = moved ? [...moved.evicting, ...moved.freed].map((c) => c.metadata.name) : [];
  // Nothing changed at all (the same source rendered again: eviction tasks that end, a retried pending binding, an
  // autoscaler's count): no cluster changed, and each cluster a template stays on with its replicas keeps its file.
  return names.length === 0 ? inGit : new Set([...inGit, ...names]);
}

function clustersOnly(
  changed: readonly { path: string; oldOid?: string }[],
  now: ReadonlyMap<string, FileObjects | null>,
  old: readonly FileObjects[],
): Set<string> | null {
  const names = new Set<string>();
  const oldByPath = new Map(old.map((f) => [f.file, f]));
  for (const c of changed) {
    const versions = [now.get(c.path) ?? null, oldByPath.get(c.path) ?? null];
    // An old version that was not read (the file held no Karmada objects) may have held anything.
    if (c.oldOid && !oldByPath.has(c.path)) return null;
    for (const f of versions) {
      if (!f) continue;
      // Anything but Clusters (a policy, a customization, a rebalancer) can change what every cluster gets.
      if (f.unreadable || f.templates.length > 0 || holdsKarmadaObjects({ ...f, clusters: [] })) return null;
      for (const cluster of f.clusters) names.add(cluster.object.metadata.name);
    }
  }
  return names.size > 0 ? names : null;
}

function holdsKarmada(f: FileObjects | undefined): boolean {
  return f !== undefined && holdsKarmadaObjects(f);
}

/**
 * A shrunk template another rule renders after all (a relative, a partner) renders as any other; so does a dependency
 * that would follow its parents (`followed`, with them) once one of them renders or it renders itself.
 */
function settleShrunk(
  shrunk: Map<string, ShrunkResult>,
  followed: Map<string, readonly string[]>,
  affected: Set<string>,
): void {
  for (const key of affected) shrunk.delete(key);
  for (const [key, parents] of followed) {
    if (shrunk.has(key) && !parents.some((p) => affected.has(p))) continue;
    shrunk.delete(key);
    followed.delete(key);
    affected.add(key);
  }
}

/**
 * A file or folder whose name is not UTF-8 is not read (listTreeFiles): kubectl on a Linux checkout would read it, but
 * decoded its name can read as another's, which a pull request could use to put its file in another's place.
 */
function notUtf8Problem(path: string, folder: boolean): Problem {
  return {
    file: path,
    line: 1,
    column: 1,
    code: 'FILE_NOT_TEXT',
    severity: 'error',
    message: `the name of this ${folder ? 'folder' : 'file'} is not UTF-8 (each \\xHH is a byte that is not): it is not read, as once decoded two such names can read alike`,
    fix: `rename it to a name in UTF-8 (\`git mv\`, completing the old name with Tab)`,
  };
}
