import { createHash, randomBytes } from 'node:crypto';
import nodeFs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existingObjects } from '../../src/commits/findExistingObjects.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { applyDelta, findInRun, indexPageEntries, readObject } from '../../src/commits/readObject.ts';
import { DamagedObjectError } from '../../src/commits/DamagedObjectError.ts';
import { bytes, commitAll, makeTempRepo, writeWorkTree, type TempRepo } from './helpers/tempRepo.ts';
import { countedReads } from '../helpers/countedReads.ts';

/** Every object git knows, with its type and bytes, from `git cat-file --batch-all-objects --batch`. */
function allObjects(temp: TempRepo): Map<string, { type: string; content: Buffer }> {
  const out = temp.gitBytes(['cat-file', '--batch-all-objects', '--batch']);
  const objects = new Map<string, { type: string; content: Buffer }>();
  let pos = 0;
  while (pos < out.length) {
    const eol = out.indexOf(0x0a, pos);
    const [oid, type, size] = out.toString('utf8', pos, eol).split(' ');
    const start = eol + 1;
    objects.set(oid!, { type: type!, content: out.subarray(start, start + Number(size)) });
    pos = start + Number(size) + 1;
  }
  return objects;
}

/** Ten commits of slowly changing YAML, so git's packer finds deltas (chains of them) between versions. */
function history(temp: TempRepo): void {
  for (let c = 0; c < 10; c++) {
    const files: Record<string, string> = {};
    for (let f = 0; f < 8; f++) {
      const lines = Array.from(
        { length: 60 },
        (_, i) => `  key${i}: value-${f}-${i}${i === c ? `-changed-in-${c}` : ''}`,
      );
      files[`dir${f % 3}/file${f}.yaml`] = `kind: ConfigMap\ndata:\n${lines.join('\n')}\n`;
    }
    writeWorkTree(temp, files);
    commitAll(temp, `commit ${c}`);
  }
  temp.git(['tag', '-a', '-m', 'annotated', 'v1']);
}

function assertReadsEverything(temp: TempRepo, repo: Awaited<ReturnType<typeof openRepo>>): number {
  const objects = allObjects(temp);
  for (const [oid, want] of objects) {
    const got = readObject(repo, oid);
    assert.is(got.type, want.type, `type of ${oid}`);
    assert.ok(got.content.equals(want.content), `content of ${oid} (${want.type})`);
  }
  return objects.size;
}

test('reads loose objects written by git', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    assert.ok(assertReadsEverything(temp, await openRepo(temp.path)) > 100);
  } finally {
    temp.cleanup();
  }
});

test('reads a pack git wrote with offset deltas, chains of them included', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    temp.git(['repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=50']);
    const stats = temp.git(['count-objects', '-v']);
    assert.match(stats, /^count: 0$/m); // nothing loose: every read below comes from the pack
    assertReadsEverything(temp, await openRepo(temp.path));
    const deltas = temp
      .git(['cat-file', '--batch-all-objects', '--batch-check=%(deltabase)'])
      .split('\n')
      .filter((l) => l && !/^0{40}$/.test(l));
    assert.ok(deltas.length > 20, `the pack holds deltas (${deltas.length})`);
  } finally {
    temp.cleanup();
  }
});

test('reads a pack whose deltas name their base by oid (ref deltas)', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    temp.git(['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-f', '-q']);
    assertReadsEverything(temp, await openRepo(temp.path));
  } finally {
    temp.cleanup();
  }
});

test('finds a pack written after the first read, and reports a missing object as NotFoundError', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    temp.git(['repack', '-a', '-d', '-q']);
    const repo = await openRepo(temp.path);
    assertReadsEverything(temp, repo);
    const pack = new PackWriter(repo);
    const oid = pack.add('blob', bytes('written later\n'));
    await pack.flush();
    assert.is(readObject(repo, oid).content.toString(), 'written later\n');
    const missing = (() => {
      try {
        readObject(repo, '0'.repeat(40));
        return 'read';
      } catch (e) {
        return (e as { code?: string }).code;
      }
    })();
    assert.is(missing, 'NotFoundError');
  } finally {
    temp.cleanup();
  }
});

