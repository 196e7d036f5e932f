import { refKey } from '../api/kinds.ts';
import type { InterpreterCustomization } from '../api/interpreterCustomization.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import type { GitRepo } from '../commits/types.ts';
import { assembleModel } from '../documents/assembleModel.ts';
import { classifyDocuments } from '../documents/classifyDocuments.ts';
import type { ConfigModel, FileObjects, Located } from '../documents/model.ts';
import { karmadaRef } from '../documents/karmadaRef.ts';
import { parseDocuments } from '../documents/parseDocuments.ts';
import { IGNORE_FILE, isConfigFile, parseIgnoreFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import type { OutputIndex } from '../works/outputIndex.ts';
import { affectedByChange, dependenciesOf } from './affectedByChange.ts';
import { readPathOids } from './readPathOids.ts';

export interface LoadedSource {
  model: ConfigModel;
  /** refKeys to render again. */
  affected: Set<string>;
  /** Source files read or removed by this change: their index entries are rewritten. */
  touchedFiles: Map<string, FileObjects | null>;
  full: boolean;
}

/**
 * Builds the model a render needs. Cold (no previous render, or the ignore rules changed): every config
 * file is read. Incremental: only the files the diff names, the files holding Karmada objects (policies,
 * clusters: few), and the files of templates the change can affect — everything else is known from the
 * index on the output branch and never read.
 */
export async function loadSource(
  repo: GitRepo, tree: string, previous: { tree: string; index: OutputIndex } | null, alsoAffected: ReadonlySet<string> = new Set(),
): Promise<LoadedSource> {
  const ignore = await readIgnore(repo, tree);
  if (previous) {
    const changes = await diffTrees(repo, previous.tree, tree);
    if (!changes.some((c) => c.path === IGNORE_FILE)) return loadIncremental(repo, tree, previous, changes, ignore, alsoAffected);
  }
  const files = [...(await listTreeFiles(repo, tree))].filter(([path]) => isConfigFile(path, ignore));
  const parsed = await readFiles(repo, new Map(files.map(([path, f]) => [path, f.oid])));
  const model = assembleModel(parsed.values());
  const affected = new Set<string>([...model.templates.keys(), ...model.held, ...Object.keys(previous?.index.templates ?? {})]);
  const touched = new Map<string, FileObjects | null>(parsed);
  for (const f of Object.keys(previous?.index.files ?? {})) if (!touched.has(f)) touched.set(f, null);
  return { model, affected, touchedFiles: touched, full: true };
}

async function loadIncremental(
  repo: GitRepo, tree: string, previous: { tree: string; index: OutputIndex },
  changes: Awaited<ReturnType<typeof diffTrees>>, ignore: IgnoreRules | undefined, alsoAffected: ReadonlySet<string>,
): Promise<LoadedSource> {
  const { index } = previous;
  const changed = changes.filter((c) => isConfigFile(c.path, ignore));
  const changedPaths = new Set(changed.map((c) => c.path));
  const touched = new Map<string, FileObjects | null>();
  const oldVersions: FileObjects[] = [];

  // Round 1: changed files (both versions), and every file holding Karmada objects.
  const karmadaFiles = Object.entries(index.files).filter(([, f]) => f.karmada).map(([p]) => p);
  const loaded = await readFiles(repo, await readPathOids(repo, tree, [...new Set([...changedPaths, ...karmadaFiles])]));
  const oldKarmada = await readFiles(repo, new Map(changed.filter((c) => c.oldOid && index.files[c.path]?.karmada).map((c) => [c.path, c.oldOid!])));
  for (const c of changed) {
    touched.set(c.path, loaded.get(c.path) ?? null);
    const old = oldKarmada.get(c.path);
    if (!old) continue;
    oldVersions.push(old);
    const now = loaded.get(c.path);
    if (now) loaded.set(c.path, withLastGoodKarmada(now, old));
  }

  // A changed file may now define an object another (unchanged) file defines: load that one too, so
  // the duplicate is seen and reported with both places.
  const extraFiles = new Set<string>();
  for (const path of changedPaths) {
    for (const t of loaded.get(path)?.templates ?? []) {
      for (const ns of [t.ref.namespace ?? 'default', '']) {
        const other = index.templates[refKey({ ...t.ref, namespace: ns })]?.file;
        if (other && !changedPaths.has(other) && !loaded.has(other)) extraFiles.add(other);
      }
    }
  }
  await loadFiles(repo, tree, extraFiles, loaded);

  // Round 2+: the files of affected templates, then of their dependencies, until nothing new is needed.
  let model = assembleModel(loaded.values(), { changedFiles: changedPaths });
  const affected = affectedByChange({ index, model, changedFiles: changedPaths, oldVersions });
  // Templates the caller renders again for reasons outside the source (cluster state): their files are read below.
  for (const key of alsoAffected) if (index.templates[key]) affected.add(key);
  // A file the index names may be gone (deleted in this change): ask for each file once.
  const asked = new Set([...changedPaths, ...loaded.keys()]);
  for (;;) {
    const missing = new Set<string>();
    for (const key of affected) {
      const file = index.templates[key]?.file;
      if (file && !asked.has(file)) missing.add(file);
    }
    if (missing.size === 0) break;
    for (const file of missing) asked.add(file);
    await loadFiles(repo, tree, missing, loaded);
    model = assembleModel(loaded.values(), { changedFiles: changedPaths });
    for (const key of dependenciesOf(model, affected, index)) affected.add(key);
  }
  return { model, affected, touchedFiles: touched, full: false };
}

async function loadFiles(repo: GitRepo, tree: string, paths: Iterable<string>, into: Map<string, FileObjects>): Promise<void> {
  for (const [path, f] of await readFiles(repo, await readPathOids(repo, tree, [...paths]))) into.set(path, f);
}

/**
 * Parsed files of a repo that hold Karmada objects, by path and blob oid. Every incremental sync needs all
 * policies and clusters; a long-running reconciler parses each version of those files once.
 */
const karmadaFileCache = new WeakMap<GitRepo, Map<string, FileObjects>>();

/** Reads and parses the given path → blob oid pairs, from the cache where it can. */
async function readFiles(repo: GitRepo, oids: ReadonlyMap<string, string>): Promise<Map<string, FileObjects>> {
  let cache = karmadaFileCache.get(repo);
  if (!cache) karmadaFileCache.set(repo, (cache = new Map()));
  const out = new Map<string, FileObjects>();
  const toRead = new Map<string, string>();
  for (const [path, oid] of oids) {
    const hit = cache.get(`${oid} ${path}`);
    if (hit) out.set(path, hit);
    else toRead.set(path, oid);
  }
  const blobs = await readBlobs(repo, toRead.values());
  for (const [path, oid] of toRead) {
    const parsed = parseFile(path, blobs.get(oid)!);
    out.set(path, parsed);
    if (holdsKarmadaObjects(parsed)) {
      cache.set(`${oid} ${path}`, parsed);
    }
  }
  return out;
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

function parseFile(path: string, bytes: Uint8Array): FileObjects {
  const { documents, problems } = parseDocuments(path, bytes);
  return classifyDocuments(path, documents, problems);
}

async function readIgnore(repo: GitRepo, tree: string): Promise<IgnoreRules | undefined> {
  const oids = await readPathOids(repo, tree, [IGNORE_FILE]);
  const oid = oids.get(IGNORE_FILE);
  if (!oid) return undefined;
  const blob = (await readBlobs(repo, [oid])).get(oid)!;
  return parseIgnoreFile(new TextDecoder().decode(blob));
}

/**
 * Files read on every incremental sync (few, and each can affect any template): policies, clusters,
 * rebalancers, interpreter customizations, and files with broken ones (their last good version is kept).
 */
export function holdsKarmadaObjects(f: FileObjects): boolean {
  return f.propagationPolicies.length + f.overridePolicies.length + f.clusterTaintPolicies.length + f.clusters.length + f.rebalancers.length +
    f.interpreterCustomizations.length + f.broken.length > 0;
}

/**
 * The interpreter customizations a rendered commit was made with, for the status stage: the files the
 * output index marks as holding Karmada objects, read at the source commit (cached like every sync's).
 */
export async function readInterpreterCustomizations(repo: GitRepo, sourceTree: string, index: OutputIndex): Promise<Located<InterpreterCustomization>[]> {
  const files = Object.entries(index.files).filter(([, f]) => f.karmada).map(([p]) => p);
  const parsed = await readFiles(repo, await readPathOids(repo, sourceTree, files));
  return [...parsed.values()].sort((a, b) => (a.file < b.file ? -1 : 1)).flatMap((f) => f.interpreterCustomizations);
}
