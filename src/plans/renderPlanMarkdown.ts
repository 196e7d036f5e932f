import { describePlanRef } from './describePlanRef.ts';
import { escapeHtml } from './escapeHtml.ts';
import { escapeMarkdown } from './escapeMarkdown.ts';
import { groupOverrideCauses } from './groupOverrideCauses.ts';
import { groupReplicaMoves } from './groupReplicaMoves.ts';
import { describeRefs, groupClusterOutcomes, groupSchedulingNotes } from './groupSchedulingNotes.ts';
import { planHasChanges } from './planHasChanges.ts';
import { RELEASED_NOTE } from './releasedNote.ts';
import { summarizePlan, summaryLine } from './summarizePlan.ts';
import type { Plan, PlannedObject } from './types.ts';

export interface MarkdownOptions {
  /** Upper bound on the comment length; GitHub refuses comments over 65,536 characters. Default 60,000. */
  maxChars?: number;
  /** How the reader reproduces the full plan, shown when something was cut. */
  command?: string;
}

/** List items shown per section before the rest is only counted. */
const MAX_ITEMS = 50;
/** Room kept for the closing notice about what was cut. */
const NOTICE_RESERVE = 600;

/**
 * The plan as a PR comment: summary table, replica moves, why, problems, prune guard, then one collapsed
 * section per cluster with the diffs. Everything taken from the repo is escaped, and diff blocks use a
 * fence longer than any backtick run inside them, so a manifest or a name cannot inject Markdown or HTML.
 * Past maxChars, whole object diffs are dropped (never cut mid-block) and the comment says how many.
 */
