// A cluster's state moving outside Git (managed taints on the status branch, a NoExecute toleration running out)
// renders what that cluster reaches, not the fleet: the output equals a render of every template (verify replays it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { refKey } from '../../src/api/kinds.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { CLUSTER_STATE_TRAILER, CLUSTER_STATUS_TRAILER } from '../../src/branches/rendered/trailers.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { clusterStateKey, clusterStateMovesSince } from '../../src/outputs/clusterState.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { configMap, configMapPolicy, makeConfigRepoWith, nginxSample, type ConfigRepo } from '../helpers/fleet.ts';
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

  // member2 NotReady since 15:00:30, tainted not-ready:NoSchedule and NoExecute: tolerated, nothing moves yet.
  commitStatus(r, { member2: notReadyCluster('2026-11-29T15:00:30Z') });
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
  commitStatus(r, { member2: {} });
  const back = (await sync(120)).reports;
  assert.is(back.length, 1);
  assert.is(back[0]!.full, false);
  assert.match(
    r.git('log', '-1', '--format=%s', 'flotilla/rendered'),
    /^Cluster state: every cluster Ready and untainted/,
  );

  const verified = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(verified.ok, JSON.stringify(verified));
});

test('the clusters whose managed taints moved; every template when the state the last render read cannot be read again', async () => {
  const r = makeConfigRepoWith(repos, nginxSample(), 'nginx');
  const repo = await openRepo(r.dir);
  const down = notReadyCluster('2026-11-29T15:00:30Z');
  const now = new Date(at(0)());
  // Nothing tainted before: nothing to read, the tainted ones moved.
  const first = await clusterStateMovesSince(repo, {}, new Map([['member2', down]]), now);
  assert.ok(first !== 'all');
  assert.equal([...first.clusters], ['member2']);
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
  assert.equal([...moved.clusters], ['member1']);
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
