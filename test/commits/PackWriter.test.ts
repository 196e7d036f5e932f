import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import git from 'isomorphic-git';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readBlob } from '../../src/commits/readBlob.ts';
import { renderTree } from '../../src/commits/renderTree.ts';
import { bytes, commitAll, makeTempRepo, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';

const packFiles = (temp: TempRepo) => fs.readdirSync(path.join(temp.gitdir, 'objects', 'pack')).sort();

test('one flush writes one .pack + .idx that native git reads and fsck --strict accepts', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const big = randomBytes(1_500_000); // multi-byte size header
    const blobs = [bytes('alpha\n'), bytes(''), big, bytes('beta\n')].map((c) => ({ c, oid: pack.add('blob', c) }));
    const tree = pack.add('tree', renderTree(blobs.map((b, i) => ({ name: `f${i}`, mode: '100644', oid: b.oid }))));
    assert.is(pack.add('blob', bytes('alpha\n')), blobs[0]!.oid, 'same content, same oid');
    assert.is(pack.size, 5);

    const result = await pack.flush();
    assert.is(result.written, 5);
    assert.is(result.skipped, 0);
    assert.is(pack.size, 0);
    const names = packFiles(temp);
    assert.is(names.length, 2);
    assert.ok(result.packFile?.endsWith('.pack'));
    assert.equal(names, [path.basename(result.packFile!).replace(/pack$/, 'idx'), path.basename(result.packFile!)]);

    temp.git(['fsck', '--strict', '--no-dangling']);
    temp.git(['verify-pack', result.packFile!]);
    for (const b of blobs) assert.ok(temp.gitBytes(['cat-file', 'blob', b.oid]).equals(b.c));
    assert.is(temp.git(['cat-file', '-s', blobs[2]!.oid]).trim(), String(big.length));
    assert.is(temp.git(['cat-file', '-t', tree]).trim(), 'tree');
    assert.is(temp.git(['ls-tree', '--name-only', tree]), 'f0\nf1\nf2\nf3\n');
  } finally {
    temp.cleanup();
  }
});

test('a pack larger than the compressor takes at once is written out while objects are still being added', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const tree = renderTree([{ name: 'a', mode: '100644', oid: pack.add('blob', bytes('a\n')) }]);
    const treeOid = pack.add('tree', tree);
    // 24 MiB of distinct blobs: more batches than may wait on the compressor, so some are on disk already.
    const oids: string[] = [];
    for (let i = 0; i < 96; i++) oids.push(pack.add('blob', randomBytes(256 * 1024))); // incompressible
    const temps = packFiles(temp).filter((n) => n.startsWith('tmp_pack_'));
    assert.is(temps.length, 1);
    assert.ok(fs.statSync(path.join(temp.gitdir, 'objects', 'pack', temps[0]!)).size > 1024 * 1024);
    assert.ok(Buffer.from(pack.get(treeOid)!.content).equals(tree), 'a queued tree reads back, written out or not');
    const { written, packFile } = await pack.flush();
    assert.is(written, 98);
    assert.equal(
      packFiles(temp).filter((n) => n.startsWith('tmp_pack_')),
      [],
    );
    temp.git(['verify-pack', packFile!]);
    assert.is(temp.git(['cat-file', '-s', oids[95]!]).trim(), String(256 * 1024));
  } finally {
    temp.cleanup();
  }
});

test('the .idx is byte-identical to the one git index-pack builds from our .pack', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    for (let i = 0; i < 300; i++) pack.add('blob', bytes(`object ${i}\n`.repeat(i % 7)));
    const { packFile } = await pack.flush();
    const ours = fs.readFileSync(packFile!.replace(/pack$/, 'idx'));
    const theirs = path.join(path.dirname(temp.gitdir), 'native.idx');
    temp.git(['index-pack', '-o', theirs, packFile!]);
    assert.ok(ours.equals(fs.readFileSync(theirs)));
  } finally {
    temp.cleanup();
  }
});

test('a pack written after isomorphic-git already used the shared cache is visible to later reads', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const first = new PackWriter(repo);
    const a = first.add('blob', bytes('first pack'));
    await first.flush();
    assert.equal(Buffer.from(await readBlob(repo, a)).toString(), 'first pack'); // warms the pack cache

    const second = new PackWriter(repo);
    const b = second.add('blob', bytes('second pack'));
    await second.flush();
    assert.is(Buffer.from(await readBlob(repo, b)).toString(), 'second pack');
    const viaIso = await git.readObject({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid: b,
      cache: repo.cache,
      format: 'content',
    });
    assert.is(Buffer.from(viaIso.object as Uint8Array).toString(), 'second pack');
  } finally {
    temp.cleanup();
  }
});

test('objects the repo already has, loose or packed, are not written again', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'loose.txt': 'made by git\n' });
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const loose = temp.git(['rev-parse', 'HEAD:loose.txt']).trim();

    const first = new PackWriter(repo);
    assert.is(first.add('blob', bytes('made by git\n')), loose);
    const packed = first.add('blob', bytes('packed by us\n'));
    const flushed = await first.flush();
    assert.equal(flushed, { packFile: packFilePath(temp), written: 1, skipped: 1 });

    const again = new PackWriter(repo);
    again.add('blob', bytes('made by git\n'));
    again.add('blob', bytes('packed by us\n'));
    assert.equal(await again.flush(), { packFile: null, written: 0, skipped: 2 });
    assert.is(packFiles(temp).length, 2, 'no second pack');
    assert.is(temp.git(['cat-file', '-t', packed]).trim(), 'blob');
  } finally {
    temp.cleanup();
  }
});

