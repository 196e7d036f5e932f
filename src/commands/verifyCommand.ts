import { verifyOutput, type VerifyReport } from '../audits/verifyOutput.ts';
import { openRepo } from '../commits/openRepo.ts';
import type { CommonOptions } from './options.ts';

/**
 * `flotilla verify [--rev REV]`: does the output branch hold exactly what its source renders to? Exit 0 when
 * it does, 1 when any file differs, is missing or is extra. `verifyRev` is the raw --rev (an output commit or
 * a source commit); undefined checks the output branch head.
 */
export async function verifyCommand(opts: CommonOptions & { verifyRev: string | undefined }): Promise<number> {
  const repo = await openRepo(opts.repo);
  const report = await verifyOutput(repo, { outputRef: opts.outputRef, ...(opts.verifyRev ? { rev: opts.verifyRev } : {}) });
  if (opts.output === 'json') opts.out(`${JSON.stringify(report, null, 2)}\n`);
  else if (opts.output === 'yaml') opts.out((await import('yaml')).stringify(report));
  else opts.out(formatVerifyReport(report, opts.outputRef.replace('refs/heads/', '')));
  return report.ok ? 0 : 1;
}

export function formatVerifyReport(r: VerifyReport, branch: string): string {
  const lines = [`${branch} ${r.outputCommit.slice(0, 12)}: re-rendered source ${r.sourceCommit.slice(0, 12)} (rendered by ${r.renderedBy.slice(0, 12)})`];
  for (const c of r.foreignCommits) lines.push(`  not written by Flotilla: ${c.oid.slice(0, 12)} ${c.author} "${c.subject}"`);
  for (const p of r.differs) lines.push(`  differs  ${p}`);
  for (const p of r.missing) lines.push(`  missing  ${p}`);
  for (const p of r.extra) lines.push(`  extra    ${p}`);
  for (const p of r.unchecked) lines.push(`  unchecked (held: its source is invalid) ${p}`);
  const bad = r.differs.length + r.missing.length + r.extra.length;
  lines.push(bad === 0
    ? `OK: ${r.checked} files match the source${r.unchecked.length ? `, ${r.unchecked.length} held files not checked` : ''}`
    : `FAILED: ${bad} of ${r.checked} files do not match what ${r.sourceCommit.slice(0, 12)} renders to (hand edit or tampering)\n  fix: find who wrote them (git log -p ${branch}), revert those commits on ${branch}, then run flotilla verify again`);
  return `${lines.join('\n')}\n`;
}
