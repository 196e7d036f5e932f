import { eventLoopTurns } from '../concurrency/eventLoopTurns.ts';
import { checkLuaScripts } from '../documents/checkLuaScripts.ts';
import type { AnyInterpreterCustomization } from '../api/interpreterCustomization.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { ObjectTooLargeError } from '../commits/ObjectTooLargeError.ts';
import { readBlobsWithin } from '../commits/readBlobs.ts';
import { readObject } from '../commits/readObject.ts';
import type { GitRepo, TreeChange } from '../commits/types.ts';
import { classifyDocuments } from '../documents/classifyDocuments.ts';
import type { FileObjects, Located } from '../api/model.ts';
import { DEFAULT_PARSE_LIMITS, parseDocuments } from '../documents/parseDocuments.ts';
import { oversizedFile } from './oversizedFile.ts';
import {
  DEFAULT_SOURCE_LIMITS,
  objectCount,
  refusedFile,
  sourceTreeEntries,
  type SourceLimits,
} from './sourceLimits.ts';
import type { ShardedIndex } from '../branches/rendered/outputIndex.ts';
import { parseRefKey } from '../api/kinds.ts';
import { filesFor, scopeOf, type KarmadaScope } from './karmadaScope.ts';
import {
  karmadaPathsDigest,
  parsedFile,
  readParsedFileCache,
  writeParsedFileCache,
  type CachedFile,
  type ParsedFiles,
  type Replacement,
} from './parsedFileCache.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import { formatMiB } from '../errors/formatMiB.ts';
import { withoutSkippedHooks } from '../units/syncHooks.ts';

// The policy, cluster and other Karmada files a sync reads, parsed once per blob: from this process's memory, the
// copy kept on disk (parsedFileCache.ts) or the blob itself, and which of them a render of some namespaces needs
// (karmadaScope.ts). loadSource.ts decides what to read; this module reads it.

/**
 * Parsed files of a repo that hold Karmada objects, by blob oid and path. Every incremental sync needs the policies
 * and clusters that concern what it renders; a long-running reconciler parses each version of those files once,
 * and a new process starts from the copy kept beside the object store (parsedFileCache.ts), parsing only the
 * entries it uses.
 */
interface KarmadaFiles {
  /** Files parsed by this process (as saved, after a save), by `<blob oid> <path>`. */
  parsed: ParsedVersions;
  /** A kept file by key: parsed by this process, else of the copy on disk (whose directory is read whole on first call). */
  get(key: string): CachedFile | undefined;
  /** Keys of the entries parsed since the copy on disk was written. */
  added: Set<string>;
  /** The files last saved (on disk, or by this process), and the source tree they were saved for. */
  saved?: ParsedFiles;
}
const karmadaFileCache = new WeakMap<GitRepo, KarmadaFiles>();

/**
 * Parsed files by `<blob oid> <path>`, with the versions held of each path. A save keeps the saved tree's versions and
 * moves the others to a few spare ones, the oldest dropped first: a reconciler that sees one policy edited a thousand
 * times holds it once, not a thousand times (each version kept grew its heap by some 17 KB at L), while one that reads
 * two trees in turn (a branch and a pull request's head, the last good version of a broken file) still finds the
 * versions of both.
 */
class ParsedVersions {
  readonly #files = new Map<string, CachedFile>();
  /** Path → the keys held of it in #files: mostly one. */
  readonly #keys = new Map<string, string[]>();
  /** Versions a save did not keep, oldest first. */
  readonly #spare = new Map<string, CachedFile>();

  /** Versions held besides the spare ones. */
  get size(): number {
    return this.#files.size;
  }

  get(key: string): CachedFile | undefined {
    return this.#files.get(key) ?? this.#spare.get(key);
  }

  set(key: string, file: CachedFile): void {
    if (!this.#files.has(key)) {
      const path = key.slice(key.indexOf(' ') + 1);
      const keys = this.#keys.get(path);
      if (keys) keys.push(key);
      else this.#keys.set(path, [key]);
    }
    this.#files.set(key, file);
    this.#spare.delete(key);
  }

