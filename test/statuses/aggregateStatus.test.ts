import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateStatus, fullyApplied } from '../../src/interpreters/aggregateStatus.ts';
import { reflectStatus } from '../../src/statuses/reflectStatus.ts';

test('Deployment: reflect keeps the counters and generations; aggregate sums the counters', () => {
  const live = (ready: number) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'w', generation: 2 },
    status: {
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: ready,
      availableReplicas: ready,
      conditions: [{ type: 'Available' }],
    },
  });
  const a = reflectStatus(live(2))!;
  assert.equal(a, {
    availableReplicas: 2,
    generation: 2,
    observedGeneration: 2,
    readyReplicas: 2,
    replicas: 2,
    updatedReplicas: 2,
  });
  const agg = aggregateStatus('apps/v1', 'Deployment', [
    { clusterName: 'm1', applied: true, health: 'Healthy', status: a },
    { clusterName: 'm2', applied: true, health: 'Unhealthy', status: reflectStatus(live(1))! },
    { clusterName: 'm3', applied: false, health: 'Unknown' },
  ]);
  assert.equal(agg, {
    replicas: 4,
    updatedReplicas: 4,
    readyReplicas: 3,
    availableReplicas: 3,
  });
});

test('Service ingresses are merged, deduplicated and sorted', () => {
  const s = (ip: string) => ({ loadBalancer: { ingress: [{ ip }] } });
  const agg = aggregateStatus('v1', 'Service', [
    { clusterName: 'a', applied: true, health: 'Healthy', status: s('10.0.0.2') },
    { clusterName: 'b', applied: true, health: 'Healthy', status: s('10.0.0.1') },
    { clusterName: 'c', applied: true, health: 'Healthy', status: s('10.0.0.2') },
  ]);
  assert.equal(agg, { loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] } });
});

test('PVC: Lost wins, then any non-Bound phase, else Bound', () => {
  const pvc = (...phases: string[]) =>
    aggregateStatus(
      'v1',
      'PersistentVolumeClaim',
      phases.map((phase, i) => ({
        clusterName: `m${i}`,
        applied: true,
        health: 'Healthy' as const,
        status: { phase },
      })),
    );
  assert.equal(pvc('Bound', 'Bound'), { phase: 'Bound' });
  assert.equal(pvc('Bound', 'Pending'), { phase: 'Pending' });
  assert.equal(pvc('Pending', 'Lost'), { phase: 'Lost' });
});

test('Job: counters summed, Complete only when every member completed, Failed names the members', () => {
  const done = { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] };
  const agg = aggregateStatus('batch/v1', 'Job', [
    { clusterName: 'a', applied: true, health: 'Healthy', status: done },
    { clusterName: 'b', applied: true, health: 'Healthy', status: { active: 1 } },
  ]);
  assert.equal(agg, { active: 1, succeeded: 1 });
  const all = aggregateStatus('batch/v1', 'Job', [
    { clusterName: 'a', applied: true, health: 'Healthy', status: done },
  ]);
  assert.is((all!.conditions as { type: string }[])[0]!.type, 'Complete');
});

test('kinds Karmada does not aggregate get no aggregated status; timestamps that tick are not reflected', () => {
  assert.is(aggregateStatus('v1', 'ConfigMap', []), undefined);
  assert.equal(
    reflectStatus({
      apiVersion: 'example.com/v1',
      kind: 'W',
      status: { b: 1, a: { lastHeartbeatTime: 'x', lastTransitionTime: 't' } },
    }),
    { a: { lastTransitionTime: 't' }, b: 1 },
  );
  assert.is(reflectStatus({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }), undefined);
});

