import {
  CLUSTER_API_VERSION,
  CONFIG_API_VERSION,
  FLOTILLA_API_VERSION,
  parseRefKey,
  POLICY_API_VERSION,
  POLICY_KINDS,
  refKey,
} from '../api/kinds.ts';
import { emptyFileObjects, type FileObjects, type Located } from '../api/model.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import { karmadaRef } from '../documents/karmadaRef.ts';
import { IGNORE_FILE, isConfigFile, type IgnoreRules } from '../documents/selectConfigFiles.ts';
import { ignoreRulesOf } from '../documents/readIgnoreRules.ts';
import { ObjectNotFoundError } from '../commits/ObjectNotFoundError.ts';
import { commitTrailers, LAST_GOOD_TRAILER } from '../branches/rendered/trailers.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import type { ShardedIndex } from '../branches/rendered/outputIndex.ts';
import type { Problem } from '../errors/problem.ts';
import { readEarlierVersion, sortedIncludes } from './karmadaFiles.ts';

// A Karmada object whose file stops validating keeps its last good definition: Karmada's API server refuses the
// invalid object and the old one stays, and dropping it would unschedule (and so delete from the members) everything
// it placed. One rule for every render path (an incremental sync, a full re-render, verify's cold replay), so they
// cannot disagree: the last good definition of a broken object in file F is its definition in F as of the most
// recent earlier render that read F valid for that object, found by walking the rendered branch back. A file that
// does not parse keeps every Karmada object of its last readable version (and their last good definitions).

/** How many earlier renders a broken file's last good definitions are looked for in. */
export const LAST_GOOD_RENDERS = 500;

/** Where the renders before the one being made (or replayed) are found. */
export interface RenderHistory {
  /** The newest output commit below that render: earlier renders are it and its first parents (foreign ones skipped). */
  from: string;
  /**
   * The Karmada files of `from`'s output index (sorted): a file that does not parse now and is not among them held no
   * Karmada object when last read, and is not looked for. Absent: every such file is.
   */
  karmadaFiles?: readonly string[];
}

/**
 * The renders from output commit `oid` back (the first Flotilla wrote, below any made by hand), with its index's
 * Karmada files; null when there is none. `index`: the one of `oid`'s tree, when the caller has it open already, taken
 * when `oid` is that render itself (below a commit made by hand, the render's own tree is read).
 */
export async function renderHistoryAt(
  repo: GitRepo,
  oid: string,
  index?: Pick<ShardedIndex, 'karmadaFiles'> | null,
): Promise<RenderHistory | null> {
  const { rendered } = await readLastRenderAt(repo, oid);
  if (!rendered) return null;
  const opened = index && rendered.oid === oid ? index : await openOutputIndex(repo, rendered.tree).catch(() => null);
  return { from: rendered.oid, ...(opened ? { karmadaFiles: opened.karmadaFiles() } : {}) };
}

/** The Karmada kinds a file keeps the last good definitions of (each in its own list of FileObjects). */
type HeldLists = Pick<
  FileObjects,
  'propagationPolicies' | 'overridePolicies' | 'clusterTaintPolicies' | 'clusters' | 'interpreterCustomizations'
>;
const HELD_LISTS = [
  'propagationPolicies',
  'overridePolicies',
  'clusterTaintPolicies',
  'clusters',
  'interpreterCustomizations',
] as const;

/** What a file still looks for while walking back: every object of its last readable version, and these keys. */
export interface LastGoodSearch {
  all: boolean;
  keys: Set<string>;
  found: HeldLists;
}

/** A refKey of a Karmada object that keeps its last good definition when broken. */
function isHeldKind(key: string): boolean {
  const { apiVersion, kind } = parseRefKey(key);
  return (
    (apiVersion === POLICY_API_VERSION && (POLICY_KINDS as readonly string[]).includes(kind)) ||
    (apiVersion === CLUSTER_API_VERSION && kind === 'Cluster') ||
    (apiVersion === FLOTILLA_API_VERSION && kind === 'InterpreterCustomization') ||
    (apiVersion === CONFIG_API_VERSION && kind === 'ResourceInterpreterCustomization')
  );
}

