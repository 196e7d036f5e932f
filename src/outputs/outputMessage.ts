import type { CommitInfo } from '../commits/types.ts';
import { formatProblem, type Problem } from '../errors/problem.ts';

export type ClusterChanges = Record<string, { added: string[]; changed: string[]; removed: string[] }>;

/** Problems listed in full in a commit message before the rest is counted: messages stay readable. */
const MAX_PROBLEMS_IN_MESSAGE = 50;

/**
 * The output commit message: what changed on which cluster, the problems of the source commit, and
 * trailers naming the source (the audit trail from any rendered file back to the commit it came from).
 */
export function buildOutputMessage(source: CommitInfo, changes: ClusterChanges, problems: readonly Problem[], rescheduled: readonly string[] = []): string {
  const subject = source.message.split('\n')[0] ?? '';
  const clusters = Object.keys(changes).sort();
  const lines = [`Render ${source.oid.slice(0, 12)}: ${subject}`.slice(0, 200), ''];
  if (clusters.length === 0) lines.push('No change on any cluster.');
  for (const c of clusters) {
    const { added, changed, removed } = changes[c]!;
    const parts = [added.length ? `${added.length} added` : '', changed.length ? `${changed.length} changed` : '', removed.length ? `${removed.length} removed` : ''].filter(Boolean);
    lines.push(`${c}: ${parts.join(', ')}`);
    for (const [mark, list] of [['+', added], ['~', changed], ['-', removed]] as const) {
      for (const path of list.slice(0, 20)) lines.push(`  ${mark} ${path.slice(`clusters/${c}/`.length)}`);
      if (list.length > 20) lines.push(`  ${mark} … and ${list.length - 20} more`);
    }
  }
  if (rescheduled.length > 0) {
    lines.push('', 'Rescheduled in fresh mode (WorkloadRebalancer), once:');
    for (const r of rescheduled) lines.push(`  ${r}`);
  }
  const errors = problems.filter((p) => p.severity === 'error');
  if (problems.length > 0) {
    lines.push('', `Problems (${errors.length} errors, ${problems.length - errors.length} warnings); objects with errors keep their last good output:`);
    for (const p of problems.slice(0, MAX_PROBLEMS_IN_MESSAGE)) lines.push(...formatProblem(p).split('\n').map((l) => `  ${l}`));
    if (problems.length > MAX_PROBLEMS_IN_MESSAGE) lines.push(`  … and ${problems.length - MAX_PROBLEMS_IN_MESSAGE} more (flotilla validate lists them all)`);
  }
  lines.push('', `Source-Commit: ${source.oid}`, `Source-Author: ${source.author.name} <${source.author.email}>`);
  return `${lines.join('\n')}\n`;
}

/** Git trailers of a message: the `Key: value` lines of its last paragraph. */
export function parseTrailers(message: string): Record<string, string> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? '';
  const out: Record<string, string> = {};
  for (const line of last.split('\n')) {
    const m = /^([A-Za-z0-9-]+): (.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}
