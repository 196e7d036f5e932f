// The reconciler as `flotilla run` starts it, on a bare repo pushed to: a commit whose tree spells far more paths than
// a render may walk is held whole (its output commit says COMMIT_TOO_LARGE), and the commit pushed after it renders.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startReconciler } from '../../src/passes/startReconciler.ts';
import { clusterRegistration, deployment, makeFleet, reconcilerOptions, weightedPolicy } from '../helpers/fleet.ts';
import { LogEvents } from '../helpers/logEvents.ts';
import { commitTreeBomb } from '../helpers/treeBomb.ts';

const passFor = (sha: string) => (e: Record<string, unknown>) => e.step === 'pass' && e.sourceCommit === sha;

test('a pushed commit too large to walk is held with COMMIT_TOO_LARGE, and the next push renders and applies', async () => {
  const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
  const events = new LogEvents();
  const reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, { renderLimits: { maxSourceFiles: 100 } }),
  );
  const replicas = () =>
    (fleet.members[0]!.store.get('apps/deployments', 'default', 'nginx')?.spec as { replicas?: number } | undefined)
      ?.replicas;
  try {
    const first = fleet.push({
      'clusters/member1.yaml': clusterRegistration('member1'),
      'templates/nginx.yaml': deployment('nginx', 2),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1']),
    });
    await events.next('the pass of the first commit', passFor(first));
    assert.is(replicas(), 2);
    const goodTree = fleet.git(fleet.bare, 'rev-parse', 'flotilla/rendered^{tree}');

    const bomb = commitTreeBomb(fleet.work.dir);
    fleet.git(fleet.work.dir, 'push', '-q', 'origin', 'HEAD:main');
    await events.next('the pass of the bomb', passFor(bomb));
    const held = fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered');
    assert.match(held, `Source-Commit: ${bomb}`);
    assert.match(held, 'COMMIT_TOO_LARGE');
    assert.is(fleet.git(fleet.bare, 'rev-parse', 'flotilla/rendered^{tree}'), goodTree, 'nothing of it rendered');
    assert.is(replicas(), 2, 'the cluster keeps what the first commit rendered');

    // The work tree never had bomb/: this commit removes it and scales nginx.
    const next = fleet.push({ 'templates/nginx.yaml': deployment('nginx', 3) }, 'scale nginx to 3');
    await events.next('the pass of the commit after the bomb', passFor(next));
    assert.match(fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered'), `Source-Commit: ${next}`);
    assert.is(fleet.git(fleet.bare, 'ls-tree', next, 'bomb'), '');
    assert.is(replicas(), 3);
    assert.equal(
      events.entries.filter((e) => e.error !== undefined),
      [],
      'no pass, status passes included, failed on the bomb',
    );
  } finally {
    await reconciler.stop();
    await fleet.cleanup();
  }
});

test('a first push too large to walk fails its pass naming the commit and the fix, and the next push renders', async () => {
  const fleet = await makeFleet({ members: ['member1'], readyDelayMs: 0 });
  const events = new LogEvents();
  const reconciler = await startReconciler(
    reconcilerOptions(fleet, events.log, { renderLimits: { maxSourceFiles: 100 } }),
  );
  try {
    fleet.work.commit({
      'clusters/member1.yaml': clusterRegistration('member1'),
      'templates/nginx.yaml': deployment('nginx', 2),
      'policies/nginx.yaml': weightedPolicy('nginx', ['member1']),
    });
    const bomb = commitTreeBomb(fleet.work.dir);
    fleet.git(fleet.work.dir, 'push', '-q', 'origin', 'HEAD:main');
    const failed = await events.next('the pass of the bomb', (e) => e.step === 'pass' && e.error !== undefined);
    assert.match(
      String(failed.error),
      `source commit ${bomb.slice(0, 12)} names over 2000 files and folders, each folder counted as often as a tree names it`,
    );
    assert.match(String(failed.error), 'no commit was rendered before it: the clusters get nothing until');
    assert.match(String(failed.error), 'fix: remove the folders named many times over (git revert');
    assert.match(String(failed.error), 'raise --max-source-files (now 100, 20 files and folders each)');
    assert.is(fleet.git(fleet.bare, 'branch', '--list', 'flotilla/rendered'), '', 'nothing rendered');

    const next = fleet.push({ 'templates/nginx.yaml': deployment('nginx', 3) }, 'drop the bomb, scale nginx to 3');
    await events.next('the pass of the commit after the bomb', passFor(next));
    assert.match(fleet.git(fleet.bare, 'log', '-1', '--format=%B', 'flotilla/rendered'), `Source-Commit: ${next}`);
    assert.is(
      (fleet.members[0]!.store.get('apps/deployments', 'default', 'nginx')?.spec as { replicas?: number } | undefined)
        ?.replicas,
      3,
    );
  } finally {
    await reconciler.stop();
    await fleet.cleanup();
  }
});

test.run();
