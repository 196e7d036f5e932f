import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

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
    // The members, the reconciler and the dashboard are gone when it returns: nothing printed points at them, only
    // what was done, what is kept, and how to start it for real.
    assert.not.match(out, /Dashboard:|Try next:|KUBECONFIG|127\.0\.0\.1/);
    assert.match(out, "Checked the demo and stopped what it started (the reconciler, member3's agent and members");
    assert.match(out, `Kept: the config repo ${path.join(dir, 'repo.git')}, its clone ${path.join(dir, 'work')},`);
    assert.match(out, `Start it for real (the dashboard, kubectl and git push then work): flotilla up --dir ${dir}\n`);
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

for (const format of ['json', 'text'] as const) {
  test(`flotilla up --log-format ${format}, then Ctrl-C: everything stops and a last line says what, where the repo and clone are kept, and how to start again`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), `flotilla-up-sigint-${format}-`));
    try {
      const child = spawn(process.execPath, [BIN, 'up', '--dir', dir, '--log-format', format], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      const running = new Promise<void>((resolve) => {
        child.stdout.on('data', (c) => {
          out += c;
          if (out.includes('Ctrl-C stops everything it started')) resolve();
        });
      });
      child.stderr.on('data', (c) => {
        err += c;
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await Promise.race([running, closed]);
      assert.is(child.exitCode, null, `up ended early:\n${out}\n${err}`);
      assert.match(out, /^Dashboard: http:\/\/127\.0\.0\.1:\d+\/ui\/\n\nTry next:$/m);
      assert.match(out, `export KUBECONFIG=${path.join(dir, 'members.config')}`);
      child.kill('SIGINT');
      assert.is(await closed, 0, err);
      const repo = path.join(dir, 'repo.git');
      const clone = path.join(dir, 'work');
      const last = out.trimEnd().split('\n').at(-1)!;
      assert.is(
        last,
        `Stopped the reconciler, member3's agent and members member1, member2, member3. The config repo ${repo} and its clone ${clone} are kept; start again: flotilla up --dir ${dir}`,
      );
      const logLines = err.trimEnd().split('\n');
      if (format === 'json') {
        const entry = JSON.parse(logLines.at(-1)!.replace(/^\[\d+\.\ds\] /, '')) as Record<string, unknown>;
        assert.equal(entry, {
          step: 'up-stopped',
          stopped: ['reconciler', 'agent member3', 'member1', 'member2', 'member3'],
          repo,
          clone,
          restart: `flotilla up --dir ${dir}`,
        });
      } else {
        for (const line of logLines) assert.match(line, /^\[\d+\.\ds\] [✓·!] /);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('Ctrl-C while flotilla up is starting stops it there: no "Try next" lines, a last line saying what had started and stopped, exit 130; its JSON log is JSON lines', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-up-early-'));
  try {
    const child = spawn(process.execPath, [BIN, 'up', '--dir', dir, '--log-format', 'json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    const firstMember = new Promise<void>((resolve) => {
      child.stderr.on('data', (c) => {
        err += c;
        if (err.includes('member member1 (Push) serving at')) resolve();
      });
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await Promise.race([firstMember, closed]);
    child.kill('SIGINT');
    assert.is(await closed, 130, `${out}\n${err}`);
    assert.not.match(out, /Dashboard:|Try next:|Flotilla is running/);
    const last = out.trimEnd().split('\n').at(-1)!;
    assert.match(
      last,
      /^Interrupted while starting: stopped (the reconciler, member3's agent and )?members? member1(, member2)?(, member3)?\. /,
    );
    assert.ok(last.endsWith(`start again: flotilla up --dir ${dir}`), last);
    // --log-format json: every line of the log is one JSON object.
    const entries = err
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(entries[0]!.step, 'up');
    assert.match(String(entries[0]!.message), /^member member1 \(Push\) serving at http/);
    const entry = entries.at(-1)!;
    assert.is(entry.step, 'up-stopped');
    assert.is(entry.interrupted, 'starting');
    assert.ok((entry.stopped as string[]).includes('member1'), err);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
