import { openRepo } from '../commits/openRepo.ts';
import { compareProblems, formatProblem } from '../errors/problem.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { lookTwiceProblems } from '../plans/lookTwice.ts';
import { readClusterStatus, type CommonOptions } from './options.ts';

/** Exit 0 when nothing is wrong (warnings allowed), 1 when any error was found. */
export async function validateCommand(opts: CommonOptions): Promise<number> {
  const repo = await openRepo(opts.repo);
  const { sha, model, output } = await renderSnapshot(repo, opts.rev, {}, await readClusterStatus(opts.clusterStatusFile));
  const problems = [...model.problems, ...output.problems, ...lookTwiceProblems(model)].sort(compareProblems);
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (opts.output === 'json' || opts.output === 'yaml') {
    const body = { commit: sha, errors, warnings: problems.length - errors, problems };
    opts.out(opts.output === 'json' ? `${JSON.stringify(body, null, 2)}\n` : (await import('yaml')).stringify(body));
  } else {
    for (const p of problems) opts.out(`${formatProblem(p)}\n`);
    const counts = `${model.templates.size} templates, ${model.propagationPolicies.length} propagation policies, ${model.overridePolicies.length} override policies, ${model.clusters.size} clusters`;
    opts.out(`${problems.length ? '\n' : ''}${sha.slice(0, 12)}: ${counts}; ${errors} errors, ${problems.length - errors} warnings\n`);
  }
  return errors > 0 ? 1 : 0;
}
