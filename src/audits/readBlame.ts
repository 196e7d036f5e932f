import { parseYamlValue } from '../yaml/blockYaml.ts';
import type { ObjectRef } from '../api/kinds.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import { readTree } from '../commits/readTree.ts';
import { isTreeMode, type CommitInfo, type GitRepo } from '../commits/types.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import type { AggregatedStatusItem } from '../branches/status/statusFiles.ts';
import {
  appliedPath,
  templateStatusPath,
  type AppliedRecord,
  type TemplateStatusFile,
} from '../branches/status/statusFiles.ts';
import { withoutSecretStatus } from '../statuses/withoutSecretStatus.ts';
import { manifestPath } from '../branches/rendered/outputPaths.ts';
import { describeUnregistered } from '../branches/rendered/registeredClusters.ts';
import { readRegisteredClusters } from '../outputs/readRegisteredClusters.ts';
import { formatGitDate } from './formatGitDate.ts';
import { parsePullRequestNumber } from './parsePullRequestNumber.ts';
import { SOURCE_COMMIT_ANNOTATION } from '../works/renderTemplates.ts';

export interface BlameQuery {
  cluster: string;
  /** apiVersion matters only through its group: it picks the file name. */
  ref: ObjectRef;
  renderedRef: string;
  statusRef: string;
}

export interface BlameSource {
  sha: string;
  author: string;
  email: string;
  date: string;
  subject: string;
  pullRequest?: number;
  /** The commit is gone from the repository (force-push and gc): only the sha is known. */
  missing?: true;
}

export interface Blame {
  cluster: string;
  object: ObjectRef;
  path: string;
  /** The rendered commit the cluster last applied (status branch, applied/<cluster>.yaml). */
  appliedRenderedCommit: string;
  /** Head of the rendered branch now. */
  renderedHead: string;
  /** The cluster's folder at the head is the one it applied: nothing newer is waiting for it. */
  upToDate: boolean;
  /** The source commit behind what runs there now. */
  source: BlameSource;
  /** When not up to date and the head renders this object differently: the source commit waiting to be applied. */
  pending?: BlameSource | { removed: true };
  /** The cluster's entry in the template's status: applied, health, message. */
  status?: AggregatedStatusItem;
}

export type BlameError = { code: 'NO_APPLY_RECORD' | 'NOT_ON_CLUSTER' | 'NO_OUTPUT_BRANCH'; message: string };

/**
 * Which source commit produced what runs on a cluster now: the status branch says which rendered commit the
 * cluster applied; that commit's manifest names its source commit (flotilla.io/source-commit); the source
 * commit gives author, date, subject and pull request. Says whether a newer render is still waiting.
 */
export async function readBlame(repo: GitRepo, q: BlameQuery): Promise<Blame | BlameError> {
  const renderedHead = await readRef(repo, q.renderedRef);
  if (!renderedHead)
    return {
      code: 'NO_OUTPUT_BRANCH',
      message: `${short(q.renderedRef)} does not exist: nothing was rendered; fix: run flotilla sync`,
    };
  const record = await readAppliedRecord(repo, q.statusRef, q.cluster);
  if (!record) {
    // A name the rendered head does not register is most likely a typo: say so, with the registered names.
    const registered = await readRegisteredClusters(repo, renderedHead);
    const unregistered = registered ? describeUnregistered(q.cluster, registered) : undefined;
    return {
      code: 'NO_APPLY_RECORD',
      message: unregistered
        ? `${unregistered}; fix: pass --cluster with a registered name`
        : `${short(q.statusRef)} has no record of what ${q.cluster} applied: the applier has not reported on it yet (is ${q.cluster} reachable?)`,
    };
  }
  const path = manifestPath(q.cluster, q.ref);
  const [applied, head] = await Promise.all([
    readCommitInfo(repo, record.renderedCommit),
    readCommitInfo(repo, renderedHead),
  ]);
  const [appliedText, headText, headFolder] = await Promise.all([
    readFileAt(repo, applied.tree, path),
    readFileAt(repo, head.tree, path),
    treeOidAt(repo, head.tree, `clusters/${q.cluster}`),
  ]);
  const upToDate =
    renderedHead === record.renderedCommit || (record.folderTree !== undefined && headFolder === record.folderTree);
  if (appliedText === null) {
    const waiting =
      !upToDate && headText !== null
        ? ` ${short(q.renderedRef)} has it since, but ${q.cluster} has not applied that render yet.`
        : '';
    return {
      code: 'NOT_ON_CLUSTER',
      message: `${q.ref.kind} ${q.ref.namespace ? `${q.ref.namespace}/` : ''}${q.ref.name} was not in what ${q.cluster} last applied (rendered commit ${record.renderedCommit.slice(0, 12)}, file ${path}).${waiting}`,
    };
  }
  const source = await describeSource(repo, sourceOf(appliedText));
  let pending: Blame['pending'];
  if (!upToDate && headText !== appliedText)
    pending = headText === null ? { removed: true } : await describeSource(repo, sourceOf(headText));
  const status = await readStatusEntry(repo, q.statusRef, q.ref, q.cluster);
  return {
    cluster: q.cluster,
    object: q.ref,
    path,
    appliedRenderedCommit: record.renderedCommit,
    renderedHead,
    upToDate,
    source,
    ...(pending ? { pending } : {}),
    ...(status ? { status } : {}),
  };
}

