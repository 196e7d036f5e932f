// Failover through the render: cluster state from the status branch (or a map) and an injected clock, no members.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ObservedCluster } from '../../src/api/cluster.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import { clusterYaml, configMap, makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';
import { at, notReadyCluster } from '../helpers/failoverState.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX_M1 = 'clusters/member1/default/deployment.apps_nginx.yaml';
const NGINX_M2 = 'clusters/member2/default/deployment.apps_nginx.yaml';
const BINDING = 'bindings/default/nginx-deployment.yaml';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

/** The nginx sample (Divided 1:1 over member1 and member2) tolerating not-ready:NoExecute for 60 s. */
const nginxRepo = (tolerationSeconds?: number) =>
  makeConfigRepoWith(repos, nginxSample({ tolerationSeconds }), 'nginx, weighted 1:1');
const down = (since: string): Map<string, ObservedCluster> => new Map([['member2', notReadyCluster(since)]]);
const replicas = (r: ConfigRepo, path: string) =>
  (parse(r.show('flotilla/rendered', path)) as { spec: { replicas: number } }).spec.replicas;

test('NoExecute tolerated for 60 s: nothing moves before, a failover commit explains the move after; member2 keeps its copy', async () => {
  const r = nginxRepo(60);
  const repo = await openRepo(r.dir);
  const sync = (now: () => Date, clusterStatus?: Map<string, ObservedCluster>) =>
    syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now, ...(clusterStatus ? { clusterStatus } : {}) });
  await sync(at(0));
  assert.is(replicas(r, NGINX_M2), 1);

  const state = down('2026-11-29T15:01:00Z');
  const tainted = await sync(at(90), state);
  assert.is(tainted.reports.length, 1, 'the taints changed: rendered again');
  assert.is(tainted.reports[0]!.failover.length, 0, 'tolerated for 60 s from 15:01:00: nothing evicted at 15:01:30');
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /Failover-Check: 2026-11-29T15:02:00Z/);
  assert.is((await sync(at(100), state)).reports.length, 0, 'same state, toleration not over: no commit');

  const moved = await sync(at(120), state);
  assert.is(moved.reports.length, 1);
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  assert.match(
    message,
    /^failover: member2 NotReady since 2026-11-29T15:01:00Z \(ClusterNotReachable\), taint cluster\.karmada\.io\/not-ready:NoExecute tolerated for 60s from 2026-11-29T15:01:00Z, expired: Deployment default\/nginx 1 replica member2→member1$/m,
  );
  assert.match(message, /Source-Commit: [0-9a-f]{40}/);
  assert.is(replicas(r, NGINX_M1), 2);
  assert.is(replicas(r, NGINX_M2), 1, 'member2 keeps its copy until the replacement is healthy');
  const binding = parse(r.show('flotilla/rendered', BINDING));
  assert.equal(binding.spec.clusters, [{ name: 'member1', replicas: 2 }]);
  assert.equal(
    binding.spec.gracefulEvictionTasks.map(
      (t: { fromCluster: string; reason: string; producer: string; replicas: number }) => [
        t.fromCluster,
        t.reason,
        t.producer,
        t.replicas,
      ],
    ),
    [['member2', 'TaintUntolerated', 'TaintManager', 1]],
  );
  assert.is(
    (await sync(at(130), state)).reports.length,
    0,
    'the task waits: no commit while nothing reports member1 healthy',
  );

  // member1 reports nginx healthy at 2 replicas: the task ends and member2's copy goes from the rendered branch.
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' };
  const live = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', generation: 2 },
    spec: { replicas: 2 },
    status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
  };
  await writeStatus({
    repo,
    now: at(140),
    reports: [
      {
        cluster: 'member1',
        delivery: {
          cluster: 'member1',
          results: [{ ref, action: 'configured', message: 'ok', live }],
          inventory: [ref],
          previousInventory: [ref],
          writes: 1,
          notes: [],
          durationMs: 0,
        },
      },
    ],
  });
  const released = await sync(at(150), state);
  assert.is(released.reports.length, 1);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^failover: member2's copy of Deployment default\/nginx removed: replacements healthy on member1$/,
  );
  assert.not.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
  assert.is(parse(r.show('flotilla/rendered', BINDING)).spec.gracefulEvictionTasks, undefined);
  assert.is((await sync(at(160), state)).reports.length, 0, 'nothing left to decide: no commit');

  // member2 comes back: taints gone. Divided static weights stay where they are (Karmada keeps the steady result).
  const back = await sync(
    at(300),
    new Map([
      [
        'member2',
        { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-29T15:05:00Z' }] } },
      ],
    ]),
  );
  assert.is(back.reports.length, 1, 'the state changed back: one commit');
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^Cluster state: every cluster Ready and untainted$/,
  );
  assert.is(replicas(r, NGINX_M1), 2);
  assert.not.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
});

test('an untolerated NoExecute taint evicts at once; the grace period ends the task when nothing reports healthy', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  const sync = (now: () => Date, clusterStatus: Map<string, ObservedCluster>) =>
    syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now, clusterStatus });
  await sync(at(0), new Map());
  const state = down('2026-11-29T15:00:30Z');
  const moved = await sync(at(31), state);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^failover: member2 NotReady since 2026-11-29T15:00:30Z \(ClusterNotReachable\), taint cluster\.karmada\.io\/not-ready:NoExecute not tolerated: Deployment default\/nginx 1 replica member2→member1$/,
  );
  assert.is(moved.reports[0]!.failover[0]!.type, 'evicted');
  assert.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
  assert.is((await sync(at(31 + 600), state)).reports.length, 0, 'grace period of 600 s not over yet');
  await sync(at(31 + 601), state);
  assert.match(r.git('log', '-1', '--format=%s', 'flotilla/rendered'), /removed: grace period ended$/);
  assert.not.ok(r.ls('flotilla/rendered').includes(NGINX_M2));
});

