import { verifyOutput, type VerifyReport } from '../audits/verifyOutput.ts';
import { openRepo } from '../commits/openRepo.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { GO_YAML_DOCUMENT_OPTIONS } from '../yaml/goYamlSchema.ts';
import type { CommonOptions } from './options.ts';

/** Exit code of verify when nothing differs from what Flotilla wrote but the render cannot be replayed from Git. */
export const NOT_REPRODUCIBLE_EXIT = 4;

/**
 * `flotilla verify [--rev REV]`: does the output branch hold exactly what its source renders to? Exit 0 when
 * it does, 1 when any file differs, is missing or is extra, 4 when no commit on top changed anything but the
 * render itself cannot be reproduced from Git alone (--cluster-status FILE). `verifyRev` is the raw --rev (an
 * output commit or a source commit); undefined checks the output branch head.
 */
export async function verifyCommand(opts: CommonOptions & { verifyRev: string | undefined }): Promise<number> {
  const repo = await openRepo(opts.repo);
  const report = await verifyOutput(repo, {
    outputRef: opts.outputRef,
    ...(opts.verifyRev ? { rev: opts.verifyRev } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  if (opts.output === 'json') opts.out(`${JSON.stringify(report, null, 2)}\n`);
  else if (opts.output === 'yaml') opts.out((await import('yaml')).stringify(report, GO_YAML_DOCUMENT_OPTIONS));
  else
    opts.out(terminalSafe(formatVerifyReport(report, opts.outputRef.replace('refs/heads/', '')), { multiline: true }));
  const bad = report.differs.length + report.missing.length + report.extra.length;
  return bad > 0 ? 1 : report.notReproducible ? NOT_REPRODUCIBLE_EXIT : 0;
}

export function formatVerifyReport(r: VerifyReport, branch: string): string {
  const how = r.notReproducible
    ? `not reproducible from Git alone: ${r.notReproducible}; compared with what Flotilla wrote`
    : `re-rendered source ${r.sourceCommit.slice(0, 12)}`;
  const inputs = r.replayedWith
    ? `, with cluster state of ${r.replayedWith.statusCommit ? `flotilla/status ${r.replayedWith.statusCommit.slice(0, 12)}` : 'no status branch'}${r.replayedWith.renderTime ? ` at ${r.replayedWith.renderTime}` : ''}`
    : '';
  const lines = [
    `${branch} ${r.outputCommit.slice(0, 12)}: ${how} (rendered by ${r.renderedBy.slice(0, 12)}${inputs})`,
  ];
  for (const c of r.foreignCommits)
    lines.push(`  not written by Flotilla: ${c.oid.slice(0, 12)} ${c.author} "${c.subject}"`);
  const madeUp = new Map((r.unreproducible ?? []).map((u) => [u.path, u.call]));
  for (const p of r.differs)
    lines.push(`  differs  ${p}${madeUp.has(p) ? `  (not reproducible: its chart calls ${madeUp.get(p)})` : ''}`);
  for (const p of r.missing) lines.push(`  missing  ${p}`);
  for (const p of r.extra) lines.push(`  extra    ${p}`);
  for (const p of r.unchecked) lines.push(`  unchecked (held: its source is invalid) ${p}`);
  const bad = r.differs.length + r.missing.length + r.extra.length;
  // Every difference made by a chart that makes up values on each run: a fresh render, not an edit, explains them.
  const allMadeUp = bad > 0 && madeUp.size === bad && r.foreignCommits.length === 0;
  lines.push(
    allMadeUp
      ? `FAILED: ${bad} of ${r.checked} files do not match what ${r.sourceCommit.slice(0, 12)} renders to, each output by a chart that gives another value on each run (NOT_REPRODUCIBLE): this render cannot reproduce the one that wrote them\n  fix: set those values in the charts' values (flotilla validate names each call), commit, and verify the render of that commit`
      : bad === 0 && r.notReproducible
        ? `NOT REPRODUCIBLE: no commit changed what Flotilla wrote (${r.checked} files), but ${r.renderedBy.slice(0, 12)} cannot be re-rendered from Git alone\n  fix: render from the status branch (flotilla sync without --cluster-status) to get an output verify can replay`
        : bad === 0
          ? `OK: ${r.checked} files match the source${r.unchecked.length ? `, ${r.unchecked.length} held files not checked` : ''}`
          : `FAILED: ${bad} of ${r.checked} files do not match what ${r.sourceCommit.slice(0, 12)} renders to (hand edit or tampering)\n  fix: find who wrote them (git log -p ${branch}), revert those commits on ${branch}, then run flotilla verify again`,
  );
  return `${lines.join('\n')}\n`;
}
