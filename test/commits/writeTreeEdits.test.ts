import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { TreeEdits } from '../../src/commits/TreeEdits.ts';
import { EMPTY_TREE_OID } from '../../src/commits/types.ts';
import { writeTreeEdits, type FileEdit } from '../../src/commits/writeTreeEdits.ts';
import {
  bytes,
  commitAll,
  makeTempRepo,
  removeLooseObject,
  writeBlob,
  writeLiteralTree,
  writeWorkTree,
  type TempRepo,
} from './helpers/tempRepo.ts';

const edits = (files: Record<string, string | null>) =>
  new Map(Object.entries(files).map(([p, c]) => [p, c === null ? null : bytes(c)]));

/** What native git makes of the same edits applied to its work tree and index. */
function nativeTree(temp: TempRepo, files: Record<string, string | null>): string {
  writeWorkTree(temp, files);
  temp.git(['add', '-A']);
  return temp.git(['write-tree']).trim();
}

// Names that exercise git's order: 'a.b' < 'a/' (tree a) < 'a0', multi-byte and astral UTF-8.
const TRICKY: Record<string, string> = {
  'a.b': '1',
  'a/x.yaml': '2',
  a0: '3',
  'a-b/c': '4',
  'é/ü.yaml': '5',
  '\u{1F680}.yaml': '6',
  '\uFF21.yaml': '7',
  'clusters/member1/deploy.yaml': '8',
  'clusters/member1.yaml': '9',
};

test('from an empty base: same root tree oid as git write-tree, and fsck --strict clean', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, null, edits(TRICKY));
    await pack.flush();
    assert.is(root, nativeTree(temp, TRICKY));
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('a blob the caller packed itself ({ blob: oid }) lands in the tree as if its bytes had been given', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const oid = pack.add('blob', bytes('packed while rendering\n'));
    const root = await writeTreeEdits(
      repo,
      pack,
      null,
      new Map<string, FileEdit>([
        ['clusters/m1/a.yaml', { blob: oid }],
        ['b.txt', 'text\n'],
      ]),
    );
    await pack.flush();
    assert.is(root, nativeTree(temp, { 'clusters/m1/a.yaml': 'packed while rendering\n', 'b.txt': 'text\n' }));
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('a blob the caller packed by entry (addBlob), as bytes or as text, lands in the tree as if its bytes had been given', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const entry = pack.addBlob(bytes('packed while rendering\n'));
    const again = pack.addBlob('packed while rendering\n');
    const root = await writeTreeEdits(
      repo,
      pack,
      null,
      new Map<string, FileEdit>([
        ['clusters/m1/a.yaml', entry],
        ['clusters/m1/b.yaml', again],
        ['clusters/m2/c.yaml', 'text\n'],
      ]),
    );
    await pack.flush();
    assert.is(
      root,
      nativeTree(temp, {
        'clusters/m1/a.yaml': 'packed while rendering\n',
        'clusters/m1/b.yaml': 'packed while rendering\n',
        'clusters/m2/c.yaml': 'text\n',
      }),
    );
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('edits handed over (consume) are cleared once read, and give the same tree', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const handed = edits(TRICKY);
    const root = await writeTreeEdits(repo, pack, null, handed, { consume: true });
    await pack.flush();
    assert.is(handed.size, 0);
    assert.is(root, nativeTree(temp, TRICKY));
  } finally {
    temp.cleanup();
  }
});

test('edits kept as folders (TreeEdits) give the tree a map gives, and are emptied when handed over', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const handed = new TreeEdits<FileEdit>();
    for (const [path, content] of edits(TRICKY)) handed.set(path, content);
    const root = await writeTreeEdits(repo, pack, null, handed, { consume: true });
    await pack.flush();
    assert.is(handed.size, 0);
    assert.is(root, nativeTree(temp, TRICKY));
    for (const bad of ['a//b', 'a/', './a', 'x/.GIT/y']) {
      const refused = new TreeEdits<FileEdit>().set(bad, bytes('x'));
      const err = await writeTreeEdits(repo, pack, null, refused).catch((e: Error) => e.message);
      assert.match(String(err), 'invalid path', bad);
    }
    const retaken = new TreeEdits<FileEdit>().set('a/b', bytes('below'));
    retaken.delete('a/b');
    retaken.set('a', bytes('file'));
    assert.is(
      await writeTreeEdits(repo, pack, null, retaken),
      await writeTreeEdits(repo, pack, null, edits({ a: 'file' })),
      'a folder deleted empty',
    );
    const both = new TreeEdits<FileEdit>().set('a', bytes('file')).set('a/b', bytes('below'));
    assert.match(String(await writeTreeEdits(repo, pack, null, both).catch((e: Error) => e.message)), 'conflict');
  } finally {
    temp.cleanup();
  }
});