test('a repo read before git gc repacked it is still read whole afterwards (a long-running reconciler meets gc)', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    temp.git(['repack', '-d', '-q']); // loose objects into a first pack
    const repo = await openRepo(temp.path);
    assertReadsEverything(temp, repo);
    const pack = new PackWriter(repo);
    pack.add('blob', bytes('one more pack\n'));
    await pack.flush();
    assertReadsEverything(temp, repo);
    temp.git(['gc', '-q', '--prune=now']); // every pack the store knows is replaced by one new pack
    await new Promise((resolve) => setImmediate(resolve)); // a later sync: any descriptor kept for a burst is closed
    assertReadsEverything(temp, repo);
  } finally {
    temp.cleanup();
  }
});

test('small objects read from a pack keep no more memory behind them than about their own size', async () => {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {};
    for (let f = 0; f < 200; f++) files[`cm/file${f}.yaml`] = `kind: ConfigMap\ndata:\n  key: value-${f}\n`;
    writeWorkTree(temp, files);
    commitAll(temp, 'small files');
    temp.git(['repack', '-a', '-d', '-q']);
    const repo = await openRepo(temp.path);
    const blobs = [...allObjects(temp)].filter(([, o]) => o.type === 'blob');
    assert.ok(blobs.length >= 200, `${blobs.length} blobs`);
    // Whatever keeps an object's bytes (the delta-base cache, a parsed file) keeps the buffer they are a view of.
    const behind = new Set<ArrayBufferLike>();
    let bytesRead = 0;
    for (const [oid, expected] of blobs) {
      const { content } = readObject(repo, oid);
      assert.equal(Buffer.compare(Buffer.from(content), expected.content), 0);
      behind.add(content.buffer);
      bytesRead += content.length;
    }
    const held = [...behind].reduce((sum, b) => sum + b.byteLength, 0);
    assert.ok(held < 4 * bytesRead + 64 * 1024, `${held} bytes held behind ${bytesRead} bytes read`);
  } finally {
    temp.cleanup();
  }
});

test('trees and commits kept for the next read hold buffers of their own size, loose and packed', async () => {
  const temp = makeTempRepo();
  try {
    history(temp); // loose, as a push of fewer than 100 objects leaves them
    for (const packed of [false, true]) {
      if (packed) temp.git(['repack', '-a', '-d', '-q']);
      const repo = await openRepo(temp.path);
      const kept = [...allObjects(temp)].filter(([, o]) => o.type === 'tree' || o.type === 'commit');
      assert.ok(kept.length >= 20, `${kept.length} trees and commits`);
      let held = 0;
      let size = 0;
      for (const [oid, expected] of kept) {
        readObject(repo, oid);
        // The second read is the kept one: a view of the chunk zlib inflated it into would hold that whole chunk.
        const { content } = readObject(repo, oid);
        assert.ok(content.equals(expected.content));
        held += content.buffer.byteLength;
        size += content.byteLength;
      }
      assert.ok(held <= size + 64 * kept.length, `${packed ? 'packed' : 'loose'}: ${held} bytes held for ${size}`);
    }
  } finally {
    temp.cleanup();
  }
});

/**
 * The .idx of `pack` rewritten to list `extra` names besides its own (each at the first object's offset): an index
 * the size of a large fleet's, over a pack of a few objects.
 */
