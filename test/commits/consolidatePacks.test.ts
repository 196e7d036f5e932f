import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  consolidatePacks,
  MAX_MERGED_BYTES,
  PACK_LIMIT,
  packsToMerge,
  type PackFile,
} from '../../src/commits/consolidatePacks.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readObject } from '../../src/commits/readObject.ts';
import { bytes, commitAll, makeTempRepo, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';

const packDir = (temp: TempRepo) => path.join(temp.gitdir, 'objects', 'pack');
const indexes = (temp: TempRepo) =>
  fs
    .readdirSync(packDir(temp))
    .filter((f) => f.endsWith('.idx'))
    .sort();
const packs = (sizes: number[]): PackFile[] => sizes.map((bytes, i) => ({ name: `pack-${i}`, bytes }));
const names = (list: PackFile[]) => list.map((p) => p.name).sort();

/** `count` packs of `perPack` blobs each, written as a sync writes them; returns every blob's id and content. */
async function writePacks(temp: TempRepo, count: number, perPack: number, tag: string): Promise<Map<string, string>> {
  const repo = await openRepo(temp.path);
  const written = new Map<string, string>();
  for (let p = 0; p < count; p++) {
    const pack = new PackWriter(repo);
    for (let b = 0; b < perPack; b++) {
      const text = `${tag} pack ${p} blob ${b}\n`;
      written.set(pack.add('blob', bytes(text)), text);
    }
    await pack.flush();
  }
  return written;
}

test('packs are merged only past the limit, the smallest first, keeping larger ones that double each other', () => {
  assert.equal(packsToMerge(packs(Array(PACK_LIMIT).fill(1000))), [], 'at the limit: nothing');
  assert.equal(names(packsToMerge(packs(Array(PACK_LIMIT + 1).fill(1000)))).length, PACK_LIMIT + 1, 'equal: all');
  // A cold render's large pack and a geometric tail stay; the run of similar small ones below them is merged.
  const sizes = [1 << 30, 1 << 22, 1 << 20, ...Array(PACK_LIMIT).fill(1000)];
  const merged = packsToMerge(packs(sizes));
  assert.equal(names(merged), names(packs(sizes).slice(3)));
  // Packs already in a geometric progression: merging would copy much for little.
  assert.equal(packsToMerge(packs(Array.from({ length: PACK_LIMIT + 2 }, (_, i) => 1000 * 2 ** i))), []);
  // The merged pack would outgrow the next one: that one goes in too.
  const absorbed = packsToMerge(packs([...Array(PACK_LIMIT).fill(1000), 20_000]));
  assert.is(absorbed.length, PACK_LIMIT + 1);
  // Never a pack past the size cap, whatever the rest.
  const capped = packsToMerge(packs([MAX_MERGED_BYTES, MAX_MERGED_BYTES + 1, ...Array(PACK_LIMIT).fill(1000)]));
  assert.ok(capped.every((p) => p.bytes < MAX_MERGED_BYTES));
  assert.is(capped.length, PACK_LIMIT);
});

test('merging small packs keeps every object readable, by git and by a reader opened before the merge', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    const blobs = await writePacks(temp, PACK_LIMIT - 1, 3, 'before');
    const repo = await openRepo(temp.path);
    const [someOid] = blobs.keys();
    assert.is(readObject(repo, someOid!).type, 'blob', 'the reader has looked at the packs before the merge');
    // The next flushes go past the limit: the flush merges.
    for (const [oid, text] of await writePacks(temp, 2, 3, 'after')) blobs.set(oid, text);
    assert.ok(indexes(temp).length < PACK_LIMIT / 2, `${indexes(temp).length} packs left`);
    assert.ok(!fs.readdirSync(packDir(temp)).some((f) => f.startsWith('tmp_') || f.endsWith('.lock')));
    temp.git(['fsck', '--strict', '--no-dangling']);
    for (const idx of indexes(temp)) temp.git(['verify-pack', path.join(packDir(temp), idx)]);
    for (const [oid, text] of blobs) {
      assert.is(temp.git(['cat-file', 'blob', oid]), text);
      assert.is(Buffer.from(readObject(repo, oid).content).toString(), text, 'the reader opened before the merge');
      const fresh = await openRepo(temp.path);
      assert.is(Buffer.from(readObject(fresh, oid).content).toString(), text);
    }
  } finally {
    temp.cleanup();
  }
});

