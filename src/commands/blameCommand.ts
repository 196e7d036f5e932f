import { readTemplateSource } from '../audits/readTemplateUnit.ts';
import { parseArgs } from 'node:util';
import { parseRefKey, refKey, type ObjectRef } from '../api/kinds.ts';
import { takesKind } from '../views/resolveResourceType.ts';
import { readBlame, type Blame, type BlameSource } from '../audits/readBlame.ts';
import { printable } from '../views/printTable.ts';
import { terminalSafe } from '../text/terminalSafe.ts';
import { openFleet, READ_OPTIONS, render, resolveTarget, type ReadCommandContext } from './getCommand.ts';
import { UsageError } from '../errors/UsageError.ts';
import { RENDERED_BRANCH } from '../branches/rendered/branch.ts';
import { STATUS_BRANCH } from '../branches/status/branch.ts';

const USAGE = 'flotilla blame --cluster C <kind>/<name> [-n NS] [-o yaml|json]';

/**
 * `flotilla blame --cluster C deploy/nginx`: the source commit behind what C runs now, and whether C has applied
 * the latest render. Exit 0 when C runs the object, 1 when it does not (or nothing says what C applied).
 */
export async function blameCommand(argv: string[], ctx: ReadCommandContext): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: READ_OPTIONS });
  if (values.help) {
    ctx.out(`Usage: ${USAGE}\n`);
    return 0;
  }
  if (!values.cluster) throw new UsageError(`blame needs --cluster: ${USAGE}`);
  const fleet = await openFleet('blame', values);
  const { type, name } = await resolveTarget(fleet, positionals, USAGE);
  if (type.type !== 'templates' || !name) throw new UsageError(`blame names one object by <kind>/<name>: ${USAGE}`);
  const known = ((await fleet.rendered?.index.templateKeysOfKinds((k) => takesKind(type, k))) ?? [])
    .map(parseRefKey)
    .filter((r) => r.name === name);
  const ref: ObjectRef = known.find((r) => r.namespace === (values.namespace ?? 'default')) ??
    known.find((r) => r.namespace === '' && values.namespace === undefined) ?? {
      apiVersion: type.group ? `${type.group}/v1` : 'v1',
      kind: type.kind,
      namespace: values.namespace ?? 'default',
      name,
    };
  const blame = await readBlame(fleet.repo, {
    cluster: values.cluster,
    ref,
    renderedRef: `refs/heads/${values['rendered-branch'] ?? RENDERED_BRANCH}`,
    statusRef: `refs/heads/${values['status-branch'] ?? STATUS_BRANCH}`,
  });
  if ('code' in blame) {
    ctx.err(`flotilla: ${blame.message}\n`);
    return 1;
  }
  const output = values.output ?? 'text';
  const source = await readTemplateSource(
    fleet.repo,
    blame.appliedRenderedCommit,
    (key) => key === refKey(blame.object),
  );
  const shown = {
    ...blame,
    ...(source?.unit ? { unit: source.unit } : {}),
    ...(source?.hook ? { hook: source.hook } : {}),
  };
  if (output === 'json' || output === 'yaml') ctx.out(render(output, shown));
  else ctx.out(terminalSafe(formatBlame(shown, values['rendered-branch'] ?? RENDERED_BRANCH), { multiline: true }));
  return 0;
}

export function formatBlame(b: Blame & { unit?: string; hook?: string }, renderedBranch: string): string {
  const what = `${b.object.kind} ${b.object.namespace ? `${b.object.namespace}/` : ''}${b.object.name}`;
  const lines = [
    `${what} on ${b.cluster}`,
    `  source:    ${describeSource(b.source)}`,
    `  subject:   ${printable(b.source.subject)}`,
    `  rendered:  ${b.appliedRenderedCommit.slice(0, 12)} (${b.path})`,
  ];
  // The Helm chart or Kustomize folder that output it, with the release and value files.
  if (b.unit) lines.push(`  unit:      ${b.unit}`);
  // A hook (a unit's or a plain file's): applied as an ordinary object, as plan and explain say.
  if (b.hook) lines.push(`  hook:      ${b.hook}`);
  if (b.status)
    lines.push(
      `  status:    applied=${b.status.applied}, health=${b.status.health}${b.status.message ? `, ${printable(b.status.message)}` : ''}`,
    );
  if (b.upToDate)
    lines.push(
      `  latest:    ${b.cluster} has applied the latest render (${renderedBranch} at ${b.renderedHead.slice(0, 12)})`,
    );
  else {
    lines.push(
      `  latest:    NOT UP TO DATE: ${renderedBranch} is at ${b.renderedHead.slice(0, 12)}; ${b.cluster} last applied ${b.appliedRenderedCommit.slice(0, 12)}`,
    );
    if (b.pending && 'removed' in b.pending)
      lines.push(`  pending:   the latest render removes ${what} from ${b.cluster}`);
    else if (b.pending) lines.push(`  pending:   ${describeSource(b.pending)}: ${printable(b.pending.subject)}`);
    else lines.push(`  pending:   nothing for ${what}: the newer render does not change it`);
  }
  return `${lines.join('\n')}\n`;
}

function describeSource(s: BlameSource): string {
  if (s.missing) return s.sha ? `${s.sha.slice(0, 12)} ${s.subject}` : s.subject;
  return `${s.sha.slice(0, 12)}${s.pullRequest !== undefined ? ` (PR #${s.pullRequest})` : ''} by ${printable(s.author)} <${printable(s.email)}> at ${s.date}`;
}
