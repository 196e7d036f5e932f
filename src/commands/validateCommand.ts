import { listTreeFiles } from '../commits/listTreeFiles.ts';
import { openRepo } from '../commits/openRepo.ts';
import { readCommitInfo } from '../commits/readCommitInfo.ts';
import type { GitRepo } from '../commits/types.ts';
import { findAmbiguousScalars } from '../documents/findAmbiguousScalars.ts';
import { GO_YAML_STRINGIFY_OPTIONS } from '../yaml/goYamlSchema.ts';
import { IGNORE_FILE, isConfigFile, parseIgnoreFile } from '../documents/selectConfigFiles.ts';
import { compareProblems, formatProblem, type Problem } from '../errors/problem.ts';
import { readTextFiles } from '../commits/readPathOids.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { lookTwiceProblems } from '../plans/lookTwice.ts';
import { readClusterStatus, type CommonOptions } from './options.ts';

/** Exit 0 when nothing is wrong (warnings allowed), 1 when any error was found. */
export async function validateCommand(opts: CommonOptions): Promise<number> {
  const repo = await openRepo(opts.repo);
  const { sha, model, output } = await renderSnapshot(repo, opts.rev, {}, await readClusterStatus(opts.clusterStatusFile));
  const problems = [...model.problems, ...output.problems, ...lookTwiceProblems(model), ...await ambiguousScalars(repo, sha)].sort(compareProblems);
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (opts.output === 'json' || opts.output === 'yaml') {
    const body = { commit: sha, errors, warnings: problems.length - errors, problems };
    opts.out(opts.output === 'json' ? `${JSON.stringify(body, null, 2)}\n` : (await import('yaml')).stringify(body, GO_YAML_STRINGIFY_OPTIONS));
  } else {
    // Problems quote file names, object names and values from the change under review.
    for (const p of problems) opts.out(`${terminalSafe(formatProblem(p), { multiline: true })}\n`);
    const counts = `${model.templates.size} templates, ${model.propagationPolicies.length} propagation policies, ${model.overridePolicies.length} override policies, ${model.clusters.size} clusters`;
    opts.out(`${problems.length ? '\n' : ''}${sha.slice(0, 12)}: ${counts}; ${errors} errors, ${problems.length - errors} warnings\n`);
  }
  return errors > 0 ? 1 : 0;
}

/** Warnings for plain scalars YAML 1.1 reads differently from what most people expect (validate only: a render skips this). */
async function ambiguousScalars(repo: GitRepo, sha: string): Promise<Problem[]> {
  const { tree } = await readCommitInfo(repo, sha);
  const ignoreText = (await readTextFiles(repo, tree, [IGNORE_FILE])).get(IGNORE_FILE);
  const ignore = ignoreText === undefined ? undefined : parseIgnoreFile(ignoreText);
  const paths = [...(await listTreeFiles(repo, tree)).keys()].filter((p) => isConfigFile(p, ignore));
  const problems: Problem[] = [];
  for (const [path, text] of await readTextFiles(repo, tree, paths)) problems.push(...findAmbiguousScalars(path, text));
  return problems;
}
