// verify on output commits that depend on more than the source: failover re-renders (cluster state from the status
// branch, an injected clock), renders from a --cluster-status map, and held SOURCE_EMPTY commits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { NOT_REPRODUCIBLE_EXIT, verifyCommand } from '../../src/commands/verifyCommand.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';
import { at, commitStatus, notReadyCluster as down } from '../helpers/failoverState.ts';
import { commonOptions } from '../plans/helpers/runCommand.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** The nginx sample (Divided 1:1 over member1 and member2), tolerating no NoExecute taint. */
const nginxRepo = () => makeConfigRepoWith(repos, nginxSample(), 'nginx, weighted 1:1');

/** An intruder's commit on the rendered branch changing one manifest. */
function handEdit(r: ConfigRepo, path: string): void {
  r.git('checkout', '-q', 'flotilla/rendered');
  r.commit({ [path]: r.show('flotilla/rendered', path).replace('image: nginx', 'image: evil/nginx') }, 'quick fix');
  r.git('checkout', '-q', 'main');
}

test('a failover commit (re-render for cluster state, eviction at its time) verifies clean, after the status branch moved on', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  const statusCommit = commitStatus(r, { member2: down('2026-11-29T15:00:30Z') });
  const moved = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(31) });
  assert.is(moved.reports[0]!.failover[0]?.type, 'evicted', 'the untolerated NoExecute taint evicted member2');
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(message, `Cluster-Status: ${statusCommit}`);
  assert.match(message, 'Render-Time: 2026-11-29T15:00:31.000Z');
  // The status branch moves on (member2 back): verify replays the state the render recorded, not the branch head.
  commitStatus(r, { member2: { status: { conditions: [{ type: 'Ready', status: 'True' }] } } });

  const report = await verifyOutput(repo, { outputRef: OUT });
  assert.equal([report.differs, report.missing, report.extra], [[], [], []]);
  assert.ok(report.ok);
  assert.equal(report.replayedWith, { statusCommit, renderTime: '2026-11-29T15:00:31.000Z' });
  const opts = commonOptions(r.dir);
  assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), 0);
  assert.match(
    opts.stdout(),
    `with cluster state of flotilla/status ${statusCommit.slice(0, 12)} at 2026-11-29T15:00:31.000Z`,
  );

  // The grace period ends by the clock alone (600 s, nothing reports healthy): that commit replays too.
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(31 + 601) });
  assert.match(r.git('log', '-1', '--format=%s', 'flotilla/rendered'), /removed: grace period ended$/);
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok, 'the release commit verifies');
  assert.ok(
    (await verifyOutput(repo, { outputRef: OUT, rev: 'flotilla/rendered~2' })).ok,
    'and the eviction commit below it, by --rev',
  );
});

test('a hand edit on top of a failover commit is caught', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  commitStatus(r, { member2: down('2026-11-29T15:00:30Z') });
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(31) });
  handEdit(r, NGINX_M1);
  const report = await verifyOutput(repo, { outputRef: OUT });
  assert.equal(report.differs, [NGINX_M1]);
  assert.is(report.foreignCommits[0]!.subject, 'quick fix');
  const opts = commonOptions(r.dir);
  assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), 1);
  assert.match(opts.stdout(), `differs  ${NGINX_M1}`);
});

test('a held SOURCE_EMPTY commit verifies clean against the render it kept; a hand edit on top is caught', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  commitStatus(r, { member2: down('2026-11-29T15:00:30Z') });
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(31) });
  r.commit(
    {
      'templates/nginx.yaml': null,
      'policies/nginx.yaml': null,
      'clusters/member1.yaml': null,
      'clusters/member2.yaml': null,
      'clusters/member3.yaml': null,
    },
    'oops, everything deleted',
  );
  const held = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(40) });
  assert.is(held.reports[0]!.problems[0]!.code, 'SOURCE_EMPTY');
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Last-Good-Source: [0-9a-f]{40}/);
  const report = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(report.ok, JSON.stringify(report));
  assert.is(report.sourceCommit, r.git('rev-parse', 'main'));
  assert.is(
    report.renderedBy,
    r.git('rev-parse', 'flotilla/rendered~1'),
    'replayed the failover render whose tree it holds',
  );

  // A hand edit on top of the held commit is caught like any other.
  handEdit(r, NGINX_M2);
  const caught = await verifyOutput(repo, { outputRef: OUT });
  assert.equal(caught.differs, [NGINX_M2]);
  assert.equal(
    caught.foreignCommits.map((c) => c.subject),
    ['quick fix'],
  );
});

test('a render from a --cluster-status map is not reproducible (exit 4), unless someone edited it (exit 1)', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  await syncRepo(repo, {
    sourceRef: 'refs/heads/main',
    outputRef: OUT,
    now: at(31),
    clusterStatus: new Map([['member2', down('2026-11-29T15:00:30Z')]]),
  });
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /^Cluster-Status: file$/m);
  const report = await verifyOutput(repo, { outputRef: OUT });
  assert.match(report.notReproducible ?? '', /--cluster-status file/);
  assert.not.ok(report.ok);
  let opts = commonOptions(r.dir);
  assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), NOT_REPRODUCIBLE_EXIT);
  assert.match(opts.stdout(), 'not reproducible from Git alone');
  assert.match(opts.stdout(), 'NOT REPRODUCIBLE');

  handEdit(r, NGINX_M1);
  opts = commonOptions(r.dir);
  assert.is(await verifyCommand({ ...opts, verifyRev: undefined }), 1);
  assert.match(opts.stdout(), `differs  ${NGINX_M1}`);
});

test('a fleet that never failed over: no Cluster-Status or Render-Time trailer, verify as before, a held commit too', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  assert.not.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Cluster-Status|Render-Time/);
  const report = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(report.ok);
  assert.is(report.replayedWith, undefined);
  r.commit(
    {
      'templates/nginx.yaml': null,
      'policies/nginx.yaml': null,
      'clusters/member1.yaml': null,
      'clusters/member2.yaml': null,
      'clusters/member3.yaml': null,
    },
    'emptied',
  );
  assert.is(
    (await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(10) })).reports[0]!.problems[0]!.code,
    'SOURCE_EMPTY',
  );
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok, 'the held commit verifies against the render it kept');
});

test.run();
