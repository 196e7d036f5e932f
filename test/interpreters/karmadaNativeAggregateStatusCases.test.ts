// A template's status from its members' reflected statuses, as Karmada's native AggregateStatus builds it (cases after
// pkg/resourceinterpreter/default/native/aggregatestatus_test.go and default_test.go TestAggregateStatus).
// Karmada writes the template as a Go struct, so a zero counter tagged omitempty is left out and the others stay, as
// here; compared exactly. Job condition times are left out on both sides (the Karmada test clears them too).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateStatus } from '../../src/interpreters/aggregateStatus.ts';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';

type Obj = Record<string, unknown>;

const item = (clusterName: string, status?: Obj): AggregatedStatusItem => ({
  clusterName,
  applied: true,
  health: 'Healthy',
  ...(status ? { status } : {}),
});

// TestAggregateDeploymentStatus "update deployment status" and "ignore update deployment status as up to date".
test('a Deployment sums its members counters, and aggregating again over the result changes nothing', () => {
  const member = { replicas: 1, readyReplicas: 1, updatedReplicas: 1, availableReplicas: 1, unavailableReplicas: 0 };
  const items = [item('member1', member), item('member2', member)];
  const expected = { replicas: 2, readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2 };
  const first = aggregateStatus('apps/v1', 'Deployment', items);
  assert.equal(first, expected);
  assert.equal(aggregateStatus('apps/v1', 'Deployment', items, first), expected);
});

// TestAggregateServiceStatus "ignore update service status when type is ClusterIP / NodePort / ExternalName": members of
// a Service that is not a LoadBalancer reflect no status (reflectServiceStatus), and the template status is left alone.
test('a Service whose members reflect no load-balancer status keeps its template status', () => {
  assert.is(aggregateStatus('v1', 'Service', [item('member1')]), undefined);
});

// TestAggregateServiceStatus "update service status when type is LoadBalancer" and "... as up to date".
test("a LoadBalancer Service takes its members' ingress points", () => {
  const items = [item('member1', { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } })];
  const expected = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
  assert.equal(aggregateStatus('v1', 'Service', items), expected);
  assert.equal(aggregateStatus('v1', 'Service', items, expected), expected);
});

// TestAggregateIngressStatus "update ingress status" and "ignore update ingress status as up to date".
test("an Ingress takes its members' ingress points", () => {
  const items = [item('member1', { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } })];
  const expected = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
  assert.equal(aggregateStatus('networking.k8s.io/v1', 'Ingress', items), expected);
  assert.equal(aggregateStatus('networking.k8s.io/v1', 'Ingress', items, expected), expected);
});

const startTime = '2026-01-01T00:00:00Z';
const completionTime = '2026-01-01T00:00:00Z';
const completed = {
  active: 0,
  succeeded: 1,
  failed: 0,
  startTime,
  completionTime,
  conditions: [
    { type: 'Complete', status: 'True' },
    { type: 'SuccessCriteriaMet', status: 'True' },
  ],
};

// TestAggregateJobStatus "update job status without job failed".
test('a Job completed on every member is Complete and has met its success criteria, with start and end times', () => {
  assert.equal(aggregateStatus('batch/v1', 'Job', [item('member1', completed), item('member2', completed)]), {
    succeeded: 2,
    startTime,
    completionTime,
    conditions: [
      { type: 'Complete', status: 'True', reason: 'Completed', message: 'Job completed' },
      {
        type: 'SuccessCriteriaMet',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'All member clusters have met success criteria',
      },
    ],
  });
});

// TestAggregateJobStatus "update job status with job failed".
test('a Job failed on one member is Failed naming it, and not Complete', () => {
  const failed = {
    active: 0,
    succeeded: 0,
    failed: 1,
    startTime,
    completionTime,
    conditions: [{ type: 'Failed', status: 'True' }],
  };
  assert.equal(aggregateStatus('batch/v1', 'Job', [item('member1', completed), item('member2', failed)]), {
    succeeded: 1,
    failed: 1,
    startTime,
    completionTime,
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        reason: 'JobFailed',
        message: 'Job executed failed in member clusters member2',
      },
    ],
  });
});

