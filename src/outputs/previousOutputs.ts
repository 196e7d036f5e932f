// The previous scheduling result, wherever it lives: the output branch (render, sync, explain) or a folder
// (`render --out-dir`, `explain --out-dir`), where Karmada users and test harnesses put their own
// ResourceBindings. Everything that renders in steady mode reads it through here.
import { parseYamlValue, parseYamlValues } from '../yaml/blockYaml.ts';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { workClusters, type ResourceBinding } from '../api/binding.ts';
import { groupOf, parseRefKey, refKey, WORK_API_VERSION, type ObjectRef } from '../api/kinds.ts';
import { identityKey } from '../branches/status/inventory.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readObject } from '../commits/readObject.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';
import type { ConfigModel } from '../api/model.ts';
import { emptyIndex, indexOfFolder, type IndexView, type OutputIndex } from '../branches/rendered/outputIndex.ts';
import { bindingPath, clusterFolder, manifestPath } from '../branches/rendered/outputPaths.ts';
import { readPathOids, readPathOidsNow } from '../commits/readPathOids.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';
import { renderHistoryAt, type RenderHistory } from './lastGoodKarmada.ts';

export interface PreviousOutputs {
  index: OutputIndex;
  /** refKey → the binding written last time. */
  bindings: Map<string, ResourceBinding>;
  /** Output path → text, for the bindings and manifests of the templates asked. */
  files: PreviousFiles;
}

/** Output path → previous text: which files exist is known up front, a text is read when first asked for. */
export type PreviousFiles = Pick<ReadonlyMap<string, string>, 'has' | 'get'>;

/**
 * Previous bindings (parsed: every one is scheduled against) and manifests of the given templates, from an output
 * tree. A manifest is read only when the render asks for its text: a template whose placement did not move keeps
 * its manifests on the clusters a cluster-only change did not touch, and those are never read. `onlyClusters` (a
 * commit that changed only those clusters): where the manifests are is looked up at once on those clusters only,
 * and elsewhere when the render asks (the few whose replicas moved); looking up every cluster's file of every
 * template such a change reschedules cost more than the render of what it writes.
 */
