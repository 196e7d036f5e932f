import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeConfigRepo, MEMBERS, nginxSample, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

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

test('explain names a source commit too large to read, its bound and the fix; history reads only the rendered branch', () => {
  const r = makeConfigRepo();
  try {
    r.commit({ ...MEMBERS, ...nginxSample() });
    const good = r.git('rev-parse', 'HEAD');
    assert.is(flotilla('sync', '--repo', r.dir).status, 0);
    const bomb = commitTreeBomb(r.dir);
    const held = flotilla('sync', '--repo', r.dir, '--max-source-files', '100');
    assert.match(held.stderr, 'COMMIT_TOO_LARGE');

    const explain = flotilla('explain', 'deploy/nginx', '--repo', r.dir, '--max-source-files', '100');
    assert.is(explain.status, 3);
    assert.is(explain.stdout, '');
    assert.match(
      explain.stderr,
      `flotilla: source commit ${bomb.slice(0, 12)} names over 2000 files and folders, each folder counted as often as a tree names it`,
    );
    assert.match(explain.stderr, ': flotilla explain cannot read it; fix: remove the folders named many times over');
    assert.match(explain.stderr, 'raise --max-source-files (now 100, 20 files and folders each)');
    assert.not.match(explain.stderr, 'keeps');
    const byDefault = flotilla('explain', 'deploy/nginx', '--repo', r.dir);
    assert.is(byDefault.status, 3);
    assert.match(byDefault.stderr, `source commit ${bomb.slice(0, 12)} names over 1000000 files and folders`);
    assert.match(byDefault.stderr, 'raise --max-source-files (now 50000, 20 files and folders each)');
    assert.match(flotilla('explain', 'deploy/nginx', '--repo', r.dir, '--rev', good).stdout, 'member1   selected');

    // The rendered branch is Flotilla's own: history walks its commits, never the source commit's tree.
    const history = flotilla('history', 'deploy/nginx', '--repo', r.dir);
    assert.is(history.status, 0, history.stderr);
    assert.match(history.stdout, `${good.slice(0, 12)}   -    Ada <ada@example.com>`);
  } finally {
    r.cleanup();
  }
});

test('validate and render --out-dir say they cannot read a source commit too large to walk, not what the clusters keep', () => {
  const { r, bomb } = bombOnMain();
  const outDir = path.join(r.dir, '..', 'out');
  try {
    const validate = flotilla('validate', '--repo', r.dir, '--max-source-files', '100');
    assert.is(validate.status, 1);
    assert.match(
      validate.stdout,
      `.:1:1  error  COMMIT_TOO_LARGE  source commit ${bomb.slice(0, 12)} names over 2000 files and folders, each folder counted as often as a tree names it (2007 at 'bomb/n999'): flotilla validate cannot read it\n  fix: remove the folders named many times over (git revert the commit that added them); if the repository is this large, raise --max-source-files (now 100, 20 files and folders each)`,
    );
    assert.not.match(validate.stdout, 'keeps');
    const render = flotilla('render', '--repo', r.dir, '--out-dir', outDir, '--max-source-files', '100');
    assert.is(render.status, 3);
    assert.match(
      render.stderr,
      `flotilla: source commit ${bomb.slice(0, 12)} names over 2000 files and folders, each folder counted as often as a tree names it (2007 at 'bomb/n999'): flotilla render cannot read it, and wrote nothing to ${outDir}; fix: remove the folders named many times over (git revert`,
    );
    assert.not.match(render.stderr, 'keeps');
    assert.not.ok(existsSync(outDir), 'nothing written');
  } finally {
    r.cleanup();
  }
});

test.run();
