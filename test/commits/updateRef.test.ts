import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { RefConflictError } from '../../src/commits/RefConflictError.ts';
import { parseLockOwner, STALE_REF_LOCK_MS, updateRef } from '../../src/commits/updateRef.ts';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';

/** A repo with three commits to point refs at. */
async function withCommits(fn: (temp: TempRepo, c: [string, string, string]) => Promise<void>) {
  const temp = makeTempRepo();
  try {
    const shas: string[] = [];
    for (const n of ['1', '2', '3']) {
      writeWorkTree(temp, { f: n });
      shas.push(commitAll(temp, n));
    }
    await fn(temp, shas as [string, string, string]);
  } finally {
    temp.cleanup();
  }
}

const conflictOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as RefConflictError,
  );
const revParse = (temp: TempRepo, ref: string) => temp.git(['rev-parse', '--verify', '-q', ref]).trim();
const lockExists = (temp: TempRepo, ref: string) => fs.existsSync(path.join(temp.gitdir, `${ref}.lock`));

test('creates a ref when expectedOld is null, then moves it when expectedOld matches', () =>
  withCommits(async (temp, [c1, c2]) => {
    const repo = await openRepo(temp.path);
    await updateRef(repo, 'refs/heads/flotilla/output', c1, null);
    assert.is(revParse(temp, 'refs/heads/flotilla/output'), c1);
    await updateRef(repo, 'refs/heads/flotilla/output', c2, c1);
    assert.is(revParse(temp, 'refs/heads/flotilla/output'), c2);
    assert.not.ok(lockExists(temp, 'refs/heads/flotilla/output'));
  }));

test('a stale expectedOld fails with REF_CONFLICT naming expected and actual, and changes nothing', () =>
  withCommits(async (temp, [c1, c2, c3]) => {
    const repo = await openRepo(temp.path);
    const err = await conflictOf(updateRef(repo, 'refs/heads/main', c1, c2));
    assert.instance(err, RefConflictError);
    assert.is(err?.code, 'REF_CONFLICT');
    assert.equal(err?.data, { ref: 'refs/heads/main', expected: c2, actual: c3, locked: false });
    assert.match(err?.message ?? '', `expected ${c2}, found ${c3}`);
    assert.is(revParse(temp, 'refs/heads/main'), c3);
    assert.not.ok(lockExists(temp, 'refs/heads/main'));

    const exists = await conflictOf(updateRef(repo, 'refs/heads/main', c1, null));
    assert.equal(exists?.data.actual, c3);
    const missing = await conflictOf(updateRef(repo, 'refs/heads/nope', c1, c3));
    assert.equal(missing?.data, { ref: 'refs/heads/nope', expected: c3, actual: null, locked: false });
  }));

test('reads the current value from packed-refs when there is no loose ref', () =>
  withCommits(async (temp, [c1, c2, c3]) => {
    temp.git(['branch', 'packed', c1]);
    temp.git(['pack-refs', '--all']);
    assert.not.ok(fs.existsSync(path.join(temp.gitdir, 'refs/heads/packed')));
    const repo = await openRepo(temp.path);
    assert.equal((await conflictOf(updateRef(repo, 'refs/heads/packed', c3, c2)))?.data.actual, c1);
    assert.equal((await conflictOf(updateRef(repo, 'refs/heads/packed', c3, null)))?.data.actual, c1);
    await updateRef(repo, 'refs/heads/packed', c2, c1);
    assert.is(revParse(temp, 'refs/heads/packed'), c2);
  }));

test('a lock held by someone else is a conflict, and the loser leaves that lock alone', () =>
  withCommits(async (temp, [c1, , c3]) => {
    const repo = await openRepo(temp.path);
    fs.writeFileSync(path.join(temp.gitdir, 'refs/heads/main.lock'), '');
    const err = await conflictOf(updateRef(repo, 'refs/heads/main', c1, c3));
    assert.is(err?.code, 'REF_CONFLICT');
    assert.is(err?.data.locked, true);
    assert.match(err?.message ?? '', 'locked');
    assert.ok(lockExists(temp, 'refs/heads/main'));
    assert.is(revParse(temp, 'refs/heads/main'), c3);
  }));

