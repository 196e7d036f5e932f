import type { TargetCluster } from '../api/binding.ts';
import type { Cluster } from '../api/cluster.ts';
import { describeRef } from '../api/kinds.ts';
import type { CommitInfo } from '../commits/types.ts';
import type { Located } from '../api/model.ts';
import { formatProblem, type Problem } from '../errors/problem.ts';
import { taintToString } from '../assignments/plugins/taintToleration.ts';
import type { FailoverEvent } from '../works/renderTemplates.ts';
import { commitMessageSafe } from './commitMessageSafe.ts';
import { RENDERED_FORMAT_VERSION } from '../branches/rendered/branch.ts';
import { FORMAT_TRAILER } from '../branches/formatVersion.ts';
import {
  APPLICATION_FAILOVER_TRAILER,
  AUTOSCALED_TRAILER,
  CLUSTER_STATE_TRAILER,
  CLUSTER_STATUS_TRAILER,
  EVICTION_CHECK_TRAILER,
  FAILOVER_CHECK_TRAILER,
  RENDER_LIMITS_TRAILER,
  GRACEFUL_EVICTIONS_TRAILER,
  RENDER_TOOLS_TRAILER,
  renderLimitsTrailer,
  type RecordedLimits,
} from '../branches/rendered/trailers.ts';

/** What a commit says about cluster state: its failover decisions, and the trailers the next sync compares. */
export interface FailoverContext {
  /** The same source rendered again because the cluster state changed. */
  rerender: boolean;
  failover: readonly FailoverEvent[];
  /** Effective clusters (status and taints joined): who is NotReady since when, and why. */
  clusters: ReadonlyMap<string, Located<Cluster>>;
  /**
   * Cluster-State (managed taints key), Failover-Check (next toleration expiry), Graceful-Evictions (bindings with
   * tasks) and Eviction-Check (the earliest grace end of their tasks); inputs: Cluster-Status (the status commit read,
   * 'none' or 'file') and Render-Time, when they mattered.
   */
  state: {
    key: string;
    check: string | undefined;
    evictions: number;
    evictionCheck?: string;
    inputs?: { clusterStatus: string; renderTime?: string };
    pending?: number;
    /** Application-Failover: how many templates' health the reconciler watches for failover.application. */
    applicationFailover?: number;
    /** Autoscaled-Replicas: the FederatedHPA decisions used ('' or absent: none). */
    autoscaled?: string;
  };
  /** Autoscaler decisions that changed since the last render (describeAutoscaleMoves), one line each. */
  autoscaleMoves?: readonly string[];
  /** The managed taints moved, or a NoExecute toleration ran out, since the last render: the subject says so first. */
  stateMoved?: boolean;
  /** Pending bindings this render scheduled again because the cluster state may let them fit now, each with why. */
  retried?: readonly string[];
}

/** Paths a cluster's change keeps per list: what a commit message prints. A cold render of a large fleet writes millions. */
export const LISTED_PATHS = 20;

/** What a render changed on one cluster: how many files were added, changed and removed, and the first of each. */
export interface ClusterChange {
  counts: { added: number; changed: number; removed: number };
  /** The first LISTED_PATHS paths of each, in the order the render wrote them. */
  added: string[];
  changed: string[];
  removed: string[];
}

export type ClusterChanges = Record<string, ClusterChange>;

/** Problems listed in full in a commit message before the rest is counted: messages stay readable. */
const MAX_PROBLEMS_IN_MESSAGE = 50;

/**
 * The output commit message: what changed on which cluster, the problems of the source commit, and
 * trailers naming the source (the audit trail from any rendered file back to the commit it came from).
 */
