import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { TreeTooLargeError } from '../../src/commits/TreeTooLargeError.ts';
import { commitAll, lsTree, makeTempRepo, writeTreeBomb, writeWorkTree } from './helpers/tempRepo.ts';

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
    assert.ok(data.entries > 100_000 && data.entries <= 101_000, `${data.entries}`);
    assert.match(data.path, /^n\d+\/n\d+$/);
    assert.ok(performance.now() - started < 1000);
    // Within the bound the same walk lists every path; without one, anything.
    const small = writeTreeBomb(temp, 10, 3);
    assert.is((await listTreeFiles(repo, small, { maxEntries: 1110 })).size, 1000);
    assert.instance(await listTreeFiles(repo, small, { maxEntries: 1109 }).catch((e: unknown) => e), TreeTooLargeError);
    assert.is((await listTreeFiles(repo, small)).size, 1000);
  } finally {
    temp.cleanup();
  }
});

test.run();
