import { refKey } from '../api/kinds.ts';
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
import { affectedByChange } from './affectedByChange.ts';
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
export async function loadSource(repo: GitRepo, tree: string, previous: { tree: string; index: OutputIndex } | null): Promise<LoadedSource> {
  const ignore = await readIgnore(repo, tree);
  if (previous) {
    const changes = await diffTrees(repo, previous.tree, tree);
    if (!changes.some((c) => c.path === IGNORE_FILE)) return loadIncremental(repo, tree, previous, changes, ignore);
  }
  const files = [...(await listTreeFiles(repo, tree))].filter(([path]) => isConfigFile(path, ignore));
  const blobs = await readBlobs(repo, files.map(([, f]) => f.oid));
  const parsed = new Map<string, FileObjects>();
  for (const [path, f] of files) parsed.set(path, parseFile(path, blobs.get(f.oid)!));
  const model = assembleModel(parsed.values());
  const affected = new Set<string>([...model.templates.keys(), ...model.held, ...Object.keys(previous?.index.templates ?? {})]);
  const touched = new Map<string, FileObjects | null>(parsed);
  for (const f of Object.keys(previous?.index.files ?? {})) if (!touched.has(f)) touched.set(f, null);
  return { model, affected, touchedFiles: touched, full: true };
}

async function loadIncremental(
  repo: GitRepo, tree: string, previous: { tree: string; index: OutputIndex },
  changes: Awaited<ReturnType<typeof diffTrees>>, ignore: IgnoreRules | undefined,
): Promise<LoadedSource> {
  const { index } = previous;
  const changed = changes.filter((c) => isConfigFile(c.path, ignore));
  const touched = new Map<string, FileObjects | null>();
  const oldVersions: FileObjects[] = [];

  // Round 1: changed files (both versions), and every file holding Karmada objects.
  const karmadaFiles = Object.entries(index.files).filter(([, f]) => f.karmada).map(([p]) => p);
  const changedPaths = new Set(changed.map((c) => c.path));
  const current = await readPathOids(repo, tree, [...new Set([...changedPaths, ...karmadaFiles])]);
  const wantedOids = [...current.values(), ...changed.filter((c) => c.oldOid && index.files[c.path]?.karmada).map((c) => c.oldOid!)];
  const blobs = await readBlobs(repo, wantedOids);
  const loaded = new Map<string, FileObjects>();
  for (const [path, oid] of current) loaded.set(path, parseFile(path, blobs.get(oid)!));
  for (const c of changed) {
    touched.set(c.path, loaded.get(c.path) ?? null);
    if (!c.oldOid || !index.files[c.path]?.karmada) continue;
    const old = parseFile(c.path, blobs.get(c.oldOid)!);
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

  // Round 2+: templates the change affects, then their dependencies, until nothing new is needed.
  let model = assembleModel(loaded.values());
  const affected = affectedByChange({ index, model, changedFiles: changedPaths, oldVersions, loadedFiles: new Set(loaded.keys()) });
  for (;;) {
    const missing = new Set<string>();
    for (const key of affected) {
      const file = index.templates[key]?.file;
      if (file && !loaded.has(file) && !changedPaths.has(file)) missing.add(file);
    }
    if (missing.size === 0) break;
    await loadFiles(repo, tree, missing, loaded);
    model = assembleModel(loaded.values());
    for (const key of affectedByChange.dependenciesOf(model, affected, index)) affected.add(key);
  }
  model = assembleModel(loaded.values());
  for (const key of affectedByChange.dependenciesOf(model, affected, index)) affected.add(key);
  return { model, affected, touchedFiles: touched, full: false };
}

async function loadFiles(repo: GitRepo, tree: string, paths: Iterable<string>, into: Map<string, FileObjects>): Promise<void> {
  const oids = await readPathOids(repo, tree, [...paths]);
  const blobs = await readBlobs(repo, oids.values());
  for (const [path, oid] of oids) into.set(path, parseFile(path, blobs.get(oid)!));
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
