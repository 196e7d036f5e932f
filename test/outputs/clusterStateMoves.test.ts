// A cluster's state moving outside Git (managed taints on the status branch, a NoExecute toleration running out)
// renders what that cluster reaches, not the fleet: the output equals a render of every template (verify replays it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { refKey } from '../../src/api/kinds.ts';
import { CLUSTER_STATE_TRAILER, CLUSTER_STATUS_TRAILER } from '../../src/branches/rendered/trailers.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { clusterStateKey, clusterStateMovesSince, taintMoves } from '../../src/outputs/clusterState.ts';
import type { Taint } from '../../src/api/cluster.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import {
  configMap,
  configMapPolicy,
  deployment,
  MEMBERS,
  makeConfigRepoWith,
  nginxSample,
  type ConfigRepo,
  weightedPolicy,
} from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';
import { at, commitStatus, notReadyCluster } from '../helpers/failoverState.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const ELSEWHERE = refKey({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other', name: 'elsewhere' });
const NGINX = refKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' });
const replicas = (r: ConfigRepo, cluster: string) =>
  (
    parse(r.show('flotilla/rendered', `clusters/${cluster}/default/deployment.apps_nginx.yaml`)) as {
      spec: { replicas: number };
    }
  ).spec.replicas;

test('a cluster going NotReady, its toleration running out and its coming back each render what it reaches, not the fleet', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      // nginx Divided 1:1 over member1 and member2, tolerating not-ready:NoExecute for 60 s.
      ...nginxSample({ tolerationSeconds: 60 }),
      // A ConfigMap of another namespace, on member3 only: no state of member2 reaches it.
      'templates/elsewhere.yaml': configMap('elsewhere', 'x', 'other'),
      'policies/elsewhere.yaml': configMapPolicy(['member3'], 'other'),
    },
    'nginx over member1 and member2; a ConfigMap on member3',
  );
  const repo = await openRepo(r.dir);
  const sync = (s: number) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(s) });
  await sync(0);
  assert.is(replicas(r, 'member2'), 1);

  // member3 cordoned (unschedulable:NoSchedule): nothing already placed moves, and nothing is rendered.
  const cordoned = {
    taints: [
      { key: 'cluster.karmada.io/unschedulable', effect: 'NoSchedule' as const, timeAdded: '2026-11-29T15:00:10Z' },
    ],
  };
  commitStatus(r, { member3: cordoned });
  const cordon = (await sync(20)).reports;
  assert.is(cordon.length, 1, 'a new state is recorded');
  assert.is(cordon[0]!.full, false);
  assert.is(cordon[0]!.explanations.size, 0, 'no template rendered');
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member3/other/configmap_elsewhere.yaml'));

  // member2 NotReady since 15:00:30, tainted not-ready:NoSchedule and NoExecute: tolerated, nothing moves yet.
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z'), member3: cordoned });
  const tainted = (await sync(31)).reports;
  assert.is(tainted.length, 1, 'the taints changed: rendered again');
  assert.is(tainted[0]!.full, false, 'not every template');
  assert.ok(tainted[0]!.explanations.has(NGINX), 'nginx is on member2: rendered');
  assert.not.ok(tainted[0]!.explanations.has(ELSEWHERE), 'a template member2 cannot reach is not rendered');
  assert.match(r.git('log', '-1', '--format=%B', 'flotilla/rendered'), /^Failover-Check: 2026-11-29T15:01:30Z$/m);

  // The toleration runs out at 15:01:30: nginx's replica leaves member2.
  const evicted = (await sync(95)).reports;
  assert.is(evicted.length, 1);
  assert.is(evicted[0]!.full, false);
  assert.is(evicted[0]!.failover[0]?.type, 'evicted');
  assert.not.ok(evicted[0]!.explanations.has(ELSEWHERE));
  assert.is(replicas(r, 'member1'), 2);

  // member2 is back, untainted.
  commitStatus(r, { member2: {}, member3: cordoned });
  const back = (await sync(120)).reports;
  assert.is(back.length, 1);
  assert.is(back[0]!.full, false);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^Cluster state: member3 taints cluster\.karmada\.io\/unschedulable:NoSchedule$/,
  );

  await assertVerifies(r);
});

