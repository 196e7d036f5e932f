// The trailers of a commit on the rendered branch: the audit trail from any rendered file back to its source commit,
// and the cluster state the next sync compares. Written by outputs/outputMessage.ts; read by the renderer, the applier,
// the Pull agent, verify and blame. Part of the branch contract (docs/BRANCHES.md).

import { messageTail } from '../../commits/readCommitInfo.ts';
import type { CommitInfo } from '../../commits/types.ts';

/** Trailer of an output commit whose index lists pending bindings: how many. Absent, nothing is read to find them. */
export const PENDING_BINDINGS_TRAILER = 'Pending-Bindings';

/**
 * Trailer of an output commit whose index lists templates with application failover: how many. Absent, no pass reads
 * their health on the status branch.
 */
export const APPLICATION_FAILOVER_TRAILER = 'Application-Failover';

/**
 * Trailer of an output commit rendered with FederatedHPA decisions (status branch autoscalers/): a short hash of every
 * target and its replicas. Another value on the status branch makes the next sync render again.
 */
export const AUTOSCALED_TRAILER = 'Autoscaled-Replicas';

/**
 * Trailer of an output commit whose source holds Helm or Kustomize units: the tools that rendered them
 * (`helm v3.17.2, kustomize v5.5.0`; `helm missing` when none was found). verify replays only with the same ones.
 */
export const RENDER_TOOLS_TRAILER = 'Render-Tools';

/**
 * Trailer of an output commit rendered with the operator's per-commit limits (--max-source-files, --max-output-bytes,
 * those given): `max-source-files=200000, max-output-bytes=68719476736`. A render reads and holds by them, so `verify`
 * replays with them: with the defaults it would hold what the render read.
 */
export const RENDER_LIMITS_TRAILER = 'Render-Limits';

/** The limits a render was given, as the operator's flags name them; each absent one is the default. */
export interface RecordedLimits {
  maxSourceFiles?: number;
  maxOutputBytes?: number;
}

const LIMIT_NAMES = [
  ['maxSourceFiles', 'max-source-files'],
  ['maxOutputBytes', 'max-output-bytes'],
] as const;

/** The Render-Limits value for these limits; undefined when none is given (the render used the defaults). */
export function renderLimitsTrailer(limits: RecordedLimits | undefined): string | undefined {
  const parts = LIMIT_NAMES.flatMap(([field, flag]) =>
    limits?.[field] === undefined ? [] : [`${flag}=${limits[field]}`],
  );
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** The limits a Render-Limits value records; undefined when absent. A part it does not know, or cannot read, is left out. */
export function recordedLimits(trailers: Readonly<Record<string, string | undefined>>): RecordedLimits | undefined {
  const text = trailers[RENDER_LIMITS_TRAILER];
  if (text === undefined) return undefined;
  const out: RecordedLimits = {};
  for (const part of text.split(', ')) {
    const [flag, value] = part.split('=');
    const field = LIMIT_NAMES.find(([, f]) => f === flag)?.[0];
    const n = Number(value);
    if (field && value !== undefined && /^[0-9]+$/.test(value) && Number.isSafeInteger(n) && n >= 1) out[field] = n;
  }
  return out;
}

/** Trailer of an output commit rendered while clusters had managed taints: a short hash of them (outputs/clusterState.ts). */
export const CLUSTER_STATE_TRAILER = 'Cluster-State';

/** Trailer of an output commit with a NoExecute toleration running: when the first runs out, the next render is due. */
export const FAILOVER_CHECK_TRAILER = 'Failover-Check';

/**
 * Trailer of an output commit whose bindings hold graceful eviction tasks: the earliest time one of them ends by its
 * grace period alone (a render is due then), or `never` when none does (every task keeps its deletion suppressed).
 */
export const EVICTION_CHECK_TRAILER = 'Eviction-Check';
export const EVICTION_CHECK_NEVER = 'never';

/** Trailer of an output commit whose index lists templates with graceful eviction tasks: how many. Absent: none. */
export const GRACEFUL_EVICTIONS_TRAILER = 'Graceful-Evictions';

/**
 * Trailer of an output commit whose render read cluster state, template health or autoscaler decisions: the status
 * commit it read them from, or one of the two values below.
 */
export const CLUSTER_STATUS_TRAILER = 'Cluster-Status';
/** Cluster-Status trailer values other than a status commit: the state came from a file, or there was no status branch. */
export const CLUSTER_STATUS_FILE = 'file';
export const CLUSTER_STATUS_NONE = 'none';
/** Trailer of a held output commit: the source commit its tree still renders. */
export const LAST_GOOD_TRAILER = 'Last-Good-Source';

/** Git trailers of a message: the `Key: value` lines of its last paragraph. */
export function parseTrailers(message: string): Record<string, string> {
  const last = lastParagraph(message.trimEnd());
  const out: Record<string, string> = {};
  for (const line of last.split('\n')) {
    const m = /^([A-Za-z0-9-]+): (.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/**
 * parseTrailers of a commit's message, decoding only its end when the last paragraph lies there: every sync reads the
 * last output commit's trailers, and a cold render's message is ~470 KiB at 50,000 templates.
 */
export function commitTrailers(commit: CommitInfo): Record<string, string> {
  const tail = messageTail(commit, TRAILER_TAIL_BYTES).trimEnd();
  const last = lastParagraph(tail);
  // Without a paragraph break inside the tail the last paragraph may begin before it: the whole message then.
  return last.length < tail.length ? parseTrailers(last) : parseTrailers(commit.message);
}
const TRAILER_TAIL_BYTES = 8192;

/**
 * What follows the last blank line (a newline, whitespace, a newline: what `split(/\n\s*\n/)` splits at), found from
 * the end: every sync reads the last output commit's trailers, and a cold render's or a cluster change's message
 * lists thousands of files before them.
 */
export function lastParagraph(text: string): string {
  for (let end = text.lastIndexOf('\n'); end > 0; end = text.lastIndexOf('\n', end - 1)) {
    let k = end - 1;
    while (k >= 0 && text[k] !== '\n' && WHITESPACE.test(text[k]!)) k--;
    if (k >= 0 && text[k] === '\n') return text.slice(end + 1);
  }
  return text;
}
const WHITESPACE = /\s/;

/**
 * Why an output commit rendered its source commit again, from its subject: a render of a new source commit is titled
 * `Render <12 hex of Source-Commit>: <its subject>`; any other subject of a commit Flotilla wrote (an autoscaler
 * decision, a failover, a retried binding, a change of cluster state) is the reason. Undefined for a source render.
 */
export function renderedAgainFor(message: string, sourceCommit: string | undefined): string | undefined {
  if (!sourceCommit) return undefined;
  const subject = message.split('\n')[0] ?? '';
  return subject.startsWith(`Render ${sourceCommit.slice(0, 12)}:`) ? undefined : subject;
}