export async function readPreviousOutputs(
  repo: GitRepo,
  tree: string,
  keys: Iterable<string>,
  index: Pick<IndexView, 'template'>,
  onlyClusters?: ReadonlySet<string> | null,
): Promise<{
  bindings: Map<string, ResourceBinding>;
  files: PreviousFiles;
  takenBy: Map<string, string>;
  /** Binding file path → what its text parses into. */
  parsed: Map<string, ResourceBinding>;
}> {
  // Every path to look up: binding files and manifests.
  const paths = new Set<string>();
  // A binding file → the keys that ask for it. Two (same kind and name, groups or kinds' case differing, one of them
  // refused): the file is the previous result of the one it names, whichever asked last.
  const claimants = new Map<string, string[]>();
  // Manifests looked up when asked: a template's path below its cluster folder → the clusters it may be found on (the
  // entries' lists, made a set on the first ask: a cluster change reaches thousands of templates on hundreds of
  // clusters each, and the render asks for a few of their files).
  const later = new Map<string, (readonly string[])[] | Set<string>>();
  const onlyList = onlyClusters ? [...onlyClusters] : [];
  for (const key of keys) {
    const entry = index.template(key);
    const ref = parseRefKey(key);
    // A template new to the output may find its binding file taken by another object's (same kind and name, other group).
    const bPath = bindingPath(ref);
    paths.add(bPath);
    const asking = claimants.get(bPath);
    if (asking) asking.push(key);
    else claimants.set(bPath, [key]);
    if (!entry) continue;
    // The path is made once per template, not once per cluster: a cluster change reaches thousands of templates.
    const inFolder = manifestPath(ANY_CLUSTER, ref).slice(clusterFolder(ANY_CLUSTER).length);
    if (!onlyClusters) {
      for (const c of entry.clusters) paths.add(`${clusterFolder(c)}${inFolder}`);
      continue;
    }
    // Most such changes name one cluster: a search of the entry's list for it, not a set lookup per cluster listed.
    const on =
      onlyClusters.size <= 8
        ? onlyList.filter((c) => entry.clusters.includes(c))
        : entry.clusters.filter((c) => onlyClusters.has(c));
    for (const c of on) paths.add(`${clusterFolder(c)}${inFolder}`);
    const lists = later.get(inFolder);
    if (lists) (lists as (readonly string[])[]).push(entry.clusters);
    else later.set(inFolder, [entry.clusters]);
  }
  const laterOn = (inFolder: string): Set<string> | undefined => {
    const lists = later.get(inFolder);
    if (lists === undefined || lists instanceof Set) return lists;
    const clusters = new Set<string>();
    for (const list of lists) for (const c of list) if (!onlyClusters!.has(c)) clusters.add(c);
    later.set(inFolder, clusters);
    return clusters;
  };
  const oids = await readPathOids(repo, tree, [...paths]);
  const oidOf = (path: string): string | undefined => {
    const folderEnd = path.indexOf('/', CLUSTERS.length);
    const clusters = later.size > 0 && path.startsWith(CLUSTERS) ? laterOn(path.slice(folderEnd + 1)) : undefined;
    if (clusters?.delete(path.slice(CLUSTERS.length, folderEnd))) {
      const found = readPathOidsNow(repo, tree, [path]).get(path);
      if (found !== undefined) oids.set(path, found);
    }
    return oids.get(path);
  };
  const bindingOids = [...oids].filter(([path]) => claimants.has(path));
  const blobs = await readBlobs(
    repo,
    bindingOids.map(([, oid]) => oid),
  );
  const decoder = new TextDecoder();
  const texts = new Map<string, string>();
  const bindings = new Map<string, ResourceBinding>();
  const takenBy = new Map<string, string>();
  const parsed = new Map<string, ResourceBinding>();
  for (const [path, oid] of bindingOids) {
    const text = decoder.decode(blobs.get(oid)!);
    texts.set(path, text);
    const binding = parseYamlValue(text) as ResourceBinding;
    parsed.set(path, binding);
    const owner = boundRef(binding);
    const keys = claimants.get(path)!;
    const own = owner ? keys.find((k) => identityKey(owner) === identityKey(parseRefKey(k))) : keys[keys.length - 1];
    // Another object's binding is never this template's previous scheduling result.
    if (own !== undefined) bindings.set(own, binding);
    if (owner && keys.some((k) => k !== own)) takenBy.set(path, refKey(owner));
  }
  const files: PreviousFiles = {
    has: (path) => oidOf(path) !== undefined,
    get: (path) => {
      let text = texts.get(path);
      const oid = oidOf(path);
      if (text === undefined && oid !== undefined) texts.set(path, (text = decoder.decode(readBlobNow(repo, oid))));
      return text;
    },
  };
  return { bindings, files, takenBy, parsed };
}

/** A cluster name no cluster has (names are DNS labels): only to make the part of a manifest path below the cluster. */
const ANY_CLUSTER = '-';
const CLUSTERS = clusterFolder('').slice(0, -1);

/** The object a binding binds (spec.resource); undefined when it does not say. */
function boundRef(binding: ResourceBinding | null): ObjectRef | undefined {
  const r = binding?.spec?.resource;
  if (!r?.kind || !r.name) return undefined;
  return {
    apiVersion: r.apiVersion ?? '',
    kind: r.kind,
    namespace: binding!.kind === 'ClusterResourceBinding' ? '' : (r.namespace ?? ''),
    name: r.name,
  };
}

/** The object reader answers synchronously: a lazily read file needs no await inside the pure render. */
function readBlobNow(repo: GitRepo, oid: string): Uint8Array {
  const found = readObject(repo, oid);
  if (found.type !== 'blob') throw new Error(`object ${oid} is a ${found.type}, not a blob`);
  return found.content;
}

/**
 * What the output branch held before `sourceSha` was rendered, for every template it knows: the output
 * commit just before the one that rendered `sourceSha`, or the head when `sourceSha` is not rendered yet
 * (what the next sync starts from). Empty when there is no such output.
 */