test('a writer lists each loose object directory once, however many batches it checks, and still skips what is there', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    // Loose objects in many fan-out directories, as a repository that took pushes has.
    const loose = temp
      .git(['hash-object', '-w', '--stdin-paths'], {
        input: Array.from({ length: 64 }, (_, i) => {
          const file = path.join(temp.path, `in-${i}`);
          fs.writeFileSync(file, `loose ${i}\n`);
          return file;
        }).join('\n'),
      })
      .trim()
      .split('\n');
    const listings = new Map<string, number>();
    const counting = new Proxy(fs, {
      get(target, key) {
        if (key !== 'readdirSync') return Reflect.get(target, key);
        return (dir: fs.PathLike, ...rest: unknown[]) => {
          listings.set(String(dir), (listings.get(String(dir)) ?? 0) + 1);
          return (target.readdirSync as (...a: unknown[]) => unknown)(dir, ...rest);
        };
      },
    });
    const repo = await openRepo(temp.path, counting);
    const pack = new PackWriter(repo);
    // Three checks of the repository's objects: two settles and the flush.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 200; i++) pack.addBlob(`round ${round} blob ${i}\n`);
      for (let i = round; i < 64; i += 3) pack.addBlob(`loose ${i}\n`);
      if (round < 2) await pack.settle();
    }
    assert.equal(await pack.flush(), { packFile: packFilePath(temp), written: 600, skipped: 64 });
    const objectDirs = [...listings].filter(([dir]) => /objects(\/[0-9a-f]{2})?$/.test(dir));
    assert.ok(objectDirs.length > 10, 'the fan-out directories were looked at');
    assert.equal(
      objectDirs.filter(([, n]) => n > 1),
      [],
      'each listed once',
    );
    for (const oid of loose) assert.is(temp.git(['cat-file', '-t', oid]).trim(), 'blob');
  } finally {
    temp.cleanup();
  }
});

test("blobs added by entry get git's ids once settled, on the compressor's thread past one batch: equal ones and ones the repo has are written once", async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'loose.txt': 'made by git\n' });
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    // ~3 MB of text: several batches, so most ids come from the worker; every tenth a repeat, one the repo's own.
    const texts = Array.from({ length: 6000 }, (_, i) =>
      i % 10 === 9 ? `repeat ${i % 3}\n` : `kind: ConfigMap\nname: cm-${i} ünï\n${'data: x\n'.repeat(i % 60)}`,
    );
    texts.push('made by git\n');
    const entries = texts.map((t, i) => (i % 2 === 0 ? pack.addBlob(t) : pack.addBlob(Buffer.from(t, 'utf8'))));
    assert.throws(() => pack.oidOf(entries.at(-1)!), /settle/, 'no id before settle');
    await pack.settle();
    const oids = entries.map((e) => pack.oidOf(e));
    const distinct = new Set(oids);
    const { written, skipped } = await pack.flush();
    assert.is(written, distinct.size - 1);
    assert.is(skipped, 1);
    assert.is(oids[1], temp.git(['hash-object', '--stdin'], { input: texts[1]! }).trim());
    texts.forEach((t, i) => {
      if (i % 500 === 0 || i % 10 === 9 || i === texts.length - 1)
        assert.ok(temp.gitBytes(['cat-file', 'blob', oids[i]!]).equals(Buffer.from(t, 'utf8')), `blob ${i}`);
    });
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

function packFilePath(temp: TempRepo): string {
  const name = packFiles(temp).find((n) => n.endsWith('.pack'))!;
  return path.join(temp.gitdir, 'objects', 'pack', name);
}

test('flushing nothing writes nothing', async () => {
  const temp = makeTempRepo();
  try {
    const pack = new PackWriter(await openRepo(temp.path));
    assert.equal(await pack.flush(), { packFile: null, written: 0, skipped: 0 });
    assert.equal(packFiles(temp), []);
  } finally {
    temp.cleanup();
  }
});

test('a failed flush leaves no temp file and writes no pack, then or later; a new writer writes the objects', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    let failures = 1;
    const flaky = {
      ...fs,
      renameSync: (from: fs.PathLike, to: fs.PathLike) => {
        if (failures-- > 0) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        return fs.renameSync(from, to);
      },
    } as typeof fs;
    const pack = new PackWriter({ ...repo, fs: flaky });
    const oid = pack.add('blob', bytes('retry me'));
    const err = await pack.flush().catch((e: { code?: string }) => e.code);
    assert.is(err, 'ENOSPC');
    assert.equal(packFiles(temp), []);
    // Its objects went to the temp pack that is gone: the same writer must not write a pack without them.
    assert.is(await pack.flush().catch((e: { code?: string }) => e.code), 'ENOSPC');
    assert.equal(packFiles(temp), []);
    const again = new PackWriter(repo);
    again.add('blob', bytes('retry me'));
    assert.is((await again.flush()).written, 1);
    assert.is(temp.git(['cat-file', 'blob', oid]), 'retry me');
  } finally {
    temp.cleanup();
  }
});

test.run();
