import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const BIN = path.resolve(import.meta.dirname, '../../bin/flotilla.js');

test('flotilla up --exit: three members, the nginx walkthrough pushed, 2/2 ready over member1 and member2, then everything stops', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-up-'));
  try {
    const child = spawn(process.execPath, [BIN, 'up', '--dir', dir, '--exit'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.is(code, 0, err);
    assert.match(out, /member1\s+v1\.32\.0\s+Push\s+True/);
    assert.match(out, /member3\s+v1\.32\.0\s+Pull\s+True/);
    assert.match(out, 'deployment/nginx  READY 2/2 (aggregated)  member1 1/1, member2 1/1');
    assert.match(out, /member1: nginx-\S+ Running on member1-node-\d/);
    assert.match(out, 'member3: no pods');
    assert.match(out, `export KUBECONFIG=${path.join(dir, 'members.config')}`);
    assert.match(out, /^Dashboard: http:\/\/127\.0\.0\.1:\d+\/ui\/\n\nTry next:$/m);
    assert.match(err, /"step":"render","sourceCommit":"[0-9a-f]{40}"/);
    // The reconciler reads kubeconfigs from a folder of their own, not from the one holding the clone.
    assert.match(err, `"kubeconfig":"${path.join(realpathSync(dir), 'credentials', 'members.config')}"`);
    // Member3's agent starting before the first render is the normal first state, not an error.
    assert.not.match(err, /"error"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('flotilla up --log-format text: a progress line per step that did something, then the same table', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-up-text-'));
  try {
    const child = spawn(process.execPath, [BIN, 'up', '--dir', dir, '--exit', '--log-format', 'text'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.is(code, 0, err);
    const lines = err.split('\n').filter(Boolean);
    for (const line of lines) assert.match(line, /^\[\d+\.\ds\] [✓·!] /);
    assert.ok(
      lines.some((l) => / ✓ member1 \(Push\) serving at https:/.test(l)),
      err,
    );
    assert.ok(
      lines.some((l) => /✓ rendered [0-9a-f]{7} → [0-9a-f]{7}: 3 files \((\d+ ms|\d+\.\d s)\)$/.test(l)),
      err,
    );
    assert.ok(
      lines.some((l) => /✓ applied [0-9a-f]{7} to member1: 1 created/.test(l)),
      err,
    );
    assert.not.match(err, /[✗{]/);
    assert.match(out, 'deployment/nginx  READY 2/2 (aggregated)  member1 1/1, member2 1/1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