// Karmada's pkg/util/helper/workstatus_test.go, TestWorksFullyApplied, with generateFullyAppliedCondition's texts.
test('FullyApplied against the targets: each reported applied, none missing, none extra, and some target', () => {
  const m1 = { clusterName: 'member1', applied: true, health: 'Healthy' as const };
  const m2 = { clusterName: 'member2', applied: true, health: 'Healthy' as const };
  const failed = {
    type: 'FullyApplied',
    status: 'False',
    reason: 'FullyAppliedFailed',
    message: 'Failed to apply all works, see status.aggregatedStatus for details',
  };
  assert.equal(fullyApplied([m1], new Set(['member1', 'member2'])), failed, 'cluster size differs');
  assert.equal(fullyApplied([m1], new Set(['member2'])), failed, 'target clusters do not match');
  assert.equal(fullyApplied([m1], new Set()), failed, 'no cluster');
  assert.equal(fullyApplied([], new Set(['member1'])), failed, 'no aggregatedStatuses');
  assert.equal(
    fullyApplied([m1, { ...m2, applied: false }], new Set(['member1', 'member2'])),
    failed,
    'not all applied',
  );
  assert.equal(fullyApplied([m1, m2], new Set(['member1', 'member2'])), {
    type: 'FullyApplied',
    status: 'True',
    reason: 'FullyAppliedSuccess',
    message: 'All works have been successfully applied',
  });
});

test('FullyApplied is True only when every member applied', () => {
  assert.is(fullyApplied([{ clusterName: 'a', applied: true, health: 'Healthy' }]).status, 'True');
  const f = fullyApplied([
    { clusterName: 'a', applied: true, health: 'Healthy' },
    { clusterName: 'b', applied: false, health: 'Unknown' },
  ]);
  assert.is(f.status, 'False');
  assert.is(f.message, 'Failed to apply all works, see status.aggregatedStatus for details');
});

const item = (clusterName: string, status?: Record<string, unknown>) => ({
  clusterName,
  applied: true,
  health: 'Healthy' as const,
  ...(status ? { status } : {}),
});

test('reflect grabs per apiVersion/kind what Karmada grabs (cases after reflectstatus_test.go)', () => {
  const sts = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { generation: 3, annotations: { 'resourcetemplate.karmada.io/generation': '2' } },
    status: { observedGeneration: 3, replicas: 2, readyReplicas: 2, currentRevision: 'r1' },
  };
  assert.equal(reflectStatus(sts), {
    availableReplicas: 0,
    generation: 3,
    readyReplicas: 2,
    replicas: 2,
    resourceTemplateGeneration: 2,
  });
  assert.is(
    reflectStatus({
      ...sts,
      metadata: { generation: 3, annotations: { 'resourcetemplate.karmada.io/generation': 'two' } },
    }),
    null,
    'an unreadable template generation fails the reflection',
  );
  assert.is(
    reflectStatus({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'ClusterIP' },
      status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } },
    }),
    undefined,
  );
  assert.equal(
    reflectStatus({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'LoadBalancer' },
      status: { conditions: [{ type: 'x' }] },
    }),
    { loadBalancer: {} },
  );
  assert.equal(
    reflectStatus({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', status: { loadBalancer: {}, extra: 1 } }),
    { extra: 1, loadBalancer: {} },
  );
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    status: {
      active: 1,
      ready: 1,
      terminating: 0,
      uncountedTerminatedPods: {},
      startTime: '2026-01-01T00:00:00Z',
      conditions: [{ type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: 'p', lastTransitionTime: 't' }],
    },
  };
  assert.equal(reflectStatus(job), {
    active: 1,
    conditions: [{ lastProbeTime: 'p', lastTransitionTime: 't', status: 'True', type: 'SuccessCriteriaMet' }],
    startTime: '2026-01-01T00:00:00Z',
  });
  assert.equal(
    reflectStatus({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      status: {
        currentHealthy: 1,
        desiredHealthy: 1,
        expectedPods: 1,
        disruptedPods: { p1: 't' },
        observedGeneration: 4,
      },
    }),
    { currentHealthy: 1, desiredHealthy: 1, disruptedPods: { p1: 't' }, disruptionsAllowed: 0, expectedPods: 1 },
  );
  assert.equal(
    reflectStatus({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [] },
    }),
    { currentMetrics: null, currentReplicas: 2, desiredReplicas: 3 },
  );
  assert.equal(
    reflectStatus({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 50 },
    }),
    { currentCPUUtilizationPercentage: 50, currentReplicas: 2, desiredReplicas: 3 },
  );
});

