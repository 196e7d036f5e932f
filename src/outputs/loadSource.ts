import { parseRefKey, refKey } from '../api/kinds.ts';
import type { InterpreterCustomization } from '../api/interpreterCustomization.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readObject } from '../commits/readObject.ts';
import type { GitRepo, TreeChange } from '../commits/types.ts';
import { assembleModel } from '../documents/assembleModel.ts';
import { classifyDocuments } from '../documents/classifyDocuments.ts';
import type { ConfigModel, FileObjects, Located } from '../documents/model.ts';
import { karmadaRef } from '../documents/karmadaRef.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { IGNORE_FILE, isConfigFile, parseIgnoreFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import type { ShardedIndex } from '../works/outputIndex.ts';
import { affectedByChange, dependenciesOf } from './affectedByChange.ts';
import { filesFor, scopeOf } from './karmadaScope.ts';
import { karmadaPathsDigest, parsedFile, readParsedFileCache, writeParsedFileCache, type CachedFile, type ParsedFiles } from './parsedFileCache.ts';
import { readPathOids, readTextFiles } from './readPathOids.ts';

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
}

/**
 * Builds the model a render needs. Cold (no previous render, or the ignore rules changed): every config
 * file is read. Incremental: only the files the diff names, the files holding Karmada objects (policies,
 * clusters: few), and the files of templates the change can affect — everything else is known from the
 * index on the output branch and never read.
 */
export async function loadSource(
  repo: GitRepo, tree: string, previous: { tree: string; index: ShardedIndex } | null, alsoAffected: ReadonlySet<string> = new Set(),
): Promise<LoadedSource> {
  const ignore = await readIgnore(repo, tree);
  if (previous) {
    const changes = await diffTrees(repo, previous.tree, tree);
    if (!changes.some((c) => c.path === IGNORE_FILE)) return loadIncremental(repo, tree, previous, changes, ignore, alsoAffected);
  }
  const files = [...(await listTreeFiles(repo, tree))].filter(([path]) => isConfigFile(path, ignore));
  const parsed = await readFiles(repo, new Map(files.map(([path, f]) => [path, f.oid])));
  const model = assembleModel(parsed.values());
  await previous?.index.loadAll();
  const affected = new Set<string>([...model.templates.keys(), ...model.held, ...(previous?.index.templates() ?? []).map(([key]) => key)]);
  const touched = new Map<string, FileObjects | null>(parsed);
  for (const [f] of previous?.index.files() ?? []) if (!touched.has(f)) touched.set(f, null);
  await saveKarmadaFiles(repo, tree, () => [...parsed].filter(([, f]) => holdsKarmadaObjects(f)).map(([path]) => path));
  return { model, affected, touchedFiles: touched, full: true, onlyClustersChanged: null };
}