function padIndex(idxFile: string, extra: number): void {
  const idx = nodeFs.readFileSync(idxFile);
  const count = idx.readUInt32BE(8 + 255 * 4);
  const namesAt = 8 + 256 * 4;
  const entries = new Map<string, number>();
  for (let i = 0; i < count; i++)
    entries.set(
      idx.toString('hex', namesAt + i * 20, namesAt + i * 20 + 20),
      idx.readUInt32BE(namesAt + count * 24 + i * 4),
    );
  const anyOffset = [...entries.values()][0]!;
  const random = randomBytes(extra * 20);
  for (let i = 0; i < extra; i++) entries.set(random.toString('hex', i * 20, i * 20 + 20), anyOffset);
  const names = [...entries.keys()].sort();
  const n = names.length;
  const out = Buffer.alloc(namesAt + n * 28 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  const fanout = new Uint32Array(256);
  for (const name of names) fanout[Number.parseInt(name.slice(0, 2), 16)]!++;
  for (let b = 0, total = 0; b < 256; b++) out.writeUInt32BE((total += fanout[b]!), 8 + b * 4);
  names.forEach((name, i) => {
    out.write(name, namesAt + i * 20, 'hex');
    out.writeUInt32BE(entries.get(name)!, namesAt + n * 24 + i * 4);
  });
  idx.copy(out, namesAt + n * 28, idx.length - 40, idx.length - 20); // the pack's checksum
  createHash('sha1')
    .update(out.subarray(0, out.length - 20))
    .digest()
    .copy(out, out.length - 20);
  nodeFs.rmSync(idxFile);
  nodeFs.writeFileSync(idxFile, out);
}

test('a pack index of a large fleet is read by the pages its lookups need, not whole: every object found, absent names not', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const blobs = new Map<string, string>();
    for (let i = 0; i < 300; i++) blobs.set(pack.add('blob', bytes(`object ${i}\n`)), `object ${i}\n`);
    await pack.flush();
    const dir = path.join(temp.path, '.git', 'objects', 'pack');
    const idxFile = path.join(dir, nodeFs.readdirSync(dir).find((f) => f.endsWith('.idx'))!);
    padIndex(idxFile, 600_000); // 18 MiB of index
    const idx = countedReads((file) => file.endsWith('.idx'));
    const reader = await openRepo(temp.path, idx.fs);
    for (const [oid, text] of blobs) {
      const found = readObject(reader, oid);
      assert.is(found.type, 'blob');
      assert.is(found.content.toString(), text);
    }
    // Names next to real ones (a byte above, a byte below at the end) and a random one: none is there.
    const absent = [...blobs.keys()]
      .slice(0, 50)
      .flatMap((oid) => [
        `${oid.slice(0, 38)}${((Number.parseInt(oid.slice(38), 16) + 1) % 256).toString(16).padStart(2, '0')}`,
        `${oid.slice(0, 39)}${((Number.parseInt(oid.slice(39), 16) + 15) % 16).toString(16)}`,
      ]);
    const readingObjects = idx.bytes;
    // A page (128 names and offsets, 3 KiB, in a pack of 600,000) or two per lookup: far from the whole index.
    assert.ok(readingObjects < 300 * 2 * 128 * 24, `${readingObjects} bytes of an 18 MiB index read for 300 lookups`);
    const fresh = await openRepo(temp.path, idx.fs);
    idx.reset();
    const found = existingObjects(fresh, [...absent, ...blobs.keys()]);
    assert.equal([...found].sort(), [...blobs.keys()].sort(), 'a name beside a real one is not taken for it');
    // Asking whether objects exist reads names only (2.5 KiB a page), never their offsets.
    const lookups = absent.length + blobs.size;
    assert.ok(idx.bytes < lookups * 2 * 128 * 20, `${idx.bytes} bytes of index read for ${lookups} existence checks`);
  } finally {
    temp.cleanup();
  }
});

test("an index page is about twice the square root of a first byte's run, between 64 and 512 entries", () => {
  assert.is(indexPageEntries(300), 64);
  assert.is(indexPageEntries(176_000), 64); // an L fleet's pack: runs of ~690 names
  assert.is(indexPageEntries(600_000), 128);
  assert.is(indexPageEntries(3_780_000), 256); // an XL fleet's pack
  assert.is(indexPageEntries(100_000_000), 512);
});

test('applyDelta copies from the base and inserts literals, and rejects a base of the wrong size', () => {
  const base = Buffer.from('hello, world');
  // source 12, target 11: copy "hello" (offset 0, size 5), insert " all", copy "ld" (offset 10, size 2)
  const delta = Buffer.from([12, 11, 0x91, 0, 5, 4, ...Buffer.from(' all'), 0x91, 10, 2]);
  assert.is(applyDelta(base, delta).toString(), 'hello allld');
  assert.throws(() => applyDelta(Buffer.from('short'), delta), /base of 12 bytes/);
});