test('load-balancer ingresses merge by hostname, IP and ipMode with their ports unioned; hostnames sort first', () => {
  const lb = (...ingress: unknown[]) => ({ loadBalancer: { ingress } });
  const agg = aggregateStatus('v1', 'Service', [
    item('a', lb({ ip: '10.0.0.2', ports: [{ port: 443, protocol: 'TCP' }] })),
    item('b', lb({ ip: '10.0.0.2', ports: [{ port: 80, protocol: 'TCP' }] }, { hostname: 'lb.example.com' })),
  ]);
  assert.equal(agg, {
    loadBalancer: {
      ingress: [
        { hostname: 'lb.example.com' },
        {
          ip: '10.0.0.2',
          ports: [
            { port: 80, protocol: 'TCP' },
            { port: 443, protocol: 'TCP' },
          ],
        },
      ],
    },
  });
  // Members of a ClusterIP Service reflect nothing, and the template's status is left alone.
  assert.is(aggregateStatus('v1', 'Service', [item('a'), item('b')]), undefined);
  assert.equal(aggregateStatus('networking.k8s.io/v1', 'Ingress', [item('a')]), { loadBalancer: {} });
});

test('PVC: the last non-Bound phase wins unless one is Lost; no member yet is Bound', () => {
  const pvc = (...phases: string[]) =>
    aggregateStatus(
      'v1',
      'PersistentVolumeClaim',
      phases.map((phase, i) => item(`m${i}`, { phase })),
    );
  assert.equal(pvc('Pending', 'Bound', 'Released'), { phase: 'Released' });
  assert.equal(pvc('Lost', 'Pending'), { phase: 'Lost' });
  assert.equal(pvc(), { phase: 'Bound' });
});