test('a cluster going down while a commit lands: the commit is rendered with every template the new state evicts', async () => {
  const r = nginxRepo();
  const repo = await openRepo(r.dir);
  const sync = (now: () => Date, clusterStatus: Map<string, ObservedCluster>) =>
    syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now, clusterStatus });
  await sync(at(0), new Map());
  r.commit({ 'templates/settings.yaml': configMap('settings') }, 'an unrelated ConfigMap');
  // No pass saw member2 go down before this commit: its render is the one that must evict nginx from there.
  const landed = await sync(at(31), down('2026-11-29T15:00:30Z'));
  assert.is(landed.reports.length, 1);
  assert.equal(
    landed.reports[0]!.failover.map((e) => [e.type, e.type === 'evicted' ? e.cluster : '']),
    [['evicted', 'member2']],
  );
  assert.equal(
    (parse(r.show('flotilla/rendered', BINDING)) as { spec: { clusters: { name: string }[] } }).spec.clusters.map(
      (c) => c.name,
    ),
    ['member1'],
  );
});

test('no cluster state at all: no trailer, no re-render, no commit', async () => {
  const r = nginxRepo(60);
  const repo = await openRepo(r.dir);
  const first = await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(0) });
  assert.is(first.reports.length, 1);
  assert.not.match(
    r.git('log', '-1', '--format=%B', 'flotilla/rendered'),
    /Cluster-State|Failover-Check|Graceful-Evictions/,
  );
  assert.is((await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(1000) })).reports.length, 0);
});

test('a commit rendered after a NoExecute toleration ran out evicts what it placed there and what was there before', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2', {
        taints: '\n  taints:\n    - {key: maintenance, effect: NoExecute, timeAdded: "2026-11-29T15:00:00Z"}',
      }),
      'policies/configs.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: configs, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    clusterTolerations: [{key: maintenance, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
`,
      'templates/a.yaml': configMap('a'),
    },
    'two clusters, member2 under maintenance',
  );
  const repo = await openRepo(r.dir);
  const sync = (now: () => Date) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now });
  await sync(at(30));
  const placed = (name: string) =>
    parse(r.show('flotilla/rendered', `bindings/default/${name}-configmap.yaml`)) as {
      spec: { clusters: { name: string }[]; gracefulEvictionTasks?: { fromCluster: string; reason: string }[] };
    };
  assert.equal(
    placed('a').spec.clusters.map((c) => c.name),
    ['member1', 'member2'],
    'tolerated for 60 s from 15:00:00',
  );

  // At 15:02:00 the toleration has run out: Karmada's scheduler still places a new ConfigMap on member2 (it does not
  // read tolerationSeconds), and its taint manager evicts it from there at once.
  r.commit({ 'templates/b.yaml': configMap('b') }, 'another ConfigMap');
  const late = await sync(at(120));
  assert.equal(
    placed('a').spec.clusters.map((c) => c.name),
    ['member1'],
    'the commit is rendered after the toleration noted in Failover-Check ran out: every template is, as a pass would',
  );
  const b = placed('b');
  assert.equal(
    b.spec.clusters.map((c) => c.name),
    ['member1'],
  );
  assert.equal(
    b.spec.gracefulEvictionTasks?.map((t) => [t.fromCluster, t.reason]),
    [['member2', 'TaintUntolerated']],
  );
  assert.ok(
    late.reports.some((report) =>
      report.failover.some((e) => e.type === 'evicted' && e.ref.name === 'b' && e.cluster === 'member2'),
    ),
    'the eviction is reported',
  );
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok, 'a replay renders the same');
});

// Karmada's graceful eviction controller ends the task with a spec update, and its scheduler then schedules the
// binding again; a Duplicated or non-workload one is scheduled on every such update, so it takes the cluster back.
test('a ConfigMap evicted from a cluster that is Ready again returns there in the render that ends its eviction', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/configs.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: configs, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
      'templates/a.yaml': configMap('a'),
    },
    'a ConfigMap on two clusters',
  );
  const repo = await openRepo(r.dir);
  const sync = (now: () => Date, clusterStatus: Map<string, ObservedCluster>) =>
    syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now, clusterStatus });
  const binding = () =>
    parse(r.show('flotilla/rendered', 'bindings/default/a-configmap.yaml')) as {
      spec: { clusters: { name: string }[]; gracefulEvictionTasks?: unknown[] };
    };
  await sync(at(0), new Map());
  await sync(at(31), down('2026-11-29T15:00:30Z'));
  assert.equal(
    binding().spec.clusters.map((c) => c.name),
    ['member1'],
  );
  const ready: Map<string, ObservedCluster> = new Map([
    [
      'member2',
      { status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-29T15:01:00Z' }] } },
    ],
  ]);
  await sync(at(60), ready);
  assert.equal(
    binding().spec.clusters.map((c) => c.name),
    ['member1'],
    'the eviction task still keeps member2 out',
  );
  const ended = await sync(at(31 + 601), ready);
  assert.is(ended.reports.length, 1);
  assert.equal(
    binding().spec.clusters.map((c) => c.name),
    ['member1', 'member2'],
  );
  assert.is(binding().spec.gracefulEvictionTasks, undefined);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^failover: member2's eviction of ConfigMap default\/a ended: grace period ended; placed there again$/,
  );
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member2/default/configmap_a.yaml'));
});

test.run();
