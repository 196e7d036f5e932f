// Karmada's application failover through the render: member health as the status branch records it, an injected
// clock, no members.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { readPassSchedule } from '../../src/passes/readPassSchedule.ts';
import { configMap, makeConfigRepoWith, MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { at, T0 } from '../helpers/failoverState.ts';
import { liveNginx, NGINX } from '../views/helpers/fleetRepo.ts';
import { shardOf } from '../../src/branches/rendered/outputIndex.ts';
import { followsSchema } from '../helpers/branchSchemas.ts';

const OUT = 'refs/heads/flotilla/rendered';
const STATUS = 'refs/heads/flotilla/status';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const BINDING = 'bindings/default/nginx-deployment.yaml';
const STATUS_FILE = 'templates/default/deployment.apps_nginx.yaml';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** Karmada's nginx sample, Divided 1:1 over member1 and member2, failing over after `application` (YAML lines). */
function policy(application: string, opts: { propagateDeps?: boolean; kind?: string } = {}): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx-propagation
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: ${opts.kind === 'ConfigMap' ? 'v1' : 'apps/v1'}
      kind: ${opts.kind ?? 'Deployment'}
      name: nginx
  propagateDeps: ${opts.propagateDeps ?? true}
  failover:
    application:
${application
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - targetCluster: { clusterNames: [member1] }
            weight: 1
          - targetCluster: { clusterNames: [member2] }
            weight: 1
`;
}

const GRACEFULLY_60 = 'decisionConditions:\n  tolerationSeconds: 60\npurgeMode: Gracefully\ngracePeriodSeconds: 600';

function repoWith(application: string, opts: { propagateDeps?: boolean; kind?: string } = {}): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/nginx.yaml': opts.kind === 'ConfigMap' ? configMap('nginx') : sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': policy(application, opts),
    },
    'nginx with application failover',
  );
}

/** A status pass of `cluster`: nginx read back as `object`, nothing applied. */
async function observe(repo: GitRepo, s: number, cluster: string, object: Record<string, unknown>) {
  await writeStatus({ repo, now: at(s), reports: [{ cluster, observed: [{ ref: NGINX, live: object }] }] });
}

/** An apply pass of `cluster` that leaves nginx as `object`. */
async function applied(repo: GitRepo, s: number, cluster: string, object: Record<string, unknown>) {
  await writeStatus({
    repo,
    now: at(s),
    reports: [
      {
        cluster,
        delivery: {
          cluster,
          results: [{ ref: NGINX, action: 'configured', message: 'ok', live: object }],
          inventory: [NGINX],
          previousInventory: [NGINX],
          writes: 1,
          notes: [],
          durationMs: 0,
        },
      },
    ],
  });
}

const replicas = (r: ConfigRepo, path: string) =>
  (parse(r.show('flotilla/rendered', path)) as { spec: { replicas: number } }).spec.replicas;
const since = (r: ConfigRepo, cluster: string) =>
  (
    parse(r.show('flotilla/status', STATUS_FILE)) as {
      aggregatedStatus: { clusterName: string; unhealthySince?: string }[];
    }
  ).aggregatedStatus.find((i) => i.clusterName === cluster)?.unhealthySince;

test('an application Unhealthy on a cluster for longer than tolerationSeconds fails over; the copy goes once the replacement is healthy', async () => {
  const r = repoWith(GRACEFULLY_60);
  const repo = await openRepo(r.dir);
  const sync = (s: number) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(s) });
  await sync(0);
  assert.equal(parse(r.show('flotilla/rendered', BINDING)).spec.failover.application.decisionConditions, {
    tolerationSeconds: 60,
  });
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /^Application-Failover: 1$/m);
  await applied(repo, 5, 'member1', liveNginx(1, 1));
  await applied(repo, 5, 'member2', liveNginx(1, 1));
  assert.is(since(r, 'member2'), undefined, 'healthy: no count');

  await observe(repo, 10, 'member2', liveNginx(1, 0));
  assert.is(since(r, 'member2'), '2026-11-29T15:00:10Z');
  await observe(repo, 40, 'member2', liveNginx(1, 0));
  assert.is(since(r, 'member2'), '2026-11-29T15:00:10Z', 'still Unhealthy: the count goes on');
  const schedule = await readPassSchedule(repo, { outputRef: OUT, statusRef: STATUS, probed: new Set() });
  assert.equal(
    schedule.deadlines.filter((d) => d.reason === 'application-failover'),
    [{ at: T0 + 70_001, kind: 'full', reason: 'application-failover' }],
  );
  assert.is((await sync(70)).reports.length, 0, 'Unhealthy for 60 s, not longer: nothing moves');

  const moved = await sync(71);
  assert.is(moved.reports.length, 1);
  assert.is(moved.reports[0]!.failover[0]!.type, 'failed-over');
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(
    message,
    /^failover: Deployment default\/nginx Unhealthy on member2 since 2026-11-29T15:00:10Z, longer than failover\.application tolerates \(60s\): 1 replica member2→member1$/m,
  );
  assert.match(message, /^Render-Time: 2026-11-29T15:01:11\.000Z$/m);
  const binding = parse(r.show('flotilla/rendered', BINDING));
  assert.equal(binding.spec.clusters, [{ name: 'member1', replicas: 2 }]);
  assert.equal(binding.spec.gracefulEvictionTasks, [
    {
      fromCluster: 'member2',
      replicas: 1,
      purgeMode: 'Gracefully',
      reason: 'ApplicationFailure',
      producer: 'resource-binding-application-failover-controller',
      creationTimestamp: '2026-11-29T15:01:11Z',
      gracePeriodSeconds: 600,
    },
  ]);
  assert.is(replicas(r, NGINX_M1), 2);
  assert.is(replicas(r, NGINX_M2), 1, 'member2 keeps its copy until the replacement is healthy');
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok, 'the failover commit replays');
  // The new fields follow the published formats of both branches.
  const root = JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json'));
  assert.equal(root.applicationFailover, ['apps/v1/Deployment/default/nginx']);
  assert.is(followsSchema('rendered-index', root), true);
  const shard = JSON.parse(
    r.show('flotilla/rendered', `.flotilla/index/${shardOf('apps/v1/Deployment/default/nginx')}.json`),
  );
  assert.equal(shard.templates['apps/v1/Deployment/default/nginx'].applicationFailover, { tolerationSeconds: 60 });
  assert.is(followsSchema('rendered-index-shard', shard), true);
  assert.is(followsSchema('status-template', parse(r.show('flotilla/status', STATUS_FILE))), true);
  assert.is((await sync(80)).reports.length, 0, 'being evicted: not evicted again');

  await applied(repo, 90, 'member1', liveNginx(2, 2));
  const released = await sync(95);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1$/,
  );
  assert.not.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
  assert.is(released.reports.length, 1);
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
});

test('health back to Healthy or Unknown restarts the count, as Karmada forgets the cluster', async () => {
  const r = repoWith(GRACEFULLY_60);
  const repo = await openRepo(r.dir);
  const sync = (s: number) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(s) });
  await sync(0);
  await applied(repo, 5, 'member2', liveNginx(1, 0));
  assert.is(since(r, 'member2'), '2026-11-29T15:00:05Z');
  await observe(repo, 30, 'member2', liveNginx(1, 1));
  assert.is(since(r, 'member2'), undefined);
  await observe(repo, 40, 'member2', liveNginx(1, 0));
  assert.is(since(r, 'member2'), '2026-11-29T15:00:40Z', 'a new count');
  await applied(repo, 45, 'member2', {
    ...liveNginx(1, 0),
    metadata: { name: 'nginx', namespace: 'default', generation: 2 },
  });
  // A generation not yet observed is Unhealthy too: the count goes on.
  assert.is(since(r, 'member2'), '2026-11-29T15:00:40Z');
  // An apply that failed leaves the health Unknown: the count stops, and starts again when it is Unhealthy again.
  await writeStatus({
    repo,
    now: at(48),
    reports: [
      {
        cluster: 'member2',
        delivery: {
          cluster: 'member2',
          results: [{ ref: NGINX, action: 'failed', message: 'connection refused' }],
          inventory: [NGINX],
          previousInventory: [NGINX],
          writes: 0,
          notes: [],
          durationMs: 0,
        },
      },
    ],
  });
  assert.is(since(r, 'member2'), undefined, 'Unknown: no count');
  await applied(repo, 50, 'member2', liveNginx(1, 0));
  assert.is(since(r, 'member2'), '2026-11-29T15:00:50Z');
  assert.is((await sync(110)).reports.length, 0, 'Unhealthy since 15:00:50: 60 s, not longer');
  assert.is((await sync(111)).reports[0]!.failover[0]!.type, 'failed-over');
});

test('purgeMode Never keeps the copy with a task that never ends by itself; Directly removes it at once', async () => {
  for (const [mode, kept, task] of [
    ['Never', true, { purgeMode: 'Never', suppressDeletion: true }],
    ['Directly', false, { purgeMode: 'Directly' }],
  ] as const) {
    const r = repoWith(`decisionConditions:\n  tolerationSeconds: 0\npurgeMode: ${mode}`);
    const repo = await openRepo(r.dir);
    const sync = (s: number) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(s) });
    await sync(0);
    await applied(repo, 5, 'member2', liveNginx(1, 0));
    assert.is((await sync(5)).reports.length, 0, `${mode}: Unhealthy for 0 s, not longer`);
    await sync(6);
    const binding = parse(r.show('flotilla/rendered', BINDING));
    assert.equal(binding.spec.clusters, [{ name: 'member1', replicas: 2 }], mode);
    const { creationTimestamp: _t, ...rest } = binding.spec.gracefulEvictionTasks[0];
    assert.equal(rest, {
      fromCluster: 'member2',
      replicas: 1,
      reason: 'ApplicationFailure',
      producer: 'resource-binding-application-failover-controller',
      ...task,
    });
    assert.is(r.ls('flotilla/rendered').includes(NGINX_M2), kept, mode);
    await applied(repo, 10, 'member1', liveNginx(2, 2));
    await sync(1000);
    assert.is(r.ls('flotilla/rendered').includes(NGINX_M2), kept, `${mode}: still, after member1 is healthy`);
  }
});

test('kinds whose health Karmada does not interpret never fail over, and are not watched', async () => {
  const r = repoWith('decisionConditions:\n  tolerationSeconds: 0', { kind: 'ConfigMap' });
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  assert.not.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Application-Failover/);
  const index = JSON.parse(r.show('flotilla/rendered', '.flotilla/index.json'));
  assert.is(index.applicationFailover, undefined);
});

test.run();
