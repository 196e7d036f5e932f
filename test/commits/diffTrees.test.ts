import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffTrees } from '../../src/commits/diffTrees.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { TreeChange } from '../../src/commits/types.ts';
import {
  commitAll,
  makeTempRepo,
  removeLooseObject,
  writeBlob,
  writeLiteralTree,
  writeTreeBomb,
  writeTreeChain,
  writeWorkTree,
  type TempRepo,
} from './helpers/tempRepo.ts';
import { TreeTooLargeError } from '../../src/commits/TreeTooLargeError.ts';

/** `git diff-tree -r` in our shape: the oracle. */
function nativeDiff(temp: TempRepo, from: string, to: string): TreeChange[] {
  const fields = temp.git(['diff-tree', '-r', '-z', '--no-renames', from, to]).split('\0');
  const out: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode, newMode, oldOid, newOid] = fields[i]!.slice(1).split(' ') as [string, string, string, string];
    const change: TreeChange = { path: fields[i + 1]! };
    if (!/^0+$/.test(oldOid)) Object.assign(change, { oldOid, oldMode });
    if (!/^0+$/.test(newOid)) Object.assign(change, { newOid, newMode });
    out.push(change);
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const treeOf = (temp: TempRepo, rev: string) => temp.git(['rev-parse', `${rev}^{tree}`]).trim();

test('matches git diff-tree -r for adds, edits, deletes, mode changes and file<->directory swaps', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, {
      'keep/a.yaml': 'same',
      'edit/b.yaml': 'old',
      'gone/c.yaml': 'bye',
      'gone/deeper/d.yaml': 'bye too',
      'becomes-dir': 'file first',
      'becomes-file/x.yaml': 'dir first',
      'mode.sh': 'echo',
    });
    const before = commitAll(temp);
    writeWorkTree(temp, {
      'edit/b.yaml': 'new',
      gone: null,
      'becomes-dir': null,
      'becomes-file': null,
    });
    writeWorkTree(temp, { 'becomes-dir/inner.yaml': 'now a dir', 'becomes-file': 'now a file', 'new/e.yaml': 'hi' });
    fs.chmodSync(path.join(temp.path, 'mode.sh'), 0o755);
    const after = commitAll(temp);

    const repo = await openRepo(temp.path);
    const ours = await diffTrees(repo, treeOf(temp, before), treeOf(temp, after));
    assert.equal(ours, nativeDiff(temp, before, after));
    assert.is(ours.length, 9);
    assert.equal(await diffTrees(repo, treeOf(temp, after), treeOf(temp, after)), []);
  } finally {
    temp.cleanup();
  }
});

test('a null old tree lists every file as added', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'a/b/c.yaml': '1', 'a/d.yaml': '2', 'e.yaml': '3' });
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const tree = treeOf(temp, 'HEAD');
    const files = await listTreeFiles(repo, tree);
    assert.equal(
      await diffTrees(repo, null, tree),
      [...files].map(([p, f]) => ({ path: p, newOid: f.oid, newMode: f.mode })),
    );
  } finally {
    temp.cleanup();
  }
});

test('1 changed file among many: reads only the trees on that path (the others are deleted from disk)', async () => {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {};
    for (let c = 0; c < 20; c++) for (let f = 0; f < 25; f++) files[`clusters/member${c}/obj${f}.yaml`] = `c${c} f${f}`;
    writeWorkTree(temp, files);
    const before = commitAll(temp);
    writeWorkTree(temp, { 'clusters/member7/obj3.yaml': 'changed' });
    const after = commitAll(temp);

    // Delete every tree object the diff must not need: all cluster subtrees except member7's.
    for (let c = 0; c < 20; c++) {
      if (c !== 7) removeLooseObject(temp, temp.git(['rev-parse', `${after}:clusters/member${c}`]).trim());
    }
    const repo = await openRepo(temp.path);
    const changes = await diffTrees(repo, treeOf(temp, before), treeOf(temp, after));
    assert.equal(
      changes.map((c) => c.path),
      ['clusters/member7/obj3.yaml'],
    );
    assert.is(changes[0]?.newOid, temp.git(['rev-parse', `${after}:clusters/member7/obj3.yaml`]).trim());
    // Control: a full listing now fails, so the diff above really did skip those trees.
    const listing = await listTreeFiles(repo, treeOf(temp, after)).then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );
    assert.is(listing, 'NotFoundError');
  } finally {
    temp.cleanup();
  }
});

test('a folder of hundreds of entries: what changed among them matches git diff-tree -r, first and last included', async () => {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {};
    for (let n = 0; n < 300; n++) files[`namespaces/ns-${String(n).padStart(3, '0')}/app.yaml`] = `n${n}`;
    files['namespaces/ns-150b'] = 'a file first';
    files['namespaces/z-last.yaml'] = 'last';
    writeWorkTree(temp, files);
    const before = commitAll(temp);
    writeWorkTree(temp, {
      'namespaces/ns-000/app.yaml': 'first changed',
      'namespaces/ns-150b': null,
      'namespaces/ns-201': null,
      'namespaces/z-last.yaml': null,
    });
    writeWorkTree(temp, {
      'namespaces/ns-150b/app.yaml': 'a folder now',
      'namespaces/ns-150a/new.yaml': 'added',
      'namespaces/ns-299/app.yaml': 'changed',
      'namespaces/zz-after.yaml': 'added last',
    });
    const after = commitAll(temp);
    const repo = await openRepo(temp.path);
    const ours = await diffTrees(repo, treeOf(temp, before), treeOf(temp, after));
    assert.equal(ours, nativeDiff(temp, before, after));
    assert.equal(
      ours.map((c) => c.path),
      [
        'namespaces/ns-000/app.yaml',
        'namespaces/ns-150a/new.yaml',
        'namespaces/ns-150b',
        'namespaces/ns-150b/app.yaml',
        'namespaces/ns-201/app.yaml',
        'namespaces/ns-299/app.yaml',
        'namespaces/z-last.yaml',
        'namespaces/zz-after.yaml',
      ],
    );
  } finally {
    temp.cleanup();
  }
});

