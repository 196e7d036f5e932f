// When the reconciler's next pass is due by time alone, read from Git (injected clock, no members, no daemon):
// a pending Ready flip, the output's Failover-Check, a graceful eviction's end under --graceful-eviction-timeout.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { nextDeadline, readPassSchedule, type PassDeadline } from '../../src/passes/readPassSchedule.ts';
import { readyFlipTime } from '../../src/statuses/dampReadyCondition.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';
import { at, notReadyCluster, T0 } from '../helpers/failoverState.ts';

const OUT = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const nginxRepo = (tolerationSeconds: number) =>
  makeConfigRepoWith(repos, nginxSample({ tolerationSeconds }), 'nginx, weighted 1:1');
const down = (since: string): Map<string, ObservedCluster> => new Map([['member2', notReadyCluster(since)]]);

/** nginx tolerating a NoExecute taint for 60 s, synced with a graceful eviction timeout of 45 s at the given seconds. */
async function evictingNginx() {
  const r = nginxRepo(60);
  const repo = await openRepo(r.dir);
  const grace = 45;
  const sync = (s: number, state?: Map<string, ObservedCluster>) =>
    syncRepo(repo, {
      sourceRef: 'refs/heads/main',
      outputRef: OUT,
      now: at(s),
      gracefulEvictionTimeoutSeconds: grace,
      ...(state ? { clusterStatus: state } : {}),
    });
  return { r, repo, grace, sync };
}

test('nextDeadline: the earliest deadline not covered by the last pass of its kind; a full pass covers status deadlines', () => {
  const d = (s: number, kind: PassDeadline['kind'], reason: PassDeadline['reason']): PassDeadline => ({
    at: T0 + s * 1000,
    kind,
    reason,
  });
  const deadlines = [
    d(30, 'full', 'failover-check'),
    d(10, 'status', 'ready-flip'),
    d(20, 'full', 'graceful-eviction'),
  ];
  assert.equal(nextDeadline(deadlines, { full: 0, status: 0 }), deadlines[1]);
  assert.equal(
    nextDeadline(deadlines, { full: 0, status: T0 + 10_000 }),
    deadlines[2],
    'the status pass at the flip saw it',
  );
  assert.equal(
    nextDeadline(deadlines, { full: T0 + 20_000, status: 0 }),
    deadlines[0],
    'a full pass probes too: it covers the flip',
  );
  assert.is(
    nextDeadline(deadlines, { full: T0 + 30_000, status: 0 }),
    undefined,
    'a deadline in the past that a pass saw is not woken for again (no loop)',
  );
  assert.is(nextDeadline([], { full: 0, status: 0 }), undefined);
});

test('readyFlipTime: since + the failure threshold for a failing observation, + the success threshold for a recovering one', () => {
  const thresholds = { failureMs: 40_000, successMs: 5_000 };
  assert.is(readyFlipTime({ status: 'False', since: '2026-11-29T15:00:10Z' }, thresholds), T0 + 50_000);
  assert.is(readyFlipTime({ status: 'True', since: '2026-11-29T15:00:10Z' }, thresholds), T0 + 15_000);
  assert.is(readyFlipTime({ status: 'Unknown', since: '2026-11-29T15:00:10Z' }), T0 + 40_000, 'default 30 s');
});

test('a member seen failing: its Ready flip is a status deadline at since + threshold, for the members this reconciler probes only', async () => {
  const r = nginxRepo(60);
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  const thresholds = { failureMs: 20_000, successMs: 20_000 };
  const probe = (status: 'True' | 'False', s: number) =>
    writeStatus({
      repo,
      now: at(s),
      clusterOptions: { thresholds },
      reports: [
        {
          cluster: 'member2',
          status: {
            conditions: [{ type: 'Ready', status, reason: status === 'True' ? 'ClusterReady' : 'ClusterNotReachable' }],
          },
        },
      ],
    });
  await probe('True', 0);
  assert.equal(
    (await readPassSchedule(repo, { outputRef: OUT, statusRef: STATUS, probed: new Set(['member2']), thresholds }))
      .deadlines,
    [],
    'Ready and steady: nothing due',
  );
  await probe('False', 5);
  const schedule = await readPassSchedule(repo, {
    outputRef: OUT,
    statusRef: STATUS,
    probed: new Set(['member1', 'member2']),
    thresholds,
  });
  assert.equal(schedule.deadlines, [{ at: T0 + 25_000, kind: 'status', reason: 'ready-flip', cluster: 'member2' }]);
  assert.is(schedule.clusterStateKey, '', 'no taint yet: the render has nothing new to see');
  const pull = await readPassSchedule(repo, {
    outputRef: OUT,
    statusRef: STATUS,
    probed: new Set(['member1']),
    thresholds,
  });
  assert.equal(pull.deadlines, [], 'a member this reconciler does not probe (Pull: its agent does) is not woken for');
  await probe('False', 25);
  const flipped = await readPassSchedule(repo, {
    outputRef: OUT,
    statusRef: STATUS,
    probed: new Set(['member2']),
    thresholds,
  });
  assert.equal(flipped.deadlines, [], 'flipped at the deadline: nothing pending');
  assert.is.not(flipped.clusterStateKey, '', 'the not-ready taint changes the cluster state: a render is due');
});

