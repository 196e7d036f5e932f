import { formatProblem } from '../errors/problem.ts';
import { describePlanRef } from './describePlanRef.ts';
import { groupOverrideCauses } from './groupOverrideCauses.ts';
import { groupReplicaMoves } from './groupReplicaMoves.ts';
import { describeRefs, groupClusterOutcomes, groupSchedulingNotes } from './groupSchedulingNotes.ts';
import { planHasChanges } from './planHasChanges.ts';
import type { PruneVerdict } from '../deliveries/checkPruneSafety.ts';
import { RELEASED_NOTE } from './releasedNote.ts';
import { summarizePlan, summaryLine } from './summarizePlan.ts';
import type { Plan } from './types.ts';

/** The plan for a terminal: kubectl-like table, then moves, reasons, problems, prune guard, and the diffs. */
export function renderPlanText(plan: Plan, opts: { diffs?: boolean } = {}): string {
  return `${[...planTextLines(plan, opts)].join('\n')}\n`;
}

/**
 * renderPlanText line by line (no line ends): a plan of a relabel at the largest fleets says why for each of
 * thousands of templates on each of hundreds of clusters, tens of MB a caller writes as it goes.
 */
export function* planTextLines(plan: Plan, opts: { diffs?: boolean } = {}): Generator<string> {
  const lines = [`Plan ${plan.base.slice(0, 12)} → ${plan.head.slice(0, 12)}`];
  lines.push(planHasChanges(plan) ? summaryLine(summarizePlan(plan)) : 'No change on any cluster.');
  const names = Object.keys(plan.clusters);
  const anyReleased = names.some((n) => plan.clusters[n]!.released.length > 0);
  if (names.length) {
    const rows = [
      ['CLUSTER', 'ADDED', 'CHANGED', 'REMOVED', ...(anyReleased ? ['RELEASED'] : [])],
      ...names.map((n) => {
        const c = plan.clusters[n]!;
        return [
          n,
          String(c.added.length),
          String(c.changed.length),
          String(c.removed.length),
          ...(anyReleased ? [String(c.released.length)] : []),
        ];
      }),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    lines.push(
      '',
      ...rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('   ')),
    );
    for (const n of names) {
      const c = plan.clusters[n]!;
      for (const [mark, list] of [
        ['+', c.added],
        ['~', c.changed],
        ['-', c.removed],
        ['.', c.released],
      ] as const) {
        for (const o of list)
          lines.push(`  ${n}: ${mark} ${describePlanRef(o.ref)}${mark === '.' ? ` (${RELEASED_NOTE})` : ''}`);
      }
    }
  }
  if (plan.sources?.length) {
    lines.push('', 'Sources:');
    for (const s of plan.sources)
      lines.push(`  ${describePlanRef(s.ref)}${s.clusters ? ` on ${s.clusters.join(', ')}` : ''}: ${s.source}`);
  }
  const overridden = groupOverrideCauses(plan);
  if (overridden.length) {
    lines.push('', 'Why objects changed (override rules that differ):');
    for (const g of overridden) lines.push(`  ${describePlanRef(g.ref)} on ${g.clusters.join(', ')}: ${g.causes}`);
  }
  if (plan.quietOverrides?.length) {
    lines.push('', 'Override policies that change nothing:');
    for (const q of plan.quietOverrides) lines.push(`  ${q.policy} (${q.source}): ${q.message}`);
  }
  if (plan.lookTwice.length) {
    lines.push('', 'Look twice:');
    for (const n of plan.lookTwice)
      lines.push(`  ${describePlanRef(n.ref)} on ${n.clusters.join(', ')}: ${n.reasons.join('; ')}`);
  }
  if (plan.replicas.length) {
    lines.push('', 'Replica moves:');
    for (const g of groupReplicaMoves(plan.replicas)) lines.push(`  ${describePlanRef(g.ref)}: ${g.moves}`);
  }
  yield* lines.splice(0);
  if (plan.scheduling.length) {
    yield* ['', 'Why scheduling changed:'];
    for (const { refs, note: s } of groupSchedulingNotes(plan.scheduling)) {
      yield `  ${describeRefs(refs)}${s.policy ? ` (${s.policy})` : ''}: ${s.status} — ${s.message}`;
      for (const c of groupClusterOutcomes(s.clusters))
        yield `    ${c.clusters.join(', ')}: ${c.outcome}${c.replicas !== undefined ? ` ${c.replicas}` : ''} — ${c.why}`;
    }
  }
  const problems = [...plan.errors, ...plan.warnings];
  if (problems.length) {
    lines.push(
      '',
      `Problems in ${plan.head.slice(0, 12)} (${plan.errors.length} errors, ${plan.warnings.length} warnings):`,
    );
    for (const p of problems)
      lines.push(
        ...formatProblem(p)
          .split('\n')
          .map((l) => `  ${l}`),
      );
  }
  yield* lines.splice(0);
  yield* ['', ...renderPruneText(plan.prune)];
  if (opts.diffs !== false) {
    for (const [n, c] of Object.entries(plan.clusters)) {
      for (const o of [...c.added, ...c.changed, ...c.removed])
        yield* ['', `# ${n}: ${describePlanRef(o.ref)}`, o.diff.trimEnd()];
    }
  }
}

/** The prune-safety block of plan and sync output: what is held, on which cluster, and the fix. */
export function renderPruneText(verdict: PruneVerdict): string[] {
  const { held, allowed, allowedBy, fix } = verdict;
  if (held.length === 0 && allowed.length === 0) return ['Prune safety: nothing held.'];
  if (held.length === 0) {
    return [
      `Prune safety: allowed by Flotilla-Allow-Prune: ${allowedBy}`,
      ...allowed.map((h) => `  ${h.cluster}: ${h.message} (${h.reason})`),
    ];
  }
  const lines = ['Prune safety: HELD — these deletions will not be applied:'];
  for (const h of held) {
    lines.push(`  ${h.cluster}: ${h.message} (${h.reason})`);
    for (const r of h.refs) lines.push(`    - ${describePlanRef(r)}`);
  }
  lines.push(`  fix: ${fix}`);
  return lines;
}