test('a taint that goes renders only what may join the cluster, and a NoExecute one that comes only what runs there', async () => {
  const tolerant = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps
  namespace: other
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  placement:
    clusterAffinity:
      clusterNames: [member3]
    clusterTolerations:
      - {key: cluster.karmada.io/unschedulable, operator: Exists, effect: NoSchedule}
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      // Duplicated (a kind without replicas) on member1 and member3.
      'templates/joins.yaml': configMap('joins'),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member3']),
      // Divided 1:1 over member1 and member3.
      'templates/divided.yaml': deployment('divided', 2),
      'policies/divided.yaml': weightedPolicy('divided', ['member1', 'member3']),
      // On member3 alone, tolerating its cordon.
      'templates/tolerant.yaml': configMap('tolerant', 'x', 'other'),
      'policies/tolerant.yaml': tolerant,
    },
    'a ConfigMap, a Divided Deployment, a ConfigMap tolerating the cordon',
  );
  const cordoned = {
    taints: [
      { key: 'cluster.karmada.io/unschedulable', effect: 'NoSchedule' as const, timeAdded: '2026-11-29T14:00:00Z' },
    ],
  };
  commitStatus(r, { member3: cordoned });
  const repo = await openRepo(r.dir);
  const sync = (s: number) => syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: OUT, now: at(s) });
  await sync(0);
  const files = () => r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/'));
  const key = (kind: string, name: string, namespace = 'default') =>
    refKey({ apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1', kind, namespace, name });
  assert.equal(files(), [
    'clusters/member1/default/configmap_joins.yaml',
    'clusters/member1/default/deployment.apps_divided.yaml',
    'clusters/member3/other/configmap_tolerant.yaml',
  ]);
  assert.is(
    (
      parse(r.show('flotilla/rendered', 'clusters/member1/default/deployment.apps_divided.yaml')) as {
        spec: { replicas: number };
      }
    ).spec.replicas,
    2,
  );

  // member3 uncordoned: the ConfigMap joins it. Karmada does not schedule a Divided workload again for a cluster
  // change, and what is on member3 already stays: neither renders.
  commitStatus(r, { member3: {} });
  const uncordoned = (await sync(20)).reports;
  assert.is(uncordoned.length, 1);
  assert.is(uncordoned[0]!.full, false);
  assert.equal([...uncordoned[0]!.explanations.keys()], [key('ConfigMap', 'joins')]);
  assert.ok(files().includes('clusters/member3/default/configmap_joins.yaml'));
  assert.not.ok(files().includes('clusters/member3/default/deployment.apps_divided.yaml'));
  await assertVerifies(r);

  // member3 NotReady and tainted NoExecute: what runs there is evicted; the Divided workload, which its policy could
  // place there but which is not there, is not reached. The Duplicated ConfigMap keeps member1, so its eviction is its
  // last binding with member3 moved into a task, written unrendered; the one on member3 alone has nowhere left to go
  // and renders (the scheduler reports it).
  commitStatus(r, { member3: notReadyCluster('2026-11-29T15:00:30Z') });
  const down = (await sync(40)).reports;
  assert.is(down[0]!.full, false);
  assert.equal([...down[0]!.explanations.keys()], [key('ConfigMap', 'tolerant', 'other')]);
  const joins = parse(r.show('flotilla/rendered', 'bindings/default/joins-configmap.yaml')) as {
    spec: { clusters: { name: string }[]; gracefulEvictionTasks: { fromCluster: string; reason: string }[] };
  };
  assert.equal(
    joins.spec.clusters.map((c) => c.name),
    ['member1'],
  );
  assert.equal(
    joins.spec.gracefulEvictionTasks.map((t) => [t.fromCluster, t.reason]),
    [['member3', 'TaintUntolerated']],
  );
  assert.ok(files().includes('clusters/member3/default/configmap_joins.yaml'), 'member3 keeps its copy meanwhile');
  assert.match(
    r.git('log', '-1', '--format=%B', 'flotilla/rendered'),
    /taint cluster\.karmada\.io\/not-ready:NoExecute not tolerated: ConfigMap default\/joins member3→member1/,
  );
  await assertVerifies(r);
  // The task written unrendered ends as any other: its grace period (600 s) over, member3's copy goes.
  await sync(40 + 601);
  assert.not.ok(files().includes('clusters/member3/default/configmap_joins.yaml'), 'the task ended');
  assert.not.match(r.show('flotilla/rendered', 'bindings/default/joins-configmap.yaml'), /gracefulEvictionTasks/);
  await assertVerifies(r);
});

