import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readBlob } from '../../src/commits/readBlob.ts';
import { readBlobs } from '../../src/commits/readBlobs.ts';
import { bytes, commitAll, makeTempRepo, writeWorkTree } from './helpers/tempRepo.ts';

test('readBlob reads loose objects made by git and packed objects made by us', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'loose.yaml': 'from git\n' });
    commitAll(temp);
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const packed = pack.add('blob', bytes('from our pack\n'));
    await pack.flush();
    assert.is(
      Buffer.from(await readBlob(repo, temp.git(['rev-parse', 'HEAD:loose.yaml']).trim())).toString(),
      'from git\n',
    );
    assert.is(Buffer.from(await readBlob(repo, packed)).toString(), 'from our pack\n');
    const missing = await readBlob(repo, '0'.repeat(40)).catch((e: { code?: string }) => e.code);
    assert.is(missing, 'NotFoundError');
  } finally {
    temp.cleanup();
  }
});

test('readBlobs returns every requested blob keyed by oid, in request order, once per oid', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const oids = Array.from({ length: 100 }, (_, i) => pack.add('blob', bytes(`blob ${i}`)));
    await pack.flush();
    const requested = [...oids].reverse().concat(oids.slice(0, 5));
    for (const concurrency of [1, 16, 500]) {
      const got = await readBlobs(repo, requested, concurrency);
      assert.equal([...got.keys()], [...oids].reverse());
      oids.forEach((oid, i) => assert.is(Buffer.from(got.get(oid)!).toString(), `blob ${i}`));
    }
    assert.is((await readBlobs(repo, [])).size, 0);
  } finally {
    temp.cleanup();
  }
});

test.run();
