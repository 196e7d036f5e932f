// `flotilla run` on a terminal prints progress lines, and JSON lines when asked: run under a pseudo-terminal
// (util-linux `script`), so stdout is a TTY as in a person's shell. A pipe keeps JSON (the other run tests).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const work = mkdtempSync(path.join(tmpdir(), 'flotilla-log-format-'));
const repo = path.join(work, 'config');
const credentials = path.join(work, 'credentials');

test.before(() => {
  mkdirSync(credentials);
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  writeFileSync(path.join(repo, 'README.md'), 'fleet\n');
  execFileSync('git', ['-C', repo, 'add', '-A'], { env });
  execFileSync('git', ['-C', repo, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-qm', 'first'], {
    env,
  });
});

test.after(() => {
  rmSync(work, { recursive: true, force: true });
});

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * `flotilla run` on a pseudo-terminal until its first pass is logged, then SIGTERM to flotilla itself (its pid
 * is on its start line) for a clean stop; what the terminal showed, CRs dropped.
 */
async function runOnTerminal(extra: string[], firstPass: RegExp): Promise<string> {
  const args = ['run', '--repo', repo, '--credentials-dir', credentials, '--listen', 'off', '--resync', '0', ...extra];
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SHELL: '/bin/sh' },
  });
  let shown = '';
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const passed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no first pass within 30 s; the terminal showed:\n${shown}`)),
      30_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      shown += chunk.toString().replaceAll('\r', '');
      const pid = /, pid (\d+);/.exec(shown)?.[1];
      if (pid && firstPass.test(shown)) {
        clearTimeout(timer);
        resolve(Number(pid));
      }
    });
  });
  try {
    process.kill(await passed, 'SIGTERM');
  } finally {
    if (child.exitCode === null) setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    await closed;
  }
  return shown;
}

test('on a terminal, run prints a progress line per step that did something, and no JSON', async () => {
  const shown = await runOnTerminal([], /✓ pass \(start\)/);
  const lines = shown.split('\n').filter(Boolean);
  assert.ok(
    lines.some((l) => /^\d\d:\d\d:\d\d ✓ reconciler started on .*config.* \(main\), watching its refs$/.test(l)),
    shown,
  );
  assert.ok(
    lines.some((l) => /^\d\d:\d\d:\d\d ✓ rendered [0-9a-f]{7} → [0-9a-f]{7}: 0 files \(\d+ ms\)$/.test(l)),
    shown,
  );
  assert.ok(
    lines.some((l) => /^\d\d:\d\d:\d\d ✓ pass \(start\) [0-9a-f]{7}: 1 commit rendered/.test(l)),
    shown,
  );
  assert.ok(
    lines.some((l) => /^\d\d:\d\d:\d\d ✓ stopped$/.test(l)),
    shown,
  );
  assert.not.ok(
    lines.some((l) => l.startsWith('{')),
    shown,
  );
});

test('--log-format json keeps the JSON lines on a terminal too', async () => {
  const shown = await runOnTerminal(['--log-format', 'json'], /"step":"pass"/);
  const entries = shown
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { step: string });
  assert.ok(entries.some((e) => e.step === 'start'));
  assert.ok(entries.some((e) => e.step === 'pass'));
  assert.ok(
    entries.some((e) => e.step === 'stop'),
    shown,
  );
  assert.not.ok(shown.includes('✓'), shown);
});

test.run();