export function buildOutputMessage(
  source: CommitInfo,
  changes: ClusterChanges,
  problems: readonly Problem[],
  context?: FailoverContext,
  render: {
    /** Templates a WorkloadRebalancer rescheduled in fresh mode. */
    rescheduled?: readonly string[];
    /** The Helm and Kustomize versions that rendered the units (Render-Tools). */
    tools?: string | undefined;
    /** The per-commit limits the render was given (Render-Limits). */
    limits?: RecordedLimits | undefined;
  } = {},
): string {
  const { rescheduled = [], tools, limits } = render;
  const subject = source.message.split('\n')[0] ?? '';
  const clusters = Object.keys(changes).sort();
  const decisions = context ? context.failover.map((e) => describeFailover(e, context.clusters)) : [];
  const retried = context?.retried ?? [];
  const moves = context?.autoscaleMoves ?? [];
  const lines = context?.rerender
    ? [
        (decisions.length > 0
          ? `${decisions[0]}${decisions.length > 1 ? ` (+${decisions.length - 1} more)` : ''}`
          : moves.length > 0
            ? `Autoscaled ${moves[0]}${moves.length > 1 ? ` (+${moves.length - 1} more)` : ''}`
            : retried.length > 0 && !context.stateMoved
              ? `Retried ${retried[0]}${retried.length > 1 ? ` (+${retried.length - 1} more)` : ''}`
              : `Cluster state: ${describeTainted(context.clusters)}`
        ).slice(0, 200),
        '',
      ]
    : [`Render ${source.oid.slice(0, 12)}: ${subject}`.slice(0, 200), ''];
  if (decisions.length > 0) lines.push(...decisions, '');
  if (retried.length > 0)
    lines.push(
      'Pending bindings scheduled again (the cluster state may let them fit now):',
      ...retried.map((r) => `  ${r}`),
      '',
    );
  if (moves.length > 0)
    lines.push('Autoscaler decisions (flotilla/status) since the last render:', ...moves.map((m) => `  ${m}`), '');
  if (context?.rerender)
    lines.push(
      moves.length > 0 && decisions.length === 0 && retried.length === 0
        ? `Rendered again from ${source.oid.slice(0, 12)} (${subject.slice(0, 80)}) for these decisions; cluster state: ${describeTainted(context.clusters)}.`
        : `Rendered again from ${source.oid.slice(0, 12)} (${subject.slice(0, 80)}) for a change of cluster state: ${describeTainted(context.clusters)}.`,
      '',
    );
  if (clusters.length === 0) lines.push('No change on any cluster.');
  for (const c of clusters) {
    const { counts, added, changed, removed } = changes[c]!;
    const parts = [
      counts.added ? `${counts.added} added` : '',
      counts.changed ? `${counts.changed} changed` : '',
      counts.removed ? `${counts.removed} removed` : '',
    ].filter(Boolean);
    lines.push(`${c}: ${parts.join(', ')}`);
    for (const [mark, list, count] of [
      ['+', added, counts.added],
      ['~', changed, counts.changed],
      ['-', removed, counts.removed],
    ] as const) {
      for (const path of list.slice(0, LISTED_PATHS)) lines.push(`  ${mark} ${path.slice(`clusters/${c}/`.length)}`);
      if (count > LISTED_PATHS) lines.push(`  ${mark} … and ${count - LISTED_PATHS} more`);
    }
  }
  if (rescheduled.length > 0) {
    lines.push('', 'Rescheduled in fresh mode (WorkloadRebalancer), once:');
    for (const r of rescheduled) lines.push(`  ${r}`);
  }
  const errors = problems.filter((p) => p.severity === 'error');
  if (problems.length > 0) {
    lines.push(
      '',
      `Problems (${errors.length} errors, ${problems.length - errors.length} warnings); objects with errors keep their last good output:`,
    );
    // A problem is two lines, whatever its file name or message quote (a file name may hold a line break).
    for (const p of problems.slice(0, MAX_PROBLEMS_IN_MESSAGE))
      lines.push(
        ...formatProblem({
          ...p,
          file: commitMessageSafe(p.file),
          message: commitMessageSafe(p.message),
          fix: commitMessageSafe(p.fix),
        })
          .split('\n')
          .map((l) => `  ${l}`),
      );
    if (problems.length > MAX_PROBLEMS_IN_MESSAGE)
      lines.push(`  … and ${problems.length - MAX_PROBLEMS_IN_MESSAGE} more (flotilla validate lists them all)`);
  }
  lines.push('');
  if (context?.state.key) lines.push(`${CLUSTER_STATE_TRAILER}: ${context.state.key}`);
  if (context?.state.check) lines.push(`${FAILOVER_CHECK_TRAILER}: ${context.state.check}`);
  if (context?.state.evictions) lines.push(`${GRACEFUL_EVICTIONS_TRAILER}: ${context.state.evictions}`);
  if (context?.state.evictionCheck) lines.push(`${EVICTION_CHECK_TRAILER}: ${context.state.evictionCheck}`);
  if (context?.state.pending) lines.push(`Pending-Bindings: ${context.state.pending}`);
  if (context?.state.applicationFailover)
    lines.push(`${APPLICATION_FAILOVER_TRAILER}: ${context.state.applicationFailover}`);
  if (context?.state.autoscaled) lines.push(`${AUTOSCALED_TRAILER}: ${context.state.autoscaled}`);
  if (context?.state.inputs) lines.push(`${CLUSTER_STATUS_TRAILER}: ${context.state.inputs.clusterStatus}`);
  if (context?.state.inputs?.renderTime) lines.push(`Render-Time: ${context.state.inputs.renderTime}`);
  if (tools) lines.push(`${RENDER_TOOLS_TRAILER}: ${tools}`);
  const limitsLine = renderLimitsTrailer(limits);
  if (limitsLine) lines.push(`${RENDER_LIMITS_TRAILER}: ${limitsLine}`);
  lines.push(
    `Source-Commit: ${source.oid}`,
    `Source-Author: ${source.author.name} <${source.author.email}>`,
    `${FORMAT_TRAILER}: ${RENDERED_FORMAT_VERSION}`,
  );
  // Each entry is meant as one line; what it quotes from Git may hold a newline (a file name can) or escapes.
  return `${lines.map(commitMessageSafe).join('\n')}\n`;
}

