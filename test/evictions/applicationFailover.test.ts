// Karmada's application failover controller on one binding, pure (pkg/controllers/applicationfailover).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applicationFailureDeadline,
  evictFailedApplications,
  failureDeadline,
} from '../../src/evictions/applicationFailover.ts';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';
import { applicationFailoverOf } from '../../src/api/policy.ts';
import { interpretsHealth } from '../../src/interpreters/healthHook.ts';

const T = Date.parse('2026-11-29T15:00:00Z');
const item = (clusterName: string, health: AggregatedStatusItem['health'], since?: string): AggregatedStatusItem => ({
  clusterName,
  applied: true,
  health,
  ...(since ? { unhealthySince: since } : {}),
});
const result = [
  { name: 'member1', replicas: 1 },
  { name: 'member2', replicas: 2 },
];

test('only an Unhealthy copy counts, from unhealthySince, and falls due strictly after tolerationSeconds', () => {
  assert.is(failureDeadline(item('m', 'Unhealthy', '2026-11-29T15:00:00Z'), 30), T + 30_001);
  assert.is(failureDeadline(item('m', 'Unknown', '2026-11-29T15:00:00Z'), 30), undefined);
  assert.is(failureDeadline(item('m', 'Healthy'), 30), undefined);
  assert.is(failureDeadline(item('m', 'Unhealthy'), 30), undefined, 'no start recorded: no count');
});

test('clusters being evicted already, or outside the result, are not watched', () => {
  const items = [
    item('member1', 'Unhealthy', '2026-11-29T15:00:10Z'),
    item('member2', 'Unhealthy', '2026-11-29T15:00:00Z'),
    item('member3', 'Unhealthy', '2026-11-29T14:00:00Z'),
  ];
  assert.is(applicationFailureDeadline(['member1', 'member2'], new Set(), items, 60), T + 60_001);
  assert.is(applicationFailureDeadline(['member1', 'member2'], new Set(['member2']), items, 60), T + 70_001);
  assert.is(applicationFailureDeadline(['member4'], new Set(), items, 60), undefined);
});

test('a due cluster leaves the result with a task as buildTaskOptions makes it, per purge mode and binding kind', () => {
  const items = [item('member1', 'Healthy'), item('member2', 'Unhealthy', '2026-11-29T15:00:00Z')];
  const now = new Date(T + 61_000);
  const graceful = evictFailedApplications(
    { clusters: result, tasks: [] },
    items,
    { tolerationSeconds: 60, purgeMode: 'Gracefully', gracePeriodSeconds: 120 },
    'ResourceBinding',
    now,
  );
  assert.equal(graceful.clusters, [{ name: 'member1', replicas: 1 }]);
  assert.equal(graceful.tasks, [
    {
      fromCluster: 'member2',
      replicas: 2,
      purgeMode: 'Gracefully',
      reason: 'ApplicationFailure',
      producer: 'resource-binding-application-failover-controller',
      creationTimestamp: '2026-11-29T15:01:01Z',
      gracePeriodSeconds: 120,
    },
  ]);
  assert.equal(graceful.failures, [
    {
      cluster: 'member2',
      replicas: 2,
      unhealthySince: '2026-11-29T15:00:00Z',
      tolerationSeconds: 60,
      purgeMode: 'Gracefully',
    },
  ]);
  const never = evictFailedApplications(
    { clusters: result, tasks: [] },
    items,
    { tolerationSeconds: 60, purgeMode: 'Never' },
    'ClusterResourceBinding',
    now,
  );
  assert.equal(never.tasks[0], {
    fromCluster: 'member2',
    replicas: 2,
    purgeMode: 'Never',
    reason: 'ApplicationFailure',
    producer: 'cluster-resource-binding-application-failover-controller',
    creationTimestamp: '2026-11-29T15:01:01Z',
    suppressDeletion: true,
  });
  const early = evictFailedApplications(
    { clusters: result, tasks: [] },
    items,
    { tolerationSeconds: 61, purgeMode: 'Directly' },
    'ResourceBinding',
    now,
  );
  assert.equal(early.clusters, result, 'Unhealthy for exactly 61 s: not yet');
  assert.equal(early.failures, []);
});

test('a cluster with a task already keeps that task only (GracefulEvictCluster adds none)', () => {
  const task = {
    fromCluster: 'member2',
    purgeMode: 'Gracefully' as const,
    reason: 'TaintUntolerated' as const,
    producer: 'TaintManager' as const,
    creationTimestamp: '2026-11-29T14:59:00Z',
  };
  const out = evictFailedApplications(
    { clusters: [{ name: 'member1', replicas: 3 }], tasks: [task] },
    [item('member2', 'Unhealthy', '2026-11-29T14:00:00Z')],
    { tolerationSeconds: 0, purgeMode: 'Directly' },
    'ResourceBinding',
    new Date(T),
  );
  assert.equal(out.tasks, [task]);
  assert.equal(out.failures, []);
});

test('the policy block reads with the CRD and webhook defaults', () => {
  assert.is(applicationFailoverOf({}), undefined);
  assert.is(applicationFailoverOf({ failover: { cluster: { purgeMode: 'Directly' } } }), undefined);
  assert.equal(applicationFailoverOf({ failover: { application: {} } }), {
    tolerationSeconds: 300,
    purgeMode: 'Gracefully',
    gracePeriodSeconds: 600,
  });
  assert.equal(
    applicationFailoverOf({
      failover: { application: { decisionConditions: { tolerationSeconds: 0 }, purgeMode: 'Never' } },
    }),
    { tolerationSeconds: 0, purgeMode: 'Never' },
  );
});

test("health hooks: the native interpreter's kinds at their versions, and customizations with health rules", () => {
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'StatefulSet'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'],
    ['v1', 'Service'],
    ['networking.k8s.io/v1', 'Ingress'],
    ['v1', 'PersistentVolumeClaim'],
    ['v1', 'Pod'],
    ['policy/v1', 'PodDisruptionBudget'],
  ])
    assert.ok(interpretsHealth({ apiVersion, kind }, undefined), `${apiVersion} ${kind}`);
  assert.not.ok(interpretsHealth({ apiVersion: 'v1', kind: 'ConfigMap' }, undefined));
  assert.not.ok(interpretsHealth({ apiVersion: 'batch/v1', kind: 'Job' }, undefined));
  assert.not.ok(interpretsHealth({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget' }, undefined));
  assert.not.ok(interpretsHealth({ apiVersion: 'example.io/v1', kind: 'Workload' }, {}));
  assert.ok(
    interpretsHealth(
      { apiVersion: 'example.io/v1', kind: 'Workload' },
      { healthInterpretation: { rules: [{ field: 'status.ready', op: '==', value: true }] } },
    ),
  );
});

test.run();