export async function readOutputBranch(
  repo: GitRepo,
  outputRef: string,
  sourceSha: string,
  maxCommits = 1_000,
): Promise<PreviousOutputs & { renders?: RenderHistory }> {
  const empty = (): PreviousOutputs => ({ index: emptyIndex(), bindings: new Map(), files: new Map<string, string>() });
  const head = await readRef(repo, outputRef);
  if (!head) return empty();
  let base: string | undefined = head;
  for (let cursor: string | undefined = head, n = 0; cursor && n < maxCommits; n++) {
    const info = await readCommitInfo(repo, cursor);
    if (parseTrailers(info.message)['Source-Commit'] === sourceSha) {
      base = info.parents[0];
      break;
    }
    cursor = info.parents[0];
  }
  if (!base) return empty();
  const tree = (await readCommitInfo(repo, base)).tree;
  const opened = await openOutputIndex(repo, tree);
  await opened?.loadAll();
  const index = opened?.toWhole() ?? emptyIndex();
  // Where a broken policy or Cluster of that source finds the last good definition its render kept.
  const renders = await renderHistoryAt(repo, base, opened);
  return {
    index,
    ...(renders ? { renders } : {}),
    ...(await readPreviousOutputs(repo, tree, Object.keys(index.templates), {
      template: (key) => index.templates[key],
    })),
  };
}

/** What a folder written by `render --out-dir` (or by hand, or by a harness) holds as the previous result. */
export async function readOutputFolder(
  dir: string,
): Promise<{ index: OutputIndex; folderBindings: FolderBinding[]; files: Map<string, string> }> {
  const files = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return; // no folder yet: a first render
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) files.set(p, await readFile(path.join(dir, p), 'utf8'));
    }
  };
  await walk('');
  return { index: indexOfFolder(files), folderBindings: parseFolderBindings(files), files };
}

/** A binding found in a folder, keyed as loosely as its author wrote it; matched to a template later. */
export interface FolderBinding {
  path: string;
  binding: ResourceBinding;
}

const BINDING_KINDS = new Set(['ResourceBinding', 'ClusterResourceBinding']);

/**
 * Every ResourceBinding and ClusterResourceBinding in the folder's bindings/ files, in any form a Karmada
 * user writes them: one or many documents per file, or a List (`kubectl get rb -o yaml`);
 * `work.karmada.io/v1alpha2` or `v1alpha1`; the resource's namespace from spec.resource.namespace, else
 * metadata.namespace, else `default` (none for a ClusterResourceBinding). Files that are not bindings are skipped.
 */
export function parseFolderBindings(files: ReadonlyMap<string, string>): FolderBinding[] {
  const out: FolderBinding[] = [];
  for (const [path, text] of files) {
    if (!path.startsWith('bindings/') || !/\.(ya?ml|json)$/.test(path)) continue;
    for (const doc of parseYamlValues(text)) {
      const value = doc as Record<string, unknown> | null;
      const items =
        value?.kind === 'List' || String(value?.kind ?? '').endsWith('BindingList')
          ? ((value?.items as unknown[] | undefined) ?? [])
          : [value];
      for (const item of items) {
        const b = normalizeBinding(item);
        if (b) out.push({ path, binding: b });
      }
    }
  }
  return out;
}

function normalizeBinding(value: unknown): ResourceBinding | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const b = value as Partial<ResourceBinding> & { apiVersion?: string; kind?: string };
  if (!b.kind || !BINDING_KINDS.has(b.kind) || !String(b.apiVersion ?? WORK_API_VERSION).startsWith('work.karmada.io/'))
    return undefined;
  const r = b.spec?.resource;
  if (!r?.kind || !r.name) return undefined;
  const scoped = b.kind === 'ClusterResourceBinding';
  const namespace = scoped ? '' : r.namespace || b.metadata?.namespace || 'default';
  const clusters = (b.spec?.clusters ?? [])
    .filter((c) => c && typeof c.name === 'string')
    .map((c) => ({ name: c.name, replicas: Number(c.replicas ?? 0) }));
  return {
    ...(b as ResourceBinding),
    apiVersion: WORK_API_VERSION,
    metadata: b.metadata ?? { name: `${r.name}-${r.kind.toLowerCase()}` },
    spec: { ...b.spec!, resource: { ...r, ...(scoped ? {} : { namespace }) }, clusters },
  };
}

