// The cold render, run by bench.ts as its own process so its peak RSS is its own:
//   node --import tsx scripts/bench/renderChild.ts REPO [LIMITS as JSON, e.g. {"maxSourceFiles":200000}]
// Prints one JSON line: in-process seconds (wall and CPU), maxRSS, what was written, and the problems found.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { openRepo } from '../../src/commits/openRepo.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { formatProblem } from '../../src/errors/problem.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import type { RenderLimits } from '../../src/outputs/sourceLimits.ts';

const repoPath = process.argv[2];
if (!repoPath) {
  process.stderr.write('usage: renderChild.ts REPO\n');
  process.exit(2);
}
// The longest the event loop went without a turn: a replica's Lease renewals wait that long behind a render.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const started = performance.now();
const cpuStarted = process.cpuUsage();
const repo = await openRepo(repoPath);
const sha = await resolveRev(repo, 'main');
const limits = JSON.parse(process.argv[3] ?? '{}') as RenderLimits;
const report = await renderRevision(repo, sha, { outputRef: 'refs/heads/flotilla/rendered', limits });
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStarted);
loopDelay.disable();
const errors = report.problems.filter((p) => p.severity === 'error');
process.stdout.write(
  `${JSON.stringify({
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssKb: process.resourceUsage().maxRSS,
    longestStallMs: loopDelay.max / 1e6,
    outputCommit: report.outputCommit,
    filesWritten: report.filesWritten,
    errors: errors.length,
    warnings: report.problems.length - errors.length,
    firstProblems: report.problems.slice(0, 5).map(formatProblem),
  })}\n`,
);