test('a NoExecute taint that comes or restarts evicts; a NoSchedule or NoExecute taint that goes frees; a NoSchedule one that comes moves nothing', () => {
  const noSchedule: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule', timeAdded: 'T1' };
  const noExecute: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: 'T1' };
  const prefer: Taint = { key: 'maintenance', effect: 'PreferNoSchedule' };
  const none = { evicts: false, frees: false };
  assert.equal(taintMoves([], [noSchedule]), none, 'NoSchedule added');
  assert.equal(taintMoves([noSchedule], [{ ...noSchedule, timeAdded: 'T2' }]), none, 'its time only');
  assert.equal(taintMoves([], [prefer]), none, 'PreferNoSchedule is never filtered');
  assert.equal(taintMoves([prefer], []), none, 'nor when it goes');
  assert.equal(taintMoves([noSchedule], []), { evicts: false, frees: true }, 'NoSchedule gone');
  assert.equal(
    taintMoves([noSchedule], [{ ...noSchedule, key: 'cluster.karmada.io/unreachable' }]),
    { evicts: false, frees: true },
    'replaced by another NoSchedule taint',
  );
  assert.equal(taintMoves([], [noExecute]), { evicts: true, frees: false }, 'NoExecute added');
  assert.equal(taintMoves([noExecute], []), { evicts: false, frees: true }, 'NoExecute gone');
  assert.equal(
    taintMoves([noExecute], [{ ...noExecute, timeAdded: 'T2' }]),
    { evicts: true, frees: false },
    'its toleration clock restarts',
  );
  assert.equal(taintMoves([noExecute], [noSchedule]), { evicts: false, frees: true }, 'NoExecute eased to NoSchedule');
  assert.equal(taintMoves([noSchedule], [noExecute]), { evicts: true, frees: true }, 'NoSchedule made NoExecute');
});

test('the clusters whose managed taints moved; every template when the state the last render read cannot be read again', async () => {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const repo = await openRepo(r.dir);
  const down = notReadyCluster('2026-11-29T15:00:30Z');
  const now = new Date(at(0)());
  // Nothing tainted before: nothing to read, the tainted ones moved.
  const first = await clusterStateMovesSince(repo, {}, new Map([['member2', down]]), now);
  assert.ok(first !== 'all');
  assert.equal([...first.evicting], ['member2'], 'NotReady with a NoExecute taint');
  assert.equal([...first.freed], []);
  // Read again from the status commit the last render recorded.
  const status = commitStatus(r, { member1: {}, member2: down });
  const recorded = {
    [CLUSTER_STATE_TRAILER]: clusterStateKey(new Map([['member2', down]])),
    [CLUSTER_STATUS_TRAILER]: status,
  };
  const later = notReadyCluster('2026-11-29T15:09:00Z');
  const moved = await clusterStateMovesSince(
    repo,
    recorded,
    new Map([
      ['member1', later],
      ['member2', down],
    ]),
    now,
  );
  assert.ok(moved !== 'all');
  assert.equal([...moved.evicting], ['member1']);
  assert.equal([...moved.freed], []);
  // A state from a file, or a commit that does not give the recorded key, cannot be read again.
  assert.is(
    await clusterStateMovesSince(repo, { ...recorded, [CLUSTER_STATUS_TRAILER]: 'file' }, new Map(), now),
    'all',
  );
  assert.is(
    await clusterStateMovesSince(repo, { ...recorded, [CLUSTER_STATE_TRAILER]: '0123456789abcdef' }, new Map(), now),
    'all',
  );
});

test.run();
