import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GracefulEvictionTask } from '../../src/api/binding.ts';
import type { Taint } from '../../src/api/cluster.ts';
import type { Toleration } from '../../src/api/policy.ts';
import { assessEvictionTasks, gracefulEvictCluster } from '../../src/evictions/gracefulEviction.ts';
import { taintEviction } from '../../src/evictions/taintEviction.ts';
import { syncEvictionTasks } from '../../src/evictions/syncEvictionTasks.ts';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';

const T0 = '2026-11-29T15:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000);
const notReady: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: T0 };
const tolerate = (seconds?: number): Toleration => ({
  key: 'cluster.karmada.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});

test('an untolerated NoExecute taint evicts at once; NoSchedule taints never evict', () => {
  assert.equal(taintEviction([notReady], [], at(0)), { evict: true, taint: notReady, why: 'untolerated' });
  assert.equal(taintEviction([{ ...notReady, effect: 'NoSchedule' }], [], at(0)), { evict: false });
});

test('tolerated with tolerationSeconds: evicted at timeAdded + seconds, not before', () => {
  const before = taintEviction([notReady], [tolerate(60)], at(59));
  assert.equal(before, { evict: false, at: at(60), taint: notReady });
  assert.equal(taintEviction([notReady], [tolerate(60)], at(60)), {
    evict: true,
    taint: notReady,
    why: 'tolerationExpired',
    tolerationSeconds: 60,
  });
});

test('tolerated without seconds: never evicted', () => {
  assert.equal(taintEviction([notReady], [tolerate()], at(100_000)), { evict: false });
});

test('several taints: the earliest expiry decides; one untolerated taint evicts at once', () => {
  const other: Taint = { key: 'maintenance', effect: 'NoExecute', timeAdded: '2026-11-29T14:59:50Z' };
  const both = [notReady, other];
  const tolerations = [tolerate(60), { key: 'maintenance', operator: 'Exists' as const, tolerationSeconds: 30 }];
  assert.equal(taintEviction(both, tolerations, at(0)), { evict: false, at: at(20), taint: other });
  assert.is(taintEviction(both, tolerations, at(20)).evict, true);
  assert.equal(taintEviction(both, [tolerate(60)], at(0)), { evict: true, taint: other, why: 'untolerated' });
});

test('a toleration used for one taint also times out every other taint it tolerates (GetMinTolerationTime)', () => {
  // b is covered first by a toleration without seconds, but the catch-all used for a tolerates b too: its seconds
  // run from b's older timeAdded.
  const a: Taint = { key: 'a', effect: 'NoExecute', timeAdded: at(100).toISOString() };
  const b: Taint = { key: 'b', effect: 'NoExecute', timeAdded: T0 };
  const tolerations: Toleration[] = [
    { key: 'b', operator: 'Exists' },
    { operator: 'Exists', tolerationSeconds: 10 },
  ];
  assert.equal(taintEviction([a, b], tolerations, at(100)), {
    evict: true,
    taint: b,
    why: 'tolerationExpired',
    tolerationSeconds: 10,
  });
  // Neither used toleration has seconds: tolerated for ever.
  assert.equal(
    taintEviction(
      [a, b],
      [
        { key: 'b', operator: 'Exists' },
        { key: 'a', operator: 'Exists' },
      ],
      at(100),
    ),
    {
      evict: false,
    },
  );
});

test('graceful eviction drops the cluster from the result and records one task with its replicas', () => {
  const task = {
    purgeMode: 'Gracefully' as const,
    reason: 'TaintUntolerated' as const,
    producer: 'TaintManager' as const,
    creationTimestamp: T0,
  };
  const once = gracefulEvictCluster(
    [
      { name: 'm1', replicas: 1 },
      { name: 'm2', replicas: 1 },
    ],
    [],
    'm2',
    task,
  );
  assert.equal(once.clusters, [{ name: 'm1', replicas: 1 }]);
  assert.equal(once.tasks, [{ fromCluster: 'm2', replicas: 1, ...task }]);
  const twice = gracefulEvictCluster([...once.clusters, { name: 'm2', replicas: 1 }], once.tasks, 'm2', {
    ...task,
    creationTimestamp: '2027-01-01T00:00:00Z',
  });
  assert.equal(twice.tasks, once.tasks, 'an existing task is not duplicated or restarted');
});

const task = (extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
  fromCluster: 'm2',
  purgeMode: 'Gracefully',
  replicas: 1,
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  creationTimestamp: T0,
  ...extra,
});
const item = (
  cluster: string,
  health: AggregatedStatusItem['health'],
  updatedReplicas?: number,
): AggregatedStatusItem => ({
  clusterName: cluster,
  applied: true,
  health,
  ...(updatedReplicas !== undefined ? { status: { replicas: updatedReplicas, updatedReplicas } } : {}),
});

test('a task ends when every cluster of the new result is healthy with the replicas the result gives it', () => {
  const result = [{ name: 'm1', replicas: 2 }];
  assert.equal(
    assessEvictionTasks([task()], at(10), result, [item('m1', 'Healthy', 2)]).ended.map((e) => e.why),
    ['replacementsHealthy'],
  );
  assert.equal(
    assessEvictionTasks([task()], at(10), result, [item('m1', 'Healthy', 1)]).kept.length,
    1,
    'healthy at the old size is not the replacement',
  );
  assert.equal(assessEvictionTasks([task()], at(10), result, [item('m1', 'Unhealthy', 2)]).kept.length, 1);
  assert.equal(assessEvictionTasks([task()], at(10), result, undefined).kept.length, 1, 'no status yet');
  assert.equal(
    assessEvictionTasks([task()], at(10), undefined, [item('m1', 'Healthy', 2)]).kept.length,
    1,
    'not scheduled this time (no cluster fits, not enough capacity): only the grace period ends it',
  );
  // Karmada's rb_graceful_eviction_controller_test: scheduled to no cluster, nothing is left to wait for.
  assert.equal(
    assessEvictionTasks([task()], at(10), [], []).ended.map((e) => e.why),
    ['replacementsHealthy'],
  );
});

test('a render whose scheduling failed keeps the previous result and ends no task on health (hasScheduled false)', () => {
  const kept = [{ name: 'm1', replicas: 1 }];
  const clock = { now: at(10), observed: [item('m1', 'Healthy', 1)] };
  assert.equal(syncEvictionTasks([task()], new Set(), kept, clock, false).ended, []);
  assert.equal(
    syncEvictionTasks([task()], new Set(), kept, clock, true).ended.map((e) => e.why),
    ['replacementsHealthy'],
  );
});

test('a task ends when its grace period (default 600 s) has passed; suppressDeletion keeps it or ends it at once', () => {
  assert.equal(assessEvictionTasks([task()], at(600), undefined, []).kept.length, 1);
  assert.equal(
    assessEvictionTasks([task()], at(601), undefined, []).ended.map((e) => e.why),
    ['gracePeriodEnded'],
  );
  assert.equal(assessEvictionTasks([task({ gracePeriodSeconds: 30 })], at(31), undefined, []).ended.length, 1);
  assert.equal(assessEvictionTasks([task({ suppressDeletion: true })], at(100_000), [], []).kept.length, 1);
  assert.equal(
    assessEvictionTasks([task({ suppressDeletion: false })], at(0), [], []).ended.map((e) => e.why),
    ['confirmed'],
  );
});

test.run();
