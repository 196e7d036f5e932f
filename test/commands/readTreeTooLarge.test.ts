import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/flotilla.js');
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

function bombOnMain(): { r: ConfigRepo; good: string; bomb: string } {
  const r = makeConfigRepo();
  r.commit({ ...MEMBERS, 'templates/nginx.yaml': sample('nginx/deployment.yaml') });
  const good = r.git('rev-parse', 'HEAD');
  return { r, good, bomb: commitTreeBomb(r.dir) };
}

test('plan, get, describe and the cluster verbs name a source commit too large to read, its bound and the fix', () => {
  const { r, good, bomb } = bombOnMain();
  try {
    const plan = flotilla('plan', '--repo', r.dir, '--base', good, '--head', 'main', '--max-source-files', '100');
    assert.is(plan.status, 3);
    assert.is(plan.stdout, '');
    assert.match(
      plan.stderr,
      `flotilla: source commit ${bomb.slice(0, 12)} names over 2000 files and folders, each folder counted as often as a tree names it`,
    );
    assert.match(
      plan.stderr,
      ': flotilla plan cannot read it; fix: remove the folders named many times over (git revert',
    );
    assert.match(plan.stderr, 'raise --max-source-files (now 100, 20 files and folders each)');
    assert.not.match(plan.stderr, 'keeps');
    // Past the default bound: refused before the walk, in about the time the command takes to start.
    for (const [args, reader] of [
      [['get', 'clusters'], 'flotilla get'],
      [['describe', 'cluster', 'member1'], 'flotilla describe'],
    ] as const) {
      const res = flotilla(...args, '--repo', r.dir);
      assert.is(res.status, 3, args.join(' '));
      assert.match(res.stderr, `flotilla: source commit ${bomb.slice(0, 12)} names over 1000000 files and folders`);
      assert.match(res.stderr, `: ${reader} cannot read it; fix: remove the folders named many times over (git revert`);
      assert.match(res.stderr, `know that ${reader} reads at most 1000000 of them`);
      assert.not.match(res.stderr, 'internal error');
    }
    const cordon = flotilla('cordon', 'member1', '--repo', r.dir);
    assert.is(cordon.status, 1);
    assert.match(cordon.stderr, `source commit ${bomb.slice(0, 12)} names over 1000000 files and folders`);
    assert.match(cordon.stderr, ': flotilla cordon cannot read it; fix: ');
    assert.is(r.git('rev-parse', 'main'), bomb, 'nothing committed');
  } finally {
    r.cleanup();
  }
});

test.run();
