import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { ResourceBinding } from '../api/binding.ts';
import { refKey } from '../api/kinds.ts';
import { openRepo } from '../commits/openRepo.ts';
import { resolveRev } from '../commits/resolveRev.ts';
import { formatProblem } from '../errors/problem.ts';
import { renderRevision } from '../outputs/renderRevision.ts';
import { renderSnapshot } from '../outputs/renderSnapshot.ts';
import { INDEX_PATH } from '../works/outputPaths.ts';
import { parseIndex, serializeIndex } from '../works/outputIndex.ts';
import { readClusterStatus, type CommonOptions } from './options.ts';

export async function renderCommand(opts: CommonOptions & { outDir: string | undefined }): Promise<number> {
  const repo = await openRepo(opts.repo);
  if (opts.outDir) return renderToFolder(opts, opts.outDir);
  const sha = await resolveRev(repo, opts.rev);
  const clusterStatus = await readClusterStatus(opts.clusterStatusFile);
  const report = await renderRevision(repo, sha, { outputRef: opts.outputRef, ...(clusterStatus ? { clusterStatus } : {}) });
  for (const p of report.problems) opts.err(`${formatProblem(p)}\n`);
  const branch = opts.outputRef.replace('refs/heads/', '');
  if (!report.outputCommit) {
    opts.out(`${sha.slice(0, 12)} is already rendered on ${branch}; nothing to do\n`);
    return 0;
  }
  const lines = Object.entries(report.changes).map(([c, x]) => `  ${c}: ${x.added.length} added, ${x.changed.length} changed, ${x.removed.length} removed`);
  opts.out(`rendered ${sha.slice(0, 12)} → ${branch} ${report.outputCommit.slice(0, 12)}\n${lines.join('\n') || '  no change on any cluster'}\n`);
  return report.problems.some((p) => p.severity === 'error') ? 1 : 0;
}

/**
 * The same layout written to a plain folder (CI, tests, pointing other tools at it). Bindings already in
 * the folder are the previous scheduling result, whatever wrote them.
 */
async function renderToFolder(opts: CommonOptions, outDir: string): Promise<number> {
  const repo = await openRepo(opts.repo);
  const files = await readFolder(outDir);
  const bindings = new Map<string, ResourceBinding>();
  for (const [p, text] of files) {
    if (!p.startsWith('bindings/')) continue;
    const b = parse(text) as ResourceBinding | null;
    const r = b?.spec?.resource;
    if (b && r?.kind && r.name) bindings.set(refKey({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? '', name: r.name }), b);
  }
  const index = parseIndex(files.get(INDEX_PATH));
  const { sha, model, output } = await renderSnapshot(repo, opts.rev, { index, bindings, files }, await readClusterStatus(opts.clusterStatusFile));
  for (const [p, text] of output.edits) {
    const target = path.join(outDir, p);
    if (text === null) await rm(target, { force: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }
  await mkdir(path.join(outDir, path.dirname(INDEX_PATH)), { recursive: true });
  await writeFile(path.join(outDir, INDEX_PATH), serializeIndex(output.index));
  const problems = [...model.problems, ...output.problems];
  for (const p of problems) opts.err(`${formatProblem(p)}\n`);
  opts.out(`rendered ${sha.slice(0, 12)} into ${outDir}: ${output.edits.size} files written or removed\n`);
  return problems.some((p) => p.severity === 'error') ? 1 : 0;
}

async function readFolder(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.set(p, await readFile(path.join(dir, p), 'utf8'));
    }
  };
  await walk('');
  return out;
}