/**
 * Matches folder bindings to the commit's templates by kind (any case), namespace and name, and by
 * apiVersion group when the binding names one. Where two files describe the same template, the file at
 * Flotilla's own path (bindings/<ns>/<name>-<kind>.yaml) wins, since Flotilla rewrote it last.
 */
export function matchFolderBindings(
  found: readonly FolderBinding[],
  model: Pick<ConfigModel, 'templates'>,
): Map<string, ResourceBinding> {
  const byIdentity = new Map<string, string>();
  for (const [key, t] of model.templates)
    byIdentity.set(`${t.ref.kind.toLowerCase()}/${t.ref.namespace}/${t.ref.name}`, key);
  const out = new Map<string, ResourceBinding>();
  const canonical = new Set<string>();
  for (const { path, binding } of found) {
    const r = binding.spec.resource;
    const namespace = binding.kind === 'ClusterResourceBinding' ? '' : (r.namespace ?? 'default');
    let key = byIdentity.get(`${r.kind.toLowerCase()}/${namespace}/${r.name}`);
    // A namespaced binding for what the repo says is cluster-scoped (or the reverse): the name still identifies it.
    key ??= byIdentity.get(`${r.kind.toLowerCase()}/${namespace === '' ? 'default' : ''}/${r.name}`);
    if (!key) {
      key = refKey({ apiVersion: r.apiVersion ?? '', kind: r.kind, namespace, name: r.name });
    } else if (r.apiVersion && groupOf(r.apiVersion) !== groupOf(parseRefKey(key).apiVersion)) {
      continue;
    }
    const isCanonical = path === bindingPath(parseRefKey(key));
    if (out.has(key) && canonical.has(key) && !isCanonical) continue;
    out.set(key, binding);
    if (isCanonical) canonical.add(key);
  }
  return out;
}

/**
 * Index entries for templates the folder has bindings for but no index (a folder Karmada or a harness
 * filled): the render then knows which clusters held them, so a result that is cleared removes their manifests.
 */
export function indexWithBindings(
  index: OutputIndex,
  bindings: ReadonlyMap<string, ResourceBinding>,
  model: Pick<ConfigModel, 'templates'>,
): OutputIndex {
  const templates = { ...index.templates };
  for (const [key, b] of bindings) {
    if (templates[key]) continue;
    const t = model.templates.get(key);
    if (!t) continue;
    // The claim too: a replayed render (verify) must see that a template's policy or MultiClusterService was deleted
    // to keep its output, as the incremental render did from its index.
    const policy = b.metadata.annotations?.['flotilla.io/policy'];
    templates[key] = {
      file: t.source.file,
      clusters: workClusters(b)
        .map((c) => c.name)
        .sort(),
      ...(policy ? { policy } : {}),
    };
  }
  return { ...index, templates };
}

/** The previous bindings at the paths (binding path -> refKey) the output tree has, parsed, by refKey. */
export async function readBindingsAt(
  repo: GitRepo,
  outputTree: string,
  paths: ReadonlyMap<string, string>,
): Promise<Map<string, ResourceBinding>> {
  const oids = await readPathOids(repo, outputTree, [...paths.keys()]);
  const blobs = await readBlobs(repo, oids.values());
  const decoder = new TextDecoder();
  const out = new Map<string, ResourceBinding>();
  for (const [path, oid] of oids) {
    const binding = parseYamlValue(decoder.decode(blobs.get(oid)!)) as ResourceBinding | null;
    if (binding) out.set(paths.get(path)!, binding);
  }
  return out;
}

/** Whether the binding is the template's (not another object's at the same path). */
export function bindsTemplate(binding: ResourceBinding, ref: ObjectRef): boolean {
  const r = binding.spec?.resource;
  return r !== undefined && r.kind === ref.kind && r.name === ref.name && (r.namespace ?? '') === ref.namespace;
}