async function loadIncremental(
  repo: GitRepo, tree: string, previous: { tree: string; index: ShardedIndex },
  changes: TreeChange[], ignore: IgnoreRules | undefined, alsoAffected: ReadonlySet<string>,
): Promise<LoadedSource> {
  const { index } = previous;
  const changed = changes.filter((c) => isConfigFile(c.path, ignore));
  const changedPaths = new Set(changed.map((c) => c.path));
  const touched = new Map<string, FileObjects | null>();
  const oldVersions: FileObjects[] = [];

  // Round 1: changed files (both versions), and the files holding Karmada objects: every one when one of them changed,
  // else those that concern the whole fleet; the rest, namespace by namespace, once the templates to render are known.
  await index.load({ files: changedPaths });
  const karmadaPaths = index.karmadaFiles();
  // The copy on disk, when it holds exactly this tree's Karmada files as they are: the files a render needs are then
  // picked from it by namespace, without reading, or looking up the blob of, every policy and cluster file.
  const kept = await keptAsTheyAre(repo, tree, karmadaPaths, { from: previous.tree, changes });
  // Only a Karmada file can be in the cache: with `kept`, a path it does not list is parsed without a look.
  const mayBeKept = kept ? (path: string) => sortedIncludes(karmadaPaths, path) : undefined;
  const changedFiles = await karmadaFilesAt(repo, new Map(changed.flatMap((c) => (c.newOid ? [[c.path, c.newOid] as const] : []))), mayBeKept);
  const loaded = new Map<string, FileObjects>();
  for (const [path, f] of changedFiles) loaded.set(path, f.objects());
  const oldKarmada = await readFiles(repo, new Map(changed.filter((c) => c.oldOid && index.file(c.path)?.karmada).map((c) => [c.path, c.oldOid!])));
  for (const c of changed) {
    touched.set(c.path, loaded.get(c.path) ?? null);
    const old = oldKarmada.get(c.path);
    if (!old) continue;
    oldVersions.push(old);
    const now = loaded.get(c.path);
    if (now) loaded.set(c.path, withLastGoodKarmada(now, old));
  }
  // A changed policy, cluster or customization can affect any template, in any namespace.
  const everyPolicy = changed.some((c) => index.file(c.path)?.karmada || oldKarmada.has(c.path) || holdsKarmada(loaded.get(c.path)));
  // Which Karmada files a render of templates in some namespaces needs (filesFor), path → file; all of them, after a Karmada change.
  const lookedUp = () => everyKarmadaFile(repo, tree, karmadaPaths.filter((path) => !changedPaths.has(path)), { from: previous.tree, changes }, everyPolicy);
  const karmadaFor = kept && !everyPolicy ? keptFilesFor(repo, kept, lookedUp) : await lookedUp();
  const readKarmada = (files: ReadonlyMap<string, CachedFile>) => {
    for (const [path, f] of files) if (!loaded.has(path)) loaded.set(path, f.objects());
  };
  readKarmada(await karmadaFor(new Set()));

  // A changed file may now define an object another (unchanged) file defines: load that one too, so
  // the duplicate is seen and reported with both places.
  const extraFiles = new Set<string>();
  const definedInChanged = [...changedPaths].flatMap((path) => loaded.get(path)?.templates ?? [])
    .flatMap((t) => [refKey({ ...t.ref, namespace: t.ref.namespace ?? 'default' }), refKey({ ...t.ref, namespace: '' })]);
  await index.load({ templates: definedInChanged });
  for (const path of changedPaths) {
    for (const t of loaded.get(path)?.templates ?? []) {
      for (const ns of [t.ref.namespace ?? 'default', '']) {
        const other = index.template(refKey({ ...t.ref, namespace: ns }))?.file;
        if (other && !changedPaths.has(other) && !loaded.has(other)) extraFiles.add(other);
      }
    }
  }
  await loadFiles(repo, tree, extraFiles, loaded, mayBeKept);

  // Round 2+: the files of affected templates, then of their dependencies, until nothing new is needed.
  let model = assembleModel(loaded.values(), { changedFiles: changedPaths });
  // Its walk needs every index entry.
  if (everyPolicy) await index.loadAll();
  const affected = affectedByChange({ index, model, changedFiles: changedPaths, oldVersions });
  await index.load({ templates: [...affected, ...alsoAffected] });
  for (const key of dependenciesOf(model, affected, index)) affected.add(key);
  // Templates the caller renders again for reasons outside the source (cluster state): their files are read below.
  for (const key of alsoAffected) if (index.template(key)) affected.add(key);
  // A file the index names may be gone (deleted in this change): ask for each file once.
  const asked = new Set([...changedPaths, ...loaded.keys()]);
  for (;;) {
    await index.load({ templates: affected });
    const missing = new Set<string>();
    for (const key of affected) {
      const file = index.template(key)?.file;
      if (file && !asked.has(file)) missing.add(file);
    }
    if (missing.size === 0) break;
    for (const file of missing) asked.add(file);
    await loadFiles(repo, tree, missing, loaded, mayBeKept);
    model = assembleModel(loaded.values(), { changedFiles: changedPaths });
    for (const key of dependenciesOf(model, affected, index)) affected.add(key);
  }
  if (!everyPolicy) {
    const before = loaded.size;
    readKarmada(await karmadaFor(new Set([...affected].map((key) => parseRefKey(key).namespace))));
    if (loaded.size > before) model = assembleModel(loaded.values(), { changedFiles: changedPaths });
  }
  await saveKarmadaFiles(repo, tree, () => (everyPolicy ? [...loaded].filter(([, f]) => holdsKarmadaObjects(f)).map(([path]) => path) : karmadaPaths.filter((path) => !changedPaths.has(path))));
  return { model, affected, touchedFiles: touched, full: false, onlyClustersChanged: clustersOnly(changed, touched, oldVersions) };
}

async function loadFiles(repo: GitRepo, tree: string, paths: Iterable<string>, into: Map<string, FileObjects>, mayBeKept?: (path: string) => boolean): Promise<void> {
  for (const [path, f] of await karmadaFilesAt(repo, await readPathOids(repo, tree, [...paths]), mayBeKept)) into.set(path, f.objects());
}

