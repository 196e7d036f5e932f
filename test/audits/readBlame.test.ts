// blame from the status branch's record of what each cluster applied, through the rendered manifest, to the source commit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { blameCommand } from '../../src/commands/blameCommand.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { authorEnv, commitAs, DEPLOYMENT, writeWorkTree } from '../plans/helpers/nginxRepo.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { liveNginx, makeFleetRepo, NGINX, RENDERED, reportApplied } from '../views/helpers/fleetRepo.ts';

let repo: TempRepo;
let git: GitRepo;
let base: string;

test.before(async () => {
  ({ repo, git, base } = await makeFleetRepo());
});
test.after(() => repo.cleanup());

async function blame(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await blameCommand([...args, '--repo', repo.path], {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
    now: () => new Date(),
  });
  return { code, out, err };
}
const applied = (cluster: string, replicas: number) => [
  {
    ref: NGINX,
    path: `clusters/${cluster}/default/deployment.apps_nginx.yaml`,
    action: 'configured' as const,
    message: 'configured',
    live: liveNginx(replicas, replicas),
  },
];

test('names the source commit behind what a cluster runs, up to date', async () => {
  const r = await blame('--cluster', 'member1', 'deploy/nginx');
  assert.is(r.code, 0, r.err);
  assert.match(
    r.out,
    new RegExp(
      `^Deployment default/nginx on member1\n  source: +${base.slice(0, 12)} by Ada Author <ada@example.com> at 2023-11-15T03:43:20\\+05:30\n  subject: +Add nginx and three members\n`,
    ),
  );
  assert.match(r.out, /status: +applied=true, health=Healthy/);
  assert.match(r.out, /latest: +member1 has applied the latest render/);
  const json = JSON.parse(
    (await blame('--cluster', 'member1', 'deployments/nginx', '-n', 'default', '-o', 'json')).out,
  );
  assert.is(json.source.sha, base);
  assert.is(json.upToDate, true);
});

test('a merged pull request rendered but not applied yet: says so and names the pending commit; after the apply it is the source', async () => {
  repo.git(['checkout', '-q', '-b', 'scale']);
  writeWorkTree(repo, { 'templates/deployment.yaml': DEPLOYMENT.replace('replicas: 2', 'replicas: 4') });
  commitAs(repo, 'nginx: 4 replicas', authorEnv('Bea', 'bea@example.com', 1_700_100_000));
  repo.git(['checkout', '-q', 'main']);
  repo.git(['merge', '-q', '--no-ff', 'scale', '-m', 'Merge pull request #42 from ops/scale'], {
    env: authorEnv('Cy', 'cy@example.com', 1_700_100_100),
  });
  const merge = repo.git(['rev-parse', 'HEAD']).trim();
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });

  const behind = await blame('--cluster', 'member1', 'deploy/nginx');
  assert.is(behind.code, 0, behind.err);
  assert.match(
    behind.out,
    new RegExp(`source: +${base.slice(0, 12)} by Ada Author`),
    'still the old commit: member1 has not applied the new render',
  );
  assert.match(
    behind.out,
    /latest: +NOT UP TO DATE: flotilla\/rendered is at [0-9a-f]{12}; member1 last applied [0-9a-f]{12}/,
  );
  assert.match(
    behind.out,
    new RegExp(
      `pending: +${merge.slice(0, 12)} \\(PR #42\\) by Cy <cy@example.com> at .*: Merge pull request #42 from ops/scale`,
    ),
  );

  await reportApplied(git, { member1: applied('member1', 2), member2: applied('member2', 2) });
  const now = JSON.parse((await blame('--cluster', 'member1', 'deploy/nginx', '-o', 'json')).out);
  assert.is(now.source.sha, merge);
  assert.is(now.source.pullRequest, 42);
  assert.is(now.upToDate, true);
});

test('a render that leaves a cluster alone keeps it up to date, and makes no status commit for it', async () => {
  writeWorkTree(repo, {
    'templates/extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata: {a: b}\n',
  });
  commitAs(repo, 'an unplaced ConfigMap', authorEnv('Dee', 'dee@example.com', 1_700_200_000));
  await syncRepo(git, { sourceRef: 'refs/heads/main', outputRef: RENDERED });
  const r = JSON.parse((await blame('--cluster', 'member1', 'deploy/nginx', '-o', 'json')).out);
  assert.ok(r.renderedHead !== r.appliedRenderedCommit, 'a newer render exists');
  assert.is(r.upToDate, true, "but member1's folder is the one it applied");
  const again = await reportApplied(git, { member1: applied('member1', 2) });
  assert.is(again.commit, null, 'the applied record moves only when the folder does');
});

test('an object the cluster does not run, and a cluster nothing reported on, exit 1 with the reason', async () => {
  const absent = await blame('--cluster', 'member3', 'deploy/nginx');
  assert.is(absent.code, 1);
  assert.match(absent.err, /flotilla\/status has no record of what member3 applied/);
  // A name the rendered branch does not register is a typo: the registered names and the nearest one.
  const typo = await blame('--cluster', 'membr1', 'deploy/nginx');
  assert.is(typo.code, 1);
  assert.match(
    typo.err,
    /cluster membr1 is not registered; registered: member1, member2, member3 \(did you mean member1\?\); fix: pass --cluster with a registered name/,
  );
  const other = await blame('--cluster', 'member1', 'deploy/other');
  assert.is(other.code, 1);
  assert.match(other.err, /Deployment default\/other was not in what member1 last applied/);
});

test.run();
