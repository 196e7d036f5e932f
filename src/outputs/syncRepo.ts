import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import { renderRevision, type RenderAgain, type RenderReport, type RenderTarget } from './renderRevision.ts';
import { DEFAULT_STATUS_REF } from '../branches/status/branch.ts';
import { readObservedClusters } from '../branches/status/readStatusBranch.ts';
import { clusterStateMoved } from './clusterState.ts';
import { evictionsMayEnd } from './evictionsThatMayEnd.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { readRetriableBindings } from './readRetriableBindings.ts';
import {
  APPLICATION_FAILOVER_TRAILER,
  AUTOSCALED_TRAILER,
  commitTrailers,
  LAST_GOOD_TRAILER,
  PENDING_BINDINGS_TRAILER,
  recordedLimits,
} from '../branches/rendered/trailers.ts';
import { limitsRaised } from './sourceLimits.ts';
import { readAutoscaledReplicas } from '../branches/status/autoscalerDecisions.ts';
import { autoscaledKey } from './autoscaledTemplates.ts';
import { readApplicationFailoverDeadlines } from './readApplicationFailoverDeadlines.ts';

export interface SyncOptions extends RenderTarget {
  sourceRef: string;
  /** Called after each rendered commit: progress for long catch-ups. */
  onRendered?: (report: RenderReport, position: number, total: number) => void;
  /** Upper bound on commits walked back when looking for the last rendered one. Default 10,000. */
  maxCommits?: number;
  /** The render of one commit; tests inject one that fails. Default renderRevision. */
  render?: typeof renderRevision;
}

export interface SyncResult {
  /** Oldest first. */
  reports: RenderReport[];
  /** The last rendered source commit was not an ancestor of the branch: history was rewritten. */
  forcePushed: boolean;
}

/**
 * Renders every source commit not rendered yet, oldest first, each on top of the previous output, so
 * the output history has one commit per source commit. The last rendered commit is found from the
 * Source-Commit trailer of the output branch. After a force-push (that commit is no longer an ancestor)
 * only the new head is rendered: the rewritten commits never existed for the output.
 */
export async function syncRepo(repo: GitRepo, opts: SyncOptions): Promise<SyncResult> {
  const head = await readRef(repo, opts.sourceRef);
  if (!head) {
    throw Object.assign(
      new Error(
        `source branch ${opts.sourceRef} does not exist: nothing to render, and nothing was changed; fix: push a commit to it, or pass --source-branch`,
      ),
      { code: 'SOURCE_BRANCH_MISSING' },
    );
  }
  // Below a hand-made commit on the output branch: the last source Flotilla rendered, not a first render.
  const lastRender = await readLastRender(repo, opts.outputRef);
  const last = lastRender.source;

  const pending: string[] = [];
  let forcePushed = false;
  if (last !== head) {
    let cursor: string | undefined = head;
    const limit = opts.maxCommits ?? 10_000;
    while (cursor && cursor !== last && pending.length < limit) {
      pending.push(cursor);
      cursor = (await readCommitInfo(repo, cursor)).parents[0];
    }
    if (last && cursor !== last) {
      forcePushed = true;
      pending.splice(1); // keep the head only
    } else if (!last) {
      pending.splice(1); // first render: the head alone, not the whole history
    }
  }
  const reports: RenderReport[] = [];
  const order = pending.reverse();
  // One status commit for the whole sync: every render of it reads the same cluster state, and records which.
  const statusCommit = opts.clusterStatus
    ? opts.statusCommit
    : (opts.statusCommit ?? (await readRef(repo, opts.statusRef ?? DEFAULT_STATUS_REF)));
  const target: SyncOptions = {
    ...opts,
    clusterStatus: opts.clusterStatus ?? (statusCommit ? await readObservedClusters(repo, statusCommit) : new Map()),
    ...(statusCommit !== undefined ? { statusCommit } : {}),
  };
  const render = opts.render ?? renderRevision;
  for (const [i, sha] of order.entries()) {
    let report: RenderReport;
    try {
      report = await render(repo, sha, target);
    } catch (err) {
      // A commit that cannot be rendered at all must not stop every later pass: sync renders commits in order, so
      // it would be retried forever, even after the mistake was reverted. A later commit renders on top of the last
      // output instead (its diff covers this one's changes); the newest commit's failure is the pass's failure.
      if (i === order.length - 1 || !skippable(err)) throw err;
      report = failedRender(sha, err);
    }
    reports.push(report);
    opts.onRendered?.(report, i + 1, order.length);
  }
  if (order.length === 0 && last) {
    const again = await renderAgain(repo, lastRender.rendered!, target);
    if (again) {
      const report = await renderRevision(repo, last, target, again);
      if (report.outputCommit) {
        reports.push(report);
        opts.onRendered?.(report, 1, 1);
      }
    }
  }
  return { reports, forcePushed };
}

