import {
  DEFAULT_SOURCE_LIMITS,
  sourceTooLargeToRead,
  sourceTreeEntries,
  type SourceLimits,
} from '../outputs/sourceLimits.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import type { TreeWalkLimit } from '../commits/treeWalkBudget.ts';
import { parseYamlValues } from '../yaml/blockYaml.ts';
import type { Cluster } from '../api/cluster.ts';
import { groupOf, parseRefKey, type ObjectRef } from '../api/kinds.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readBranchHead } from '../commits/readRef.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type CommitInfo, type GitRepo, type TreeEntry, type TreeFile } from '../commits/types.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { karmadaFilePaths, loadSource, type KarmadaFilesOfRender } from '../outputs/loadSource.ts';
import type { ConfigModel } from '../api/model.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { commitTrailers, LAST_GOOD_TRAILER } from '../branches/rendered/trailers.ts';
import { emptyIndex, type IndexEntry, type OutputIndex, type ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { openOutputIndex, readIndexOids } from '../branches/rendered/readOutputIndex.ts';
import { IndexKindList, kindPrefixOf, kindsOfKeys } from '../branches/rendered/indexKindList.ts';

/** One branch head. Listings and contents are read on demand: a rendered branch holds tens of thousands of files. */
export interface BranchState {
  commit: CommitInfo;
  /** Every file under `folder` ('' for all), by full path; each folder is listed once. */
  list(folder?: string): Promise<Map<string, TreeFile>>;
  /** The names of the folders directly in `folder`, in git's order: its tree alone is read. */
  folders(folder: string): Promise<string[]>;
}

/**
 * The rendered head's index, read as far as a question needs: a fleet's index is tens of MB, and listing its clusters,
 * or one object, reads none of it, or one shard. Each read is kept for the next question.
 */
export interface RenderedIndex {
  /** Every entry, each shard read and parsed: what listings of every template (and the dashboard's catalog) need. */
  whole(): Promise<OutputIndex>;
  /**
   * The key of every template, each shard read but no entry parsed: what a question about every template needs (the
   * files a cluster's folder holds, the template a binding's name stands for).
   */
  templateKeys(): Promise<readonly string[]>;
  /**
   * Each kind the templates have, once, in the order of their keys: what a type word may name beside the built-in
   * ones. Read from the shards the list kept beside the object store does not know (indexKindList.ts), learned there.
   */
  kinds(): Promise<readonly TemplateKind[]>;
  /** The keys of the templates of the kinds `match` takes, reading only the shards that hold such kinds. */
  templateKeysOfKinds(match: (kind: TemplateKind) => boolean): Promise<string[]>;
  /** The entries of these templates (those present), reading only the shards that hold them. */
  entriesOf(keys: Iterable<string>): Promise<Map<string, IndexEntry>>;
  /** The source files holding Karmada objects (policies, clusters), from the index's root alone. */
  karmadaFiles(): Promise<readonly string[]>;
  /** The index itself, read as its reader asks (what a load of the source from this render starts from). */
  sharded(): Promise<ShardedIndex | null>;
}

/** What the three branches say right now: config (source), rendered output, and status. */
export interface Fleet {
  repo: GitRepo;
  source: BranchState;
  rendered: (BranchState & { index: RenderedIndex }) | null;
  status: BranchState | null;
  /** FleetRefs.reader. */
  reader: string;
  /** FleetRefs.limits, or the defaults: what every read of the source commit is bounded by. */
  limits: SourceLimits;
  /** Whether the reader took the operator's --max-source-files (FleetRefs.limits given). */
  limitsGiven: boolean;
}

export interface FleetRefs {
  /** Source revision: a branch, tag or sha. */
  rev: string;
  renderedRef: string;
  statusRef: string;
  /** Who reads, as a source commit too large to read names it: `flotilla get`, the dashboard; default `flotilla`. */
  reader?: string;
  /** The operator's source limits (`flotilla run --max-source-files`, for the dashboard it serves); default the defaults. */
  limits?: SourceLimits;
}

/** Reads the three heads; of the contents nothing yet (the rendered index as questions need it, renderedIndex). */
export async function readFleet(repo: GitRepo, refs: FleetRefs): Promise<Fleet> {
  const reader = refs.reader ?? 'flotilla';
  const limits = refs.limits ?? DEFAULT_SOURCE_LIMITS;
  const limitsGiven = refs.limits !== undefined;
  const branch = async (ref: string): Promise<BranchState | null> => {
    const head = await readBranchHead(repo, ref);
    return head ? branchState(repo, await readCommitInfo(repo, head), {}, { reader, limitsGiven }) : null;
  };
  // The source's tree is a pull request's to make: listed within a render's bound (TreeTooLargeError past it).
  const source = branchState(
    repo,
    await readCommitInfo(repo, await resolveRev(repo, refs.rev)),
    { maxEntries: sourceTreeEntries(limits) },
    { reader, limitsGiven },
  );
  const [rendered, status] = await Promise.all([branch(refs.renderedRef), branch(refs.statusRef)]);
  return {
    repo,
    source,
    rendered: rendered ? { ...rendered, index: renderedIndex(repo, rendered.commit.tree) } : null,
    status,
    reader,
    limits,
    limitsGiven,
  };
}

/** A kind of the fleet's templates. */
export interface TemplateKind {
  apiVersion: string;
  kind: string;
}

/** The index of an output tree, opened at the first question; a tree without one answers as an empty index. */
function renderedIndex(repo: GitRepo, tree: string): RenderedIndex {
  let opened: Promise<ShardedIndex | null> | undefined;
  let all: Promise<ShardedIndex | null> | undefined;
  let whole: Promise<OutputIndex> | undefined;
  let byShard: Promise<[id: string, kinds: readonly string[]][]> | undefined;
  const open = () => (opened ??= openOutputIndex(repo, tree));
  // Each present shard's kinds, in shard order: from the list kept beside the object store, the shards it does not know
  // read (and kept in the index) and learned.
  const shardKinds = () =>
    (byShard ??= open().then(async (index) => {
      const found = index ? await readIndexOids(repo, tree) : null;
      if (!index || !found) return [];
      const list = IndexKindList.read(repo);
      const unknown = [...found.shardOids].filter(([, oid]) => list.kindsOf(oid) === undefined).map(([id]) => id);
      if (unknown.length > 0) {
        for (const [id, keys] of await index.templateKeysOf(unknown))
          list.set(found.shardOids.get(id)!, kindsOfKeys(keys));
        await list.save(repo, found.shardOids.values());
      }
      return [...found.shardOids.keys()].sort().map((id) => [id, list.kindsOf(found.shardOids.get(id)!)!] as const);
    }));
  const loaded = () =>
    (all ??= open().then(async (index) => {
      await index?.loadAll();
      return index;
    }));
  return {
    whole: () => (whole ??= loaded().then((index) => index?.toWhole() ?? emptyIndex())),
    templateKeys: async () => (await loaded())?.templateKeys() ?? [],
    kinds: async () => {
      const seen = new Set<string>();
      for (const [, kinds] of await shardKinds()) for (const prefix of kinds) seen.add(prefix);
      return [...seen].map(templateKind);
    },
    templateKeysOfKinds: async (match) => {
      const index = await open();
      const taken = new Map<string, boolean>();
      const takes = (prefix: string) => {
        let yes = taken.get(prefix);
        if (yes === undefined) taken.set(prefix, (yes = match(templateKind(prefix))));
        return yes;
      };
      const ids = (await shardKinds()).filter(([, kinds]) => kinds.some(takes)).map(([id]) => id);
      if (!index || ids.length === 0) return [];
      const keys = await index.templateKeysOf(ids);
      return ids.flatMap((id) => keys.get(id)!.filter((key) => takes(kindPrefixOf(key))));
    },
    entriesOf: async (keys) => {
      const index = await open();
      const out = new Map<string, IndexEntry>();
      if (!index) return out;
      const wanted = [...keys];
      await index.load({ templates: wanted });
      for (const key of wanted) {
        const entry = index.template(key);
        if (entry) out.set(key, entry);
      }
      return out;
    },
    karmadaFiles: async () => (await open())?.karmadaFiles() ?? [],
    sharded: open,
  };
}

/** A source commit past the bound, as `fleet.reader` says it: the commit, the bound and the fix. */
export function tooLargeToRead(fleet: { reader: string; limitsGiven: boolean }, commit: string, err: unknown): unknown {
  if (!(err instanceof TreeTooLargeError)) return err;
  return new SourceTooLargeError(sourceTooLargeToRead(commit, err, fleet.reader, fleet.limitsGiven), commit, err);
}

function branchState(
  repo: GitRepo,
  commit: CommitInfo,
  limit: TreeWalkLimit,
  reader: { reader: string; limitsGiven: boolean },
): BranchState {
  const listings = new Map<string, Promise<Map<string, TreeFile>>>();
  const treeOf = async (folder: string): Promise<string | null> => {
    let tree: string | null = commit.tree;
    for (const part of folder ? folder.split('/') : []) {
      const e: TreeEntry | undefined = (await readTree(repo, tree!)).find((x) => x.name === part);
      tree = e && isTreeMode(e.mode) ? e.oid : null;
      if (!tree) return null;
    }
    return tree;
  };
  const list = async (folder: string): Promise<Map<string, TreeFile>> => {
    const tree = await treeOf(folder);
    if (!tree) return new Map();
    const files = await listTreeFiles(repo, tree, limit).catch((err: unknown) => {
      throw tooLargeToRead(reader, commit.oid, err);
    });
    return folder ? new Map([...files].map(([p, f]) => [`${folder}/${p}`, f])) : files;
  };
  return {
    commit,
    folders: async (folder) => {
      const tree = await treeOf(folder);
      return tree ? (await readTree(repo, tree)).filter((e) => isTreeMode(e.mode)).map((e) => e.name) : [];
    },
    list: (folder = '') => {
      let p = listings.get(folder);
      if (!p) listings.set(folder, (p = list(folder)));
      return p;
    },
  };
}

/**
 * Every YAML document of the given files of one branch, parsed to plain data; unreadable files give nothing, and so do
 * files whose text `mayHold` turns down (they are not parsed).
 */
export async function readDocuments(
  repo: GitRepo,
  branch: BranchState,
  paths: readonly string[],
  mayHold: (text: string) => boolean = () => true,
): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  for (const [p, text] of await readTextFiles(repo, branch.commit.tree, paths)) {
    try {
      out.set(p, mayHold(text) ? parseYamlValues(text) : []);
    } catch {
      out.set(p, []); // validate reports broken files; a read view skips them
    }
  }
  return out;
}

