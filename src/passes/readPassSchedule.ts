import { parseRefKey } from '../api/kinds.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import { readRef } from '../commits/readRef.ts';
import type { CommitInfo, GitRepo } from '../commits/types.ts';
import type { ObservedCluster } from '../api/cluster.ts';
import {
  APPLICATION_FAILOVER_TRAILER,
  FAILOVER_CHECK_TRAILER,
  PENDING_BINDINGS_TRAILER,
} from '../branches/rendered/trailers.ts';
import { readApplicationFailoverDeadlines } from '../outputs/readApplicationFailoverDeadlines.ts';
import { readLastRenderAt } from '../branches/rendered/readLastRender.ts';
import { readRetriableBindings } from '../outputs/readRetriableBindings.ts';
import { readBindingsAt } from '../outputs/previousOutputs.ts';
import { afterGraceEnd, nextTaskDeadline } from '../evictions/gracefulEviction.ts';
import { recordedEvictionCheck } from '../outputs/evictionsThatMayEnd.ts';
import { clusterStateKey } from '../outputs/clusterState.ts';
import { parseTrailers } from '../branches/rendered/trailers.ts';
import { readyFlipTime, type ReadyThresholds } from '../statuses/dampReadyCondition.ts';
import { readStatusBranchClusters } from '../branches/status/readStatusBranch.ts';
import { openOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import { bindingPath } from '../branches/rendered/outputPaths.ts';
import type { PassKind } from './createPassQueue.ts';

/** A moment at which something known today changes by time alone, and the pass that acts on it. */
export interface PassDeadline {
  /** Milliseconds since the epoch. */
  at: number;
  kind: PassKind;
  /** `ready-flip`, `failover-check`, `graceful-eviction`, `application-failover`: the trigger the pass logs and counts. */
  reason: 'ready-flip' | 'failover-check' | 'graceful-eviction' | 'application-failover';
  /** The cluster whose Ready flips. */
  cluster?: string;
}

/** What the reconciler reads from Git after a pass to decide when the next one is due. */
export interface PassSchedule {
  /** The status branch's managed taints, as the output's Cluster-State trailer records them: a change needs a render. */
  clusterStateKey: string;
  /** The rendered head holds graceful eviction tasks: a status change may end one (replacements healthy). */
  gracefulEvictions: boolean;
  deadlines: PassDeadline[];
  /** Pending bindings the status branch may now let fit (refKey → why): a render must try them again. */
  retry: Map<string, string>;
}

export interface PassScheduleOptions {
  outputRef: string;
  statusRef: string;
  /** Only these clusters' Ready flips: the ones this reconciler probes (a Pull agent probes its own). */
  probed: ReadonlySet<string>;
  thresholds?: ReadyThresholds;
  /** --graceful-eviction-timeout, for tasks without their own grace period. */
  gracePeriodSeconds?: number;
  /** The clock, epoch milliseconds (default: now). */
  now?: number;
}

/**
 * Every deadline Git knows of: a pending Ready observation flips at since + threshold (a status pass sees it), a
 * NoExecute toleration runs out at the output's Failover-Check, a graceful eviction task ends at creation + grace, an
 * Unhealthy application outlasts its failover.application tolerationSeconds (these need a render: a full pass).
 */
export async function readPassSchedule(repo: GitRepo, opts: PassScheduleOptions): Promise<PassSchedule> {
  const deadlines: PassDeadline[] = [];
  const { observed, pending } = await readStatusBranchClusters(repo, opts.statusRef);
  for (const [cluster, observation] of pending) {
    if (opts.probed.has(cluster))
      deadlines.push({
        at: readyFlipTime(observation, opts.thresholds),
        kind: 'status',
        reason: 'ready-flip',
        cluster,
      });
  }
  const key = clusterStateKey(observed);
  const head = await readRef(repo, opts.outputRef);
  if (!head) return { clusterStateKey: key, gracefulEvictions: false, deadlines, retry: new Map() };
  const output = await readCommitInfo(repo, head);
  const trailers = parseTrailers(output.message);
  const last = await lastFlotillaRender(repo, output, trailers);
  const retry = await readRetry(repo, last, observed);
  const check = trailers[FAILOVER_CHECK_TRAILER] ? Date.parse(trailers[FAILOVER_CHECK_TRAILER]) : NaN;
  const failing = await readApplicationFailover(repo, last, opts.statusRef);
  if (failing !== undefined) deadlines.push({ at: failing, kind: 'full', reason: 'application-failover' });
  if (Number.isFinite(check)) deadlines.push({ at: check, kind: 'full', reason: 'failover-check' });
  const gracefulEvictions = Boolean(trailers['Graceful-Evictions']);
  if (gracefulEvictions) {
    const end =
      recordedTaskDeadline(last?.trailers ?? {}, opts.now ?? Date.now()) ??
      (await readEvictionEnd(repo, output.tree, opts.gracePeriodSeconds));
    if (end !== undefined && end !== null) deadlines.push({ at: end, kind: 'full', reason: 'graceful-eviction' });
  }
  return { clusterStateKey: key, gracefulEvictions, deadlines, retry };
}

/** The last render Flotilla wrote, the head or below any hand-made commit, with its trailers; undefined when none. */
type LastRender = { commit: CommitInfo; trailers: Record<string, string> } | undefined;

async function lastFlotillaRender(
  repo: GitRepo,
  head: CommitInfo,
  headTrailers: Record<string, string>,
): Promise<LastRender> {
  if (headTrailers['Source-Commit']) return { commit: head, trailers: headTrailers };
  const rendered = (await readLastRenderAt(repo, head.oid)).rendered;
  return rendered ? { commit: rendered, trailers: parseTrailers(rendered.message) } : undefined;
}

/** The pending bindings of the last render that `observed` may let fit. */
async function readRetry(
  repo: GitRepo,
  last: LastRender,
  observed: ReadonlyMap<string, ObservedCluster>,
): Promise<Map<string, string>> {
  if (!last?.trailers[PENDING_BINDINGS_TRAILER]) return new Map();
  return readRetriableBindings(repo, await openOutputIndex(repo, last.commit.tree), last.trailers, observed);
}

/**
 * The earliest moment an application the last render watches for failover will have been Unhealthy for longer than
 * it tolerates, as the status branch shows it now.
 */
async function readApplicationFailover(
  repo: GitRepo,
  last: LastRender,
  statusRef: string,
): Promise<number | undefined> {
  if (!last?.trailers[APPLICATION_FAILOVER_TRAILER]) return undefined;
  const index = await openOutputIndex(repo, last.commit.tree);
  const deadlines = await readApplicationFailoverDeadlines(repo, index, last.trailers, statusRef);
  return deadlines.size > 0 ? Math.min(...deadlines.values()) : undefined;
}

/**
 * The deadline the last render's Eviction-Check gives, when it is still ahead: no task ends by time before it, and the
 * render due then looks at every task and records the next one (null: none ends by time). Undefined once it has come
 * (a render that ended nothing records nothing new) or when there is none: then the bindings say.
 */
function recordedTaskDeadline(trailers: Readonly<Record<string, string>>, now: number): number | null | undefined {
  const check = recordedEvictionCheck(trailers);
  if (check === Number.POSITIVE_INFINITY) return null;
  return check !== undefined && check > now ? afterGraceEnd(check) : undefined;
}

/** The earliest time-only end of a graceful eviction task among the bindings the index lists as evicting. */
async function readEvictionEnd(
  repo: GitRepo,
  tree: string,
  gracePeriodSeconds: number | undefined,
): Promise<number | undefined> {
  const evicting = (await openOutputIndex(repo, tree))?.evictingTemplates() ?? [];
  const bindings = await readBindingsAt(repo, tree, new Map(evicting.map((k) => [bindingPath(parseRefKey(k)), k])));
  const tasks = [...bindings.values()].flatMap((b) => b.spec?.gracefulEvictionTasks ?? []);
  return nextTaskDeadline(tasks, gracePeriodSeconds)?.getTime();
}

/**
 * The deadline to wake up for (pure): the earliest one still ahead of the pass that would cover it. A deadline no
 * later than the start of the last pass of its kind was seen by that pass already; waking for it again would loop
 * (a state only a person can change, such as a held render, keeps its trailer).
 */
export function nextDeadline(
  deadlines: readonly PassDeadline[],
  lastStarted: { full: number; status: number },
): PassDeadline | undefined {
  let next: PassDeadline | undefined;
  for (const d of deadlines) {
    // A full pass probes too, so it covers status deadlines as well.
    const covered = d.kind === 'full' ? lastStarted.full : Math.max(lastStarted.full, lastStarted.status);
    if (d.at <= covered) continue;
    if (!next || d.at < next.at) next = d;
  }
  return next;
}
