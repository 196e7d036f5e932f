import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeMarkdown } from '../../src/plans/escapeMarkdown.ts';
import { renderPlanMarkdown } from '../../src/plans/renderPlanMarkdown.ts';
import { renderPlanText } from '../../src/plans/renderPlanText.ts';
import { emptyPlan } from './helpers/emptyPlan.ts';

const plan = emptyPlan;

const diff = (n: number) => `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${'o'.repeat(n)}\n+${'n'.repeat(n)}\n`;

test('a plan with no change says so', () => {
  assert.match(renderPlanMarkdown(plan()), 'No change on any cluster.');
});

test('HTML and Markdown in a problem message are inert', () => {
  const md = renderPlanMarkdown(
    plan({
      errors: [
        {
          file: 'evil.yaml',
          line: 3,
          column: 1,
          code: 'INVALID_VALUE',
          severity: 'error',
          message: '<img src=x onerror=alert(1)> [click](https://evil.example) **bold** | cell @admins',
          fix: '</details><script>x</script>',
        },
      ],
    }),
  );
  assert.not.match(md, '<img');
  assert.not.match(md, '<script');
  assert.not.match(md, '](https');
  assert.not.match(md, '**bold**');
  assert.not.match(md, '@admins');
  assert.match(md, '&lt;img src=x onerror=alert\\(1\\)&gt;');
  assert.match(md, 'evil.yaml:3');
});

test('escapeMarkdown leaves no unescaped table pipe, bracket, backtick or newline', () => {
  const out = escapeMarkdown('a|b [c] `d` e\nf');
  assert.is(out, 'a\\|b \\[c\\] \\`d\\` e f');
});

test("a file name's lone carriage return or Unicode line separator starts no new line, and a bare www. address is no link", () => {
  const out = escapeMarkdown('templates/x\r=====\u2028# Approved\u2029 see WWW.evil-example.com or www.x.io');
  assert.not.match(out, /[\r\n\u2028\u2029]/);
  assert.not.match(out, /www\./i);
  assert.is(out, 'templates/x ===== \\# Approved  see WWW\u200b.evil-example.com or www\u200b.x.io');
});

test('a manifest holding a code fence cannot close the diff block', () => {
  const evil = '--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+```\n+</details>\n';
  const md = renderPlanMarkdown(
    plan({
      clusters: {
        m1: {
          added: [{ ref: 'v1/ConfigMap/default/x', path: 'clusters/m1/default/configmap_x.yaml', diff: evil }],
          changed: [],
          removed: [],
          released: [],
        },
      },
    }),
  );
  assert.match(md, '````diff\n');
  assert.match(md, '\n````\n');
});

test('a cluster name in <summary> is HTML-escaped', () => {
  const md = renderPlanMarkdown(
    plan({
      clusters: {
        '<b>m1</b>': {
          added: [],
          changed: [{ ref: 'v1/ConfigMap/default/x', path: 'p', diff: diff(3) }],
          removed: [],
          released: [],
        },
      },
    }),
  );
  assert.match(md, '<summary>&lt;b&gt;m1&lt;/b&gt;: 1 changed</summary>');
  assert.match(md, '| &lt;b&gt;m1&lt;/b&gt; |');
});

test('past the size cap whole diffs are dropped and the comment says what was cut', () => {
  const changed = Array.from({ length: 30 }, (_, i) => ({
    ref: `v1/ConfigMap/default/cm${i}`,
    path: `clusters/m1/default/configmap_cm${i}.yaml`,
    diff: diff(500),
  }));
  const md = renderPlanMarkdown(plan({ clusters: { m1: { added: [], changed, removed: [], released: [] } } }), {
    maxChars: 10_000,
    command: 'flotilla plan --base a --head b',
  });
  assert.ok(md.length <= 10_000, `length ${md.length}`);
  const shown = md.split('```diff').length - 1;
  assert.ok(shown > 0 && shown < 30);
  assert.match(md, `${30 - shown} object diff(s) on m1 were left out to keep this comment under 10000 characters`);
  assert.match(md, 'Run `flotilla plan --base a --head b` for the full plan.');
  // Every opened block is closed: nothing is cut in the middle.
  assert.is(md.split('<details>').length, md.split('</details>').length);
});

