import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { updateRef } from '../../src/commits/updateRef.ts';
import { FencedRefError, fenceRefUpdates } from '../../src/passes/fenceRefUpdates.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

test('a fenced branch does not move while its check says no (lock removed, ref kept); other refs move as usual', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-fence-'));
  try {
    execFileSync('git', ['init', '-q', '--bare', dir]);
    let leading = true;
    const repo = await openRepo(dir, fenceRefUpdates({ 'refs/heads/flotilla/rendered': () => leading }));
    await updateRef(repo, 'refs/heads/flotilla/rendered', A, null);
    leading = false;
    try {
      await updateRef(repo, 'refs/heads/flotilla/rendered', B, A);
      assert.unreachable('a replica that no longer leads must not move the rendered branch');
    } catch (err) {
      assert.instance(err, FencedRefError);
    }
    assert.is(await readRef(repo, 'refs/heads/flotilla/rendered'), A);
    assert.not.ok(existsSync(path.join(dir, 'refs/heads/flotilla/rendered.lock')), 'the lock is gone');
    await updateRef(repo, 'refs/heads/flotilla/status', B, null);
    assert.is(await readRef(repo, 'refs/heads/flotilla/status'), B);
    leading = true;
    await updateRef(repo, 'refs/heads/flotilla/rendered', B, A);
    assert.is(await readRef(repo, 'refs/heads/flotilla/rendered'), B);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
