import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { TreeTooLargeError } from '../../src/commits/TreeTooLargeError.ts';
import { commitAll, lsTree, makeTempRepo, writeTreeBomb, writeTreeChain, writeWorkTree } from './helpers/tempRepo.ts';

test('lists every blob recursively, with modes, exactly as git ls-tree -r does', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, {
      'top.yaml': 'a',
      'clusters/member1/web.yaml': 'b',
      'clusters/member1/deep/er/x.yaml': 'c',
      'clusters/member2/web.yaml': 'b',
      'with space/é ü.yaml': 'd',
      'a.b': 'e',
      'a/x': 'f',
      a0: 'g',
    });
    fs.writeFileSync(path.join(temp.path, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    fs.symlinkSync('top.yaml', path.join(temp.path, 'link'));
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const files = await listTreeFiles(repo, temp.git(['rev-parse', 'HEAD^{tree}']).trim());

    const expected = lsTree(temp, 'HEAD');
    assert.equal(new Map([...files].map(([p, f]) => [p, { mode: f.mode, oid: f.oid }])), expected);
    assert.is(files.get('run.sh')?.mode, '100755');
    assert.is(files.get('link')?.mode, '120000');
    assert.is(files.size, 10);
    // Iterates in path order regardless of read completion order.
    assert.equal([...files.keys()], [...files.keys()].sort());
  } finally {
    temp.cleanup();
  }
});

test('an empty tree lists nothing', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    assert.is((await listTreeFiles(repo, temp.git(['rev-parse', 'HEAD^{tree}']).trim())).size, 0);
  } finally {
    temp.cleanup();
  }
});

test('a bounded walk stops at its bound, counting a folder each time a tree names it, and names where it stopped', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    // 3 tree objects and a blob: a billion paths.
    const bomb = writeTreeBomb(temp, 1000, 3);
    const started = performance.now();
    const err = await listTreeFiles(repo, bomb, { maxEntries: 100_000 }).catch((e: unknown) => e);
    assert.instance(err, TreeTooLargeError);
    const { data } = err as TreeTooLargeError;
    assert.is(data.tree, bomb);
    assert.is(data.limit, 100_000);
    // Counted per distinct folder before the walk: the first folder past the bound, with all its paths.
    assert.is(data.entries, 1_001_000);
    assert.match(data.path, /^n\d+$/);
    assert.ok(performance.now() - started < 1000);
    // A bound no walk could reach in a test's time: the whole count, 1000 + 1000 × 1,001,000, from 3 trees read.
    const whole = await listTreeFiles(repo, bomb, { maxEntries: 1_000_000_000 }).catch((e: unknown) => e);
    assert.instance(whole, TreeTooLargeError);
    assert.equal((whole as TreeTooLargeError).data, {
      tree: bomb,
      kind: 'entries',
      entries: 1_001_001_000,
      limit: 1_000_000_000,
      path: '',
    });
    // Within the bound the same walk lists every path; without one, anything.
    const small = writeTreeBomb(temp, 10, 3);
    assert.is((await listTreeFiles(repo, small, { maxEntries: 1110 })).size, 1000);
    assert.instance(await listTreeFiles(repo, small, { maxEntries: 1109 }).catch((e: unknown) => e), TreeTooLargeError);
    assert.is((await listTreeFiles(repo, small)).size, 1000);
  } finally {
    temp.cleanup();
  }
});

test('a bounded walk refuses a path over 4096 bytes, as a checkout on Linux would', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    // `d/d/…/d`: 2n - 1 bytes for n folders and files.
    const fits = writeTreeChain(temp, 2048);
    assert.is([...(await listTreeFiles(repo, fits, { maxEntries: 10_000 })).keys()][0]!.length, 4095);
    const over = writeTreeChain(temp, 2049);
    const err = await listTreeFiles(repo, over, { maxEntries: 10_000 }).catch((e: unknown) => e);
    assert.instance(err, TreeTooLargeError);
    const { data, message } = err as TreeTooLargeError;
    assert.is(data.kind, 'path');
    assert.is(data.limit, 4096);
    assert.is(data.path.length, 201, 'the path named by its start');
    assert.match(message, 'over the 4096 a checkout can write');
    // A folder named at `y/` (4095 bytes) and at `x/a/` (4097): the deeper naming is past the bound.
    const short = writeTreeChain(temp, 2047);
    const twice = temp
      .git(['mktree'], { input: `040000 tree ${short}\ta\n040000 tree ${writeTreeChain(temp, 1)}\tb\n` })
      .trim();
    const deeper = temp.git(['mktree'], { input: `040000 tree ${twice}\tx\n040000 tree ${short}\ty\n` }).trim();
    assert.is(
      ((await listTreeFiles(repo, deeper, { maxEntries: 10_000 }).catch((e: unknown) => e)) as TreeTooLargeError).data
        .kind,
      'path',
    );
    // Without a bound, as before.
    assert.is((await listTreeFiles(repo, over)).size, 1);
  } finally {
    temp.cleanup();
  }
});

test.run();