// TestAggregateDaemonSetStatus and TestAggregateStatefulSetStatus, "update" and "ignore ... as up to date".
test('a DaemonSet and a StatefulSet sum their members counters, and aggregating again changes nothing', () => {
  const ds = {
    currentNumberScheduled: 1,
    numberMisscheduled: 0,
    desiredNumberScheduled: 1,
    numberReady: 1,
    updatedNumberScheduled: 1,
    numberAvailable: 1,
    numberUnavailable: 0,
  };
  const dsExpected = {
    currentNumberScheduled: 2,
    numberMisscheduled: 0,
    desiredNumberScheduled: 2,
    numberReady: 2,
    updatedNumberScheduled: 2,
    numberAvailable: 2,
  };
  const dsItems = [item('member1', ds), item('member2', ds)];
  const dsFirst = aggregateStatus('apps/v1', 'DaemonSet', dsItems);
  assert.equal(dsFirst, dsExpected);
  assert.equal(aggregateStatus('apps/v1', 'DaemonSet', dsItems, dsFirst), dsExpected);
  const sts = { replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 1 };
  const stsExpected = { replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2 };
  const stsItems = [item('member1', sts), item('member2', sts)];
  const stsFirst = aggregateStatus('apps/v1', 'StatefulSet', stsItems);
  assert.equal(stsFirst, stsExpected);
  assert.equal(aggregateStatus('apps/v1', 'StatefulSet', stsItems, stsFirst), stsExpected);
});

const started = { running: { startedAt: '2026-01-01T00:00:00Z' } };
const fullContainer = (id: string, ready: boolean) => ({
  containerID: `containerd://${id}`,
  image: 'nginx:latest',
  imageID: `docker.io/library/import@sha256:${id}`,
  name: 'busybox-2',
  ready,
  restartCount: 0,
  started: true,
  state: started,
});

// What Karmada keeps of a member's container status: a corev1.ContainerStatus with only Ready and State set, as
// its JSON writes it.
const kept = (ready: boolean, state: unknown = {}) => ({
  name: '',
  state,
  lastState: {},
  ready,
  restartCount: 0,
  image: '',
  imageID: '',
});

// TestAggregatePodStatus "update initContainer status".
test("a Pod still initialising is Pending with its init containers' readiness and state", () => {
  const initContainerStatuses = [
    { ready: false, state: { waiting: { reason: 'PodInitializing' } } },
    { ready: false, state: started },
  ];
  assert.equal(aggregateStatus('v1', 'Pod', [item('member1', { initContainerStatuses, phase: 'Pending' })]), {
    initContainerStatuses: [kept(false, { waiting: { reason: 'PodInitializing' } }), kept(false, started)],
    phase: 'Pending',
  });
  assert.equal(
    aggregateStatus('v1', 'Pod', [item('member1', { initContainerStatuses: [{ name: 'init' }], phase: 'Pending' })]),
    { initContainerStatuses: [kept(false)], phase: 'Pending' },
    'a container without a state',
  );
});

// TestAggregatePodStatus "update pod status", "ignore update pod status as up to date" and "update pod status as one
// Pod failed" (Running and Pending members: Pending).
test("a Pod keeps only each member container's readiness and state, and the worst phase", () => {
  const running = [
    item('member1', { containerStatuses: [fullContainer('a', true)], phase: 'Running' }),
    item('member2', { containerStatuses: [fullContainer('b', true)], phase: 'Running' }),
  ];
  const expected = {
    containerStatuses: [kept(true, started), kept(true, started)],
    phase: 'Running',
  };
  assert.equal(aggregateStatus('v1', 'Pod', running), expected);
  assert.equal(aggregateStatus('v1', 'Pod', running, expected), expected);
  assert.equal(
    aggregateStatus('v1', 'Pod', [
      item('member1', { containerStatuses: [fullContainer('a', true)], phase: 'Running' }),
      item('member2', { containerStatuses: [fullContainer('b', false)], phase: 'Pending' }),
    ]),
    {
      containerStatuses: [kept(true, started), kept(false, started)],
      phase: 'Pending',
    },
  );
});

// TestAggregatePodStatus "pending pod status": a member whose status was not collected yet counts as Pending.
test('a Pod with a member not reporting yet is Pending', () => {
  assert.equal(
    aggregateStatus('v1', 'Pod', [
      item('member1', { containerStatuses: [{ ready: true, state: started }], phase: 'Running' }),
      item('member2'),
    ]),
    { containerStatuses: [kept(true, started)], phase: 'Pending' },
  );
});

// TestAggregatePVStatus, all six cases.
test('a PersistentVolume takes the worst phase: Failed, Pending, Available, Bound, Released', () => {
  const pv = (...phases: string[]) =>
    aggregateStatus(
      'v1',
      'PersistentVolume',
      phases.map((phase, i) => item(`member${i + 1}`, { phase })),
    );
  assert.equal(pv('Available', 'Available'), { phase: 'Available' });
  assert.equal(pv('Released', 'Released'), { phase: 'Released' });
  assert.equal(pv('Bound', 'Released'), { phase: 'Bound' });
  assert.equal(pv('Released', 'Failed'), { phase: 'Failed' });
  assert.equal(pv('Available', 'Pending'), { phase: 'Pending' });
  assert.equal(
    aggregateStatus(
      'v1',
      'PersistentVolume',
      [item('member1', { phase: 'Available' }), item('member2', { phase: 'Available' })],
      {
        phase: 'Available',
      },
    ),
    { phase: 'Available' },
  );
});

