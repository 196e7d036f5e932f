import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCommit } from '../../src/commits/buildCommit.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { PackWriter } from '../../src/commits/PackWriter.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { writeTreeEdits } from '../../src/commits/writeTreeEdits.ts';
import { bytes, makeTempRepo } from './helpers/tempRepo.ts';

// Same people and dates as GIT_ENV in helpers/tempRepo.ts: +0530 is -330, -0800 is 480.
const author = { name: 'Ada Author', email: 'ada@example.com', timestamp: 1700000000, timezoneOffset: -330 };
const committer = { name: 'Carl Committer', email: 'carl@example.com', timestamp: 1700000100, timezoneOffset: 480 };

test('same oid as git commit-tree for a root commit and a child commit', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const tree1 = await writeTreeEdits(repo, pack, null, new Map([['a.yaml', bytes('1')]]));
    const tree2 = await writeTreeEdits(repo, pack, tree1, new Map([['b/c.yaml', bytes('2')]]));
    const root = buildCommit(pack, { tree: tree1, parents: [], message: 'root\n', author, committer });
    const child = buildCommit(pack, {
      tree: tree2,
      parents: [root],
      message: 'child\n\nbody line\n',
      author,
      committer,
    });
    await pack.flush();

    assert.is(root, temp.git(['commit-tree', tree1, '-m', 'root']).trim());
    assert.is(child, temp.git(['commit-tree', tree2, '-p', root, '-m', 'child', '-m', 'body line']).trim());
    temp.git(['fsck', '--strict', '--no-dangling']);
  } finally {
    temp.cleanup();
  }
});

test('deterministic: the same fields give the same oid in separate writers; any field change moves it', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const fields = { tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', parents: [], message: 'm\n', author, committer };
    const a = buildCommit(new PackWriter(repo), fields);
    assert.is(buildCommit(new PackWriter(repo), { ...fields }), a);
    assert.is.not(buildCommit(new PackWriter(repo), { ...fields, message: 'm2\n' }), a);
    assert.is.not(buildCommit(new PackWriter(repo), { ...fields, author: { ...author, timezoneOffset: 0 } }), a);
  } finally {
    temp.cleanup();
  }
});

test('readCommitInfo returns what buildCommit wrote, including a UTC zone and merge parents', async () => {
  const temp = makeTempRepo();
  try {
    const repo = await openRepo(temp.path);
    const pack = new PackWriter(repo);
    const tree = await writeTreeEdits(repo, pack, null, new Map([['x', bytes('x')]]));
    const utc = { ...committer, timezoneOffset: 0 };
    const p1 = buildCommit(pack, { tree, parents: [], message: 'p1\n', author, committer: utc });
    const p2 = buildCommit(pack, { tree, parents: [], message: 'p2\n', author, committer: utc });
    const merge = buildCommit(pack, { tree, parents: [p1, p2], message: 'merge\n', author, committer: utc });
    await pack.flush();
    assert.equal(await readCommitInfo(repo, merge), {
      oid: merge,
      tree,
      parents: [p1, p2],
      message: 'merge\n',
      author,
      committer: utc,
    });
    assert.match(temp.git(['cat-file', '-p', merge]), 'committer Carl Committer <carl@example.com> 1700000100 +0000');
  } finally {
    temp.cleanup();
  }
});

test('rejects identities fsck would reject, and abbreviated parent shas', async () => {
  const temp = makeTempRepo();
  try {
    const pack = new PackWriter(await openRepo(temp.path));
    const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    assert.throws(
      () => buildCommit(pack, { tree, parents: [], message: '', author: { ...author, name: 'A <b>' }, committer }),
      /must not contain/,
    );
    assert.throws(
      () => buildCommit(pack, { tree, parents: ['abc123'], message: '', author, committer }),
      /full lowercase sha/,
    );
    assert.is(pack.size, 0);
  } finally {
    temp.cleanup();
  }
});

test.run();
