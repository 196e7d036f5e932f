// AGE from Git: each path's oldest commit of the unbroken run holding it, along first parents, as git itself tells
// it commit by commit; paths removed and added again, folders replaced by files, and the walk's bound.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readFirstSeen } from '../../src/views/readFirstSeen.ts';
import { makeTempRepo, writeWorkTree, type TempRepo } from '../commits/helpers/tempRepo.ts';

/** What git says: per path, the committer time of the oldest commit of the run from `head` that holds it as a file. */
function firstSeenByGit(temp: TempRepo, head: string, paths: string[], maxCommits: number): Map<string, number> {
  const commits = temp
    .git(['rev-list', '--first-parent', `--max-count=${maxCommits}`, '--format=%ct', head])
    .split('\n')
    .filter((line) => line && !line.startsWith('commit '))
    .map(Number);
  const hashes = temp
    .git(['rev-list', '--first-parent', `--max-count=${maxCommits}`, head])
    .split('\n')
    .filter(Boolean);
  const out = new Map<string, number>();
  for (const path of paths) {
    for (const [i, hash] of hashes.entries()) {
      const type = temp.git(['ls-tree', hash, '--', path]).split(/\s+/)[1];
      if (type !== 'blob') break;
      out.set(path, commits[i]!);
    }
  }
  return out;
}

test('first seen: the oldest commit of each path’s unbroken run, as git tells it, whatever moved around it', async () => {
  const temp = makeTempRepo();
  try {
    const paths = [
      'templates/a/one.yaml',
      'templates/a/two.yaml',
      'templates/b/deep/three.yaml',
      'templates/b/four.yaml',
      'policies/five.yaml',
      'top.yaml',
      'templates/c',
    ];
    // A fixed walk of adds, edits, removals and re-adds; `templates/c` is a folder first, then a file.
    const steps: Record<string, string | null>[] = [
      { 'templates/a/one.yaml': '1', 'top.yaml': 't', 'templates/c/x.yaml': 'x' },
      { 'templates/a/two.yaml': '2', 'policies/five.yaml': '5' },
      { 'templates/b/deep/three.yaml': '3', 'unrelated/u.yaml': 'u' },
      { 'templates/a/one.yaml': '1b' },
      { 'templates/a/one.yaml': null, 'templates/b/four.yaml': '4' },
      { 'unrelated/u.yaml': 'u2' },
      { 'templates/a/one.yaml': '1c', 'templates/c/x.yaml': null },
      { 'templates/c': 'now a file', 'policies/five.yaml': null },
      { 'policies/five.yaml': '5b', 'templates/b/deep/three.yaml': '3b' },
      { 'other/v.yaml': 'v' },
      { 'templates/b/deep/three.yaml': null },
      { 'templates/b/deep/three.yaml': '3c', 'top.yaml': 't2' },
    ];
    let head = '';
    for (const [i, files] of steps.entries()) {
      // The folder's last file went a step before; git leaves no folder, the work tree an empty one.
      if ('templates/c' in files) rmSync(path.join(temp.path, 'templates/c'), { recursive: true, force: true });
      writeWorkTree(temp, files);
      temp.git(['add', '-A']);
      temp.git(['commit', '-q', '--allow-empty', '-m', `step ${i}`], {
        env: { GIT_COMMITTER_DATE: `${1_700_000_000 + i * 60} +0000` },
      });
      head = temp.git(['rev-parse', 'HEAD']).trim();
    }
    const repo = await openRepo(temp.path);
    for (const bound of [500, 5, 1]) {
      const expected = firstSeenByGit(temp, head, paths, bound);
      assert.equal(
        Object.fromEntries(await readFirstSeen(repo, head, paths, bound)),
        Object.fromEntries(expected),
        `walking at most ${bound} commits`,
      );
    }
    // Each path's run, spelled out: re-added ones are as old as their last addition.
    const seen = await readFirstSeen(repo, head, paths);
    const at = (step: number) => 1_700_000_000 + step * 60;
    assert.is(seen.get('templates/a/one.yaml'), at(6));
    assert.is(seen.get('templates/a/two.yaml'), at(1));
    assert.is(seen.get('templates/b/deep/three.yaml'), at(11));
    assert.is(seen.get('policies/five.yaml'), at(8));
    assert.is(seen.get('top.yaml'), at(0));
    assert.is(seen.get('templates/c'), at(7));
  } finally {
    temp.cleanup();
  }
});

test.run();
