import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { applyRendered } from '../../src/deliveries/applyRendered.ts';
import { readClusterConfig } from '../../src/outputs/readClusterConfig.ts';
import { readClusterRegistrations } from '../../src/passes/readClusterRegistrations.ts';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const SOURCE = {
  ...MEMBERS,
  'templates/nginx.yaml': sample('nginx/deployment.yaml'),
  'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml'),
};
const repos: ConfigRepo[] = [];

test.after(() => {
  for (const r of repos) r.cleanup();
});

const replicasOf = (text: string) => (parse(text) as { spec: { replicas: number } }).spec.replicas;

async function render(r: ConfigRepo) {
  return renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
}

/** Someone fixes the rendered branch by hand: a commit with no Source-Commit trailer, made with git in a worktree. */
function handCommit(r: ConfigRepo, edit: (worktree: string) => void): string {
  const wt = path.join(r.dir, '..', 'rendered-checkout');
  r.git('worktree', 'add', '-q', wt, 'flotilla/rendered');
  edit(wt);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', wt, '-c', 'user.name=Bob', '-c', 'user.email=bob@example.com', ...args], {
      encoding: 'utf8',
    }).trim();
  git('add', '-A');
  git('commit', '-q', '-m', 'hand fix');
  const sha = git('rev-parse', 'HEAD');
  r.git('worktree', 'remove', '--force', wt);
  return sha;
}

function nginxRepo(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(SOURCE, 'nginx');
  return r;
}

test('below a hand-made commit on the rendered branch an emptied source is still held, and the next change renders incrementally', async () => {
  const r = nginxRepo();
  await render(r);
  const hand = handCommit(r, (wt) => {
    execFileSync('sh', ['-c', `echo 'hotfix notes' > NOTES.md && sed -i 's/replicas: 1/replicas: 5/' ${NGINX_M1}`], {
      cwd: wt,
    });
  });
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 5);

  r.commit(Object.fromEntries(Object.keys(SOURCE).map((f) => [f, null])), 'oops: everything deleted');
  const held = await render(r);
  assert.ok(
    held.problems.some((p) => p.code === 'SOURCE_EMPTY'),
    JSON.stringify(held.problems),
  );
  assert.is(r.git('rev-parse', 'flotilla/rendered^'), hand, 'the held commit goes on top of the hand commit');
  assert.is(
    r.git('rev-parse', 'flotilla/rendered^{tree}'),
    r.git('rev-parse', `${hand}^{tree}`),
    'nothing removed, the hand edit kept',
  );

  r.commit(
    { ...SOURCE, 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') },
    'restored, nginx to 4',
  );
  const before = r.git('rev-parse', 'flotilla/rendered');
  const next = await render(r);
  assert.ok(next.outputCommit);
  assert.is(next.full, false, 'diffed against the last good source, not rendered from nothing');
  const changed = r.git('diff-tree', '-r', '--name-only', before, 'flotilla/rendered').split('\n').sort();
  assert.equal(changed, ['bindings/default/nginx-deployment.yaml', NGINX_M1, NGINX_M2].sort());
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 2, 'the render rewrote the hand-edited file');
  assert.is(r.show('flotilla/rendered', 'NOTES.md'), 'hotfix notes', 'what the render does not rewrite stays');
});

test('verify names a hand-made commit on the rendered branch, and sync below it renders every new source commit', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  const hand = handCommit(r, (wt) => execFileSync('sh', ['-c', "echo 'hotfix notes' > NOTES.md"], { cwd: wt }));
  assert.equal(
    (await verifyOutput(repo, { outputRef: OUT })).foreignCommits.map((c) => c.oid),
    [hand],
  );
  r.commit(
    { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') },
    'nginx to 4',
  );
  r.commit(
    { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 6') },
    'nginx to 6',
  );
  const result = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  assert.is(result.forcePushed, false);
  assert.is(result.reports.length, 2);
  assert.ok(result.reports.every((rep) => !rep.full));
  assert.is(replicasOf(r.show('flotilla/rendered', NGINX_M1)), 3);
  assert.is(r.git('rev-parse', 'flotilla/rendered~2'), hand);
  const again = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT });
  assert.is(again.reports.length, 0);
});

test('below a hand-made commit the reconciler still finds the registered clusters and their config', async () => {
  const r = nginxRepo();
  await render(r);
  const repo = await openRepo(r.dir);
  const before = (await readClusterRegistrations(repo, OUT)).map((c) => c.name).sort();
  handCommit(r, (wt) => execFileSync('sh', ['-c', 'echo "hotfix notes" > NOTES.md'], { cwd: wt }));
  const after = await openRepo(r.dir);
  assert.equal((await readClusterRegistrations(after, OUT)).map((c) => c.name).sort(), before);
  assert.equal([...(await readClusterConfig(after, OUT)).clusters.keys()].sort(), before);
  assert.ok(before.length > 0);
  // What an apply delivers (and looks up prune permissions by) is the source rendered below the hand-made commit.
  assert.is(
    (await applyRendered({ repo: after, outputRef: OUT, clusters: new Map() })).sourceCommit,
    r.git('rev-parse', 'main'),
  );
});

test.run();