  /** Keeps of `path` only the version `key` names (none, without one); the others become spare. */
  keepOnly(path: string, key: string | undefined): void {
    const keys = this.#keys.get(path);
    if (!keys) return;
    for (const k of keys) if (k !== key) this.#toSpare(k);
    if (key !== undefined && this.#files.has(key)) this.#keys.set(path, [key]);
    else this.#keys.delete(path);
  }

  /** Holds these files from now on, and the others as spare ones. */
  replaceAll(files: ReadonlyMap<string, CachedFile>): void {
    for (const key of this.#files.keys()) if (!files.has(key)) this.#toSpare(key);
    this.#files.clear();
    this.#keys.clear();
    for (const [key, file] of files) this.set(key, file);
  }

  #toSpare(key: string): void {
    const file = this.#files.get(key);
    if (!file) return;
    this.#files.delete(key);
    this.#spare.delete(key);
    this.#spare.set(key, file);
    if (this.#spare.size > SPARE_VERSIONS) this.#spare.delete(this.#spare.keys().next().value!);
  }
}

/** Spare versions held at most: a pull request's changed policies, a broken file's last good versions. */
const SPARE_VERSIONS = 256;

/** How many parsed Karmada files this process holds for the repo: one version of each, after a save. */
export function parsedKarmadaFileCount(repo: GitRepo): number {
  return karmadaFileCache.get(repo)?.parsed.size ?? 0;
}

function karmadaFilesOf(repo: GitRepo): KarmadaFiles {
  let cache = karmadaFileCache.get(repo);
  if (!cache) {
    const saved = readParsedFileCache(repo);
    let onDisk: Map<string, CachedFile> | undefined;
    const parsed = new ParsedVersions();
    cache = {
      parsed,
      // Only the copy read at first: a save puts what it saved in `parsed`.
      get: (key) => parsed.get(key) ?? (onDisk ??= saved?.entries() ?? new Map()).get(key),
      added: new Set(),
      ...(saved ? { saved } : {}),
    };
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
 * the blobs `tree` holds: same paths, and none of them changed since the tree they were saved for but those the
 * caller reads itself (`changing`: the commit's changed files; keptFilesFor then picks from the others). Undefined
 * otherwise (then every Karmada file is looked up, as everyKarmadaFile does).
 */
export async function keptAsTheyAre(
  repo: GitRepo,
  tree: string,
  karmadaPaths: readonly string[],
  known: { from: string; changes: TreeChange[] },
  changing: ReadonlySet<string> = new Set(),
): Promise<ParsedFiles | undefined> {
  const saved = karmadaFilesOf(repo).saved;
  if (!saved || saved.paths !== karmadaPathsDigest(karmadaPaths)) return undefined;
  const changes = await changesSinceSaved(repo, saved, tree, known);
  if (!changes || changes.some((c) => sortedIncludes(karmadaPaths, c.path) && !changing.has(c.path))) return undefined;
  return saved;
}

/**
 * A later tree whose Karmada files are those the files were saved for (a sync that changed none of them): a save
 * happens only when a file is parsed anew, so a reconciler syncing template changes would otherwise diff from an
 * ever older tree on each sync.
 */
const sameKarmadaFiles = new WeakMap<ParsedFiles, string>();

/** Records that `tree` holds the Karmada files `saved` was saved for (keptAsTheyAre found them, and none changed). */
export function keptFor(saved: ParsedFiles, tree: string): void {
  sameKarmadaFiles.set(saved, tree);
}

/** The diff from the tree the files were saved for to `tree`; undefined when that tree is gone (history rewritten and collected). */
async function changesSinceSaved(
  repo: GitRepo,
  saved: ParsedFiles,
  tree: string,
  known?: { from: string; changes: TreeChange[] },
): Promise<TreeChange[] | undefined> {
  try {
    // Usually the tree saved is the one the previous render read (or has the same Karmada files), whose diff the
    // caller has already: what it changed besides is no Karmada file.
    const from = known?.from;
    return from !== undefined && (from === saved.tree || from === sameKarmadaFiles.get(saved))
      ? known!.changes
      : // Only a shortcut: a diff past a source tree's bound looks the paths up instead.
        await diffTrees(repo, saved.tree, tree, { maxEntries: sourceTreeEntries(DEFAULT_SOURCE_LIMITS) });
  } catch {
    return undefined;
  }
}

/** Binary search: the output index keeps its Karmada file list sorted (a list that is not has no saved digest to match). */
export function sortedIncludes(sorted: readonly string[], path: string): boolean {
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
 * filesFor over the saved files (keptAsTheyAre) but those of the paths `without` (changed, read by the caller): path →
 * file, read from the saved copy by namespace; from `lookedUp` (every Karmada file but those looked up) once a part of
 * the copy turns out unreadable.
 */
export function keptFilesFor(
  repo: GitRepo,
  saved: ParsedFiles,
  lookedUp: () => Promise<KarmadaFilesFor>,
  without: ReadonlySet<string> = new Set(),
): KarmadaFilesFor {
  const cache = karmadaFilesOf(repo);
  let fallback: Promise<KarmadaFilesFor> | undefined;
  return async (namespaces) => {
    const picked = fallback ? undefined : saved.filesFor(namespaces, without);
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
export type KarmadaFilesFor = (namespaces: ReadonlySet<string>) => Promise<Map<string, CachedFile>>;

/**
 * filesFor over the given Karmada files, each looked up in `tree` (every one, whatever the namespaces, when `all`):
 * path → file, parsed now where the cache lacks it.
 */
export async function everyKarmadaFile(
  repo: GitRepo,
  tree: string,
  paths: readonly string[],
  known: { from: string; changes: TreeChange[] },
  all: boolean,
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
export async function karmadaOids(
  repo: GitRepo,
  tree: string,
  paths: Iterable<string>,
  known?: { from: string; changes: TreeChange[] },
): Promise<Map<string, string>> {
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

/** Reads and parses the given path → blob oid pairs, from the cache where it can (`mayBeKept`: as karmadaFilesAt). */
export async function readFiles(
  repo: GitRepo,
  oids: ReadonlyMap<string, string>,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
  mayBeKept?: (path: string) => boolean,
): Promise<Map<string, FileObjects>> {
  return new Map([...(await karmadaFilesAt(repo, oids, mayBeKept, limits))].map(([path, f]) => [path, f.objects()]));
}

/**
 * The given path → blob oid pairs as kept files: their scope known at once, their objects parsed when first asked
 * for. A file the cache lacks is parsed now (and kept when it holds Karmada objects). `mayBeKept`: the paths the
 * cache can hold, when the caller knows (the others are parsed without looking, which would read every entry).
 */
export async function karmadaFilesAt(
  repo: GitRepo,
  oids: ReadonlyMap<string, string>,
  mayBeKept?: (path: string) => boolean,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<Map<string, CachedFile>> {
  const cache = karmadaFilesOf(repo);
  const out = new Map<string, CachedFile>();
  const toRead = new Map<string, string>();
  // The files past the limit are the same whatever this machine has parsed before: counted over every file asked for,
  // in path order, a kept one among them (a fresh clone's render must refuse what this one does).
  const past = pastFileLimit(oids.keys(), limits.maxFiles);
  for (const [path, oid] of oids) {
    const hit = past.has(path)
      ? undefined
      : !mayBeKept || mayBeKept(path)
        ? cache.get(`${oid} ${path}`)
        : cache.parsed.get(`${oid} ${path}`);
    if (hit) out.set(path, orParsedAgain(repo, cache, path, oid, hit));
    else toRead.set(path, oid);
  }
  // A pull request decides these files: one over the parse limit is refused from its object header, never inflated,
  // and past the limits of one read (sourceLimits.ts) the rest is not read at all.
  const paths = [...toRead.keys()].sort(compareText);
  const allowed = paths.filter((path) => !past.has(path));
  const { blobs, tooLarge, unread } = await readBlobsWithin(
    repo,
    allowed.map((p) => toRead.get(p)!),
    DEFAULT_PARSE_LIMITS.maxFileBytes,
    16,
    limits.maxBytes,
  );
  const unreadOids = new Set(unread);
  let objects = 0;
  let refusal: { message: string; fix: string } | undefined;
  const fix = 'split the change into smaller commits, or list files that are not manifests in .flotillaignore';
  const notRead = (i: number, reason: string) =>
    `${reason}: this file and the ${paths.length - i - 1} after it (in path order) are not read; what they rendered before is kept`;
  const decided = new Map<string, FileObjects>();
  const turns = eventLoopTurns();
  for (const [i, path] of paths.entries()) {
    if (turns.due()) await turns.give();
    const oid = toRead.get(path)!;
    const size = tooLarge.get(oid);
    let why: { message: string; fix: string } | undefined;
    let parsed: FileObjects | undefined;
    if (refusal) parsed = refusedFile(path);
    else if (past.has(path))
      why = {
        message: notRead(i, `this commit has ${oids.size} files to read, over the ${limits.maxFiles} one read takes`),
        fix: `${fix}; for a fleet this large, raise --max-source-files (now ${limits.maxFiles}) on flotilla run, render and sync`,
      };
    else if (unreadOids.has(oid))
      why = {
        message: notRead(i, `the files before this one hold ${formatMiB(limits.maxBytes)}, all one read takes`),
        fix,
      };
    else {
      parsed =
        size !== undefined
          ? oversizedFile(path, size, DEFAULT_PARSE_LIMITS.maxFileBytes)
          : parseFile(path, blobs.get(oid)!);
      objects += objectCount(parsed);
      if (objects > limits.maxObjects)
        why = {
          message: notRead(i, `with this file the commit holds over ${limits.maxObjects} objects, all one read takes`),
          fix,
        };
    }
    if (why) {
      refusal = why;
      parsed = refusedFile(path, why);
    }
    decided.set(path, parsed!);
  }
  for (const [path, oid] of toRead) {
    const parsed = decided.get(path)!;
    const file = parsedFile(scopeOf(parsed), parsed);
    out.set(path, file);
    if (holdsKarmadaObjects(parsed)) {
      cache.parsed.set(`${oid} ${path}`, file);
      cache.added.add(`${oid} ${path}`);
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
    line: () => (cache.get(`${oid} ${path}`) ?? kept).line(),
    objects: () => {
      if (objects) return objects;
      try {
        objects = kept.objects();
        if (objects.file === path) return objects;
      } catch {
        // parsed again below
      }
      objects = parseBlob(repo, path, oid);
      cache.parsed.set(`${oid} ${path}`, parsedFile(scopeOf(objects), objects));
      cache.added.add(`${oid} ${path}`);
      return objects;
    },
  };
}

/**
 * An earlier version of a file (where a broken object's last good definition is looked for), parsed once per blob.
 * Kept in this process's memory only: the copy on disk holds the files of the tree last rendered, and a save is not
 * made for these.
 */
export function readEarlierVersion(repo: GitRepo, path: string, oid: string): FileObjects {
  const cache = karmadaFilesOf(repo);
  const key = `${oid} ${path}`;
  const kept = cache.get(key);
  if (kept) return orParsedAgain(repo, cache, path, oid, kept).objects();
  const objects = parseBlob(repo, path, oid);
  if (holdsKarmadaObjects(objects)) cache.parsed.set(key, parsedFile(scopeOf(objects), objects));
  return objects;
}

/**
 * What a sync that changed some Karmada files knows of them, for a save that appends only what they changed: the copy
 * it picked the others from (keptAsTheyAre, holding the `previous` paths, sorted) and, per changed path, the scope of
 * its previous version (when it had Karmada objects) and its blob now (none: deleted).
 */
export interface ChangedKarmadaFiles {
  from: ParsedFiles;
  previous: readonly string[];
  changed: ReadonlyMap<string, { before: KarmadaScope | undefined; oid: string | undefined }>;
}

/**
 * Saves the parsed Karmada files of this tree when any were parsed anew; older versions are dropped,
 * so the copy on disk stays the size of the current policies and clusters. With `change` (the files parsed anew are
 * its changed files' new versions, the rest as saved), only their entries are replaced, without reading the others.
 */
export async function saveKarmadaFiles(
  repo: GitRepo,
  tree: string,
  karmadaPaths: () => Iterable<string>,
  change?: ChangedKarmadaFiles,
): Promise<void> {
  const cache = karmadaFilesOf(repo);
  if (cache.added.size === 0) return;
  if (change && change.from === cache.saved && cache.saved.replacing && (await savedReplacing(cache, tree, change)))
    return;
  const oids = await karmadaOids(repo, tree, karmadaPaths());
  const current = new Map<string, CachedFile>();
  for (const [path, oid] of oids) {
    const hit = cache.get(`${oid} ${path}`);
    if (hit) current.set(`${oid} ${path}`, hit);
  }
  const saved = await writeParsedFileCache(repo, current, tree);
  // As saved: where each line now is, so this process's next save appends instead of writing the file whole. Other
  // trees' versions go (an earlier render's, a plan's).
  cache.parsed.replaceAll(saved.entries());
  cache.added.clear();
  // The next sync appends only what it replaces (savedReplacing) when it starts from the copy read from disk, as a new
  // process does: without it, every sync after one that saved whole (a cluster's change) saved whole again, going over
  // every entry (20 ms at L). Read back when it is the file just written.
  const reread = readParsedFileCache(repo);
  cache.saved = reread && reread.tree === tree && reread.paths === saved.paths ? reread : saved;
}

/** saveKarmadaFiles appending what `change` replaced; false when it cannot (then the whole file is written). */
async function savedReplacing(cache: KarmadaFiles, tree: string, change: ChangedKarmadaFiles): Promise<boolean> {
  const replaced = new Map<string, Replacement>();
  const newKeys = new Set<string>();
  for (const [path, { before, oid }] of change.changed) {
    const key = oid === undefined ? undefined : `${oid} ${path}`;
    const file = key === undefined ? undefined : cache.parsed.get(key);
    const wasKept = sortedIncludes(change.previous, path);
    if (!file && !wasKept) continue;
    // Its entry is found by the policies it had: without them, only a whole save drops it.
    if (wasKept && !before) return false;
    replaced.set(path, { before, after: file ? { key: key!, file } : null });
    if (file) newKeys.add(key!);
  }
  // Anything else parsed anew (a kept line that did not read back) is written by a whole save; a changed file's
  // previous version, parsed to compare, is this tree's no more.
  if ([...cache.added].some((key) => !newKeys.has(key) && !change.changed.has(key.slice(key.indexOf(' ') + 1))))
    return false;
  const paths = change.previous.filter((path) => !replaced.has(path));
  for (const [path, { after }] of replaced) if (after) paths.push(path);
  const done = await change.from.replacing!(tree, replaced, karmadaPathsDigest(paths.sort()));
  if (!done) return false;
  cache.saved = done.saved;
  for (const [path, { after }] of replaced) cache.parsed.keepOnly(path, after?.key);
  for (const [key, file] of done.written) cache.parsed.set(key, file);
  cache.added.clear();
  return true;
}

/** A blob parsed as the file at `path`; one over the parse limit is refused from its header, never inflated. */
function parseBlob(repo: GitRepo, path: string, oid: string): FileObjects {
  try {
    const blob = readObject(repo, oid, { maxBytes: DEFAULT_PARSE_LIMITS.maxFileBytes });
    if (blob.type !== 'blob') throw new Error(`object ${oid} (${path}) is a ${blob.type}, not a blob`);
    return parseFile(path, blob.content);
  } catch (err) {
    if (!(err instanceof ObjectTooLargeError)) throw err;
    return oversizedFile(path, err.data.size, DEFAULT_PARSE_LIMITS.maxFileBytes);
  }
}

/** The paths after the first `maxFiles` in path order: none when there are no more than that (nothing sorted). */
function pastFileLimit(paths: Iterable<string>, maxFiles: number): ReadonlySet<string> {
  const all = [...paths];
  return all.length <= maxFiles ? new Set() : new Set(all.sort(compareText).slice(maxFiles));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function parseFile(path: string, bytes: Uint8Array): FileObjects {
  const { documents, problems } = parseDocuments(path, bytes);
  return withoutSkippedHooks(classifyDocuments(path, documents, problems));
}

/**
 * Files read on every incremental sync (few, and each can affect any template): policies, clusters,
 * rebalancers, interpreter customizations, files with broken ones (their last good version is kept), and plain files
 * with a CustomResourceDefinition: every template of its kind, in any file or unit, takes its scope from it, and is
 * checked and defaulted by its schema, so a sync that reads only the changed template must read it too (else the
 * template lands in a namespace, a path or a form a cold render does not give it). Taking in files it did not raises
 * the output index's KARMADA_FILES_RULE, and loadSource.ts then finds them on an index of the earlier rule.
 */
export function holdsKarmadaObjects(f: FileObjects): boolean {
  return (
    f.propagationPolicies.length +
      f.overridePolicies.length +
      f.clusterTaintPolicies.length +
      f.clusters.length +
      f.rebalancers.length +
      f.interpreterCustomizations.length +
      f.broken.length >
      0 ||
    // A unit's output is read through its unit, never as a file at its marker's path.
    (f.unit === undefined && f.templates.some(definesKind))
  );
}

/** A CRD: its scope places, its schema checks and defaults, every object of its kind (documents/checkCustomResources.ts). */
function definesKind(t: FileObjects['templates'][number]): boolean {
  return isCrd(t.ref);
}

function isCrd(ref: { apiVersion: string; kind: string }): boolean {
  return ref.kind === 'CustomResourceDefinition' && ref.apiVersion.startsWith(CRD_GROUP);
}

const CRD_GROUP = 'apiextensions.k8s.io/';

/**
 * The files whose index entry names a CRD (a unit's marker among them when its output has one): those an index made
 * before every plain file with a CRD was a Karmada file (ShardedIndex.karmadaFilesByCurrentRule) may not list. Its
 * file entries name every template of their file; only the lines naming the group are parsed. Needs loadAll() first.
 */
export function filesNamingCrds(index: ShardedIndex): string[] {
  return index
    .filesWhere((line) => line.includes(`"${CRD_GROUP}`))
    .filter(([, entry]) => entry.templates.some((key) => isCrd(parseRefKey(key))))
    .map(([path]) => path);
}

/**
 * The interpreter customizations a rendered commit was made with, for the status stage: the files the
 * output index marks as holding Karmada objects, read at the source commit (cached like every sync's), a broken one
 * with the last good definition the render kept (`lastGood`: resolved from the renders before it).
 */
export async function readInterpreterCustomizations(
  repo: GitRepo,
  sourceTree: string,
  index: ShardedIndex,
  lastGood?: (files: FileObjects[]) => Promise<FileObjects[]>,
): Promise<Located<AnyInterpreterCustomization>[]> {
  const files = await karmadaFilesAt(repo, await karmadaOids(repo, sourceTree, index.karmadaFiles()));
  // Customizations concern the whole fleet (karmadaScope.ts): the files scoped to a namespace hold none.
  // The same customizations the render used: scripts Karmada's webhook would refuse are out, their last good ones in.
  const read = await checkLuaScripts([...files.values()].filter((f) => f.scope.fleet).map((f) => f.objects()));
  const parsed = lastGood ? await lastGood(read) : read;
  return parsed.sort((a, b) => (a.file < b.file ? -1 : 1)).flatMap((f) => f.interpreterCustomizations);
}