test('a tree whose entries are out of git order, or name a file twice, is diffed by name as before', async () => {
  const temp = makeTempRepo();
  try {
    const [one, two, three] = ['one', 'two', 'three'].map((text) => writeBlob(temp, text)) as [string, string, string];
    // Trees written without git's checks (a push to a repository that does not fsck what it receives).
    const tree = (entries: [name: string, oid: string][]) => writeLiteralTree(temp, entries);
    const sorted = tree([
      ['a.yaml', one],
      ['b.yaml', two],
    ]);
    const reversed = tree([
      ['b.yaml', two],
      ['a.yaml', one],
    ]);
    const reversedEdited = tree([
      ['b.yaml', three],
      ['a.yaml', one],
    ]);
    const twice = tree([
      ['a.yaml', one],
      ['a.yaml', three],
      ['b.yaml', two],
    ]);
    const repo = await openRepo(temp.path);
    assert.equal(await diffTrees(repo, sorted, reversed), []);
    assert.equal(await diffTrees(repo, sorted, reversedEdited), [
      { path: 'b.yaml', oldOid: two, oldMode: '100644', newOid: three, newMode: '100644' },
    ]);
    // Paired by name, the later entry of a name wins, as when every entry was decoded.
    assert.equal(await diffTrees(repo, sorted, twice), [
      { path: 'a.yaml', oldOid: one, oldMode: '100644', newOid: three, newMode: '100644' },
    ]);
  } finally {
    temp.cleanup();
  }
});

test('a bounded diff stops at its bound, counting each folder it compares as often as a tree names it', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const bomb = writeTreeBomb(temp, 1000, 3);
    const started = performance.now();
    const err = await diffTrees(repo, null, bomb, { maxEntries: 100_000 }).catch((e: unknown) => e);
    assert.instance(err, TreeTooLargeError);
    assert.is((err as TreeTooLargeError).data.entries, 1_001_000);
    assert.ok(performance.now() - started < 1000);
    // Counted per distinct pair of folders before the walk: the whole count, at a bound no walk could reach here.
    const whole = await diffTrees(repo, null, bomb, { maxEntries: 1_000_000_000 }).catch((e: unknown) => e);
    assert.is((whole as TreeTooLargeError).data.entries, 1_001_001_000);
    // Gone in the new tree, the bomb is as large to walk.
    const empty = temp.git(['mktree'], { input: '' }).trim();
    assert.instance(
      await diffTrees(repo, bomb, empty, { maxEntries: 100_000 }).catch((e: unknown) => e),
      TreeTooLargeError,
    );
    // Two folders of a thousand files that differ in one, each named a thousand times: the few entries that differ
    // are a few thousand, the entries compared two million.
    const same = writeBlob(temp, 'same\n');
    const files = (blob: string) =>
      Array.from({ length: 1000 }, (_, i) => `100644 blob ${i === 0 ? blob : same}\tf${i}\n`).join('');
    const folder = (blob: string) => temp.git(['mktree'], { input: files(blob) }).trim();
    const named = (tree: string) =>
      temp
        .git(['mktree'], { input: Array.from({ length: 1000 }, (_, i) => `040000 tree ${tree}\td${i}\n`).join('') })
        .trim();
    const before = named(folder(writeBlob(temp, 'a\n')));
    const after = named(folder(writeBlob(temp, 'b\n')));
    assert.instance(
      await diffTrees(repo, before, after, { maxEntries: 100_000 }).catch((e: unknown) => e),
      TreeTooLargeError,
    );
    assert.is((await diffTrees(repo, before, after, { maxEntries: 2_002_000 })).length, 1000);
    assert.instance(
      await diffTrees(repo, before, after, { maxEntries: 2_001_999 }).catch((e: unknown) => e),
      TreeTooLargeError,
    );
  } finally {
    temp.cleanup();
  }
});

test('a chain of folders thousands deep is diffed without growing the stack', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const changes = await diffTrees(repo, null, writeTreeChain(temp, 3000));
    assert.is(changes.length, 1);
    assert.is(changes[0]!.path.split('/').length, 3000);
  } finally {
    temp.cleanup();
  }
});

test('a bounded diff refuses a path over 4096 bytes', async () => {
  const temp = makeTempRepo();
  try {
    commitAll(temp);
    const repo = await openRepo(temp.path);
    assert.is((await diffTrees(repo, null, writeTreeChain(temp, 2048), { maxEntries: 10_000 }))[0]!.path.length, 4095);
    const over = writeTreeChain(temp, 2049);
    const err = await diffTrees(repo, null, over, { maxEntries: 10_000 }).catch((e: unknown) => e);
    assert.is((err as TreeTooLargeError).data.kind, 'path');
    assert.is((await diffTrees(repo, null, over)).length, 1);
  } finally {
    temp.cleanup();
  }
});

test.run();