/** What a file read now must look for in earlier renders; undefined when it holds no broken Karmada object. */
export function lastGoodSearch(now: FileObjects): LastGoodSearch | undefined {
  // A Helm or Kustomize unit's output: its objects are the tool's, not a file's. Most files: nothing broken.
  if (now.unit || (!now.unreadable && now.broken.length === 0)) return undefined;
  const keys = new Set(now.broken.map(refKey).filter(isHeldKind));
  if (!now.unreadable && keys.size === 0) return undefined;
  return {
    all: now.unreadable,
    keys: now.unreadable ? new Set() : keys,
    found: {
      propagationPolicies: [],
      overridePolicies: [],
      clusterTaintPolicies: [],
      clusters: [],
      interpreterCustomizations: [],
    },
  };
}

/**
 * One earlier render's version of the file (null: the file was not there, so neither was anything it defined: a
 * definition before that was deleted with it), newest first. Returns whether the search is over.
 */
export function searchEarlier(search: LastGoodSearch, version: FileObjects | null): boolean {
  if (!version) return true;
  // A render that could not read the file held what the one before it had.
  if (version.unreadable) return false;
  const broken = new Set(version.broken.map(refKey).filter(isHeldKind));
  for (const list of HELD_LISTS) {
    for (const located of version[list] as Located<{
      apiVersion: string;
      kind: string;
      metadata: { name: string };
    }>[]) {
      const key = refKey(karmadaRef(located.object));
      if (!search.all && !search.keys.has(key)) continue;
      search.keys.delete(key);
      (search.found[list] as unknown[]).push(located);
    }
  }
  if (search.all) {
    // Its broken objects were held there too: looked for further back.
    search.all = false;
    search.keys = broken;
  } else {
    // An object this version does not define at all did not exist then: a definition further back was deleted.
    for (const key of search.keys) if (!broken.has(key)) search.keys.delete(key);
  }
  return search.keys.size === 0;
}

/** The file with the definitions found, and a warning for what the walk gave up on (`bounded`). */
export function withLastGood(now: FileObjects, search: LastGoodSearch, bounded: boolean): FileObjects {
  const out: FileObjects = {
    ...now,
    propagationPolicies: [...now.propagationPolicies, ...search.found.propagationPolicies],
    overridePolicies: [...now.overridePolicies, ...search.found.overridePolicies],
    clusterTaintPolicies: [...now.clusterTaintPolicies, ...search.found.clusterTaintPolicies],
    clusters: [...now.clusters, ...search.found.clusters],
    interpreterCustomizations: [...now.interpreterCustomizations, ...search.found.interpreterCustomizations],
  };
  if (bounded && (search.all || search.keys.size > 0)) out.problems = [...now.problems, gaveUp(now.file, search)];
  return out;
}