/** The output commit whose held templates renderAgain last looked up for raised limits, per repository object. */
const lookedAtForLimits = new WeakMap<GitRepo, string>();

/**
 * Whether the last output must be rendered again although the source did not move: the managed taints differ from
 * those it was rendered with, a NoExecute toleration it noted has run out, an autoscaler decided another count, or
 * graceful eviction tasks it holds may end (a template's status moved, a grace period ran out: renderRevision finds
 * what those reach); or it holds pending bindings the cluster state may now let fit, or applications Unhealthy for
 * longer than their failover.application tolerates, or what it held for its size under lower limits than the sync's
 * (those templates only, or a held source whole; no commit when nothing comes out different).
 */
async function renderAgain(repo: GitRepo, info: CommitInfo, target: SyncOptions): Promise<RenderAgain | undefined> {
  const trailers = commitTrailers(info);
  const now = (target.now ?? (() => new Date()))();
  // renderRevision finds what moved outside the source, and what it reaches: the clusters whose state moved, the
  // workloads whose autoscaler decided another count.
  const outside =
    clusterStateMoved(trailers, target.clusterStatus!, now) ||
    autoscaledKey(await readAutoscaledReplicas(repo, target.statusCommit ?? null)) !==
      (trailers[AUTOSCALED_TRAILER] ?? '');
  // Eviction tasks end on their template's status or their grace period: renderRevision finds which may end now.
  const evictions = evictionsMayEnd(trailers, target.statusCommit, now);
  // The operator raised the limits (the fix a COMMIT_TOO_LARGE or a source too large to read names): what the last
  // render held for its size renders again, a held source whole and each template marked held, with nothing pushed.
  // Looked at once per output commit in a process: an output written before Render-Limits, by a leader given more than
  // the defaults, holds nothing for its size most of the time, and reading every index shard each pass costs.
  const raised = limitsRaised(recordedLimits(trailers), target.limits) && lookedAtForLimits.get(repo) !== info.oid;
  if (
    !raised &&
    !trailers[PENDING_BINDINGS_TRAILER] &&
    !(trailers[APPLICATION_FAILOVER_TRAILER] && target.statusCommit)
  )
    return outside || evictions ? new Set() : undefined;
  const index = await openOutputIndex(repo, info.tree);
  const keys = new Set<string>();
  if (raised && index) {
    await index.loadAll();
    for (const [key, entry] of index.templates()) if (entry.held) keys.add(key);
    lookedAtForLimits.set(repo, info.oid);
  }
  for (const key of (await readRetriableBindings(repo, index, trailers, target.clusterStatus!)).keys()) keys.add(key);
  // An application Unhealthy for longer than its failover tolerates: that template renders again, and fails over.
  if (target.statusCommit)
    for (const [key, at] of await readApplicationFailoverDeadlines(repo, index, trailers, target.statusCommit))
      if (at <= now.getTime()) keys.add(key);
  return keys.size > 0 || outside || evictions || (raised && trailers[LAST_GOOD_TRAILER]) ? keys : undefined;
}

/**
 * Errors that belong to the commit, not to the moment: a transient one (a ref moved under us, a file system or
 * network error, which carry a code) fails the pass, to be retried from the same commit.
 */
function skippable(err: unknown): boolean {
  return err instanceof Error && (err as { code?: unknown }).code === undefined;
}

/** The report of a commit skipped because it could not be rendered: no output commit, one located problem. */
function failedRender(sourceCommit: string, err: unknown): RenderReport {
  const message = err instanceof Error ? err.message : String(err);
  return {
    sourceCommit,
    outputCommit: null,
    changes: {},
    explanations: new Map(),
    full: false,
    filesWritten: 0,
    failover: [],
    problems: [
      {
        file: '.',
        line: 1,
        column: 1,
        code: 'RENDER_FAILED',
        severity: 'error',
        message: `source commit ${sourceCommit.slice(0, 12)} could not be rendered and was skipped: ${message.split('\n')[0]}`,
        fix: 'nothing to do for later commits, which rendered on top of the last output; please report this error',
      },
    ],
  };
}
