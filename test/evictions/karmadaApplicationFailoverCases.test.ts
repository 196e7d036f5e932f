// Karmada's application failover controllers, case by case (pkg/controllers/applicationfailover/common_test.go,
// rb_ and crb_application_failover_controller_test.go): which clusters count as failing, when a failing one is
// evicted, and the eviction task each purge mode makes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApplicationFailover } from '../../src/api/policy.ts';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';
import { applicationFailureDeadline, evictFailedApplications } from '../../src/evictions/applicationFailover.ts';

const NOW = Date.parse('2026-11-29T15:00:00Z');
const now = new Date(NOW);
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
const item = (clusterName: string, health: AggregatedStatusItem['health'], since?: string): AggregatedStatusItem => ({
  clusterName,
  applied: true,
  health,
  ...(since ? { unhealthySince: since } : {}),
});
const both = [
  { name: 'member1', replicas: 1 },
  { name: 'member2', replicas: 2 },
];
const directly: ApplicationFailover = { tolerationSeconds: 0, purgeMode: 'Directly' };
const evicted = (items: AggregatedStatusItem[], failover = directly, clusters = both) =>
  evictFailedApplications({ clusters, tasks: [] }, items, failover, 'ResourceBinding', now);

// TestDistinguishUnhealthyClustersWithOthers "all applications are healthy" / "all applications are unknown":
// neither counts as failing, however long the toleration has run.
test('Healthy and Unknown copies never fail over', () => {
  for (const health of ['Healthy', 'Unknown'] as const) {
    const out = evicted([item('member1', health, ago(600)), item('member2', health, ago(600))]);
    assert.equal([out.clusters, out.tasks, out.failures], [both, [], []], health);
  }
});

// TestDistinguishUnhealthyClustersWithOthers "one application is unhealthy and not in gracefulEvictionTasks".
test('the one Unhealthy copy past its toleration is the one evicted', () => {
  const out = evicted([item('member1', 'Healthy'), item('member2', 'Unhealthy', ago(10))]);
  assert.equal(out.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.equal(
    out.failures.map((f) => f.cluster),
    ['member2'],
  );
});

// Test*ApplicationFailoverController_detectFailure: "hasWorkloadBeenUnhealthy return false" (first seen now: nothing
// evicted, due after tolerationSeconds), "more than the tolerance time" (Unhealthy 2 s, toleration 1 s: evicted),
// "less than the tolerance time" (toleration 100 s: kept, due then), "final duration is 0" (nothing failing: no retry).
test('an Unhealthy copy is evicted only once it has been so for longer than tolerationSeconds', () => {
  const firstSeen = [item('member1', 'Unhealthy', ago(0)), item('member2', 'Unhealthy', ago(0))];
  const one = { tolerationSeconds: 1, purgeMode: 'Directly' } as const;
  assert.equal(evicted(firstSeen, one).failures, []);
  assert.is(applicationFailureDeadline(['member1', 'member2'], new Set(), firstSeen, 1), NOW + 1001);

  const cluster1Older = [item('member1', 'Unhealthy', ago(2)), item('member2', 'Unhealthy', ago(0))];
  assert.equal(
    evicted(cluster1Older, one).failures.map((f) => f.cluster),
    ['member1'],
  );

  const hundred = { tolerationSeconds: 100, purgeMode: 'Directly' } as const;
  const seenBefore = [item('member1', 'Unhealthy', ago(2))];
  assert.equal(evicted(seenBefore, hundred).failures, []);
  assert.is(applicationFailureDeadline(['member1', 'member2'], new Set(), seenBefore, 100), NOW + 98_001);

  assert.is(
    applicationFailureDeadline(['member1', 'member2'], new Set(), [item('member1', 'Healthy')], 100),
    undefined,
  );
});

// Test*ApplicationFailoverController_evictBinding (Gracefully, Never, Directly), with Test_buildTaskOptions "Gracefully
// purgeMode with ResourceBinding, StatePreservation is nil" / "StatePreservation.Rules is nil" (no preserved state):
// Gracefully carries the policy's gracePeriodSeconds, Never suppresses deletion, Directly carries neither.
test('each purge mode makes its task: Gracefully with its grace period, Never suppressed, Directly bare', () => {
  const items = [item('member1', 'Unhealthy', ago(200)), item('member2', 'Unhealthy', ago(200))];
  const tasksFor = (failover: ApplicationFailover) =>
    evicted(items, failover).tasks.map(
      ({ fromCluster, replicas, purgeMode, gracePeriodSeconds, suppressDeletion }) => ({
        fromCluster,
        replicas,
        purgeMode,
        gracePeriodSeconds,
        suppressDeletion,
      }),
    );
  assert.equal(tasksFor({ tolerationSeconds: 100, purgeMode: 'Gracefully', gracePeriodSeconds: 120 }), [
    {
      fromCluster: 'member1',
      replicas: 1,
      purgeMode: 'Gracefully',
      gracePeriodSeconds: 120,
      suppressDeletion: undefined,
    },
    {
      fromCluster: 'member2',
      replicas: 2,
      purgeMode: 'Gracefully',
      gracePeriodSeconds: 120,
      suppressDeletion: undefined,
    },
  ]);
  assert.equal(tasksFor({ tolerationSeconds: 100, purgeMode: 'Never' }), [
    { fromCluster: 'member1', replicas: 1, purgeMode: 'Never', gracePeriodSeconds: undefined, suppressDeletion: true },
    { fromCluster: 'member2', replicas: 2, purgeMode: 'Never', gracePeriodSeconds: undefined, suppressDeletion: true },
  ]);
  assert.equal(tasksFor({ tolerationSeconds: 100, purgeMode: 'Directly' }), [
    {
      fromCluster: 'member1',
      replicas: 1,
      purgeMode: 'Directly',
      gracePeriodSeconds: undefined,
      suppressDeletion: undefined,
    },
    {
      fromCluster: 'member2',
      replicas: 2,
      purgeMode: 'Directly',
      gracePeriodSeconds: undefined,
      suppressDeletion: undefined,
    },
  ]);
  for (const t of evicted(items).tasks) assert.is(t.reason, 'ApplicationFailure');
});

// Test*ApplicationFailoverController_evictBinding runs on a binding with no clusters: GracefulEvictCluster finds
// nothing to evict and adds no task; TestRBApplicationFailoverController_clusterResourceBindingFilter "AggregatedStatus
// is 0": no status, no failover.
test('a binding without clusters, or without status, is left as it is', () => {
  const noClusters = evicted([item('member1', 'Unhealthy', ago(200))], directly, []);
  assert.equal([noClusters.clusters, noClusters.tasks, noClusters.failures], [[], [], []]);
  const noStatus = evicted([]);
  assert.equal([noStatus.clusters, noStatus.tasks, noStatus.failures], [both, [], []]);
});

test.run();
