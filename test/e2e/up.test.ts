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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
