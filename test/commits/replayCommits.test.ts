import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { replayCommits } from '../../src/commits/replayCommits.ts';
import { makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test('replayed commits keep what the other writer committed to other paths; a path both wrote ends as replayed', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const base = r.commit({ 'clusters/a.yaml': 'a0\n', 'clusters/b.yaml': 'b0\n', 'shared.yaml': 's0\n' }, 'base');
  // Ours: two commits on a side branch (a replica's unpushed status commits).
  r.git('checkout', '-q', '-b', 'ours');
  r.commit({ 'clusters/a.yaml': 'a1\n' }, 'status of a');
  const ours = r.commit(
    { 'clusters/a.yaml': 'a2\n', 'shared.yaml': 's-ours\n', 'gone.yaml': null },
    'status of a again',
  );
  // Theirs: what another replica pushed meanwhile.
  r.git('checkout', '-q', 'main');
  const theirs = r.commit({ 'clusters/b.yaml': 'b1\n', 'shared.yaml': 's-theirs\n', 'new.yaml': 'n\n' }, 'status of b');
  const repo = await openRepo(r.dir);
  const head = await replayCommits(repo, base, ours, theirs);
  const files = (rev: string) => Object.fromEntries(r.ls(rev).map((p) => [p, r.show(rev, p)]));
  assert.equal(files(head), {
    'clusters/a.yaml': 'a2',
    'clusters/b.yaml': 'b1',
    'new.yaml': 'n',
    'shared.yaml': 's-ours',
  });
  const top = await readCommitInfo(repo, head);
  assert.is(top.message, 'status of a again\n');
  const first = await readCommitInfo(repo, top.parents[0]!);
  assert.is(first.message, 'status of a\n');
  assert.equal(first.parents, [theirs], 'replayed onto their head, one commit per commit');
  assert.is(await replayCommits(repo, ours, ours, theirs), theirs, 'nothing to replay');
  try {
    await replayCommits(repo, theirs, ours, base);
    assert.unreachable('theirs is not below ours');
  } catch (err) {
    assert.match((err as Error).message, 'is not an ancestor');
  }
});

test.run();
