import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { messageTail, readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { commitAll, makeTempRepo, writeWorkTree } from './helpers/tempRepo.ts';

test('reads tree, parents, message and both identities with their time zones', async () => {
  const temp = makeTempRepo();
  try {
    writeWorkTree(temp, { 'a.txt': 'one' });
    const base = commitAll(temp, 'base');
    temp.git(['checkout', '-q', '-b', 'side']);
    writeWorkTree(temp, { 'b.txt': 'two' });
    const side = commitAll(temp, 'side');
    temp.git(['checkout', '-q', 'main']);
    writeWorkTree(temp, { 'c.txt': 'three' });
    const main = commitAll(temp, 'main');
    temp.git(['merge', '-q', '--no-ff', '-m', 'merge side\n\nwith a body', 'side']);
    const merge = temp.git(['rev-parse', 'HEAD']).trim();

    const repo = await openRepo(temp.path);
    const info = await readCommitInfo(repo, merge);
    assert.equal(info, {
      oid: merge,
      tree: temp.git(['rev-parse', 'HEAD^{tree}']).trim(),
      parents: [main, side],
      message: 'merge side\n\nwith a body\n',
      // GIT_AUTHOR_DATE 1700000000 +0530 / GIT_COMMITTER_DATE 1700000100 -0800 (helpers/tempRepo.ts)
      author: { name: 'Ada Author', email: 'ada@example.com', timestamp: 1700000000, timezoneOffset: -330 },
      committer: { name: 'Carl Committer', email: 'carl@example.com', timestamp: 1700000100, timezoneOffset: 480 },
    });
    assert.equal((await readCommitInfo(repo, base)).parents, []);
  } finally {
    temp.cleanup();
  }
});

test("a message's tail starts at a line start within the bytes asked for, and is the whole message when shorter", async () => {
  const temp = makeTempRepo();
  try {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} … é`);
    const oid = commitAll(temp, `subject\n\n${lines.join('\n')}`);
    const info = await readCommitInfo(await openRepo(temp.path), oid);
    const tail = messageTail(info, 100);
    assert.ok(info.message.endsWith(tail));
    assert.ok(info.message.charAt(info.message.length - tail.length - 1) === '\n');
    assert.ok(Buffer.byteLength(tail) <= 100 && Buffer.byteLength(tail) > 60, tail);
    assert.is(messageTail(info, 1_000_000), info.message);
    assert.is(info.message, `subject\n\n${lines.join('\n')}\n`);
  } finally {
    temp.cleanup();
  }
});

test.run();
