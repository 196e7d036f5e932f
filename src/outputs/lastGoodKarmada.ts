import { CLUSTER_API_VERSION, parseRefKey, POLICY_API_VERSION, POLICY_KINDS, refKey } from '../api/kinds.ts';
import type { FileObjects, Located } from '../api/model.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readPathOids } from '../commits/readPathOids.ts';
import type { GitRepo } from '../commits/types.ts';
import { karmadaRef } from '../documents/karmadaRef.ts';
import { commitTrailers, LAST_GOOD_TRAILER } from '../branches/rendered/trailers.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
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
 * Karmada files; null when there is none.
 */
export async function renderHistoryAt(repo: GitRepo, oid: string): Promise<RenderHistory | null> {
  const { rendered } = await readLastRenderAt(repo, oid);
  if (!rendered) return null;
  const index = await openOutputIndex(repo, rendered.tree).catch(() => null);
  return { from: rendered.oid, ...(index ? { karmadaFiles: index.karmadaFiles() } : {}) };
}

/** The Karmada kinds a file keeps the last good definitions of (each in its own list of FileObjects). */
type HeldLists = Pick<FileObjects, 'propagationPolicies' | 'overridePolicies' | 'clusterTaintPolicies' | 'clusters'>;
const HELD_LISTS = ['propagationPolicies', 'overridePolicies', 'clusterTaintPolicies', 'clusters'] as const;

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
    (apiVersion === CLUSTER_API_VERSION && kind === 'Cluster')
  );
}

/** What a file read now must look for in earlier renders; undefined when it holds no broken Karmada object. */
export function lastGoodSearch(now: FileObjects): LastGoodSearch | undefined {
  if (now.unit) return undefined; // a Helm or Kustomize unit's output: its objects are the tool's, not a file's
  const keys = new Set(now.broken.map(refKey).filter(isHeldKind));
  if (!now.unreadable && keys.size === 0) return undefined;
  return {
    all: now.unreadable,
    keys: now.unreadable ? new Set() : keys,
    found: { propagationPolicies: [], overridePolicies: [], clusterTaintPolicies: [], clusters: [] },
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

/**
 * Resolves the last good definitions of files read now, walking the earlier renders once for all of them. Each file
 * is resolved once (by identity); `skip` leaves out the newest earlier renders (1: the previous render's own versions
 * of its files, resolved as that render resolved them).
 */
export function lastGoodResolver(
  repo: GitRepo,
  history: RenderHistory | null,
): (files: Iterable<FileObjects>, skip?: number) => Promise<FileObjects[]> {
  const done = new WeakMap<FileObjects, FileObjects>();
  return async (files, skip = 0) => {
    const list = [...files];
    const searches = new Map<string, { now: FileObjects; search: LastGoodSearch }>();
    for (const f of list) {
      if (done.has(f)) continue;
      const search = history && lastGoodSearch(f);
      const mayHaveHeld =
        search && (!search.all || !history!.karmadaFiles || sortedIncludes(history!.karmadaFiles, f.file));
      if (mayHaveHeld) searches.set(f.file, { now: f, search });
      else done.set(f, f);
    }
    if (searches.size > 0) {
      const bounded = await walkEarlierRenders(repo, history!.from, skip, searches);
      for (const { now, search } of searches.values()) done.set(now, withLastGood(now, search, bounded));
    }
    return list.map((f) => done.get(f)!);
  };
}

/**
 * Feeds each search the versions of its file the earlier renders read, newest first; true when it stopped at the
 * bound with searches still open.
 */
async function walkEarlierRenders(
  repo: GitRepo,
  from: string,
  skip: number,
  searches: ReadonlyMap<string, { search: LastGoodSearch }>,
): Promise<boolean> {
  const open = new Map([...searches].map(([path, { search }]) => [path, { search, oid: '' }]));
  let renders = 0;
  for await (const tree of earlierSourceTrees(repo, from)) {
    if (renders++ < skip) continue;
    if (renders > skip + LAST_GOOD_RENDERS) return true;
    // A render whose source commit is gone (history rewritten and collected) tells nothing: the one before it may.
    if (tree === null) continue;
    const oids = await readPathOids(repo, tree, [...open.keys()]);
    for (const [path, state] of open) {
      const oid = oids.get(path);
      if (oid !== undefined && oid === state.oid) continue; // the same version as the render after it
      state.oid = oid ?? '';
      if (searchEarlier(state.search, oid === undefined ? null : readEarlierVersion(repo, path, oid)))
        open.delete(path);
    }
    if (open.size === 0) return false;
  }
  return false;
}

/** Per output commit: its first parent, and the source tree it renders (undefined: not a render; null: source gone). */
const renderSteps = new WeakMap<
  GitRepo,
  Map<string, { parent: string | undefined; tree: string | null | undefined }>
>();

/**
 * The source trees of the renders from output commit `from` back along first parents, newest first. A commit
 * without a Source-Commit (made by hand) is no render; a held one (Last-Good-Source) renders the source it kept.
 */
async function* earlierSourceTrees(repo: GitRepo, from: string): AsyncGenerator<string | null> {
  let steps = renderSteps.get(repo);
  if (!steps) renderSteps.set(repo, (steps = new Map()));
  let cursor: string | undefined = from;
  // Foreign commits do not count as renders, but are not walked without end either.
  for (let walked = 0; cursor && walked < 4 * LAST_GOOD_RENDERS + 100; walked++) {
    let step = steps.get(cursor);
    if (!step) {
      const commit = await readCommitInfo(repo, cursor);
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