export function renderPlanMarkdown(plan: Plan, opts: MarkdownOptions = {}): string {
  const maxChars = opts.maxChars ?? 60_000;
  const head: string[] = [`### Flotilla plan \`${plan.base.slice(0, 12)}\` → \`${plan.head.slice(0, 12)}\``, ''];
  const names = Object.keys(plan.clusters);
  head.push(planHasChanges(plan) ? summaryLine(summarizePlan(plan)) : 'No change on any cluster.', '');
  const anyReleased = names.some((n) => plan.clusters[n]!.released.length > 0);
  if (names.length) {
    head.push(
      `| Cluster | Added | Changed | Removed |${anyReleased ? ' Released |' : ''}`,
      `|---|--:|--:|--:|${anyReleased ? '--:|' : ''}`,
    );
    for (const n of names) {
      const c = plan.clusters[n]!;
      head.push(
        `| ${escapeMarkdown(n)} | ${c.added.length} | ${c.changed.length} | ${c.removed.length} |${anyReleased ? ` ${c.released.length} |` : ''}`,
      );
    }
    head.push('');
  }
  if (plan.sources?.length) {
    head.push(
      '**Sources**',
      '',
      ...capped(
        plan.sources.map(
          (s) =>
            `- ${escapeMarkdown(describePlanRef(s.ref))}${s.clusters ? ` on ${escapeMarkdown(s.clusters.join(', '))}` : ''}: ${escapeMarkdown(s.source)}`,
        ),
      ),
      '',
    );
  }
  const overridden = groupOverrideCauses(plan);
  if (overridden.length) {
    head.push(
      '**Why objects changed** (override rules that differ)',
      '',
      ...capped(
        overridden.map(
          (g) =>
            `- ${escapeMarkdown(describePlanRef(g.ref))} on ${escapeMarkdown(g.clusters.join(', '))}: ${escapeMarkdown(g.causes)}`,
        ),
      ),
      '',
    );
  }
  if (plan.quietOverrides?.length) {
    head.push(
      '**Override policies that change nothing**',
      '',
      ...capped(
        plan.quietOverrides.map(
          (q) => `- ⚠️ ${escapeMarkdown(q.policy)} (${escapeMarkdown(q.source)}): ${escapeMarkdown(q.message)}`,
        ),
      ),
      '',
    );
  }
  if (plan.lookTwice.length) {
    head.push(
      '**Look twice**',
      '',
      ...capped(
        plan.lookTwice.map(
          (n) =>
            `- ⚠️ ${escapeMarkdown(describePlanRef(n.ref))} on ${escapeMarkdown(n.clusters.join(', '))}: ${escapeMarkdown(n.reasons.join('; '))}`,
        ),
      ),
      '',
    );
  }
  if (plan.replicas.length) {
    head.push(
      '**Replica moves**',
      '',
      ...capped(
        groupReplicaMoves(plan.replicas).map(
          (g) => `- ${escapeMarkdown(describePlanRef(g.ref))}: ${escapeMarkdown(g.moves)}`,
        ),
      ),
      '',
    );
  }
  if (plan.scheduling.length) {
    head.push('**Why scheduling changed**', '');
    head.push(
      ...capped(
        groupSchedulingNotes(plan.scheduling).map(({ refs, note: s }) => {
          const per = groupClusterOutcomes(s.clusters)
            .map(
              (c) =>
                `${c.clusters.join(', ')}: ${c.outcome}${c.replicas !== undefined ? ` ${c.replicas}` : ''} (${c.why})`,
            )
            .join('; ');
          return `- ${escapeMarkdown(describeRefs(refs))}${s.policy ? ` via ${escapeMarkdown(s.policy)}` : ''}: ${escapeMarkdown(s.status)}, ${escapeMarkdown(s.message)}${per ? `. ${escapeMarkdown(per)}` : ''}`;
        }),
      ),
      '',
    );
  }
  if (plan.errors.length || plan.warnings.length) {
    head.push(`**Problems in the head commit** (${plan.errors.length} errors, ${plan.warnings.length} warnings)`, '');
    head.push(
      ...capped(
        [...plan.errors, ...plan.warnings].map(
          (p) =>
            `- ${p.severity === 'error' ? '❌' : '⚠️'} ${escapeMarkdown(`${p.file}:${p.line}`)} ${escapeMarkdown(p.code)}: ${escapeMarkdown(p.message)}<br>fix: ${escapeMarkdown(p.fix)}`,
        ),
      ),
      '',
    );
  }
  head.push(...pruneSection(plan), '');

  let text = `${head.join('\n')}\n`;
  const budget = maxChars - NOTICE_RESERVE;
  let cut = 0;
  const cutClusters = new Set<string>();
  if (text.length > budget) {
    // Only with thousands of problems; the notice below says so. Whole lines are kept: a cut one could open a code
    // span or an entity that the rest of the comment would then read inside.
    text = `${text.slice(0, text.lastIndexOf('\n', budget) + 1)}\n`;
    cut = -1;
  }
  for (const section of sharedSections(plan)) {
    if (cut < 0) break;
    const open = `<details><summary>${escapeHtml(section.summary)}</summary>\n\n`;
    const close = '</details>\n\n';
    let shown = '';
    for (const { object: o, released } of section.objects) {
      const fence = fenceFor(o.diff);
      const block = released
        ? `${escapeMarkdown(describePlanRef(o.ref))}: ${escapeMarkdown(RELEASED_NOTE)}\n\n`
        : `${escapeMarkdown(describePlanRef(o.ref))}\n\n${fence}diff\n${o.diff}${fence}\n\n`;
      if (text.length + open.length + shown.length + block.length + close.length > budget) {
        cut += section.clusters.length;
        for (const n of section.clusters) cutClusters.add(n);
      } else shown += block;
    }
    if (shown) text += open + shown + close;
  }
  if (cut !== 0) {
    const what =
      cut < 0
        ? 'The problem list was cut and no diffs are shown'
        : `${cut} object diff(s) on ${[...cutClusters].map(escapeMarkdown).join(', ')} were left out`;
    text += `> ✂️ ${what} to keep this comment under ${maxChars} characters.${opts.command ? ` Run \`${opts.command.replace(/`/g, '')}\` for the full plan.` : ''}\n`;
  }
  return text;
}

interface SharedSection {
  clusters: string[];
  summary: string;
  objects: { object: PlannedObject; released: boolean }[];
}

/**
 * The per-cluster changes with each identical one once: an object whose diff (its `---`/`+++` paths aside, which name
 * the cluster) is the same on several clusters goes to the section of exactly those clusters, so a change rolled out
 * to many members costs the comment one diff. Sections come in the order of their first cluster.
 */
function sharedSections(plan: Plan): SharedSection[] {
  const changes = new Map<string, { object: PlannedObject; mark: Mark; clusters: string[] }>();
  for (const [n, c] of Object.entries(plan.clusters))
    for (const [mark, list] of [
      ['added', c.added],
      ['changed', c.changed],
      ['removed', c.removed],
      ['released', c.released],
    ] as const)
      for (const o of list) {
        const key = `${mark}\n${o.ref}\n${o.diff.split('\n').slice(2).join('\n')}`;
        const change = changes.get(key) ?? { object: o, mark, clusters: [] };
        changes.set(key, change);
        change.clusters.push(n);
      }
  const sections = new Map<string, { clusters: string[]; byMark: Record<Mark, PlannedObject[]> }>();
  for (const { object, mark, clusters } of changes.values()) {
    const key = clusters.join('\n');
    const section = sections.get(key) ?? { clusters, byMark: { added: [], changed: [], removed: [], released: [] } };
    sections.set(key, section);
    section.byMark[mark].push(object);
  }
  return [...sections.values()].map(({ clusters, byMark }) => ({
    clusters,
    summary: `${clusters.join(', ')}: ${MARKS.filter((m) => byMark[m].length)
      .map((m) => `${byMark[m].length} ${m}`)
      .join(', ')}`,
    objects: MARKS.flatMap((m) => byMark[m].map((object) => ({ object, released: m === 'released' }))),
  }));
}

const MARKS = ['added', 'changed', 'removed', 'released'] as const;
type Mark = (typeof MARKS)[number];

function capped(items: string[]): string[] {
  if (items.length <= MAX_ITEMS) return items;
  return [...items.slice(0, MAX_ITEMS), `- … and ${items.length - MAX_ITEMS} more`];
}

function pruneSection(plan: Plan): string[] {
  const { held, allowed, allowedBy, fix } = plan.prune;
  if (held.length === 0 && allowed.length === 0) return ['**Prune safety:** nothing held.'];
  if (held.length === 0) {
    return [
      `**Prune safety:** allowed by \`Flotilla-Allow-Prune\`: ${escapeMarkdown(allowedBy ?? '')}`,
      '',
      ...allowed.map((h) => `- ${escapeMarkdown(h.message)} (${h.reason})`),
    ];
  }
  const lines = ['**Prune safety: ⛔ held.** These deletions will not be applied:', ''];
  for (const h of held) {
    const refs = h.refs
      .slice(0, 10)
      .map((r) => escapeMarkdown(describePlanRef(r)))
      .join(', ');
    lines.push(
      `- ${escapeMarkdown(h.message)} (${h.reason}): ${refs}${h.refs.length > 10 ? ` and ${h.refs.length - 10} more` : ''}`,
    );
  }
  lines.push('', `To allow: ${escapeMarkdown(fix)}`);
  return lines;
}

/** A backtick fence longer than any run of backticks in the block: its content can never close it. */
function fenceFor(body: string): string {
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}