test('a toleration running out is a full deadline at Failover-Check; an eviction task ends at creation + --graceful-eviction-timeout + 1 s', async () => {
  const { r, repo, grace, sync } = await evictingNginx();
  const opts = {
    outputRef: OUT,
    statusRef: STATUS,
    probed: new Set(['member1', 'member2']),
    gracePeriodSeconds: grace,
  };
  await sync(0);
  const state = down('2026-11-29T15:01:00Z');
  await sync(90, state);
  assert.equal((await readPassSchedule(repo, opts)).deadlines, [
    { at: Date.parse('2026-11-29T15:02:00Z'), kind: 'full', reason: 'failover-check' },
  ]);
  await sync(120, state);
  assert.match(r.git('log', '-1', '--format=%s', 'flotilla/rendered'), /^failover: member2 NotReady/);
  const evicting = await readPassSchedule(repo, opts);
  assert.ok(evicting.gracefulEvictions);
  assert.equal(evicting.deadlines, [{ at: T0 + (120 + grace + 1) * 1000, kind: 'full', reason: 'graceful-eviction' }]);
  assert.equal(
    (await readPassSchedule(repo, { ...opts, gracePeriodSeconds: undefined })).deadlines.map((d) => d.at),
    [T0 + (120 + 600 + 1) * 1000],
    'default 600 s',
  );

  // The renderer ends the task with the same timeout: nothing at creation + 45 s, the copy goes right after.
  assert.is((await sync(120 + grace, state)).reports.length, 0);
  assert.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
  await sync(120 + grace + 1, state);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^failover: member2's copy of Deployment default\/nginx removed: grace period ended$/,
  );
  assert.not.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
  const after = await readPassSchedule(repo, opts);
  assert.not.ok(after.gracefulEvictions);
  assert.equal(after.deadlines, []);
});

test("while the output's Eviction-Check is ahead, the next eviction deadline is taken from it, not from the bindings", async () => {
  const { r, repo, grace, sync } = await evictingNginx();
  await sync(0);
  const state = down('2026-11-29T15:01:00Z');
  await sync(120, state);
  const check = () => /^Eviction-Check: (.*)$/m.exec(r.git('log', '-1', '--format=%B', 'flotilla/rendered'))?.[1];
  assert.is(check(), '2026-11-29T15:02:00Z', 'the render that made the task: due at the next render');
  // A reader with another timeout than the renderer's: while the check is due, it reads the bindings with its own.
  const schedule = async (s: number) =>
    (await readPassSchedule(repo, { outputRef: OUT, statusRef: STATUS, probed: new Set(), now: T0 + s * 1000 }))
      .deadlines;
  assert.equal(await schedule(130), [{ at: T0 + (120 + 600 + 1) * 1000, kind: 'full', reason: 'graceful-eviction' }]);

  // The next commit looks at the task and records its end under the renderer's timeout: 15:02:45.
  r.commit({ 'templates/extra.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n' }, 'a ConfigMap');
  await sync(130, state);
  assert.is(check(), '2026-11-29T15:02:45Z');
  assert.equal(
    await schedule(140),
    [{ at: T0 + (120 + grace + 1) * 1000, kind: 'full', reason: 'graceful-eviction' }],
    "the renderer's end, read from the trailer",
  );
  // Once it has come, the render due then records the next one; until it does, the bindings say.
  assert.equal(await schedule(170), [{ at: T0 + (120 + 600 + 1) * 1000, kind: 'full', reason: 'graceful-eviction' }]);
});

test.run();
