import { openRepo } from '../commits/openRepo.ts';
import { readRef } from '../commits/readRef.ts';
import { formatProblem } from '../errors/problem.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { syncRepo } from '../outputs/syncRepo.ts';
import { readPruneVerdict } from '../plans/readPruneVerdict.ts';
import { renderPruneText } from '../plans/renderPlanText.ts';
import { readClusterStatus, type CommonOptions } from './options.ts';

export async function syncCommand(opts: CommonOptions): Promise<number> {
  const repo = await openRepo(opts.repo);
  const started = performance.now();
  const clusterStatus = await readClusterStatus(opts.clusterStatusFile);
  const before = await readRef(repo, opts.outputRef);
  const result = await syncRepo(repo, {
    ...(clusterStatus ? { clusterStatus } : {}),
    sourceRef: opts.sourceRef,
    outputRef: opts.outputRef,
    ...(opts.limits ? { limits: opts.limits } : {}),
    onRendered: (r, i, n) => {
      const changed =
        Object.entries(r.changes)
          .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
          .map(([c, x]) => `${c} +${x.counts.added} ~${x.counts.changed} -${x.counts.removed}`)
          .join(', ') || 'no change';
      const errors = r.problems.filter((p) => p.severity === 'error').length;
      opts.err(
        `[${i}/${n}] ${r.sourceCommit.slice(0, 12)} → ${r.outputCommit?.slice(0, 12) ?? '(already rendered)'}  ${changed}${errors ? `  ${errors} errors` : ''}\n`,
      );
    },
  });
  if (result.forcePushed) opts.err(`warning: ${opts.sourceRef} was force-pushed; rendered its new head only\n`);
  const last = result.reports[result.reports.length - 1];
  if (!last) {
    opts.out(`${opts.outputRef.replace('refs/heads/', '')} is up to date\n`);
    return 0;
  }
  for (const p of last.problems) opts.err(`${terminalSafe(formatProblem(p), { multiline: true })}\n`);
  opts.out(
    `rendered ${result.reports.length} commit(s) in ${((performance.now() - started) / 1000).toFixed(2)}s; ${opts.outputRef.replace('refs/heads/', '')} at ${last.outputCommit?.slice(0, 12) ?? 'unchanged'}\n`,
  );
  // The rendered branch says what the source asks for; the applier will hold risky deletions, and says so here first.
  const verdict = await readPruneVerdict(repo, { before, after: await readRef(repo, opts.outputRef) });
  if (verdict && (verdict.held.length || verdict.allowed.length))
    opts.out(`${terminalSafe(renderPruneText(verdict).join('\n'), { multiline: true })}\n`);
  return last.problems.some((p) => p.severity === 'error') ? 1 : 0;
}
