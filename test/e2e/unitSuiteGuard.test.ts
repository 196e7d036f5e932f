// The unit suites run with test/helpers/forbidProcessesAndNetwork.ts loaded (scripts/test.js): a process started or a
// socket opened there fails, however the module was imported, so a test that does either cannot pass as a unit test.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs `script` as an ES module with the guard loaded; its exit status and stderr. */
function guarded(script: string) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/forbidProcessesAndNetwork.ts', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: r.status, stderr: r.stderr };
}

test('a named import of child_process cannot start a process', () => {
  const r = guarded("import { execFileSync } from 'node:child_process'; execFileSync('git', ['--version']);");
  assert.is.not(r.status, 0);
  assert.match(r.stderr, 'a unit test started a process (execFileSync git)');
});

test('a default import of child_process cannot start a process', () => {
  const r = guarded("import cp from 'node:child_process'; cp.spawn(process.execPath, ['-v']);");
  assert.match(r.stderr, 'a unit test started a process (spawn ');
});

test('no server can listen and no client can connect, through http and https either', () => {
  assert.match(
    guarded("import http from 'node:http'; http.createServer().listen(0, '127.0.0.1');").stderr,
    'a unit test listened on a socket',
  );
  assert.match(
    guarded("import https from 'node:https'; https.get('https://127.0.0.1:1/');").stderr,
    'a unit test opened a connection',
  );
  assert.match(
    guarded("import net from 'node:net'; net.connect(1, '127.0.0.1');").stderr,
    'a unit test opened a connection',
  );
});

test('TypeScript still loads through tsx, and pure code runs, under the guard', () => {
  const r = guarded(
    "import { parse } from 'yaml'; const { a } = await import('data:text/javascript,export const a = 1;'); if (parse('b: 2').b + a !== 3) process.exit(2);",
  );
  assert.is(r.status, 0, r.stderr);
});

test.run();
