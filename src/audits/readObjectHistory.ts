import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { findTreeEntries } from '../commits/parseTree.ts';
import { readTree, readTreeBytes } from '../commits/readTree.ts';
import { isBlobMode, isTreeMode, type CommitInfo, type GitRepo, type TreeEntry } from '../commits/types.ts';
import { parseTrailers, renderedAgainFor } from '../branches/rendered/trailers.ts';
import { CLUSTER_SCOPED_FOLDER, clusterOfPath } from '../branches/rendered/outputPaths.ts';
import { formatGitDate } from './formatGitDate.ts';
import { parsePullRequestNumber } from './parsePullRequestNumber.ts';

export interface HistoryQuery {
  /** As typed: `deployment`, `deployments`, `Deployment`. */
  kind: string;
  name: string;
  /** Undefined: `default` for namespaced objects, and cluster-scoped ones. */
  namespace?: string;
  /** Only this cluster's manifest; bindings are left out then. */
  cluster?: string;
  /** Output commits walked at most, newest first. Default 10,000. */
  maxCommits?: number;
}

export interface HistoryChange {
  /** null for the binding (the scheduling result), which belongs to no one cluster. */
  cluster: string | null;
  change: 'added' | 'modified' | 'removed';
  path: string;
}

export interface HistoryEntry {
  outputCommit: string;
  /** The source commit that was rendered; undefined when the output commit has no Source-Commit trailer. */
  sourceCommit?: string;
  /** The output commit was not written by Flotilla: author, date and subject are its own. */
  foreign: boolean;
  author: string;
  email: string;
  date: string;
  subject: string;
  /** The output commit rendered the same source commit again, and why (its own subject, e.g. an autoscaler decision). */
  renderedAgainFor?: string;
  pullRequest?: number;
  changes: HistoryChange[];
}

/**
 * Who changed an object, per cluster: walks the output branch newest first and, wherever an output commit
 * changed the object's manifest on some cluster (blob oids of `clusters/<c>/…` differ from the parent) or
 * its binding, names the source commit behind it. Unchanged subtrees are recognised by oid and not read.
 */
export async function readObjectHistory(
  repo: GitRepo,
  outputRef: string,
  query: HistoryQuery,
): Promise<HistoryEntry[]> {
  const head = await readRef(repo, outputRef);
  if (!head)
    throw Object.assign(
      new Error(
        `output branch ${outputRef.replace('refs/heads/', '')} does not exist: run flotilla render or sync first`,
      ),
      { code: 'NO_OUTPUT_BRANCH' },
    );
  const trees = new Map<string, Promise<TreeEntry[]>>();
  const entries = (oid: string) => {
    let p = trees.get(oid);
    if (!p) trees.set(oid, (p = readTree(repo, oid)));
    return p;
  };
  const match = fileMatcher(query);
  const folders =
    query.namespace !== undefined ? [query.namespace || CLUSTER_SCOPED_FOLDER] : ['default', CLUSTER_SCOPED_FOLDER];
  // A cluster's folder lists every namespace it holds (thousands in a large fleet): only the object's are looked for,
  // once per folder version.
  const wanted = new Set(folders);
  const inFolders = new Map<string, Map<string, TreeEntry>>();
  const namespaceFolders = (oid: string) => {
    let found = inFolders.get(oid);
    if (!found) inFolders.set(oid, (found = findTreeEntries(readTreeBytes(repo, oid), wanted).entries));
    return found;
  };

  const snapshot = async (tree: string): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    const root = await entries(tree);
    const scan = async (dir: TreeEntry | undefined, prefix: string, test: (name: string) => boolean) => {
      if (!dir || !isTreeMode(dir.mode)) return;
      for (const e of await entries(dir.oid))
        if (isBlobMode(e.mode) && test(e.name)) out.set(`${prefix}/${e.name}`, e.oid);
    };
    const clusters = root.find((e) => e.name === 'clusters' && isTreeMode(e.mode));
    for (const c of clusters ? await entries(clusters.oid) : []) {
      if (!isTreeMode(c.mode) || (query.cluster !== undefined && c.name !== query.cluster)) continue;
      const inside = namespaceFolders(c.oid);
      for (const f of folders) await scan(inside.get(f), `clusters/${c.name}/${f}`, match.manifest);
    }
    const bindings = root.find((e) => e.name === 'bindings' && isTreeMode(e.mode));
    if (bindings && query.cluster === undefined) {
      const inside = await entries(bindings.oid);
      for (const f of folders)
        await scan(
          inside.find((e) => e.name === f),
          `bindings/${f}`,
          match.binding,
        );
    }
    return out;
  };

  const history: HistoryEntry[] = [];
  let cursor: string | undefined = head;
  let current: { commit: CommitInfo; files: Map<string, string> } | undefined;
  for (let i = 0; cursor && i < (query.maxCommits ?? 10_000); i++) {
    const commit = await readCommitInfo(repo, cursor);
    const files = await snapshot(commit.tree);
    if (current) await record(repo, current.commit, current.files, files, history);
    current = { commit, files };
    cursor = commit.parents[0];
  }
  if (current && !cursor) await record(repo, current.commit, current.files, new Map(), history);
  return history;
}