test('the same change on several clusters is shown once, under the list of those clusters', () => {
  const cm = (cluster: string, value: string) => ({
    ref: 'v1/ConfigMap/default/x',
    path: `clusters/${cluster}/default/configmap_x.yaml`,
    diff: `--- a/clusters/${cluster}/default/configmap_x.yaml\n+++ b/clusters/${cluster}/default/configmap_x.yaml\n@@ -1 +1 @@\n-a: 1\n+a: ${value}\n`,
  });
  const on = (cluster: string, value: string) => ({
    added: [],
    changed: [cm(cluster, value)],
    removed: [],
    released: [],
  });
  const md = renderPlanMarkdown(plan({ clusters: { m1: on('m1', '2'), m2: on('m2', '3'), m3: on('m3', '2') } }));
  assert.match(md, '<details><summary>m1, m3: 1 changed</summary>');
  assert.match(md, '<details><summary>m2: 1 changed</summary>');
  assert.is(md.split('+a: 2').length - 1, 1);
  assert.is(md.split('+a: 3').length - 1, 1);
  assert.ok(md.indexOf('m1, m3: 1 changed') < md.indexOf('m2: 1 changed'));
  // The table still counts every cluster's own change.
  assert.match(md, '| m3 | 0 | 1 | 0 |');
});

test('a comment cut for size keeps whole lines, even when the head alone is over the cap', () => {
  const errors = Array.from({ length: 40 }, (_, i) => ({
    file: `f${i}.yaml`,
    line: 1,
    column: 1,
    code: 'INVALID_VALUE' as const,
    severity: 'error' as const,
    message: `\`code ${'x'.repeat(700)}\` &amp; <b>`,
    fix: 'y'.repeat(300),
  }));
  const full = renderPlanMarkdown(plan({ errors }), { maxChars: 1_000_000 });
  const md = renderPlanMarkdown(plan({ errors }), { maxChars: 10_000 });
  assert.ok(md.length <= 10_000, `length ${md.length}`);
  const whole = new Set(full.split('\n'));
  const lines = md.split('\n');
  const notice = lines.findIndex((l) => l.startsWith('> ✂️ The problem list was cut'));
  assert.ok(notice > 0);
  for (const l of lines.slice(0, notice)) assert.ok(whole.has(l), `a line cut in half: ${l.slice(-40)}`);
});

test('held deletions show the reason and how to allow them', () => {
  const md = renderPlanMarkdown(
    plan({
      prune: {
        held: [
          {
            cluster: 'm1',
            reason: 'EVERYTHING',
            refs: ['apps/v1/Deployment/default/nginx'],
            message: 'would delete all 1 objects on m1',
          },
        ],
        allowed: [],
        fix: 'add "Flotilla-Allow-Prune: <reason>"',
      },
    }),
  );
  assert.match(md, 'Prune safety: ⛔ held.');
  assert.match(md, 'Deployment default/nginx');
  assert.match(md, 'Flotilla-Allow-Prune: &lt;reason&gt;');
});

test('templates moved for the same reason share one explanation in the comment and the text, naming the first few', () => {
  const note = (name: string, why = 'labels do not match labelSelector') => ({
    ref: `v1/ConfigMap/fleet/${name}`,
    policy: 'PropagationPolicy fleet/fleet',
    status: 'Scheduled',
    message: 'scheduled to 1 cluster(s): m1=0',
    clusters: [{ cluster: 'm2', outcome: 'filtered', why: `ClusterAffinity: ${why}` }],
  });
  const notes = [...Array.from({ length: 8 }, (_, i) => note(`cm${i}`)), note('odd', 'not in clusterNames')];
  const p = plan({ scheduling: notes });
  const md = renderPlanMarkdown(p);
  assert.is(md.split('labels do not match labelSelector').length - 1, 1, md);
  assert.match(
    md,
    'ConfigMap fleet/cm0, ConfigMap fleet/cm1, ConfigMap fleet/cm2, ConfigMap fleet/cm3, ConfigMap fleet/cm4 and 3 more \\(8 templates\\) via',
  );
  assert.match(md, '- ConfigMap fleet/odd via');
  const text = renderPlanText(p);
  assert.is(text.split('labels do not match labelSelector').length - 1, 1, text);
  assert.match(text, 'ConfigMap fleet/cm4 and 3 more (8 templates) (PropagationPolicy fleet/fleet): Scheduled');
});

test.run();
