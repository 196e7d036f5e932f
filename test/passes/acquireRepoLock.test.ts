import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acquireRepoLock, LOCK_FILE, LockHeldError } from '../../src/passes/acquireRepoLock.ts';

const dirs: string[] = [];
const gitdir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'flotilla-lock-'));
  dirs.push(d);
  return d;
};

test('the lock file names pid, host and start time; a second reconciler is refused with the holder named', () => {
  const dir = gitdir();
  const lock = acquireRepoLock(dir, { pid: process.pid });
  const held = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
  assert.is(held.pid, process.pid);
  assert.is(held.host, hostname());
  assert.ok(!Number.isNaN(Date.parse(held.startedAt)));
  assert.ok(lock.held());
  try {
    acquireRepoLock(dir, { pid: process.pid + 1 });
    assert.unreachable('a live holder must be refused');
  } catch (err) {
    assert.instance(err, LockHeldError);
    assert.match((err as Error).message, `pid ${process.pid} on ${hostname()}`);
    assert.match((err as Error).message, 'fix:');
  }
  lock.release();
  assert.not.ok(existsSync(path.join(dir, LOCK_FILE)));
  acquireRepoLock(dir).release();
  // The lock is written beside its place and linked in whole: nothing of that is left, won or refused.
  assert.equal(readdirSync(dir), []);
});

test('a lock left by a dead pid on this host is taken over, and says whom it replaced', () => {
  const dir = gitdir();
  const stale = { pid: 424242, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' };
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(stale));
  const lock = acquireRepoLock(dir, { isAlive: (pid) => pid !== 424242 });
  assert.equal(lock.tookOverFrom, stale);
  assert.is(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid, process.pid);
  lock.release();
});

test('a lock from another host is never taken over (its pid cannot be checked from here)', () => {
  const dir = gitdir();
  writeFileSync(
    path.join(dir, LOCK_FILE),
    JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: '2026-01-01T00:00:00.000Z' }),
  );
  assert.throws(() => acquireRepoLock(dir, { isAlive: () => false }), /pid 1 on elsewhere/);
});

test('release leaves a lock that is no longer ours alone', () => {
  const dir = gitdir();
  const lock = acquireRepoLock(dir);
  const other = JSON.stringify({ pid: 7, host: hostname(), startedAt: '2026-02-02T00:00:00.000Z' });
  writeFileSync(path.join(dir, LOCK_FILE), other);
  assert.not.ok(lock.held());
  lock.release();
  assert.is(readFileSync(path.join(dir, LOCK_FILE), 'utf8'), other);
});

test.after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test.run();