/** Sorted 20-byte names, and a reader of `pageSize`-entry pages of them that counts the pages it hands out. */
function nameTable(names: Buffer[], pageSize: number) {
  const sorted = [...names].sort(Buffer.compare);
  const table = Buffer.concat(sorted);
  const read = new Set<number>();
  const pageAt = (n: number) => {
    const from = Math.floor(n / pageSize) * pageSize;
    read.add(from);
    return { from, names: table.subarray(from * 20, Math.min(sorted.length, from + pageSize) * 20) };
  };
  return { sorted, pageAt, read };
}

test('a name is found in its run of a pack index, on the page its bytes foretell, or not at all', () => {
  const digest = (text: string) => createHash('sha1').update(text).digest();
  // Runs of first bytes 0x10 (between others, so the run does not start at entry 0) out of 20,000 uniform names.
  const names = Array.from({ length: 20_000 }, (_, i) => digest(`object ${i}`));
  const { sorted, pageAt, read } = nameTable(names, 16);
  const lo = sorted.findIndex((n) => n[0] === 0x10);
  const hi = sorted.findIndex((n) => n[0]! > 0x10);
  assert.ok(lo > 0 && hi - lo > 40, `run ${lo}..${hi}`);
  for (let n = lo; n < hi; n++) assert.is(findInRun(sorted[n]!, lo, hi, pageAt), n);
  // About one page per lookup, not the whole run.
  read.clear();
  for (let n = lo; n < hi; n += 7) findInRun(sorted[n]!, lo, hi, pageAt);
  assert.ok(read.size <= Math.ceil((hi - lo) / 7) * 2, `${read.size} pages for ${Math.ceil((hi - lo) / 7)} lookups`);
  // Absent names: below, above, and between the run's names.
  let absent = 0;
  for (let i = 0; absent < 300; i++) {
    const oid = digest(`absent ${i}`);
    oid[0] = 0x10;
    if (sorted.some((n) => n.equals(oid))) continue;
    absent++;
    assert.is(findInRun(oid, lo, hi, pageAt), -1);
  }
  const below = Buffer.alloc(20, 0);
  below[0] = 0x10;
  const above = Buffer.alloc(20, 0xff);
  above[0] = 0x10;
  assert.is(findInRun(below, lo, hi, pageAt), -1);
  assert.is(findInRun(above, lo, hi, pageAt), -1);
  assert.is(findInRun(below, lo, lo, pageAt), -1);
});

test('names that are not spread evenly are still found, page after page', () => {
  // Every name shares bytes 1 to 4, so each lookup starts at the run's first page and walks to its own.
  const names = Array.from({ length: 300 }, (_, i) => {
    const name = Buffer.alloc(20, 0);
    name[0] = 0xab;
    name.writeUInt32BE(0x01020304, 1);
    name.writeUInt32BE(i * 7919, 10);
    return name;
  });
  const { sorted, pageAt } = nameTable(names, 8);
  for (let n = 0; n < sorted.length; n++) assert.is(findInRun(sorted[n]!, 0, sorted.length, pageAt), n);
  const missing = Buffer.from(sorted[150]!);
  missing[19] = missing[19]! + 1;
  assert.is(findInRun(missing, 0, sorted.length, pageAt), -1);
  // The run's bytes all at the other end: the search starts on its last page and walks back.
  const high = names.map((name) => {
    const copy = Buffer.from(name);
    copy.writeUInt32BE(0xfffffff0, 1);
    return copy;
  });
  const table = nameTable(high, 8);
  for (let n = 0; n < table.sorted.length; n++)
    assert.is(findInRun(table.sorted[n]!, 0, table.sorted.length, table.pageAt), n);
});