/**
 * Parsed files of a repo that hold Karmada objects, by blob oid and path. Every incremental sync needs the policies
 * and clusters that concern what it renders; a long-running reconciler parses each version of those files once,
 * and a new process starts from the copy kept beside the object store (parsedFileCache.ts), parsing only the
 * entries it uses.
 */
interface KarmadaFiles {
  /** Every kept file, by `<blob oid> <path>`: those of the copy on disk (its directory read on first call), then those parsed since. */
  byKey(): Map<string, CachedFile>;
  /** Entries parsed since the copy on disk was written. */
  added: number;
  /** The files last saved (on disk, or by this process), and the source tree they were saved for. */
  saved?: ParsedFiles;
}
const karmadaFileCache = new WeakMap<GitRepo, KarmadaFiles>();

function karmadaFilesOf(repo: GitRepo): KarmadaFiles {
  let cache = karmadaFileCache.get(repo);
  if (!cache) {
    const saved = readParsedFileCache(repo);
    let byKey: Map<string, CachedFile> | undefined;
    cache = { byKey: () => (byKey ??= new Map(saved?.entries())), added: 0, ...(saved ? { saved } : {}) };
    karmadaFileCache.set(repo, cache);
  }
  return cache;
}

/** Path → blob oid of the files saved. */
const savedOids = new WeakMap<ParsedFiles, Map<string, string>>();
function oidsOf(saved: ParsedFiles): Map<string, string> {
  let out = savedOids.get(saved);
  if (!out) {
    out = new Map();
    for (const key of saved.entries().keys()) {
      const space = key.indexOf(' ');
      out.set(key.slice(space + 1), key.slice(0, space));
    }
    savedOids.set(saved, out);
  }
  return out;
}

/**
 * The saved files when they are exactly the Karmada files `karmadaPaths` names (the output index's list, sorted), at
 * the blobs `tree` holds: same paths, and none of them changed since the tree they were saved for. Undefined
 * otherwise (then every Karmada file is looked up, as everyKarmadaFile does).
 */
async function keptAsTheyAre(repo: GitRepo, tree: string, karmadaPaths: readonly string[], known: { from: string; changes: TreeChange[] }): Promise<ParsedFiles | undefined> {
  const saved = karmadaFilesOf(repo).saved;
  if (!saved || saved.paths !== karmadaPathsDigest(karmadaPaths)) return undefined;
  const changes = await changesSinceSaved(repo, saved, tree, known);
  if (!changes || changes.some((c) => sortedIncludes(karmadaPaths, c.path))) return undefined;
  return saved;
}

/** The diff from the tree the files were saved for to `tree`; undefined when that tree is gone (history rewritten and collected). */
async function changesSinceSaved(repo: GitRepo, saved: ParsedFiles, tree: string, known?: { from: string; changes: TreeChange[] }): Promise<TreeChange[] | undefined> {
  try {
    // Usually the tree saved is the one the previous render read, whose diff the caller has already.
    return known?.from === saved.tree ? known.changes : await diffTrees(repo, saved.tree, tree);
  } catch {
    return undefined;
  }
}

