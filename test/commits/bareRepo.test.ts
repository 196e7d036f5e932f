// The whole write path on a bare repository, the shape of Flotilla's control-plane remote.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCommit } from '../../src/commits/buildCommit.ts';
import { diffTrees } from '../../src/commits/diffTrees.ts';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readBlobs } from '../../src/commits/readBlobs.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { resolveRev } from '../../src/commits/resolveRev.ts';
import { updateRef } from '../../src/commits/updateRef.ts';
import { writeTreeEdits } from '../../src/commits/writeTreeEdits.ts';
import { bytes, makeTempRepo } from './helpers/tempRepo.ts';

const who = { name: 'Flotilla', email: 'flotilla@example.com', timestamp: 1700000000, timezoneOffset: 0 };

test('bare repo: commit, advance, diff and read back; native git agrees and fsck --strict is clean', async () => {
  const temp = makeTempRepo({ bare: true });
  try {
    const repo = await openRepo(temp.path);
    assert.is(await readRef(repo, 'refs/heads/main'), null);

    const pack1 = new PackWriter(repo);
    const files = new Map<string, Uint8Array>();
    for (let c = 0; c < 5; c++)
      for (let f = 0; f < 4; f++) files.set(`works/member${c}/obj${f}.yaml`, bytes(`kind: Work\n# ${c}/${f}\n`));
    const tree1 = await writeTreeEdits(repo, pack1, null, files);
    const c1 = buildCommit(pack1, { tree: tree1, parents: [], message: 'render 1\n', author: who, committer: who });
    await pack1.flush();
    await updateRef(repo, 'refs/heads/main', c1, null);

    const pack2 = new PackWriter(repo);
    const base = await readCommitInfo(repo, await resolveRev(repo, 'main'));
    const tree2 = await writeTreeEdits(
      repo,
      pack2,
      base.tree,
      new Map([
        ['works/member2/obj1.yaml', bytes('kind: Work\n# edited\n')],
        ['works/member4/obj0.yaml', null],
      ]),
    );
    const c2 = buildCommit(pack2, {
      tree: tree2,
      parents: [c1],
      message: 'render 2\n',
      author: who,
      committer: { ...who, timestamp: who.timestamp + 60 },
    });
    const flushed = await pack2.flush();
    assert.is(flushed.written, 6, '1 blob, trees member2 member4 works root, 1 commit: nothing else rewritten');
    await updateRef(repo, 'refs/heads/main', c2, c1);

    assert.is(await resolveRev(repo, 'HEAD'), c2);
    assert.is(temp.git(['rev-parse', 'main~1']).trim(), c1);
    assert.is(temp.git(['log', '--format=%s', 'main']), 'render 2\nrender 1\n');
    temp.git(['fsck', '--strict', '--no-dangling']);

    const changes = await diffTrees(repo, base.tree, tree2);
    assert.equal(
      changes.map((c) => [c.path, !!c.oldOid, !!c.newOid]),
      [
        ['works/member2/obj1.yaml', true, true],
        ['works/member4/obj0.yaml', true, false],
      ],
    );
    assert.is(
      temp.git(['diff-tree', '-r', '--name-only', c1, c2]),
      'works/member2/obj1.yaml\nworks/member4/obj0.yaml\n',
    );
    const blobs = await readBlobs(repo, [changes[0]!.newOid!]);
    assert.is(Buffer.from(blobs.get(changes[0]!.newOid!)!).toString(), 'kind: Work\n# edited\n');
    assert.is((await listTreeFiles(repo, tree2)).size, 19);
  } finally {
    temp.cleanup();
  }
});

test.run();