test('edits on a base: writes, deletes, and directories left empty disappear, matching git', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, TRICKY);
    commitAll(temp);
    const base = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    const change = {
      'a/x.yaml': null, // last file of a/ -> a/ vanishes
      'é/ü.yaml': null, // last file of é/ -> é/ vanishes
      'clusters/member1/deploy.yaml': 'changed',
      'clusters/member2/new/deep.yaml': 'new dirs',
      a0: null,
      'never-existed/x': null, // deleting what is not there is a no-op
    };
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, base, edits(change));
    await pack.flush();
    assert.is(root, nativeTree(temp, change));
    const files = [...(await listTreeFiles(repo, root)).keys()];
    assert.not.ok(files.some((f) => f.startsWith('a/') || f.startsWith('é/') || f.startsWith('never-existed')));
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('reads only trees along edited paths: untouched subtrees may be missing from disk', async () => {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {};
    for (let c = 0; c < 30; c++) for (let f = 0; f < 10; f++) files[`clusters/m${c}/o${f}.yaml`] = `${c}/${f}`;
    writeWorkTree(temp, files);
    commitAll(temp);
    const base = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    for (let c = 0; c < 30; c++)
      if (c !== 4) removeLooseObject(temp, temp.git(['rev-parse', `HEAD:clusters/m${c}`]).trim());
    const change = { 'clusters/m4/o1.yaml': 'edited', 'clusters/m4/o2.yaml': null, 'clusters/new/x.yaml': 'added' };
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, base, edits(change));
    // Only now ask git (write-tree would re-create the deleted subtrees from its index).
    assert.is(root, nativeTree(temp, change));
    // New: 2 blobs, m4, new, clusters, root. Nothing else was rewritten.
    assert.is(pack.size, 6);
  } finally {
    temp.cleanup();
  }
});

test('changing only files that exist patches each tree on the path in place: the same bytes git writes', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, TRICKY);
    commitAll(temp);
    const change = {
      'a/x.yaml': 'edited',
      'a.b': 'also',
      'clusters/member1/deploy.yaml': 'again',
      '\u{1F680}.yaml': 'astral',
    };
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, temp.git(['rev-parse', 'HEAD^{tree}']).trim(), edits(change));
    await pack.flush();
    assert.is(root, nativeTree(temp, change));
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('entries that come, go or turn from file to folder are spliced into the folders read: the same trees git writes', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, TRICKY);
    commitAll(temp);
    let base = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    const repo = await openRepo(temp.path);
    // Names around the tricky ones' places in git's order, folders and files, first and last in their folder.
    const names = ['a', 'a.b', 'a0', 'a-b', 'a.a', '0', 'zz', 'é', '\u{1F680}.yaml', '\uFF21.yaml', 'clusters'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const state = new Map(Object.entries(TRICKY));
    const clash = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
    for (let round = 0; round < 16; round++) {
      const change: Record<string, string | null> = {};
      for (let k = 0; k < 4; k++) {
        const first = names[random(names.length)]!;
        const path = random(2) === 0 ? first : `${first}/${names[random(names.length)]}`;
        if (Object.keys(change).some((p) => clash(p, path))) continue;
        // A file written where a folder or a file of its folder's name was replaces them (git holds one of the two);
        // a deletion names each file.
        const write = random(3) > 0;
        for (const p of [...state.keys()])
          if (clash(p, path)) {
            if (!write) change[p] = null;
            state.delete(p);
          }
        if (write) state.set(path, (change[path] = `round ${round}`));
      }
      const pack = new PackWriter(repo);
      const root = await writeTreeEdits(repo, pack, base, edits(change));
      await pack.flush();
      // Git's tree of the whole state, from a work tree holding it and nothing else.
      for (const entry of fs.readdirSync(temp.path))
        if (entry !== '.git') fs.rmSync(path.join(temp.path, entry), { recursive: true });
      assert.is(root, nativeTree(temp, Object.fromEntries(state)), `round ${round}: ${JSON.stringify(change)}`);
      base = root;
    }
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test("a base tree out of git's order is not patched but written again in order, as before", async () => {
  const temp = makeTempRepo();
  try {
    // 'b' before 'a': only a tool that skips fsck writes this; the edit must still give git's tree.
    const base = writeLiteralTree(temp, [
      ['b', writeBlob(temp, 'b')],
      ['a', writeBlob(temp, 'a')],
    ]);
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, base, edits({ a: 'new a' }));
    await pack.flush();
    assert.is(root, nativeTree(temp, { a: 'new a', b: 'b' }));
  } finally {
    temp.cleanup();
  }
});