function gaveUp(file: string, search: LastGoodSearch): Problem {
  const what = search.all
    ? 'the Karmada objects this file held when it last parsed'
    : [...search.keys]
        .map((key) => {
          const ref = parseRefKey(key);
          return `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
        })
        .sort()
        .join(', ');
  return {
    file,
    line: 1,
    column: 1,
    code: 'INVALID_VALUE',
    severity: 'warning',
    message: `no valid definition of ${what} in the last ${LAST_GOOD_RENDERS} renders: it is dropped, as if never defined (what it placed is unscheduled)`,
    fix: 'fix the errors reported in this file; a valid definition renders again at once',
  };
}

/** A definition a Karmada object keeps, and the model list it goes in. */
export interface KeptDefinition {
  list: HeldList;
  located: Located<KarmadaObject>;
}
type HeldList = (typeof HELD_LISTS)[number];
type KarmadaObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };

function definitions(f: FileObjects): { key: string; list: HeldList; located: Located<KarmadaObject> }[] {
  return HELD_LISTS.flatMap((list) =>
    (f[list] as Located<KarmadaObject>[]).map((located) => ({
      key: refKey(karmadaRef(located.object)),
      list,
      located,
    })),
  );
}

/** Karmada objects (of the kinds kept) defined more than once in these files, each with the files defining it. */
export function definedTwice(files: readonly FileObjects[]): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const f of files) for (const { key } of definitions(f)) where.set(key, [...(where.get(key) ?? []), f.file]);
  const out = new Map<string, string[]>();
  for (const [key, paths] of where) if (paths.length > 1) out.set(key, [...new Set(paths)]);
  return out;
}

/**
 * One earlier render's versions of the files that now define `key` twice (null: a file not there), newest first:
 * the definition it keeps is that of the newest render where they held exactly one valid definition (what that render
 * used, a broken copy beside it never competing), and none when none of them held it at all then (a definition
 * further back was deleted). Undefined while the search goes on: two valid definitions, or only broken or unreadable
 * ones.
 */
export function duplicateAt(
  key: string,
  versions: Iterable<FileObjects | null>,
): { found: KeptDefinition | undefined } | undefined {
  const found: KeptDefinition[] = [];
  let mentioned = false;
  for (const v of versions) {
    if (!v) continue;
    if (v.unreadable || v.broken.some((ref) => refKey(ref) === key)) mentioned = true;
    for (const d of definitions(v)) if (d.key === key) found.push({ list: d.list, located: d.located });
  }
  if (found.length === 1) return { found: found[0] };
  return found.length === 0 && !mentioned ? { found: undefined } : undefined;
}

/** Last good definitions, for the files read now and for the objects they define twice. */
export interface LastGood {
  /**
   * The files, each with the last good definitions of its broken Karmada objects (resolved once per file, by
   * identity): those defined validly in another of `files` are left to that definition. `skip` leaves out the newest
   * earlier renders (1: the previous render's own versions of its files, resolved as that render resolved them).
   */
  files(files: Iterable<FileObjects>, skip?: number): Promise<FileObjects[]>;
  /** For each Karmada object the files (as `files` gave them) define more than once, the definition it keeps. */
  definedTwice(files: readonly FileObjects[]): Promise<Map<string, KeptDefinition>>;
}

/**
 * Resolves last good definitions from the renders `history` names (none without one), walking them once per call.
 * `history` may be given as a function: it is then read only when a file needs it (one is broken or unreadable, or
 * an object is defined twice), which an ordinary pass never does.
 */
export function lastGoodResolver(
  repo: GitRepo,
  history: RenderHistory | null | (() => Promise<RenderHistory | null>),
): LastGood {
  const resolved = new WeakMap<FileObjects, { search: LastGoodSearch; bounded: boolean }>();
  const kept = new Map<string, KeptDefinition | undefined>();
  let read: Promise<RenderHistory | null> | undefined;
  const historyOf = () => (read ??= typeof history === 'function' ? history() : Promise.resolve(history));
  return {
    async files(files, skip = 0) {
      const list = [...files];
      const searches: [FileObjects, LastGoodSearch][] = [];
      for (const f of list) {
        if (resolved.has(f)) continue;
        const search = lastGoodSearch(f);
        if (search) searches.push([f, search]);
      }
      const history = searches.length > 0 ? await historyOf() : null;
      const walkers: Walker[] = [];
      for (const [f, search] of searches) {
        // Unreadable now, and not a Karmada file when the render before read it: it held none when it last parsed.
        if (!history || (search.all && history.karmadaFiles && !sortedIncludes(history.karmadaFiles, f.file))) continue;
        const state = { search, bounded: false };
        resolved.set(f, state);
        walkers.push({
          paths: [f.file],
          step: (versions) => searchEarlier(search, versions.get(f.file) ?? null),
          bounded: () => {
            state.bounded = true;
          },
        });
      }
      if (history) await walkEarlierRenders(repo, history.from, skip, walkers);
      if (!list.some((f) => resolved.has(f))) return list; // an ordinary sync: nothing broken
      const validNow = new Set(list.flatMap((f) => definitions(f).map((d) => d.key)));
      return list.map((f) => {
        const state = resolved.get(f);
        if (!state) return f;
        const { found } = state.search;
        const weak = <T extends KarmadaObject>(held: Located<T>[]) =>
          held.filter((l) => !validNow.has(refKey(karmadaRef(l.object))));
        const search: LastGoodSearch = {
          ...state.search,
          found: {
            propagationPolicies: weak(found.propagationPolicies),
            overridePolicies: weak(found.overridePolicies),
            clusterTaintPolicies: weak(found.clusterTaintPolicies),
            clusters: weak(found.clusters),
            interpreterCustomizations: weak(found.interpreterCustomizations),
          },
        };
        return withLastGood(f, search, state.bounded);
      });
    },
    async definedTwice(files) {
      const out = new Map<string, KeptDefinition>();
      const twice = definedTwice(files);
      const history = twice.size > 0 ? await historyOf() : null;
      if (!history) return out;
      const walkers: Walker[] = [];
      for (const [key, paths] of twice) {
        const id = `${key}\n${paths.join('\n')}`;
        if (kept.has(id)) continue;
        kept.set(id, undefined);
        walkers.push({
          paths,
          step: (versions) => {
            const at = duplicateAt(key, versions.values());
            if (at) kept.set(id, at.found);
            return at !== undefined;
          },
          bounded: () => {},
        });
      }
      await walkEarlierRenders(repo, history.from, 0, walkers);
      for (const [key, paths] of twice) {
        const found = kept.get(`${key}\n${paths.join('\n')}`);
        if (found) out.set(key, found);
      }
      return out;
    },
  };
}

/** The last good definition of a template, and the file (as an earlier render read it) it is in. */
export interface LastGoodTemplate {
  file: string;
  template: FileObjects['templates'][number];
}

/**
 * The last good definitions of the broken templates of namespaced kinds `wanted` names (FederatedHPA and
 * CronFederatedHPA, which the status side reads: Karmada's webhook refuses their invalid update and the old object
 * goes on scaling), by refKey: the same rule and walk as for policies, over the renders `history` names. Templates
 * are not kept by the render itself (a broken one holds its output), so this is asked for by whoever reads them.
 */
export async function lastGoodTemplates(
  repo: GitRepo,
  history: RenderHistory | null,
  files: Iterable<FileObjects>,
  wanted: (key: string) => boolean,
): Promise<Map<string, LastGoodTemplate>> {
  const out = new Map<string, LastGoodTemplate>();
  if (!history) return out;
  const keyOf = (t: LastGoodTemplate['template']) => refKey({ ...t.ref, namespace: t.ref.namespace ?? 'default' });
  const walkers: Walker[] = [];
  for (const f of files) {
    if (f.unit) continue;
    let all = f.unreadable;
    let keys = new Set(f.broken.map(refKey).filter(wanted));
    if (!all && keys.size === 0) continue;
    walkers.push({
      paths: [f.file],
      step: (versions) => {
        const version = versions.get(f.file) ?? null;
        if (!version) return true;
        if (version.unreadable) return false;
        const broken = new Set(version.broken.map(refKey).filter(wanted));
        for (const template of version.templates) {
          const key = keyOf(template);
          if (!wanted(key) || !(all || keys.has(key)) || out.has(key)) continue;
          keys.delete(key);
          out.set(key, { file: f.file, template });
        }
        if (all) {
          all = false;
          keys = broken;
        } else for (const key of keys) if (!broken.has(key)) keys.delete(key);
        return keys.size === 0;
      },
      bounded: () => {},
    });
  }
  await walkEarlierRenders(repo, history.from, 0, walkers);
  return out;
}

/** A search over the versions of some files, newest first: `step` returns true when it is over. */
interface Walker {
  paths: string[];
  step(versions: ReadonlyMap<string, FileObjects | null>): boolean;
  /** Called when the walk stops at its bound with this search still open. */
  bounded(): void;
}

/** Feeds each walker the versions of its files the earlier renders read, newest first, until each is over. */
async function walkEarlierRenders(repo: GitRepo, from: string, skip: number, walkers: Walker[]): Promise<void> {
  if (walkers.length === 0) return;
  const open = new Map(walkers.map((w) => [w, ''] as [Walker, string]));
  let renders = 0;
  for await (const tree of earlierSourceTrees(repo, from)) {
    if (renders++ < skip) continue;
    if (renders > skip + LAST_GOOD_RENDERS) {
      for (const w of open.keys()) w.bounded();
      return;
    }
    // A render whose source commit is gone (history rewritten and collected) tells nothing: the one before it may.
    if (tree === null) continue;
    const oids = await readPathOids(repo, tree, [IGNORE_FILE, ...new Set([...open.keys()].flatMap((w) => w.paths))]);
    // A file that render ignored was not read: what it defined did not exist then.
    const ignore = await ignoreRules(repo, oids.get(IGNORE_FILE));
    if (ignore)
      for (const path of oids.keys()) if (path !== IGNORE_FILE && !isConfigFile(path, ignore)) oids.delete(path);
    for (const [w, seen] of open) {
      const at = w.paths.map((path) => oids.get(path) ?? '-').join(' ');
      if (at === seen) continue; // the same versions as the render after it
      open.set(w, at);
      const versions = new Map<string, FileObjects | null>();
      for (const path of w.paths) {
        const oid = oids.get(path);
        versions.set(path, oid === undefined ? null : earlierVersion(repo, path, oid));
      }
      if (w.step(versions)) open.delete(w);
    }
    if (open.size === 0) return;
  }
}
/** readEarlierVersion; a blob this clone lacks (partial or shallow) tells nothing, as a file that did not parse. */
function earlierVersion(repo: GitRepo, path: string, oid: string): FileObjects {
  try {
    return readEarlierVersion(repo, path, oid);
  } catch (err) {
    if (!(err instanceof ObjectNotFoundError)) throw err;
    return emptyFileObjects(path, { unreadable: true });
  }
}

/**
 * The ignore rules of a blob of .flotillaignore, read once (ignoreRulesOf: as loadSource reads it); a reconciler that
 * sees the file change over months holds the last few versions only.
 */
const ignoreFiles = new Map<string, IgnoreRules | undefined>();
const IGNORE_FILES_KEPT = 16;
async function ignoreRules(repo: GitRepo, oid: string | undefined): Promise<IgnoreRules | undefined> {
  if (oid === undefined) return undefined;
  if (!ignoreFiles.has(oid)) {
    if (ignoreFiles.size >= IGNORE_FILES_KEPT) ignoreFiles.clear();
    ignoreFiles.set(oid, (await ignoreRulesOf(repo, oid)).rules);
  }
  return ignoreFiles.get(oid);
}

/** Per output commit: its first parent, and the source tree it renders (undefined: not a render; null: source gone). */
const renderSteps = new WeakMap<
  GitRepo,
  Map<string, { parent: string | undefined; tree: string | null | undefined }>
>();

/** Ten walks' worth of steps (earlierSourceTrees goes no further back in one). */
const RENDER_STEPS_KEPT = 10 * (4 * LAST_GOOD_RENDERS + 100);

/**
 * The source trees of the renders from output commit `from` back along first parents, newest first. A commit
 * without a Source-Commit (made by hand) is no render; a held one (Last-Good-Source) renders the source it kept.
 */
async function* earlierSourceTrees(repo: GitRepo, from: string): AsyncGenerator<string | null> {
  let steps = renderSteps.get(repo);
  // Each render adds a step: a reconciler's map would grow for as long as it runs.
  if (!steps || steps.size > RENDER_STEPS_KEPT) renderSteps.set(repo, (steps = new Map()));
  let cursor: string | undefined = from;
  // Foreign commits do not count as renders, but are not walked without end either.
  for (let walked = 0; cursor && walked < 4 * LAST_GOOD_RENDERS + 100; walked++) {
    let step = steps.get(cursor);
    if (!step) {
      // A shallow clone of the output branch: its history ends here.
      const commit: CommitInfo | undefined = await readCommitInfo(repo, cursor).catch((err: unknown) => {
        if (err instanceof ObjectNotFoundError) return undefined;
        throw err;
      });
      if (!commit) return;
      const trailers = commitTrailers(commit);
      const source = trailers[LAST_GOOD_TRAILER] ?? trailers['Source-Commit'];
      step = { parent: commit.parents[0], tree: source === undefined ? undefined : await sourceTree(repo, source) };
      steps.set(cursor, step);
    }
    if (step.tree !== undefined) yield step.tree;
    cursor = step.parent;
  }
}

async function sourceTree(repo: GitRepo, sha: string): Promise<string | null> {
  try {
    return (await readCommitInfo(repo, sha)).tree;
  } catch {
    return null;
  }
}
