import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Cluster, Taint } from '../../src/api/cluster.ts';
import type { Placement, PropagationPolicy, Toleration } from '../../src/api/policy.ts';
import { evictTaintedClusters } from '../../src/evictions/evictTaintedClusters.ts';
import { syncEvictionTasks } from '../../src/evictions/syncEvictionTasks.ts';
import { memberCluster, propagationPolicy } from '../helpers/inMemoryModel.ts';

const T0 = '2026-11-29T15:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000);
const notReady: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: T0 };
const tolerateFor = (seconds: number): Toleration => ({
  key: notReady.key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});

const snapshot = (...clusters: Cluster[]) => new Map(clusters.map((c) => [c.metadata.name, c]));
const healthy = memberCluster('member1');
const tainted = memberCluster('member2', { taints: [notReady] });

function policyWith(placement: Placement, failover?: unknown): PropagationPolicy {
  return propagationPolicy('apps', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    placement,
    ...(failover ? { failover } : {}),
  }).object;
}

function previousBinding(appliedPlacement: string | null = '{}'): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name: 'web-deployment',
      namespace: 'default',
      ...(appliedPlacement !== null
        ? { annotations: { 'policy.karmada.io/applied-placement': appliedPlacement } }
        : {}),
    },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      clusters: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 2 },
      ],
    },
  };
}

test('an untolerated NoExecute taint takes the cluster out of the previous result and records a graceful eviction task', () => {
  const evicted = evictTaintedClusters(previousBinding(), policyWith({}), snapshot(healthy, tainted), at(0));
  assert.equal(evicted.clusters, [{ name: 'member1', replicas: 2 }]);
  assert.equal(
    evicted.tasks.map((t) => [t.fromCluster, t.replicas, t.purgeMode, t.producer, t.creationTimestamp]),
    [['member2', 2, 'Gracefully', 'TaintManager', T0]],
  );
  assert.equal(
    evicted.evictions.map((e) => [e.cluster, e.why, e.purgeMode]),
    [['member2', 'untolerated', 'Gracefully']],
  );
});

test("judged with the tolerations the previous result was computed for, not the policy's current ones", () => {
  const applied = JSON.stringify({ clusterTolerations: [tolerateFor(600)] });
  const now = policyWith({}); // the policy dropped its toleration since: the taint manager still reads the applied one
  const early = evictTaintedClusters(previousBinding(applied), now, snapshot(healthy, tainted), at(599));
  assert.equal(early.evictions, []);
  assert.is(early.clusters.length, 2);
  const due = evictTaintedClusters(previousBinding(applied), now, snapshot(healthy, tainted), at(600));
  assert.equal(
    due.evictions.map((e) => [e.cluster, e.why, e.tolerationSeconds]),
    [['member2', 'tolerationExpired', 600]],
  );
});

test('no applied placement, or one that cannot be read or is null: nothing is evicted, as the result has no tolerations to judge by', () => {
  const strict = policyWith({});
  for (const applied of [null, '', '{not json', 'null']) {
    const kept = evictTaintedClusters(previousBinding(applied), strict, snapshot(healthy, tainted), at(0));
    assert.equal(kept.evictions, [], String(applied));
    assert.is(kept.clusters.length, 2);
  }
  assert.is(evictTaintedClusters(previousBinding('{}'), strict, snapshot(healthy, tainted), at(0)).evictions.length, 1);
});

test("the policy's purge mode: Directly records a task whose cluster keeps no copy, Never a task that never ends by itself", () => {
  const directly = evictTaintedClusters(
    previousBinding(),
    policyWith({}, { cluster: { purgeMode: 'Directly' } }),
    snapshot(healthy, tainted),
    at(0),
  );
  assert.equal(directly.clusters, [{ name: 'member1', replicas: 2 }]);
  // Karmada's taint manager records it (TestResourceBindingSpec_GracefulEvictCluster): the ClusterEviction filter
  // keeps the binding off member2 until it ends, while its copy goes at once (ObtainBindingSpecExistingClusters).
  assert.equal(
    directly.tasks.map((t) => [t.fromCluster, t.purgeMode, t.suppressDeletion]),
    [['member2', 'Directly', undefined]],
  );
  assert.equal(syncEvictionTasks(directly.tasks, new Set(['member2']), directly.clusters, undefined).evicting, []);
  const never = evictTaintedClusters(
    previousBinding(),
    policyWith({}, { cluster: { purgeMode: 'Never' } }),
    snapshot(healthy, tainted),
    at(0),
  );
  assert.equal(
    never.tasks.map((t) => [t.fromCluster, t.purgeMode, t.suppressDeletion]),
    [['member2', 'Never', true]],
  );
});

test('a cluster no longer registered is left in the result: there is no taint to judge', () => {
  const evicted = evictTaintedClusters(previousBinding(), policyWith({}), snapshot(healthy), at(0));
  assert.is(evicted.clusters.length, 2);
  assert.equal(evicted.evictions, []);
});

test.run();
