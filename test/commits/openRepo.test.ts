import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { NotAGitRepoError } from '../../src/commits/NotAGitRepoError.ts';
import { GIT_ENV, makeTempRepo } from './helpers/tempRepo.ts';

test('opens a work tree: dir is the work tree, gitdir its .git', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    assert.is(repo.dir, temp.path);
    assert.is(repo.gitdir, path.join(temp.path, '.git'));
    assert.is(repo.bare, false);
    assert.type(repo.cache, 'object');
  } finally {
    temp.cleanup();
  }
});

test('opens a bare repository: gitdir is the path itself', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    const repo = await openRepo(temp.path);
    assert.is(repo.gitdir, temp.path);
    assert.is(repo.bare, true);
  } finally {
    temp.cleanup();
  }
});

test('follows a .git file (git init --separate-git-dir) to the real gitdir', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flotilla-commits-'));
  try {
    const work = path.join(root, 'work');
    const store = path.join(root, 'store.git');
    execFileSync('git', ['init', '-q', '--separate-git-dir', store, work], { env: { ...GIT_ENV, HOME: root } });
    const repo = await openRepo(work);
    assert.is(repo.dir, work);
    assert.is(fs.realpathSync(repo.gitdir), fs.realpathSync(store));
    assert.is(repo.bare, false);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a plain directory is rejected with NOT_A_GIT_REPO naming the path', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flotilla-commits-'));
  try {
    const err = await openRepo(dir).then(
      () => null,
      (e: unknown) => e,
    );
    assert.instance(err, NotAGitRepoError);
    assert.is((err as NotAGitRepoError).code, 'NOT_A_GIT_REPO');
    assert.is((err as NotAGitRepoError).data.path, dir);
    assert.match((err as Error).message, 'no HEAD');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing path is rejected with NOT_A_GIT_REPO', async () => {
  const missing = path.join(os.tmpdir(), 'flotilla-commits-does-not-exist-' + process.pid);
  const err = await openRepo(missing).catch((e: unknown) => e);
  assert.is((err as NotAGitRepoError).code, 'NOT_A_GIT_REPO');
});

test.run();