/** Starts a Flotilla writer in its own process and stops it while it holds the lock of `ref`; resolves once it is dead. */
async function killWhileHolding(gitdir: string, ref: string): Promise<{ pid: number; lockText: string }> {
  const src = (f: string) =>
    JSON.stringify(pathToFileURL(path.resolve(import.meta.dirname, '../../src/commits', f)).href);
  const script = `
    import nodeFs from 'node:fs';
    import path from 'node:path';
    const { openRepo } = await import(${src('openRepo.ts')});
    const { updateRef } = await import(${src('updateRef.ts')});
    const repo = await openRepo(${JSON.stringify(gitdir)});
    const refPath = path.join(repo.gitdir, ${JSON.stringify(ref)});
    setInterval(() => undefined, 1000);
    // Stops between taking the lock and reading the ref's value: where a kill leaves the lock behind.
    const readFile = (p, o) => p === refPath ? (process.stdout.write('holding\\n'), new Promise(() => undefined)) : nodeFs.promises.readFile(p, o);
    await updateRef({ ...repo, fs: { ...nodeFs, promises: { ...nodeFs.promises, readFile } } }, ${JSON.stringify(ref)}, 'f'.repeat(40), null);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('holding') && resolve());
    child.on('exit', () => reject(new Error('the writer ended before it held the lock')));
  });
  const lockText = fs.readFileSync(path.join(gitdir, `${ref}.lock`), 'utf8');
  child.kill('SIGKILL');
  await exited;
  return { pid: child.pid!, lockText };
}

test('a lock whose Flotilla writer was killed on this host is taken over at once', () =>
  withCommits(async (temp, [c1]) => {
    const repo = await openRepo(temp.path);
    const { pid, lockText } = await killWhileHolding(temp.gitdir, 'refs/heads/flotilla/status');
    assert.equal(parseLockOwner(lockText), { pid, host: hostname() }, 'the held lock names its holder');
    assert.ok(lockExists(temp, 'refs/heads/flotilla/status'), 'the kill left the lock behind');
    await updateRef(repo, 'refs/heads/flotilla/status', c1, null);
    assert.is(revParse(temp, 'refs/heads/flotilla/status'), c1);
    assert.equal(
      fs.readdirSync(path.join(temp.gitdir, 'refs/heads/flotilla')),
      ['status'],
      'no lock, nothing left aside',
    );
  }));

test('a young lock of a live process, of another host, or of no named owner is held until it is 10 s old', () =>
  withCommits(async (temp, [c1, , c3]) => {
    const repo = await openRepo(temp.path);
    const lock = path.join(temp.gitdir, 'refs/heads/main.lock');
    const dead = spawnSync('true').pid!;
    for (const text of [
      `flotilla-lock-owner pid=${process.pid} host=${hostname()}\n`,
      `flotilla-lock-owner pid=${dead} host=${hostname()}-elsewhere\n`,
      '',
      `${c3}\n`,
    ]) {
      fs.writeFileSync(lock, text);
      assert.is(
        (await conflictOf(updateRef(repo, 'refs/heads/main', c1, c3)))?.data.locked,
        true,
        JSON.stringify(text),
      );
      assert.is(fs.readFileSync(lock, 'utf8'), text, 'left alone');
    }
    fs.writeFileSync(lock, `flotilla-lock-owner pid=${dead} host=${hostname()}\n`);
    await updateRef(repo, 'refs/heads/main', c1, c3);
    assert.is(revParse(temp, 'refs/heads/main'), c1);
    assert.is(
      fs.readFileSync(path.join(temp.gitdir, 'refs/heads/main'), 'utf8'),
      `${c1}\n`,
      'the ref holds the sha alone, no owner line',
    );
  }));

test('a lock left by a writer that died (untouched for 10 s) is taken over; a younger one is not', () =>
  withCommits(async (temp, [c1, , c3]) => {
    const repo = await openRepo(temp.path);
    const lock = path.join(temp.gitdir, 'refs/heads/main.lock');
    fs.writeFileSync(lock, `${c3}\n`);
    // The clock stands still while the lock's age is judged, so a slow machine cannot age it past the threshold.
    const realNow = Date.now;
    const now = realNow();
    Date.now = () => now;
    try {
      const young = new Date(now - STALE_REF_LOCK_MS + 1_000);
      fs.utimesSync(lock, young, young);
      assert.is(
        (await conflictOf(updateRef(repo, 'refs/heads/main', c1, c3)))?.data.locked,
        true,
        'a lock 9 s old is held',
      );
      const old = new Date(now - STALE_REF_LOCK_MS - 1_000);
      fs.utimesSync(lock, old, old);
      await updateRef(repo, 'refs/heads/main', c1, c3);
    } finally {
      Date.now = realNow;
    }
    assert.is(revParse(temp, 'refs/heads/main'), c1);
    assert.not.ok(lockExists(temp, 'refs/heads/main'));
    assert.equal(
      fs.readdirSync(path.join(temp.gitdir, 'refs/heads')).filter((f) => f.includes('.lock')),
      [],
      'nothing left aside',
    );
  }));

test('concurrent writers with the same expectedOld: exactly one wins, every round', () =>
  withCommits(async (temp, [c1, c2, c3]) => {
    const repo = await openRepo(temp.path);
    const candidates = [c1, c2, c3];
    for (let round = 0; round < 25; round++) {
      const ref = `refs/heads/race${round}`;
      const writers = Array.from({ length: 6 }, (_, i) => updateRef(repo, ref, candidates[i % 3]!, null).then(() => i));
      const results = await Promise.allSettled(writers);
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.is(won.length, 1, `round ${round}: ${won.length} winners`);
      for (const r of results)
        if (r.status === 'rejected') assert.is((r.reason as RefConflictError).code, 'REF_CONFLICT');
      assert.is(revParse(temp, ref), candidates[won[0]! % 3]);
      assert.not.ok(lockExists(temp, ref));
    }
    // Same with a CAS on an existing ref.
    const results = await Promise.allSettled([
      updateRef(repo, 'refs/heads/main', c1, c3),
      updateRef(repo, 'refs/heads/main', c2, c3),
    ]);
    assert.is(results.filter((r) => r.status === 'fulfilled').length, 1);
  }));

test('rejects names that are not full refs or not safe as paths', () =>
  withCommits(async (temp, [c1]) => {
    const repo = await openRepo(temp.path);
    const messageOf = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: Error) => e.message,
      );
    for (const bad of [
      'main',
      'HEAD',
      'refs/heads/../../config',
      'refs/heads/a.lock',
      'refs/heads/x y',
      'refs/heads/',
    ]) {
      assert.match(await messageOf(updateRef(repo, bad, c1, null)), 'invalid ref name', bad);
    }
    assert.match(await messageOf(updateRef(repo, 'refs/heads/x', 'abc', null)), 'full lowercase sha');
  }));

test.run();
