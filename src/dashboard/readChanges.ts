import { parsePullRequestNumber } from '../audits/parsePullRequestNumber.ts';
import { formatGitDate } from '../audits/formatGitDate.ts';
import { parseTrailers, renderedAgainFor } from '../branches/rendered/trailers.ts';
import { diffTrees } from '../commits/diffTrees.ts';
import { readBlobs } from '../commits/readBlobs.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { isTreeMode, type CommitInfo, type GitRepo, type TreeChange } from '../commits/types.ts';
import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { readTree } from '../commits/readTree.ts';
import { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import { DEFAULT_SOURCE_LIMITS, sourceTreeEntries, type SourceLimits } from '../outputs/sourceLimits.ts';
import { renderUnifiedDiff } from '../plans/renderUnifiedDiff.ts';
import type { Fleet } from '../views/readFleet.ts';
import { redactSecret } from '../views/redactSecret.ts';
import { parseYamlValue } from '../yaml/blockYaml.ts';
import { parseAllDocuments } from 'yaml';
import { yaml } from './manifestYaml.ts';
import { readClusterViews } from '../views/readListing.ts';
import { readClusterFolders } from './readClusterFolders.ts';
import { headsOf, type Heads } from './readFleetView.ts';

/** GET /ui/api/changes: the rendered branch's commits, newest first, each traced to its source and its members. */
export interface ChangesView {
  heads: Heads;
  commits: ChangeEntry[];
  /** Clusters whose folder at the rendered head is not the one they last applied: something waits for them. */
  notUpToDate: { cluster: string; appliedRenderedCommit: string | null }[];
  /** More commits exist beyond the ones listed. */
  more: boolean;
}

export interface ChangeEntry {
  renderedCommit: string;
  /** Absent on a commit Flotilla did not write. */
  sourceCommit?: string;
  author: string;
  email: string;
  date: string;
  subject: string;
  /** The commit rendered the same source commit again, and why (its own subject, e.g. an autoscaler decision). */
  renderedAgainFor?: string;
  pullRequest?: number;
  /**
   * Per cluster: the files of clusters/<c>/ the commit added, changed or removed, the first MAX_LISTED of each (a
   * fleet's first render adds thousands per cluster; /ui/api/diff has them all), and how many there are.
   */
  clusters: Record<string, ClusterChange>;
  /** Per cluster the commit changed: applied (this commit or a newer one is what it last applied), or waiting. */
  applied: Record<string, boolean>;
}

export interface ClusterChange {
  added: string[];
  changed: string[];
  removed: string[];
  counts: { added: number; changed: number; removed: number };
  /**
   * Set when the folder's files were not walked (lists empty, counts 0): a first render past FIRST_RENDER_WALK (it adds
   * every file of every cluster, millions at 50,000 templates), or a commit changing more than the render's bound on a
   * source tree. /ui/api/diff, or `git show --stat`, has them.
   */
  notCounted?: 'first-render' | 'too-many';
}

/** File names listed per cluster and kind of change in a timeline entry. */
export const MAX_LISTED = 20;

/**
 * The entries a first render's timeline entry walks to count its files: past it, each cluster is named without its
 * counts. A fleet's first render is most of the rendered branch, and walking it was nearly all of the Changes view's
 * first answer (1.6 s at 10,000 templates, and growing with the fleet).
 */
export const FIRST_RENDER_WALK = 20_000;

/** What one rendered commit says, whoever has applied it: the same for as long as the commit exists. */
export interface CommitChanges {
  entry: Omit<ChangeEntry, 'applied'>;
  parent?: string;
}

/**
 * Timeline entries by rendered commit oid, shared across heads (a commit never changes): after a push only the new
 * commits are diffed. Oldest out first beyond `max`.
 */
export class CommitChangesCache {
  readonly #entries = new Map<string, CommitChanges>();
  constructor(readonly max = 512) {}
  get(oid: string): CommitChanges | undefined {
    return this.#entries.get(oid);
  }
  set(oid: string, entry: CommitChanges): void {
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(oid, entry);
  }
}

/** Walks `limit` first-parent commits of the rendered branch; each diff descends only into changed subtrees. */
export async function readChanges(
  fleet: Fleet,
  limit: number,
  cache: CommitChangesCache = new CommitChangesCache(),
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<ChangesView> {
  const heads = headsOf(fleet);
  if (!fleet.rendered) return { heads, commits: [], notUpToDate: [], more: false };
  const views = await readClusterViews(fleet);
  const folders = await readClusterFolders(fleet);
  const appliedAt = new Map([...views].map(([name, v]) => [name, v.applied?.renderedCommit ?? null]));
  const commits: ChangeEntry[] = [];
  let cursor: string | undefined = fleet.rendered.commit.oid;
  // Clusters seen applying a commit newer than (or equal to) the one being read: walking back, once a cluster's
  // applied commit is passed, every older commit is applied there too.
  const reached = new Set<string>();
  while (cursor && commits.length < limit) {
    const oid: string = cursor;
    let read = cache.get(oid);
    if (!read) {
      read = await readCommitChanges(fleet.repo, await readCommitInfo(fleet.repo, oid), limits);
      cache.set(oid, read);
    }
    for (const [name, at] of appliedAt) if (at === oid) reached.add(name);
    commits.push({
      ...read.entry,
      applied: Object.fromEntries(Object.keys(read.entry.clusters).map((name) => [name, reached.has(name)])),
    });
    cursor = read.parent;
  }
  const notUpToDate = [...views]
    .filter(([name, v]) => (folders.get(name) ?? null) !== (v.applied ? v.applied.folderTree : null))
    .map(([name, v]) => ({ cluster: name, appliedRenderedCommit: v.applied?.renderedCommit ?? null }));
  return { heads, commits, notUpToDate, more: cursor !== undefined };
}

async function readCommitChanges(repo: GitRepo, c: CommitInfo, limits: SourceLimits): Promise<CommitChanges> {
  const parent = c.parents[0] ? await readCommitInfo(repo, c.parents[0]) : undefined;
  const before = parent ? await folderTree(repo, parent.tree, ['clusters']) : null;
  const firstRender = before === null;
  const entry = async (clusters: ChangeEntry['clusters']) => ({
    entry: { renderedCommit: c.oid, ...(await describeSource(repo, c)), clusters },
    ...(c.parents[0] ? { parent: c.parents[0] } : {}),
  });
  let changes: TreeChange[];
  try {
    changes = await diffTrees(repo, parent?.tree ?? null, c.tree, {
      maxEntries: firstRender ? FIRST_RENDER_WALK : sourceTreeEntries(limits),
    });
  } catch (err) {
    if (!(err instanceof TreeTooLargeError)) throw err;
    return entry(await changedClusterFolders(repo, before, c.tree, firstRender ? 'first-render' : 'too-many'));
  }
  const clusters: ChangeEntry['clusters'] = {};
  for (const ch of changes) {
    const m = /^clusters\/([^/]+)\/(.+)$/.exec(ch.path);
    if (!m) continue;
    const per = (clusters[m[1]!] ??= {
      added: [],
      changed: [],
      removed: [],
      counts: { added: 0, changed: 0, removed: 0 },
    });
    const kind = ch.oldOid === undefined ? 'added' : ch.newOid === undefined ? 'removed' : 'changed';
    if (per.counts[kind]++ < MAX_LISTED) per[kind].push(m[2]!);
  }
  return entry(clusters);
}

/** The clusters whose folder differs between two `clusters/` trees, each without its files (told by the folders' ids). */
async function changedClusterFolders(
  repo: GitRepo,
  before: string | null,
  tree: string,
  why: NonNullable<ClusterChange['notCounted']>,
): Promise<ChangeEntry['clusters']> {
  const after = await folderTree(repo, tree, ['clusters']);
  const folders = async (oid: string | null) =>
    new Map(oid ? (await readTree(repo, oid)).filter((e) => isTreeMode(e.mode)).map((e) => [e.name, e.oid]) : []);
  const [old, now] = [await folders(before), await folders(after)];
  const out: ChangeEntry['clusters'] = {};
  for (const name of [...new Set([...old.keys(), ...now.keys()])].sort())
    if (old.get(name) !== now.get(name))
      out[name] = {
        added: [],
        changed: [],
        removed: [],
        counts: { added: 0, changed: 0, removed: 0 },
        notCounted: why,
      };
  return out;
}

/** Author, date, subject and pull request of the source commit behind a rendered one (its own when foreign or gone). */
async function describeSource(
  repo: GitRepo,
  rendered: CommitInfo,
): Promise<Omit<ChangeEntry, 'renderedCommit' | 'clusters' | 'applied'>> {
  const sourceCommit = parseTrailers(rendered.message)['Source-Commit'];
  const source = sourceCommit ? await readCommitInfo(repo, sourceCommit).catch(() => undefined) : undefined;
  const c = source ?? rendered;
  const pullRequest = source ? parsePullRequestNumber(source.message, source.parents.length > 1) : undefined;
  const again = renderedAgainFor(rendered.message, sourceCommit);
  return {
    ...(sourceCommit ? { sourceCommit } : {}),
    ...(again !== undefined ? { renderedAgainFor: again.slice(0, 300) } : {}),
    author: c.author.name,
    email: c.author.email,
    date: formatGitDate(c.author.timestamp, c.author.timezoneOffset),
    subject: (c.message.split('\n')[0] ?? '').slice(0, 300),
    ...(pullRequest !== undefined ? { pullRequest } : {}),
  };
}

/**
 * GET /ui/api/diff?commit=&cluster=: what one rendered commit changed in one cluster's folder, as `git show` would.
 * Any commit can be asked for, a source commit too, whose tree a pull request makes: only the cluster's folder is
 * compared, within clusterDiffWalk(limits) (TreeTooLargeError past it, clusterDiffTooLarge says it).
 */
export async function readClusterDiff(
  repo: GitRepo,
  commit: string,
  cluster: string,
  limits: SourceLimits = DEFAULT_SOURCE_LIMITS,
): Promise<string> {
  const walk = clusterDiffWalk(limits);
  const c = await readCommitInfo(repo, commit);
  const parent = c.parents[0] ? await readCommitInfo(repo, c.parents[0]) : undefined;
  const prefix = `clusters/${cluster}/`;
  const before = parent ? await folderTree(repo, parent.tree, ['clusters', cluster]) : null;
  const after = await folderTree(repo, c.tree, ['clusters', cluster]);
  const inFolder = after
    ? await diffTrees(repo, before, after, walk)
    : before
      ? [...(await listTreeFiles(repo, before, walk))].map(
          ([path, f]): TreeChange => ({ path, oldOid: f.oid, oldMode: f.mode }),
        )
      : [];
  const changes = inFolder.map((ch) => ({ ...ch, path: prefix + ch.path }));
  const oids = changes.flatMap((ch) => [ch.oldOid, ch.newOid]).filter((o): o is string => o !== undefined);
  const blobs = await readBlobs(repo, oids);
  const text = (path: string, oid: string | undefined) => {
    if (oid === undefined) return null;
    const raw = new TextDecoder().decode(blobs.get(oid)!);
    // A Secret's values never leave the branch: its keys and sizes show, as flotilla get and describe show them.
    if (/\/secret_[^/]+\.yaml$/.test(path)) return yaml(redactSecret(parseYamlValue(raw)));
    // Any commit can be asked for, a source commit too, where a Secret sits in a file of any name.
    return withoutSecretValues(raw);
  };
  return changes
    .map((ch) => renderUnifiedDiff(text(ch.path, ch.oldOid), text(ch.path, ch.newOid), { path: ch.path }))
    .join('');
}

/**
 * The entries one cluster diff may walk: the render's bound on a source tree (with the operator's --max-source-files),
 * by default some twenty times the files of a cluster's folder in a fleet of 50,000 templates.
 */
export function clusterDiffWalk(limits: SourceLimits): { maxEntries: number } {
  return { maxEntries: sourceTreeEntries(limits) };
}

/** Why a cluster's diff is not shown (pure): the commit, the bound, and how to see the change without the dashboard. */
export function clusterDiffTooLarge(commit: string, cluster: string, err: TreeTooLargeError): string {
  const { kind, entries, limit, path } = err.data;
  const where = `clusters/${cluster}/`;
  const see = `; to see it: git show --stat ${commit.slice(0, 12)} -- ${where}, and git revert it if it is not meant`;
  return kind === 'path'
    ? `commit ${commit.slice(0, 12)} names a path of ${entries} bytes or more under ${where}, over the ${limit} a checkout can write ('${where}${path}'): the dashboard shows no diff of it${see}`
    : `commit ${commit.slice(0, 12)} changes over ${limit} files and folders under ${where}, each folder counted as often as a tree names it (${entries} at '${where}${path}'): the dashboard diffs at most ${limit}${see}`;
}

/** The tree at `names` below `tree`, or null when there is no folder there. */
async function folderTree(repo: GitRepo, tree: string, names: readonly string[]): Promise<string | null> {
  let oid = tree;
  for (const name of names) {
    const entry = (await readTree(repo, oid)).find((e) => e.name === name);
    if (!entry || !isTreeMode(entry.mode)) return null;
    oid = entry.oid;
  }
  return oid;
}

/**
 * A file's text as the diff may show it (pure): unchanged unless one of its documents is a Secret, then each document
 * as `get -o yaml` prints it with the Secret's values replaced by their sizes; a file naming a Secret that does not
 * parse is not shown at all.
 */
export function withoutSecretValues(raw: string): string {
  if (!raw.includes('Secret')) return raw;
  const docs = parseAllDocuments(raw);
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0))
    return '# not shown: the file names a Secret and does not parse as YAML\n';
  let values: unknown[];
  try {
    values = docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
  } catch {
    return '# not shown: the file names a Secret and does not parse as YAML\n';
  }
  if (!values.some((v) => redactSecret(v) !== v)) return raw;
  return values.map((v) => yaml(redactSecret(v))).join('---\n');
}