test('deleting everything gives the empty tree, which is written so commits on it are valid', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'd/x': '1', y: '2' });
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(
      repo,
      pack,
      temp.git(['rev-parse', 'HEAD^{tree}']).trim(),
      edits({ 'd/x': null, y: null }),
    );
    assert.is(root, EMPTY_TREE_OID);
    assert.is(pack.get(EMPTY_TREE_OID)?.type, 'tree');
    assert.is(await writeTreeEdits(repo, pack, null, new Map()), EMPTY_TREE_OID);
  } finally {
    temp.cleanup();
  }
});

test('deleting a directory path removes the whole directory; no-op edits keep the base oid', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'clusters/m1/a': '1', 'clusters/m1/b': '2', 'clusters/m2/a': '3' });
    commitAll(temp);
    const base = temp.git(['rev-parse', 'HEAD^{tree}']).trim();
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(repo, pack, base, edits({ 'clusters/m1': null }));
    assert.is(root, nativeTree(temp, { 'clusters/m1': null }));
    assert.is(await writeTreeEdits(repo, pack, base, edits({ 'clusters/m1/a': '1', 'nope/x': null })), base);
  } finally {
    temp.cleanup();
  }
});

test('a rewritten executable keeps mode 100755', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'bin/run.sh': 'v1' });
    fs.chmodSync(path.join(temp.path, 'bin/run.sh'), 0o755);
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const root = await writeTreeEdits(
      repo,
      pack,
      temp.git(['rev-parse', 'HEAD^{tree}']).trim(),
      edits({ 'bin/run.sh': 'v2' }),
    );
    await pack.flush();
    assert.is((await listTreeFiles(repo, root)).get('bin/run.sh')?.mode, '100755');
    assert.is(root, nativeTree(temp, { 'bin/run.sh': 'v2' }));
  } finally {
    temp.cleanup();
  }
});

test('a tree built but not flushed can be the base of the next edit', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const first = await writeTreeEdits(repo, pack, null, edits({ 'd/a': '1', 'd/b': '2' }));
    const second = await writeTreeEdits(repo, pack, first, edits({ 'd/b': null, 'e/c': '3' }));
    await pack.flush();
    assert.equal([...(await listTreeFiles(repo, second)).keys()], ['d/a', 'e/c']);
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('rejects paths git cannot store and contradictory edits', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    for (const bad of ['', '/abs', 'a//b', 'a/', './a', 'a/../b', '.git/config', 'x/.GIT/y']) {
      const err = await writeTreeEdits(repo, pack, null, edits({ [bad]: 'x' })).catch((e: Error) => e.message);
      assert.match(String(err), 'invalid path', bad);
    }
    const conflict = await writeTreeEdits(repo, pack, null, edits({ a: 'file', 'a/b': 'below' })).catch(
      (e: Error) => e.message,
    );
    assert.match(String(conflict), 'conflict');
    assert.is(pack.size, 0);
  } finally {
    temp.cleanup();
  }
});

test.run();