/** applied/<cluster>.yaml, or for status branches written before it existed, the newest status commit naming the cluster. */
async function readAppliedRecord(
  repo: GitRepo,
  statusRef: string,
  cluster: string,
): Promise<(Pick<AppliedRecord, 'renderedCommit'> & { folderTree?: string | null }) | null> {
  const head = await readRef(repo, statusRef);
  if (!head) return null;
  const info = await readCommitInfo(repo, head);
  const text = await readFileAt(repo, info.tree, appliedPath(cluster));
  if (text !== null) return parseYamlValue(text) as AppliedRecord;
  let cursor: string | undefined = head;
  for (let i = 0; cursor && i < 1000; i++) {
    const c: CommitInfo = await readCommitInfo(repo, cursor);
    const rendered = parseTrailers(c.message)['Rendered-Commit'];
    if (
      rendered &&
      c.message
        .split('\n')
        .some(
          (l) => l.startsWith(`${cluster}: `) && /\d+ (created|configured|unchanged|pruned|failed|conflict)/.test(l),
        )
    )
      return { renderedCommit: rendered };
    cursor = c.parents[0];
  }
  return null;
}

async function readStatusEntry(
  repo: GitRepo,
  statusRef: string,
  ref: ObjectRef,
  cluster: string,
): Promise<AggregatedStatusItem | undefined> {
  const head = await readRef(repo, statusRef);
  if (!head) return undefined;
  const text = await readFileAt(repo, (await readCommitInfo(repo, head)).tree, templateStatusPath(ref));
  return text === null
    ? undefined
    : withoutSecretStatus(parseYamlValue(text) as TemplateStatusFile).aggregatedStatus.find(
        (a) => a.clusterName === cluster,
      );
}

function sourceOf(manifestText: string): string | undefined {
  const m = parseYamlValue(manifestText) as { metadata?: { annotations?: Record<string, string> } } | null;
  return m?.metadata?.annotations?.[SOURCE_COMMIT_ANNOTATION];
}

async function describeSource(repo: GitRepo, sha: string | undefined): Promise<BlameSource> {
  if (!sha)
    return {
      sha: '',
      author: '',
      email: '',
      date: '',
      subject: '(the manifest names no source commit: not rendered by Flotilla)',
      missing: true,
    };
  const c = await readCommitInfo(repo, sha).catch(() => undefined);
  if (!c)
    return {
      sha,
      author: '',
      email: '',
      date: '',
      subject: '(source commit no longer in the repository)',
      missing: true,
    };
  const pr = parsePullRequestNumber(c.message, c.parents.length > 1);
  return {
    sha,
    author: c.author.name,
    email: c.author.email,
    date: formatGitDate(c.author.timestamp, c.author.timezoneOffset),
    subject: c.message.split('\n')[0] ?? '',
    ...(pr !== undefined ? { pullRequest: pr } : {}),
  };
}

async function treeOidAt(repo: GitRepo, tree: string, path: string): Promise<string | null> {
  let oid = tree;
  for (const part of path.split('/')) {
    const e = (await readTree(repo, oid)).find((x) => x.name === part);
    if (!e || !isTreeMode(e.mode)) return null;
    oid = e.oid;
  }
  return oid;
}

async function readFileAt(repo: GitRepo, tree: string, path: string): Promise<string | null> {
  return (await readTextFiles(repo, tree, [path])).get(path) ?? null;
}

function short(ref: string): string {
  return ref.replace('refs/heads/', '');
}
