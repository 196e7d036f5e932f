import { openRepo } from '../commits/openRepo.ts';
import { statusBranchAutoscaled } from '../outputs/autoscaledTemplates.ts';
import { planHasChanges } from '../plans/planHasChanges.ts';
import { readPlan } from '../plans/readPlan.ts';
import { renderPlanJson } from '../plans/renderPlanJson.ts';
import { renderPlanYaml } from '../plans/renderPlanYaml.ts';
import { renderPlanMarkdown } from '../plans/renderPlanMarkdown.ts';
import { planTextLines } from '../plans/renderPlanText.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { UsageError } from '../errors/UsageError.ts';
import { observedClusters, type CommonOptions } from './options.ts';
import { workingLine } from './workingLine.ts';

export type PlanFormat = 'text' | 'markdown' | 'json' | 'yaml';

export interface PlanOptions {
  base: string | undefined;
  head: string | undefined;
  /** `-o markdown|json|yaml|text`; CommonOptions.output is used when absent (wide reads as text). */
  format?: PlanFormat | undefined;
  /** Share of a cluster's objects whose deletion is held. Default 0.5. */
  pruneThreshold?: number | undefined;
  /** Markdown comment size cap. Default 60,000. */
  maxChars?: number | undefined;
}

/**
 * `flotilla plan --base REV --head REV`: what merging head would do to every cluster. Exit 0 when nothing
 * changes, 1 when something does, 2 when the head has validation errors (the PR check fails on those).
 */
export async function planCommand(opts: CommonOptions & PlanOptions): Promise<number> {
  if (!opts.base || !opts.head)
    throw new UsageError('plan needs --base REV and --head REV, e.g. flotilla plan --base main --head feature');
  const format: PlanFormat = opts.format ?? (opts.output === 'json' || opts.output === 'yaml' ? opts.output : 'text');
  const repo = await openRepo(opts.repo);
  const working = workingLine(opts.err, opts.errIsTerminal === true);
  const plan = await readPlan(repo, {
    base: opts.base,
    head: opts.head,
    clusterStatus: await observedClusters(repo, opts.clusterStatusFile),
    // From the last render, as the sync after the merge: a file's cluster state is another than that render read.
    ...(opts.clusterStatusFile ? {} : { autoscaled: await statusBranchAutoscaled(repo), fromRender: true }),
    ...(opts.pruneThreshold !== undefined ? { pruneThreshold: opts.pruneThreshold } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    onPhase: (text) => working.phase(`flotilla plan: ${text}`),
  }).finally(() => working.done());
  if (format === 'json') opts.out(renderPlanJson(plan));
  else if (format === 'yaml') opts.out(renderPlanYaml(plan));
  else if (format === 'markdown') {
    opts.out(
      renderPlanMarkdown(plan, {
        ...(opts.maxChars !== undefined ? { maxChars: opts.maxChars } : {}),
        command: `flotilla plan --base ${plan.base.slice(0, 12)} --head ${plan.head.slice(0, 12)}`,
      }),
    );
  } else {
    // Written a thousand lines at a time: the text of a plan at the largest fleets runs to tens of MB.
    let chunk: string[] = [];
    const write = () => opts.out(terminalSafe(`${chunk.join('\n')}\n`, { multiline: true }));
    for (const line of planTextLines(plan)) {
      chunk.push(line);
      if (chunk.length === 1000) {
        write();
        chunk = [];
      }
    }
    if (chunk.length > 0) write();
  }
  if (plan.errors.length > 0) return 2;
  return planHasChanges(plan) ? 1 : 0;
}