test("git's own packs (deltas against bases in the same pack) are merged with their offsets intact", async () => {
  const temp = makeTempRepo();
  try {
    // Versions of one large file: `git repack` stores most of them as deltas (OFS_DELTA) against another.
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of a file that changes a little each commit`);
    for (let v = 0; v < 4; v++) {
      lines[v * 7] = `changed in version ${v}`;
      writeWorkTree(temp, { 'big.txt': `${lines.join('\n')}\n` });
      commitAll(temp, `v${v}`);
    }
    temp.git(['repack', '-a', '-d', '-q']);
    const verified = temp.git(['verify-pack', '-v', path.join(packDir(temp), indexes(temp).at(-1)!)]);
    assert.match(verified, /chain length = 1/, 'the packs hold deltas');
    const objects = temp.git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).trim().split('\n');
    await writePacks(temp, PACK_LIMIT, 50, 'ours'); // together larger than git's pack
    assert.is(indexes(temp).length, 1, "git's pack merged with ours");
    temp.git(['fsck', '--strict', '--no-dangling']);
    const fresh = await openRepo(temp.path);
    for (const oid of objects)
      assert.ok(
        Buffer.from(readObject(fresh, oid).content).equals(
          temp.gitBytes(['cat-file', temp.git(['cat-file', '-t', oid]).trim(), oid]),
        ),
      );
    assert.is(temp.git(['log', '--format=%s']), 'v3\nv2\nv1\nv0\n');
  } finally {
    temp.cleanup();
  }
});

test('a pack git keeps (.keep), and one whose checksum is wrong, are never merged nor removed', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    await writePacks(temp, PACK_LIMIT, 2, 'first');
    const [kept, damaged] = indexes(temp).map((f) => f.replace(/\.idx$/, ''));
    fs.writeFileSync(path.join(packDir(temp), `${kept}.keep`), '');
    // One byte of an entry flipped: the pack no longer matches its trailing checksum.
    const file = path.join(packDir(temp), `${damaged}.pack`);
    fs.chmodSync(file, 0o644);
    const content = fs.readFileSync(file);
    content[20] = content[20]! ^ 0xff;
    fs.writeFileSync(file, content);
    const before = indexes(temp);
    const repo = await openRepo(temp.path);
    await consolidatePacks(repo, PACK_LIMIT - 2).then(
      () => assert.unreachable('the damaged pack is merged'),
      (err: Error) => assert.match(err.message, /checksum does not match/),
    );
    assert.equal(indexes(temp), before, 'nothing removed when a merge fails');
    assert.ok(!fs.readdirSync(packDir(temp)).some((f) => f.startsWith('tmp_') || f.endsWith('.lock')));
    fs.rmSync(file);
    fs.rmSync(path.join(packDir(temp), `${damaged}.idx`));
    const merged = await consolidatePacks(repo, PACK_LIMIT - 3);
    assert.ok(merged && merged.merged === PACK_LIMIT - 2, JSON.stringify(merged));
    assert.ok(indexes(temp).includes(`${kept}.idx`), 'the kept pack stays');
    assert.is(indexes(temp).length, 2);
  } finally {
    temp.cleanup();
  }
});

test('packs a multi-pack index names are left to git', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    await writePacks(temp, PACK_LIMIT, 1, 'x');
    temp.git(['multi-pack-index', 'write']);
    await writePacks(temp, 2, 1, 'y');
    assert.is(indexes(temp).length, PACK_LIMIT + 2);
    temp.git(['multi-pack-index', 'verify']);
  } finally {
    temp.cleanup();
  }
});

test('another merge in progress (its lock file) is left to finish', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    await writePacks(temp, PACK_LIMIT - 1, 1, 'x');
    const lock = path.join(packDir(temp), 'flotilla-merge.lock');
    fs.writeFileSync(lock, '');
    await writePacks(temp, 3, 1, 'y');
    assert.is(indexes(temp).length, PACK_LIMIT + 2, 'no merge while another holds the lock');
    // A lock left by a process that died long ago is taken over.
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(lock, old, old);
    await writePacks(temp, 1, 1, 'z');
    assert.ok(indexes(temp).length < PACK_LIMIT, `${indexes(temp).length} packs left`);
    assert.not.ok(fs.existsSync(lock));
  } finally {
    temp.cleanup();
  }
});

test.run();