/** Binary search: the output index keeps its Karmada file list sorted (a list that is not has no saved digest to match). */
function sortedIncludes(sorted: readonly string[], path: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const at = sorted[mid]!;
    if (at === path) return true;
    if (at < path) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

/**
 * filesFor over the saved files (keptAsTheyAre): path → file, read from the saved copy by namespace; from `lookedUp`
 * (every Karmada file looked up) once a part of the copy turns out unreadable.
 */
function keptFilesFor(
  repo: GitRepo, saved: ParsedFiles, lookedUp: () => Promise<KarmadaFilesFor>,
): KarmadaFilesFor {
  const cache = karmadaFilesOf(repo);
  let fallback: Promise<KarmadaFilesFor> | undefined;
  return async (namespaces) => {
    const picked = fallback ? undefined : saved.filesFor(namespaces);
    if (!picked) return (await (fallback ??= lookedUp()))(namespaces);
    const out = new Map<string, CachedFile>();
    for (const [key, file] of picked) {
      const space = key.indexOf(' ');
      const path = key.slice(space + 1);
      out.set(path, orParsedAgain(repo, cache, path, key.slice(0, space), file));
    }
    return out;
  };
}

/** The Karmada files a render of templates in `namespaces` needs (karmadaScope's filesFor), path → file. */
type KarmadaFilesFor = (namespaces: ReadonlySet<string>) => Promise<Map<string, CachedFile>>;

/**
 * filesFor over the given Karmada files, each looked up in `tree` (every one, whatever the namespaces, when `all`):
 * path → file, parsed now where the cache lacks it.
 */
async function everyKarmadaFile(
  repo: GitRepo, tree: string, paths: readonly string[], known: { from: string; changes: TreeChange[] }, all: boolean,
): Promise<KarmadaFilesFor> {
  const files = await karmadaFilesAt(repo, await karmadaOids(repo, tree, paths, known));
  if (all) return async () => files;
  const scopes = new Map([...files].map(([path, f]) => [path, f.scope]));
  return async (namespaces) => new Map([...filesFor(scopes, namespaces)].map((path) => [path, files.get(path)!]));
}

/**
 * Blob oids of the given paths in `tree`. The hundreds of policy and cluster files are rarely what changed: their
 * oids come from the tree the parsed files were saved for, corrected by the diff from that tree to this one (which
 * reads only the subtrees that differ); only paths known from neither are looked up in the tree.
 */
async function karmadaOids(repo: GitRepo, tree: string, paths: Iterable<string>, known?: { from: string; changes: TreeChange[] }): Promise<Map<string, string>> {
  const saved = karmadaFilesOf(repo).saved;
  const wanted = [...new Set(paths)];
  const changes = saved ? await changesSinceSaved(repo, saved, tree, known) : undefined;
  if (!saved || !changes) return readPathOids(repo, tree, wanted);
  const changed = new Map(changes.map((c) => [c.path, c.newOid]));
  const oids = oidsOf(saved);
  const out = new Map<string, string>();
  const unknown: string[] = [];
  for (const path of wanted) {
    if (changed.has(path)) {
      const oid = changed.get(path);
      if (oid) out.set(path, oid);
    } else if (oids.has(path)) {
      out.set(path, oids.get(path)!);
    } else {
      unknown.push(path);
    }
  }
  for (const [path, oid] of await readPathOids(repo, tree, unknown)) out.set(path, oid);
  return out;
}

/** Reads and parses the given path → blob oid pairs, from the cache where it can. */
async function readFiles(repo: GitRepo, oids: ReadonlyMap<string, string>): Promise<Map<string, FileObjects>> {
  return new Map([...await karmadaFilesAt(repo, oids)].map(([path, f]) => [path, f.objects()]));
}

/**
 * The given path → blob oid pairs as kept files: their scope known at once, their objects parsed when first asked
 * for. A file the cache lacks is parsed now (and kept when it holds Karmada objects). `mayBeKept`: the paths the
 * cache can hold, when the caller knows (the others are parsed without looking, which would read every entry).
 */
async function karmadaFilesAt(repo: GitRepo, oids: ReadonlyMap<string, string>, mayBeKept?: (path: string) => boolean): Promise<Map<string, CachedFile>> {
  const cache = karmadaFilesOf(repo);
  const out = new Map<string, CachedFile>();
  const toRead = new Map<string, string>();
  for (const [path, oid] of oids) {
    const hit = !mayBeKept || mayBeKept(path) ? cache.byKey().get(`${oid} ${path}`) : undefined;
    if (hit) out.set(path, orParsedAgain(repo, cache, path, oid, hit));
    else toRead.set(path, oid);
  }
  const blobs = await readBlobs(repo, toRead.values());
  for (const [path, oid] of toRead) {
    const parsed = parseFile(path, blobs.get(oid)!);
    const file = parsedFile(scopeOf(parsed), parsed);
    out.set(path, file);
    if (holdsKarmadaObjects(parsed)) {
      cache.byKey().set(`${oid} ${path}`, file);
      cache.added++;
    }
  }
  return out;
}

/**
 * A kept file whose line does not parse, or is another file's (the header was whole, the disk lied about the rest),
 * is parsed again from its blob when first used, and kept anew: the cache is then written again.
 */
function orParsedAgain(repo: GitRepo, cache: KarmadaFiles, path: string, oid: string, kept: CachedFile): CachedFile {
  let objects: FileObjects | undefined;
  return {
    scope: kept.scope,
    line: () => (cache.byKey().get(`${oid} ${path}`) ?? kept).line(),
    objects: () => {
      if (objects) return objects;
      try {
        objects = kept.objects();
        if (objects.file === path) return objects;
      } catch {
        // parsed again below
      }
      const blob = readObject(repo, oid);
      if (blob.type !== 'blob') throw new Error(`object ${oid} (${path}) is a ${blob.type}, not a blob`);
      objects = parseFile(path, blob.content);
      cache.byKey().set(`${oid} ${path}`, parsedFile(scopeOf(objects), objects));
      cache.added++;
      return objects;
    },
  };
}

/**
 * Saves the parsed Karmada files of this tree when any were parsed anew; older versions are dropped,
 * so the copy on disk stays the size of the current policies and clusters.
 */
async function saveKarmadaFiles(repo: GitRepo, tree: string, karmadaPaths: () => Iterable<string>): Promise<void> {
  const cache = karmadaFilesOf(repo);
  if (cache.added === 0) return;
  const oids = await karmadaOids(repo, tree, karmadaPaths());
  const current = new Map<string, CachedFile>();
  for (const [path, oid] of oids) {
    const hit = cache.byKey().get(`${oid} ${path}`);
    if (hit) current.set(`${oid} ${path}`, hit);
  }
  cache.saved = await writeParsedFileCache(repo, current, tree);
  cache.added = 0;
}

/**
 * A policy or cluster that no longer parses or validates keeps its last good definition: dropping it
 * would unschedule (and so delete) everything it placed. Its problems are still reported.
 */
function withLastGoodKarmada(now: FileObjects, old: FileObjects): FileObjects {
  const brokenKeys = new Set(now.broken.map(refKey));
  const keep = <T extends { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }>(list: Located<T>[]) =>
    list.filter((l) => now.unreadable || brokenKeys.has(refKey(karmadaRef(l.object))));
  return {
    ...now,
    propagationPolicies: [...now.propagationPolicies, ...keep(old.propagationPolicies)],
    overridePolicies: [...now.overridePolicies, ...keep(old.overridePolicies)],
    clusterTaintPolicies: [...now.clusterTaintPolicies, ...keep(old.clusterTaintPolicies)],
    clusters: [...now.clusters, ...keep(old.clusters)],
  };
}

function clustersOnly(changed: readonly { path: string; oldOid?: string }[], now: ReadonlyMap<string, FileObjects | null>, old: readonly FileObjects[]): Set<string> | null {
  const names = new Set<string>();
  const oldByPath = new Map(old.map((f) => [f.file, f]));
  for (const c of changed) {
    const versions = [now.get(c.path) ?? null, oldByPath.get(c.path) ?? null];
    // An old version that was not read (the file held no Karmada objects) may have held anything.
    if (c.oldOid && !oldByPath.has(c.path)) return null;
    for (const f of versions) {
      if (!f) continue;
      if (f.unreadable || f.templates.length + f.propagationPolicies.length + f.overridePolicies.length + f.broken.length > 0) return null;
      for (const cluster of f.clusters) names.add(cluster.object.metadata.name);
    }
  }
  return names.size > 0 ? names : null;
}

function parseFile(path: string, bytes: Uint8Array): FileObjects {
  const { documents, problems } = parseDocuments(path, bytes);
  return classifyDocuments(path, documents, problems);
}

async function readIgnore(repo: GitRepo, tree: string): Promise<IgnoreRules | undefined> {
  const text = (await readTextFiles(repo, tree, [IGNORE_FILE])).get(IGNORE_FILE);
  return text === undefined ? undefined : parseIgnoreFile(text);
}

/**
 * Files read on every incremental sync (few, and each can affect any template): policies, clusters,
 * rebalancers, interpreter customizations, and files with broken ones (their last good version is kept).
 */
export function holdsKarmadaObjects(f: FileObjects): boolean {
  return f.propagationPolicies.length + f.overridePolicies.length + f.clusterTaintPolicies.length + f.clusters.length + f.rebalancers.length +
    f.interpreterCustomizations.length + f.broken.length > 0;
}

function holdsKarmada(f: FileObjects | undefined): boolean {
  return f !== undefined && holdsKarmadaObjects(f);
}

/**
 * The interpreter customizations a rendered commit was made with, for the status stage: the files the
 * output index marks as holding Karmada objects, read at the source commit (cached like every sync's).
 */
export async function readInterpreterCustomizations(repo: GitRepo, sourceTree: string, index: ShardedIndex): Promise<Located<InterpreterCustomization>[]> {
  const files = await karmadaFilesAt(repo, await karmadaOids(repo, sourceTree, index.karmadaFiles()));
  // Customizations concern the whole fleet (karmadaScope.ts): the files scoped to a namespace hold none.
  const parsed = [...files.values()].filter((f) => f.scope.fleet).map((f) => f.objects());
  return parsed.sort((a, b) => (a.file < b.file ? -1 : 1)).flatMap((f) => f.interpreterCustomizations);
}
