// Why a template's scheduling changed, as a plan prints it: each reason once, with every cluster it is given for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderPlanMarkdown } from '../../src/plans/renderPlanMarkdown.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import type { SchedulingNote } from '../../src/plans/types.ts';
import { emptyPlan } from './helpers/emptyPlan.ts';

const AFFINITY = 'ClusterAffinity: cluster(s) did not match the placement cluster affinity constraint';

/** A Divided Deployment on m1 and m2 (2 and 1 replicas), every other of `n` clusters filtered by its affinity. */
function note(n: number): SchedulingNote {
  const names = Array.from({ length: n }, (_, i) => `m${i + 1}`).sort();
  return {
    ref: 'apps/v1/Deployment/default/web',
    policy: 'PropagationPolicy default/web',
    status: 'Scheduled',
    message: 'scheduled to 2 cluster(s)',
    clusters: names.map((cluster) =>
      cluster === 'm1'
        ? { cluster, outcome: 'selected', replicas: 2, why: 'static weight 2/3' }
        : cluster === 'm2'
          ? { cluster, outcome: 'selected', replicas: 1, why: 'static weight 1/3' }
          : { cluster, outcome: 'filtered', why: AFFINITY },
    ),
  };
}

const plan = (scheduling: SchedulingNote[]) => emptyPlan({ scheduling });

test('a reason shared by many clusters is printed once, naming each of them', () => {
  const text = renderPlanText(plan([note(500)]), { diffs: false });
  const lines = text.split('\n');
  const at = lines.indexOf('Why scheduling changed:');
  assert.ok(at >= 0);
  assert.is(
    lines[at + 1],
    '  Deployment default/web (PropagationPolicy default/web): Scheduled — scheduled to 2 cluster(s)',
  );
  assert.is(lines[at + 2], '    m1: selected 2 — static weight 2/3');
  // One line for every filtered cluster, in name order (m10, m100, …), though m2 falls among them.
  const filtered = lines.filter((l) => l.endsWith(`: filtered — ${AFFINITY}`));
  assert.is(filtered.length, 1);
  assert.ok(filtered[0]!.startsWith('    m10, m100, m101, '));
  const named = filtered[0]!.trim().split(': filtered')[0]!.split(', ');
  assert.is(named.length, 498, 'every filtered cluster is named');
  assert.ok(named.includes('m499') && named.includes('m3'));
  assert.ok(lines.includes('    m2: selected 1 — static weight 1/3'));
  assert.ok(text.length < 10_000, `one line per reason, not per cluster: ${text.length} characters`);
});

test('the PR comment says each reason once too, its clusters listed', () => {
  const md = renderPlanMarkdown(plan([note(4)]));
  // Parentheses escaped, as the comment escapes every text it quotes.
  assert.match(
    md,
    `m1: selected 2 \\(static weight 2/3\\); m2: selected 1 \\(static weight 1/3\\); m3, m4: filtered \\(${AFFINITY.replace(/[()]/g, '\\$&')}\\)`,
  );
});

test.run();
