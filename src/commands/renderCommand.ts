import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openRepo } from '../commits/openRepo.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { formatProblem, type Problem } from '../errors/problem.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { renderRevision } from '../outputs/renderRevision.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { SourceTooLargeError } from '../outputs/SourceTooLargeError.ts';
import { readOutputFolder } from '../outputs/previousOutputs.ts';
import { indexFiles } from '../branches/rendered/outputIndex.ts';
import { CLUSTERS_PATH } from '../branches/rendered/outputPaths.ts';
import { serializeRegisteredClusters } from '../branches/rendered/registeredClusters.ts';
import { observedClusters, readClusterStatus, type CommonOptions } from './options.ts';
import { UsageError } from '../errors/UsageError.ts';
import { workingLine } from './workingLine.ts';

export async function renderCommand(opts: CommonOptions & { outDir: string | undefined }): Promise<number> {
  const repo = await openRepo(opts.repo);
  if (opts.outDir) return renderToFolder(opts, opts.outDir);
  const sha = await resolveRev(repo, opts.rev);
  const clusterStatus = await readClusterStatus(opts.clusterStatusFile);
  const working = workingLine(opts.err, opts.errIsTerminal === true);
  working.phase(`flotilla render: rendering ${sha.slice(0, 12)} onto ${opts.outputRef.replace('refs/heads/', '')}`);
  const report = await renderRevision(repo, sha, {
    outputRef: opts.outputRef,
    ...(clusterStatus ? { clusterStatus } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  }).finally(() => working.done());
  for (const p of report.problems) opts.err(`${terminalSafe(formatProblem(p), { multiline: true })}\n`);
  const branch = opts.outputRef.replace('refs/heads/', '');
  if (!report.outputCommit) {
    opts.out(`${sha.slice(0, 12)} is already rendered on ${branch}; nothing to do\n`);
    return 0;
  }
  const lines = Object.entries(report.changes).map(
    ([c, x]) => `  ${c}: ${x.counts.added} added, ${x.counts.changed} changed, ${x.counts.removed} removed`,
  );
  opts.out(
    `rendered ${sha.slice(0, 12)} → ${branch} ${report.outputCommit.slice(0, 12)}\n${lines.join('\n') || '  no change on any cluster'}\n`,
  );
  return exitCode(report.problems);
}

/**
 * The same layout written to a plain folder (CI, tests, pointing other tools at it). Bindings already in
 * the folder are the previous scheduling result, whatever wrote them.
 */
async function renderToFolder(opts: CommonOptions, outDir: string): Promise<number> {
  const makeFolder = await outFolderMaker(outDir);
  const repo = await openRepo(opts.repo);
  const previous = await readOutputFolder(outDir);
  const working = workingLine(opts.err, opts.errIsTerminal === true);
  working.phase(`flotilla render: rendering ${opts.rev} into ${outDir}`);
  const { sha, model, output, index } = await renderSnapshot(
    repo,
    opts.rev,
    previous,
    await observedClusters(repo, opts.clusterStatusFile),
    new Date(),
    undefined,
    undefined,
    opts.limits,
  )
    .catch((err: unknown) => {
      // A folder is not the rendered branch: nothing there is kept for the clusters, and nothing was written to it.
      throw err instanceof SourceTooLargeError ? err.readBy('flotilla render', `and wrote nothing to ${outDir}`) : err;
    })
    .finally(() => working.done());
  await makeFolder();
  for (const [p, text] of [...output.edits, ...indexFiles(index)]) {
    const target = path.join(outDir, p);
    if (text === null) await rm(target, { force: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
  await writeFile(
    path.join(outDir, CLUSTERS_PATH),
    serializeRegisteredClusters([...model.clusters.values()].map((c) => c.object)),
  );
  const problems = [...model.problems, ...output.problems];
  for (const p of problems) opts.err(`${terminalSafe(formatProblem(p), { multiline: true })}\n`);
  opts.out(`rendered ${sha.slice(0, 12)} into ${outDir}: ${output.edits.size} files written or removed\n`);
  return exitCode(problems);
}

/**
 * 1 on errors, and when a workload could not be scheduled: the rest is written all the same (its binding
 * says Scheduled=False with the reason, and holds the previous result or none, as Karmada's would), but a
 * render that left a workload unplaced must not pass in CI.
 */
function exitCode(problems: readonly Problem[]): number {
  return problems.some((p) => p.severity === 'error' || p.code === 'NO_CLUSTER_FITS' || p.code === 'UNSCHEDULABLE')
    ? 1
    : 0;
}

/**
 * --out-dir as a folder: its nearest existing ancestor must be one, checked before the render (a path through a file is
 * refused with the fix, and nothing is made for a render that fails); the returned function makes the missing levels
 * one by one, so no recursive mkdir runs outside a real folder (node's loops for ever under /proc).
 */
async function outFolderMaker(outDir: string): Promise<() => Promise<void>> {
  const refuse = (why: string) =>
    new UsageError(`--out-dir ${outDir}: ${why}; fix: pass a folder (it is created when missing)`);
  const missing: string[] = [];
  let dir = path.resolve(outDir);
  for (;;) {
    const found = await stat(dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw refuse(err.message);
    });
    if (found) {
      if (!found.isDirectory()) throw refuse(`${dir} is a file, not a folder`);
      break;
    }
    missing.unshift(dir);
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return async () => {
    for (const d of missing)
      await mkdir(d).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw refuse(err.message);
      });
  };
}
