import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { diffTrees } from '../../src/commits/diffTrees.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { TreeChange } from '../../src/commits/types.ts';
import { commitAll, makeTempRepo, removeLooseObject, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';

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

test.run();