test('a pack of more objects than one index page holds is read whole', async () => {
  const temp = makeTempRepo();
  try {
    const files: Record<string, string> = {};
    for (let f = 0; f < 3000; f++) files[`many/file${f}.yaml`] = `kind: ConfigMap\nmetadata:\n  name: cm-${f}\n`;
    writeWorkTree(temp, files);
    commitAll(temp, 'many files');
    temp.git(['repack', '-a', '-d', '-q']);
    assert.ok(assertReadsEverything(temp, await openRepo(temp.path)) > 3000);
  } finally {
    temp.cleanup();
  }
});

test('objects whose bytes run past the first read are read whole: large blobs, deltas on them and large deltas', async () => {
  const temp = makeTempRepo();
  try {
    // Random text compresses to most of its size: entries of tens of KiB in the pack, past the first bytes read with
    // the header. Each version keeps part of the one before, so the packer stores deltas, small and large.
    const random = (n: number) => randomBytes(n).toString('base64').replace(/.{76}/g, '$&\n');
    const [kept, dropped] = [random(150_000), random(60_000)];
    const versions = [`${kept}${dropped}`, `${kept}${dropped}one more line\n`, `${kept}${random(60_000)}`];
    for (const [v, text] of versions.entries()) {
      writeWorkTree(temp, { 'big.txt': text, 'small.txt': `version ${v}\n` });
      commitAll(temp, `version ${v}`);
    }
    temp.git(['repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=50']);
    assert.match(temp.git(['count-objects', '-v']), /^count: 0$/m);
    assertReadsEverything(temp, await openRepo(temp.path));
    // `git verify-pack -v`: oid, type, size, size in pack, offset[, depth, base] per object.
    const idx = nodeFs.readdirSync(path.join(temp.gitdir, 'objects', 'pack')).find((f) => f.endsWith('.idx'))!;
    const entries = temp
      .git(['verify-pack', '-v', path.join(temp.gitdir, 'objects', 'pack', idx)])
      .split('\n')
      .map((line) => line.split(/\s+/))
      .filter((f) => /^[0-9a-f]{40}$/.test(f[0]!) && f[1] === 'blob');
    const deltas = entries.filter((f) => f.length >= 7);
    assert.ok(
      entries.some((f) => f.length < 7 && Number(f[3]) > 16 * 1024),
      'a whole blob of over 16 KiB in the pack',
    );
    assert.ok(deltas.length > 0, 'a blob stored as a delta');
    assert.ok(
      deltas.some((f) => Number(f[2]) > 64 * 1024),
      'a delta of over 64 KiB of instructions',
    );
  } finally {
    temp.cleanup();
  }
});

test('a text blob that deflates within the first read is read with that one read of the pack', async () => {
  const temp = makeTempRepo();
  try {
    // Index-like lines: a sixth or less of their size once deflated, as the shards and manifests a sync reads are;
    // the larger is past four times the first read, and read to deflate's worst case as before.
    const lines = (n: number, tag: string) =>
      Array.from(
        { length: n },
        (_, i) =>
          `"apps/v1/Deployment/team-${i % 97}/app-${tag}-${i}":{"clusters":["member-${i % 13}"],"replicas":[${i % 7}]}`,
      ).join(',\n');
    const texts = [lines(300, 'a'), lines(3_000, 'b')]; // about 25 KiB and 250 KiB
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const oids = texts.map((text) => pack.add('blob', bytes(text)));
    await pack.flush();
    const packed = countedReads((file) => file.endsWith('.pack'));
    const reader = await openRepo(temp.path, packed.fs);
    const [small, large] = oids as [string, string];
    assert.is(readObject(reader, small).content.toString(), texts[0]);
    // The first read (8 KiB) held the whole deflated text: deflate's worst case would have read 28 KiB more.
    assert.is(packed.reads, 1, `${packed.reads} reads, ${packed.bytes} bytes for ${texts[0]!.length} bytes of text`);
    assert.ok(packed.bytes <= 8 * 1024, `${packed.bytes} bytes read`);
    assert.is(readObject(reader, large).content.toString(), texts[1]);
  } finally {
    temp.cleanup();
  }
});

/** What reading `oid` throws (undefined when it reads). */
function readFailure(repo: Awaited<ReturnType<typeof openRepo>>, oid: string): unknown {
  try {
    readObject(repo, oid);
    return undefined;
  } catch (err) {
    return err;
  }
}