test('PV and Pod take the worst phase, a member without status counting as Pending; a Pod lists every container state', () => {
  assert.equal(
    aggregateStatus('v1', 'PersistentVolume', [item('a', { phase: 'Bound' }), item('b', { phase: 'Available' })]),
    { phase: 'Available' },
  );
  assert.equal(aggregateStatus('v1', 'PersistentVolume', [item('a', { phase: 'Bound' }), item('b')]), {
    phase: 'Pending',
  });
  const running = {
    phase: 'Running',
    containerStatuses: [{ name: 'app', ready: true, restartCount: 2, state: { running: { startedAt: 's' } } }],
  };
  assert.equal(aggregateStatus('v1', 'Pod', [item('a', running), item('b', { ...running, phase: 'Succeeded' })]), {
    phase: 'Running',
    containerStatuses: [
      {
        name: '',
        state: { running: { startedAt: 's' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: '',
        imageID: '',
      },
      {
        name: '',
        state: { running: { startedAt: 's' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: '',
        imageID: '',
      },
    ],
  });
  assert.equal(aggregateStatus('v1', 'Pod', [item('a', running), item('b', { phase: 'Failed' })])!.phase, 'Failed');
  assert.is(aggregateStatus('v1', 'Pod', []), undefined);
});

test('PDB sums its counters and keeps disrupted pods under their cluster; HPA sums only at autoscaling/v2', () => {
  assert.equal(
    aggregateStatus('policy/v1', 'PodDisruptionBudget', [
      item('a', { currentHealthy: 1, desiredHealthy: 1, disruptedPods: { p: 't1' } }),
      item('b', { currentHealthy: 2, desiredHealthy: 1, disruptedPods: { p: 't2' } }),
    ]),
    {
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 0,
      disruptionsAllowed: 0,
      disruptedPods: { 'a/p': 't1', 'b/p': 't2' },
    },
  );
  assert.equal(
    aggregateStatus('autoscaling/v2', 'HorizontalPodAutoscaler', [
      item('a', { currentReplicas: 1, desiredReplicas: 2 }),
      item('b', { currentReplicas: 3, desiredReplicas: 3 }),
    ]),
    { currentReplicas: 4, desiredReplicas: 5, currentMetrics: null },
  );
  assert.is(
    aggregateStatus('autoscaling/v1', 'HorizontalPodAutoscaler', [item('a', { currentReplicas: 1 })]),
    undefined,
  );
});

test('Job: startTime once every member started, completionTime once every member completed, SuccessCriteriaMet, and a finished Job keeps its status', () => {
  const done = (start: string, end: string) => ({
    succeeded: 1,
    startTime: start,
    completionTime: end,
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True' },
      { type: 'Complete', status: 'True' },
    ],
  });
  const all = aggregateStatus('batch/v1', 'Job', [
    item('a', done('2026-01-01T00:00:05Z', '2026-01-01T00:01:00Z')),
    item('b', done('2026-01-01T00:00:01Z', '2026-01-01T00:02:00Z')),
  ])!;
  assert.is(all.startTime, '2026-01-01T00:00:01Z');
  assert.is(all.completionTime, '2026-01-01T00:02:00Z');
  assert.equal(
    (all.conditions as { type: string }[]).map((c) => c.type),
    ['Complete', 'SuccessCriteriaMet'],
  );
  const half = aggregateStatus('batch/v1', 'Job', [
    item('a', done('2026-01-01T00:00:05Z', '2026-01-01T00:01:00Z')),
    item('b', { active: 1 }),
  ])!;
  assert.is(half.startTime, undefined);
  assert.is(half.completionTime, undefined);
  assert.is(
    aggregateStatus('batch/v1', 'Job', [item('a', { active: 1 })], { startTime: '2025-12-31T00:00:00Z' })!.startTime,
    '2025-12-31T00:00:00Z',
  );
  // Finished stays finished, whatever members report later.
  assert.equal(aggregateStatus('batch/v1', 'Job', [item('a', { active: 1 })], all), all);
});

test('CronJob: active Jobs of every member, the latest schedule and success times', () => {
  assert.equal(
    aggregateStatus('batch/v1', 'CronJob', [
      item('a', {
        active: [{ name: 'j1' }],
        lastScheduleTime: '2026-01-01T01:00:00Z',
        lastSuccessfulTime: '2026-01-01T00:00:00Z',
      }),
      item('b', { active: [{ name: 'j2' }], lastScheduleTime: '2026-01-01T00:30:00Z' }),
    ]),
    {
      active: [{ name: 'j1' }, { name: 'j2' }],
      lastScheduleTime: '2026-01-01T01:00:00Z',
      lastSuccessfulTime: '2026-01-01T00:00:00Z',
    },
  );
});

// Karmada's template status is a Go map marshalled to JSON, which orders its keys bytewise: `a-b/…` before `a/…`.
test('a PodDisruptionBudget lists its cluster-prefixed disrupted pods in byte order of their keys', () => {
  const agg = aggregateStatus('policy/v1', 'PodDisruptionBudget', [
    item('a', { disruptedPods: { z: 't1' } }),
    item('a-b', { disruptedPods: { y: 't2' } }),
  ])!;
  assert.equal(Object.keys(agg.disruptedPods as object), ['a-b/y', 'a/z']);
});

// Karmada writes the template's status back as the typed Kubernetes status (helper.ToUnstructured), so what the
// API server then holds follows the type's JSON tags: omitempty counters vanish at 0, the others stay.
test("a template's aggregated counters that sum to 0 are left out unless the Kubernetes type always writes them", () => {
  const none = [item('a', {}), item('b')];
  assert.equal(aggregateStatus('apps/v1', 'Deployment', none), {});
  assert.equal(aggregateStatus('apps/v1', 'Deployment', [item('a', { replicas: 2, updatedReplicas: 2 })]), {
    replicas: 2,
    updatedReplicas: 2,
  });
  assert.equal(aggregateStatus('apps/v1', 'ReplicaSet', none), { replicas: 0 });
  assert.equal(aggregateStatus('apps/v1', 'StatefulSet', none), { availableReplicas: 0, replicas: 0 });
  assert.equal(aggregateStatus('apps/v1', 'DaemonSet', none), {
    currentNumberScheduled: 0,
    desiredNumberScheduled: 0,
    numberMisscheduled: 0,
    numberReady: 0,
  });
  assert.equal(aggregateStatus('autoscaling/v2', 'HorizontalPodAutoscaler', none), {
    desiredReplicas: 0,
    currentMetrics: null,
  });
  assert.equal(aggregateStatus('batch/v1', 'Job', none), {});
  assert.equal(aggregateStatus('batch/v1', 'Job', [item('a', { failed: 1 })]), { failed: 1 });
});

test.run();
