import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderUnifiedDiff } from '../../src/plans/renderUnifiedDiff.ts';

/** Hunks as `git diff --no-index` writes them: the oracle. */
function gitHunks(oldText: string, newText: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flotilla-diff-'));
  fs.writeFileSync(path.join(dir, 'a'), oldText);
  fs.writeFileSync(path.join(dir, 'b'), newText);
  let out = '';
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '-U3', 'a', 'b'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  } catch (err) {
    out = String((err as { stdout: Buffer }).stdout);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  // git appends the nearest "function" line to each @@ header; a manifest has no functions.
  return out.slice(out.indexOf('@@')).replace(/^(@@ [^@]+ @@).*$/gm, '$1');
}

const lines = (n: number, change: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => change[i] ?? `line ${i}`).join('\n') + '\n';

test('hunk headers and bodies match git diff for a one-line change', () => {
  const a = lines(20);
  const b = lines(20, { 9: 'changed' });
  const ours = renderUnifiedDiff(a, b, { path: 'x.yaml' });
  assert.ok(ours.startsWith('--- a/x.yaml\n+++ b/x.yaml\n'));
  assert.is(ours.slice(ours.indexOf('@@')), gitHunks(a, b));
});

test('two changes far apart make two hunks, close ones one, as in git', () => {
  const far = lines(40, { 3: 'x', 30: 'y' });
  assert.is(renderUnifiedDiff(lines(40), far, { path: 'f' }).split('\n@@').length - 1, 2);
  assert.is(
    renderUnifiedDiff(lines(40), far, { path: 'f' }).slice(
      renderUnifiedDiff(lines(40), far, { path: 'f' }).indexOf('@@'),
    ),
    gitHunks(lines(40), far),
  );
  const near = lines(40, { 3: 'x', 8: 'y' });
  assert.is(renderUnifiedDiff(lines(40), near, { path: 'f' }).split('\n@@').length - 1, 1);
  assert.is(
    renderUnifiedDiff(lines(40), near, { path: 'f' }).slice(
      renderUnifiedDiff(lines(40), near, { path: 'f' }).indexOf('@@'),
    ),
    gitHunks(lines(40), near),
  );
});

test('an added file diffs against /dev/null', () => {
  assert.is(
    renderUnifiedDiff(null, 'a\nb\n', { path: 'n.yaml' }),
    '--- /dev/null\n+++ b/n.yaml\n@@ -0,0 +1,2 @@\n+a\n+b\n',
  );
  assert.is(renderUnifiedDiff('a\n', null, { path: 'n.yaml' }), '--- a/n.yaml\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n');
});

test('equal texts give no diff', () => {
  assert.is(renderUnifiedDiff('a\n', 'a\n', { path: 'x' }), '');
});

test.run();