// TestAggregatedPodDisruptionBudgetStatus, all three cases.
test("a PodDisruptionBudget sums its members' counters and keeps their disrupted pods under each cluster", () => {
  const healthy = { currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 1 };
  const expected = { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 2, expectedPods: 2 };
  const items = [item('member1', healthy), item('member2', healthy)];
  assert.equal(aggregateStatus('policy/v1', 'PodDisruptionBudget', items), expected);
  assert.equal(aggregateStatus('policy/v1', 'PodDisruptionBudget', items, expected), expected);
  const evicted = '2026-01-01T00:00:00Z';
  const unhealthy = {
    currentHealthy: 0,
    desiredHealthy: 1,
    disruptionsAllowed: 0,
    expectedPods: 1,
    disruptedPods: { 'pod-1234': evicted },
  };
  assert.equal(
    aggregateStatus('policy/v1', 'PodDisruptionBudget', [item('member1', unhealthy), item('member2', unhealthy)]),
    {
      currentHealthy: 0,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
      expectedPods: 2,
      disruptedPods: { 'member1/pod-1234': evicted, 'member2/pod-1234': evicted },
    },
  );
});

// Test_aggregateCronJobStatus "update cronjob status".
test("a CronJob lists every member's active Jobs, even the same one twice, with the latest times", () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: 'foo',
    namespace: 'default',
    resourceVersion: '1',
    uid: '1d5db04f-f2e8-4807-b6d4-7b78f402250d',
  };
  assert.equal(
    aggregateStatus('batch/v1', 'CronJob', [
      item('member1', { active: [job], lastScheduleTime: '2023-02-08T07:16:00Z', lastSuccessfulTime: null }),
      item('member2', {
        active: [job],
        lastScheduleTime: '2023-02-08T07:17:00Z',
        lastSuccessfulTime: '2023-02-08T07:17:00Z',
      }),
    ]),
    { active: [job, job], lastScheduleTime: '2023-02-08T07:17:00Z', lastSuccessfulTime: '2023-02-08T07:17:00Z' },
  );
});

// Test_aggregateHorizontalPodAutoscalerStatus "update hpa status" and "hpa status update to dates".
test('an autoscaling/v2 HPA sums current and desired replicas, a member without status adding nothing', () => {
  const items = [
    item('member1', { currentReplicas: 2, desiredReplicas: 2 }),
    item('member2', { currentReplicas: 4, desiredReplicas: 4 }),
    item('member3'),
  ];
  const expected = { currentReplicas: 6, desiredReplicas: 6, currentMetrics: null };
  assert.equal(aggregateStatus('autoscaling/v2', 'HorizontalPodAutoscaler', items), expected);
  assert.equal(aggregateStatus('autoscaling/v2', 'HorizontalPodAutoscaler', items, expected), expected);
});

// Test_getAllDefaultAggregateStatusInterpreter; default_test.go TestAggregateStatus "cannot update deployment status for
// given kind and apiversion" (an apps/v1 Job).
test('thirteen kinds are aggregated, keyed by apiVersion and kind; any other is left alone', () => {
  const lb = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
  for (const [apiVersion, kind, status] of [
    ['apps/v1', 'Deployment', { replicas: 1 }],
    ['apps/v1', 'ReplicaSet', { replicas: 1 }],
    ['apps/v1', 'StatefulSet', { replicas: 1 }],
    ['batch/v1', 'Job', { active: 1 }],
    ['v1', 'Pod', { phase: 'Running' }],
    ['v1', 'Service', lb],
    ['networking.k8s.io/v1', 'Ingress', lb],
    ['batch/v1', 'CronJob', { lastScheduleTime: '2023-02-08T07:16:00Z' }],
    ['apps/v1', 'DaemonSet', { numberReady: 1 }],
    ['v1', 'PersistentVolume', { phase: 'Bound' }],
    ['v1', 'PersistentVolumeClaim', { phase: 'Bound' }],
    ['policy/v1', 'PodDisruptionBudget', { currentHealthy: 1 }],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', { desiredReplicas: 1 }],
  ] as [string, string, Obj][])
    assert.ok(aggregateStatus(apiVersion, kind, [item('member1', status)]), `${apiVersion} ${kind}`);
  const member = { replicas: 1, readyReplicas: 1, updatedReplicas: 1, availableReplicas: 1 };
  assert.is(aggregateStatus('apps/v1', 'Job', [item('member1', member), item('member2', member)]), undefined);
  assert.is(aggregateStatus('fake/v1', 'Fake', [item('member1', member)]), undefined);
});

test.run();