/** The Cluster registrations of the source commit, with the file each comes from. */
export async function readRegisteredClusters(fleet: Fleet): Promise<Map<string, { cluster: Cluster; file: string }>> {
  const docs = await readDocuments(fleet.repo, fleet.source, await karmadaFilesOfSource(fleet), mayHoldCluster);
  const out = new Map<string, { cluster: Cluster; file: string }>();
  for (const [file, list] of docs) {
    for (const d of list as Cluster[]) {
      if (d?.kind === 'Cluster' && typeof d.metadata?.name === 'string' && !out.has(d.metadata.name))
        out.set(d.metadata.name, { cluster: d, file });
    }
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The source commit's files that may hold Karmada objects. The rendered index lists those of the source it rendered;
 * the files the source commit changed since are added (a Cluster or policy pushed and not yet rendered, or a commit
 * asked for by --rev). Without a render every config file.
 */
export async function karmadaFilesOfSource(fleet: Fleet): Promise<string[]> {
  const tree = fleet.source.commit.tree;
  return karmadaFilePaths(fleet.repo, tree, await karmadaFilesOfRender(fleet), fleet.limits).catch((err: unknown) => {
    throw tooLargeToRead(fleet, fleet.source.commit.oid, err);
  });
}

/** The source tree the rendered head's index was made from, and its Karmada files; null without one to read. */
async function karmadaFilesOfRender(fleet: Fleet): Promise<KarmadaFilesOfRender | null> {
  const tree = fleet.rendered ? await renderedSourceTree(fleet) : null;
  return tree ? { tree, karmadaFiles: await fleet.rendered!.index.karmadaFiles() } : null;
}

/**
 * The source tree the rendered head's index was made from; null without a render, or when that commit is gone. Read
 * once per fleet: a command may load the source from that render more than once (reschedule, explain).
 */
function renderedSourceTree(fleet: Fleet): Promise<string | null> {
  let tree = renderedSources.get(fleet);
  if (!tree) renderedSources.set(fleet, (tree = readRenderedSourceTree(fleet)));
  return tree;
}
const renderedSources = new WeakMap<Fleet, Promise<string | null>>();

async function readRenderedSourceTree(fleet: Fleet): Promise<string | null> {
  if (!fleet.rendered) return null;
  const { rendered, source } = await readLastRenderAt(fleet.repo, fleet.rendered.commit.oid);
  // A render that held its source commit whole kept the index of the last good one.
  const sha = rendered ? (commitTrailers(rendered)[LAST_GOOD_TRAILER] ?? source) : undefined;
  if (!sha) return null;
  try {
    return (await readCommitInfo(fleet.repo, sha)).tree;
  } catch {
    return null; // the source commit is gone (history rewritten)
  }
}

/**
 * The source commit's model as far as its templates of the kinds `match` takes (of those, the ones called `name` when
 * given): read as a sync from the last render reads the commit (what it changed since, the Karmada files it needs, and
 * the templates the index says are of those kinds), never every template. Without a render, the whole commit (`full`).
 * `stale`: the templates the index names whose files the commit changed since (the model has what they define now).
 */
export async function loadTemplatesOfKinds(
  fleet: Fleet,
  match: (kind: TemplateKind) => boolean,
  name?: string,
): Promise<{ model: ConfigModel; full: boolean; stale: ReadonlySet<string> }> {
  const tree = fleet.source.commit.tree;
  const from = await renderedSourceTree(fleet);
  const index = from ? await fleet.rendered!.index.sharded() : null;
  const previous = from && index ? { tree: from, index } : null;
  const keys = previous ? await fleet.rendered!.index.templateKeysOfKinds(match) : [];
  const named = name === undefined ? keys : keys.filter((key) => parseRefKey(key).name === name);
  try {
    const { model, full, touchedFiles } = await loadSource(fleet.repo, tree, previous, new Set(named), fleet.limits);
    await index?.load({ files: [...touchedFiles.keys()] });
    const stale = new Set([...touchedFiles.keys()].flatMap((file) => index?.file(file)?.templates ?? []));
    return { model, full, stale };
  } catch (err) {
    throw tooLargeToRead(fleet, fleet.source.commit.oid, err);
  }
}

/**
 * Whether a file's text may hold a document of kind Cluster: the word `Cluster` standing alone (not part of
 * ClusterPropagationPolicy, targetCluster…), or an escape, the one way a quoted scalar can spell it otherwise. Most of
 * a fleet's Karmada files are policies: at 50,000 templates, parsing all 8,553 of them was most of `get clusters`.
 */
function mayHoldCluster(text: string): boolean {
  return CLUSTER_WORD.test(text) || text.includes('\\');
}
const CLUSTER_WORD = /(?<![A-Za-z0-9_])Cluster(?![A-Za-z0-9_])/;

/** `<apiVersion>/<kind>` as a kind. */
function templateKind(prefix: string): TemplateKind {
  const slash = prefix.lastIndexOf('/');
  return { apiVersion: prefix.slice(0, slash), kind: prefix.slice(slash + 1) };
}

/** Whether a kind is CustomResourceDefinition, of any version of apiextensions.k8s.io. */
function isCrdKind(k: TemplateKind): boolean {
  return k.kind === 'CustomResourceDefinition' && groupOf(k.apiVersion) === 'apiextensions.k8s.io';
}

/** The templates that are CustomResourceDefinitions, with their index entries: only theirs are parsed. */
export async function customResourceDefinitions(
  index: RenderedIndex,
): Promise<{ ref: ObjectRef; entry: IndexEntry }[]> {
  const keys = await index.templateKeysOfKinds(isCrdKind);
  if (keys.length === 0) return [];
  return [...(await index.entriesOf(keys))].map(([key, entry]) => ({ ref: parseRefKey(key), entry }));
}