/** A damaged object's error names the file, the object and the repair, and has a code (the CLI prints no stack). */
function assertDamage(err: unknown, oid: string, file: string, gitdir: string): void {
  assert.instance(err, DamagedObjectError, `reading ${oid}: ${String(err)}`);
  const damaged = err as DamagedObjectError;
  assert.is(damaged.code, 'DamagedObjectError');
  assert.equal(damaged.data, { oid, file });
  assert.ok(damaged.message.startsWith(`${file}: object ${oid} cannot be read (`), damaged.message);
  assert.match(damaged.message, `fix: run \`git --git-dir=${gitdir} fsck\``);
}

test('a pack cut short: the objects past its end are reported as damage to that pack, the ones before still read', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    temp.git(['repack', '-a', '-d', '-f', '-q']);
    const objects = allObjects(temp);
    const packDir = path.join(temp.gitdir, 'objects', 'pack');
    const pack = path.join(packDir, nodeFs.readdirSync(packDir).find((f) => f.endsWith('.pack'))!);
    nodeFs.chmodSync(pack, 0o644);
    nodeFs.truncateSync(pack, Math.floor(nodeFs.statSync(pack).size / 2));
    const repo = await openRepo(temp.path);
    let damaged = 0;
    let read = 0;
    for (const [oid, want] of objects) {
      const err = readFailure(repo, oid);
      if (err === undefined) {
        assert.ok(readObject(repo, oid).content.equals(want.content), `content of ${oid}`);
        read++;
      } else {
        assertDamage(err, oid, pack, temp.gitdir);
        damaged++;
      }
    }
    assert.ok(damaged > 0 && read > 0, `${damaged} damaged, ${read} read`);
  } finally {
    temp.cleanup();
  }
});

test('a corrupt byte in a packed object or a loose object is reported as damage to its file', async () => {
  const temp = makeTempRepo();
  try {
    history(temp);
    const blobs = [...allObjects(temp)].filter(([, o]) => o.type === 'blob').map(([oid]) => oid);
    temp.git(['repack', '-a', '-d', '-f', '-q']);
    // `git verify-pack -v`: oid, type, size, size in pack, offset[, depth, base]: a whole blob, in the pack's middle.
    const packDir = path.join(temp.gitdir, 'objects', 'pack');
    const idx = path.join(packDir, nodeFs.readdirSync(packDir).find((f) => f.endsWith('.idx'))!);
    const pack = idx.replace(/\.idx$/, '.pack');
    const whole = temp
      .git(['verify-pack', '-v', idx])
      .split('\n')
      .map((line) => line.split(/\s+/))
      .find((f) => f[1] === 'blob' && f.length < 7 && Number(f[3]) > 100)!;
    const [oid, , , inPack, offset] = whole;
    const bytesOfPack = nodeFs.readFileSync(pack);
    bytesOfPack[Number(offset) + Math.floor(Number(inPack) / 2)]! ^= 0xff;
    nodeFs.chmodSync(pack, 0o644);
    nodeFs.writeFileSync(pack, bytesOfPack);
    // Another blob loose again, its file garbled (git writes no loose copy of what it has packed: by hand).
    const looseOid = blobs.find((b) => b !== oid)!;
    const looseFile = path.join(temp.gitdir, 'objects', looseOid.slice(0, 2), looseOid.slice(2));
    nodeFs.mkdirSync(path.dirname(looseFile), { recursive: true });
    nodeFs.writeFileSync(looseFile, randomBytes(64));
    const repo = await openRepo(temp.path);
    assertDamage(readFailure(repo, oid!), oid!, pack, temp.gitdir);
    // Packs are looked in first: the loose copy is read once the pack no longer has it.
    nodeFs.rmSync(pack);
    nodeFs.rmSync(idx);
    assertDamage(readFailure(await openRepo(temp.path), looseOid), looseOid, looseFile, temp.gitdir);
  } finally {
    temp.cleanup();
  }
});

test.run();