async function record(
  repo: GitRepo,
  commit: CommitInfo,
  now: Map<string, string>,
  before: Map<string, string>,
  out: HistoryEntry[],
): Promise<void> {
  const changes: HistoryChange[] = [];
  for (const path of [...new Set([...now.keys(), ...before.keys()])].sort()) {
    const a = before.get(path);
    const b = now.get(path);
    if (a === b) continue;
    const cluster = clusterOfPath(path) ?? null;
    changes.push({ cluster, change: a === undefined ? 'added' : b === undefined ? 'removed' : 'modified', path });
  }
  if (changes.length === 0) return;
  changes.sort((x, y) => Number(x.cluster === null) - Number(y.cluster === null)); // members first, the binding last
  const trailers = parseTrailers(commit.message);
  const sha = trailers['Source-Commit'];
  let source: CommitInfo | undefined;
  if (sha) source = await readCommitInfo(repo, sha).catch(() => undefined); // gone after a force-push and gc
  const who = source ?? commit;
  const fallbackAuthor = sha && !source ? /^(.*?) <(.*)>$/.exec(trailers['Source-Author'] ?? '') : null;
  const pr = source ? parsePullRequestNumber(source.message, source.parents.length > 1) : undefined;
  const again = renderedAgainFor(commit.message, sha);
  out.push({
    outputCommit: commit.oid,
    ...(sha ? { sourceCommit: sha } : {}),
    foreign: !sha,
    author: fallbackAuthor?.[1] ?? who.author.name,
    email: fallbackAuthor?.[2] ?? who.author.email,
    date: formatGitDate(who.author.timestamp, who.author.timezoneOffset),
    subject: source
      ? (source.message.split('\n')[0] ?? '')
      : sha
        ? '(source commit no longer in the repository)'
        : (commit.message.split('\n')[0] ?? ''),
    ...(again !== undefined ? { renderedAgainFor: again } : {}),
    ...(pr !== undefined ? { pullRequest: pr } : {}),
    changes,
  });
}

/** The lowercase kinds a word typed for a kind may stand for: `deployments` → deployments, deployment. */
export function kindWords(typed: string): string[] {
  const word = typed.toLowerCase();
  return [...new Set([word, word.replace(/es$/, ''), word.replace(/s$/, '')])];
}

/** Output file names for the object: `<kind>[.<group>]_<name>.yaml` and the binding `<name>-<kind>.yaml`. */
function fileMatcher(query: HistoryQuery): { manifest: (file: string) => boolean; binding: (file: string) => boolean } {
  const kinds = kindWords(query.kind);
  const name = query.name.replaceAll(':', '.').toLowerCase();
  return {
    manifest: (file) =>
      kinds.some(
        (k) =>
          file.startsWith(k) &&
          /^(\.[^_]+)?$/.test(file.slice(k.length, file.lastIndexOf('_'))) &&
          file.slice(file.lastIndexOf('_') + 1) === `${query.name}.yaml`,
      ),
    binding: (file) => kinds.some((k) => file === `${name}-${k}.yaml`),
  };
}

/** The subject a history line shows: the source commit's, and for a render of it again the reason first. Pure. */
export function historySubject(h: Pick<HistoryEntry, 'subject' | 'renderedAgainFor'>): string {
  return h.renderedAgainFor === undefined ? h.subject : `${h.renderedAgainFor} (rendered again from: ${h.subject})`;
}