/**
 * One failover decision as a line that says which cluster, since when, and why, e.g.
 * "failover: member2 NotReady since 2026-11-29T15:04:05Z (ClusterNotReachable), taint cluster.karmada.io/not-ready:NoExecute
 * not tolerated: Deployment default/nginx 1 replica member2→member1", or for an application failover "failover:
 * Deployment default/nginx Unhealthy on member2 since …, longer than failover.application tolerates (30s): …".
 */
export function describeFailover(e: FailoverEvent, clusters: ReadonlyMap<string, Located<Cluster>>): string {
  if (e.type === 'released') {
    const why = {
      replacementsHealthy: `replacements healthy on ${e.result.map((c) => c.name).join(', ')}`,
      gracePeriodEnded: 'grace period ended',
      confirmed: 'deletion confirmed',
    }[e.why];
    return e.placedAgain
      ? `failover: ${e.cluster}'s eviction of ${describeRef(e.ref)} ended: ${why}; placed there again`
      : `failover: ${e.cluster}'s copy of ${describeRef(e.ref)} removed: ${why}`;
  }
  const purge =
    e.purgeMode === 'Directly'
      ? ' (purge Directly)'
      : e.purgeMode === 'Never'
        ? ' (purge Never: kept until confirmed)'
        : '';
  if (e.type === 'failed-over')
    return `failover: ${describeRef(e.ref)} Unhealthy on ${e.cluster} since ${e.unhealthySince}, longer than failover.application tolerates (${e.tolerationSeconds}s): ${describeMove(e.cluster, e.replicas, e.result)}${purge}`;
  const ready = clusters.get(e.cluster)?.object.status?.conditions?.find((c) => c.type === 'Ready');
  const state =
    ready && ready.status !== 'True'
      ? `${ready.status === 'False' ? 'NotReady' : 'Ready=Unknown'}${ready.lastTransitionTime ? ` since ${ready.lastTransitionTime}` : ''}${ready.reason ? ` (${ready.reason})` : ''}`
      : `tainted${e.taint.timeAdded ? ` since ${e.taint.timeAdded}` : ''}`;
  const taint =
    e.why === 'untolerated'
      ? `taint ${taintToString(e.taint)} not tolerated`
      : `taint ${taintToString(e.taint)} tolerated for ${e.tolerationSeconds}s${e.taint.timeAdded ? ` from ${e.taint.timeAdded}` : ''}, expired`;
  return `failover: ${e.cluster} ${state}, ${taint}: ${describeRef(e.ref)} ${describeMove(e.cluster, e.replicas, e.result)}${purge}`;
}

function describeMove(from: string, replicas: number, result: readonly TargetCluster[]): string {
  const to = result.map((c) => c.name).join(',') || 'no cluster (none fits)';
  return replicas > 0 ? `${replicas} replica${replicas === 1 ? '' : 's'} ${from}→${to}` : `${from}→${to}`;
}

function describeTainted(clusters: ReadonlyMap<string, Located<Cluster>>): string {
  const parts: string[] = [];
  for (const [name, c] of [...clusters].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ready = c.object.status?.conditions?.find((x) => x.type === 'Ready');
    const taints = (c.object.spec.taints ?? []).map(taintToString);
    if (ready && ready.status !== 'True')
      parts.push(
        `${name} Ready=${ready.status}${ready.lastTransitionTime ? ` since ${ready.lastTransitionTime}` : ''}${ready.reason ? ` (${ready.reason})` : ''}${taints.length ? `, taints ${taints.join(' ')}` : ''}`,
      );
    else if (taints.length) parts.push(`${name} taints ${taints.join(' ')}`);
  }
  return parts.join('; ') || 'every cluster Ready and untainted';
}
