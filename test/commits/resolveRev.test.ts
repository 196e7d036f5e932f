import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { RevNotFoundError } from '../../src/commits/RevNotFoundError.ts';
import { commitAll, makeTempRepo, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';

async function withHistory(fn: (temp: TempRepo, first: string, second: string) => Promise<void>) {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'a.txt': 'one' });
    const first = commitAll(temp, 'first');
    temp.git(['branch', 'feature']);
    temp.git(['tag', '-a', 'v1', '-m', 'release 1']);
    temp.git(['tag', 'light']);
    writeWorkTree(temp, { 'a.txt': 'two' });
    const second = commitAll(temp, 'second');
    await fn(temp, first, second);
  } finally {
    temp.cleanup();
  }
}

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as RevNotFoundError,
  );

test('resolves branch names, full ref names and HEAD', () =>
  withHistory(async (temp, first, second) => {
    const repo = await openRepo(temp.path);
    assert.is(await resolveRev(repo, 'main'), second);
    assert.is(await resolveRev(repo, 'refs/heads/main'), second);
    assert.is(await resolveRev(repo, 'HEAD'), second);
    assert.is(await resolveRev(repo, 'feature'), first);
    assert.is(await resolveRev(repo, 'refs/heads/feature'), first);
  }));

test('ancestry suffixes as git writes them: ~N, ^N, bare ~ and ^, chained; past the root is RevNotFound', () =>
  withHistory(async (temp, first, second) => {
    const repo = await openRepo(temp.path);
    assert.is(await resolveRev(repo, 'HEAD~1'), first);
    assert.is(await resolveRev(repo, 'main^'), first);
    assert.is(await resolveRev(repo, `${second}~`), first);
    assert.is(await resolveRev(repo, 'main^0'), second);
    assert.is(await resolveRev(repo, 'v1~0'), first, 'a tag is peeled before walking');
    assert.is(await resolveRev(repo, 'HEAD^1~0'), first);
    const tooFar = await rejection(resolveRev(repo, 'HEAD~2'));
    assert.instance(tooFar, RevNotFoundError);
    assert.match(tooFar!.message, 'only 1 commit(s) long');
    assert.instance(await rejection(resolveRev(repo, 'HEAD^2')), RevNotFoundError);
  }));

test('resolves full and abbreviated shas', () =>
  withHistory(async (temp, first, second) => {
    const repo = await openRepo(temp.path);
    assert.is(await resolveRev(repo, second), second);
    assert.is(await resolveRev(repo, first.slice(0, 7)), first);
    assert.is(await resolveRev(repo, first.slice(0, 7).toUpperCase()), first);
  }));

test('peels annotated and lightweight tags to their commit', () =>
  withHistory(async (temp, first) => {
    const repo = await openRepo(temp.path);
    const tagObject = temp.git(['rev-parse', 'v1']).trim();
    assert.is.not(tagObject, first);
    assert.is(await resolveRev(repo, 'v1'), first);
    assert.is(await resolveRev(repo, 'refs/tags/v1'), first);
    assert.is(await resolveRev(repo, 'light'), first);
  }));

test('still resolves after git pack-refs moved refs into packed-refs', () =>
  withHistory(async (temp, first, second) => {
    temp.git(['pack-refs', '--all']);
    const repo = await openRepo(temp.path);
    assert.is(await resolveRev(repo, 'feature'), first);
    assert.is(await resolveRev(repo, 'refs/heads/main'), second);
  }));

test('unknown names fail with REV_NOT_FOUND', () =>
  withHistory(async (temp) => {
    const repo = await openRepo(temp.path);
    const err = await rejection(resolveRev(repo, 'no-such-branch'));
    assert.instance(err, RevNotFoundError);
    assert.is(err?.code, 'REV_NOT_FOUND');
    assert.is(err?.data.rev, 'no-such-branch');
    const missingSha = await rejection(resolveRev(repo, '0123456789012345678901234567890123456789'));
    assert.is(missingSha?.code, 'REV_NOT_FOUND');
    assert.match(missingSha?.message ?? '', 'not in the repository');
    assert.is((await rejection(resolveRev(repo, 'ffffff')))?.code, 'REV_NOT_FOUND');
  }));

test('a sha naming a tree is REV_NOT_FOUND, not a commit', () =>
  withHistory(async (temp) => {
    const repo = await openRepo(temp.path);
    const tree = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    const err = await rejection(resolveRev(repo, tree));
    assert.is(err?.code, 'REV_NOT_FOUND');
    assert.match(err?.message ?? '', 'is a tree, not a commit');
  }));

test('readRef returns the oid, or null for a missing branch and for HEAD of an empty repo', async () => {
  const empty = makeTempRepo();
  try {
    const repo = await openRepo(empty.path);
    assert.is(await readRef(repo, 'HEAD'), null);
    assert.is(await readRef(repo, 'refs/heads/main'), null);
  } finally {
    empty.cleanup();
  }
  await withHistory(async (temp, first) => {
    const repo = await openRepo(temp.path);
    assert.is(await readRef(repo, 'refs/heads/feature'), first);
    assert.is(await readRef(repo, 'feature'), first);
    assert.is(await readRef(repo, 'refs/heads/nope'), null);
  });
});

test.run();
