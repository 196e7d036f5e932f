import { randomBytes } from 'node:crypto';
import nodeFs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ObjectTooLargeError } from '../../src/commits/ObjectTooLargeError.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readBlobsWithin } from '../../src/commits/readBlobs.ts';
import { readObject } from '../../src/commits/readObject.ts';
import { commitAll, makeTempRepo, writeWorkTree } from './helpers/tempRepo.ts';

const MiB = 1024 * 1024;

/** node's fs, counting the bytes read through readSync / readFileSync: what a refusal cost. */
function countingFs(): { fs: typeof nodeFs; read: () => number } {
  let read = 0;
  const fs = {
    ...nodeFs,
    readSync: (...args: Parameters<typeof nodeFs.readSync>) => {
      const n = (nodeFs.readSync as (...a: unknown[]) => number)(...args);
      read += n;
      return n;
    },
    readFileSync: (...args: Parameters<typeof nodeFs.readFileSync>) => {
      const out = (nodeFs.readFileSync as (...a: unknown[]) => Buffer)(...args);
      read += out.length;
      return out;
    },
  } as typeof nodeFs;
  return { fs, read: () => read };
}

function tooLarge(run: () => unknown): ObjectTooLargeError {
  try {
    run();
  } catch (err) {
    if (err instanceof ObjectTooLargeError) return err;
    throw err;
  }
  throw new Error('expected ObjectTooLargeError');
}

test('a loose object is refused from the size in its first inflated bytes, whatever the rest of the stream holds', async () => {
  const temp = makeTempRepo();
  try {
    // A 116-byte stream whose header claims 1 GiB: reading it whole would not even notice.
    const oid = 'ab'.repeat(20);
    const dir = path.join(temp.gitdir, 'objects', 'ab');
    nodeFs.mkdirSync(dir, { recursive: true });
    nodeFs.writeFileSync(
      path.join(dir, oid.slice(2)),
      deflateSync(Buffer.concat([Buffer.from('blob 1073741824\0'), Buffer.alloc(100, 0x61)])),
    );
    const repo = await openRepo(temp.path);
    const err = tooLarge(() => readObject(repo, oid, { maxBytes: 4 * MiB }));
    assert.equal(err.data, { oid, size: 1073741824, limit: 4 * MiB });
  } finally {
    temp.cleanup();
  }
});

test('an oversized loose blob written by git is refused after reading a few hundred bytes; a small one reads in full', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'big.yaml': randomBytes(3 * MiB).toString('base64'), 'small.yaml': 'a: 1\n' });
    commitAll(temp);
    const big = temp.git(['rev-parse', 'HEAD:big.yaml']).trim();
    const small = temp.git(['rev-parse', 'HEAD:small.yaml']).trim();
    const counting = countingFs();
    const repo = await openRepo(temp.path, counting.fs);
    const before = counting.read();
    const err = tooLarge(() => readObject(repo, big, { maxBytes: 1 * MiB }));
    assert.is(err.data.size, 4 * MiB);
    assert.ok(counting.read() - before <= 1024, `read ${counting.read() - before} bytes`);
    assert.is(readObject(repo, small, { maxBytes: 1 * MiB }).content.toString(), 'a: 1\n');
    assert.is(readObject(repo, big).content.length, 4 * MiB);
  } finally {
    temp.cleanup();
  }
});

test('packed blobs, plain and stored as deltas, are refused from the entry and delta headers before they are inflated', async () => {
  const temp = makeTempRepo();
  try {
    const text = randomBytes(3 * MiB).toString('base64');
    writeWorkTree(temp, { 'big.yaml': text, 'small.yaml': 'a: 1\n' });
    commitAll(temp);
    const first = temp.git(['rev-parse', 'HEAD:big.yaml']).trim();
    writeWorkTree(temp, { 'big.yaml': `${text}\nmore: 1\n` });
    commitAll(temp);
    const second = temp.git(['rev-parse', 'HEAD:big.yaml']).trim();
    const small = temp.git(['rev-parse', 'HEAD:small.yaml']).trim();
    temp.git(['repack', '-a', '-d', '-f', '-q']);
    temp.git(['prune-packed']);
    const pack = nodeFs
      .readdirSync(path.join(temp.gitdir, 'objects', 'pack'))
      .find((n) => n.endsWith('.idx')) as string;
    const verify = temp.git(['verify-pack', '-v', path.join(temp.gitdir, 'objects', 'pack', pack)]);
    const deltas = [first, second].filter((oid) =>
      new RegExp(`^${oid} blob +\\d+ \\d+ \\d+ \\d+ [0-9a-f]{40}`, 'm').test(verify),
    );
    assert.is(deltas.length, 1, 'one version is stored as a delta against the other');

    const counting = countingFs();
    const repo = await openRepo(temp.path, counting.fs);
    readObject(repo, small, { maxBytes: MiB }); // index runs read once, outside the measurement
    for (const oid of [first, second]) {
      const before = counting.read();
      const err = tooLarge(() => readObject(repo, oid, { maxBytes: MiB }));
      assert.ok(err.data.size >= 4 * MiB, `${oid}: ${err.data.size}`);
      assert.ok(
        counting.read() - before <= 64 * 1024,
        `${oid === deltas[0] ? 'delta' : 'plain'}: read ${counting.read() - before} bytes`,
      );
    }
    assert.is(readObject(repo, second).content.toString('latin1').endsWith('\nmore: 1\n'), true);
  } finally {
    temp.cleanup();
  }
});

test('readBlobsWithin lists oversized blobs with their size and reads the others', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'big.yaml': 'x'.repeat(2 * MiB), 'small.yaml': 'a: 1\n' });
    commitAll(temp);
    const big = temp.git(['rev-parse', 'HEAD:big.yaml']).trim();
    const small = temp.git(['rev-parse', 'HEAD:small.yaml']).trim();
    const { blobs, tooLarge: over } = await readBlobsWithin(await openRepo(temp.path), [big, small], MiB);
    assert.equal([...blobs.keys()], [small]);
    assert.equal([...over], [[big, 2 * MiB]]);
  } finally {
    temp.cleanup();
  }
});

test.run();
