// What a member object's status carries back, as Karmada's native ReflectStatus grabs it (cases after
// pkg/resourceinterpreter/default/native/reflectstatus_test.go and default_test.go TestReflectStatus).
// Karmada serialises Go structs: a field without omitempty is written even when zero (a StatefulSet's
// availableReplicas, a DaemonSet's numberMisscheduled, a PDB's four counters) and an HPA's currentMetrics as null;
// the others only when they hold something.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reflectStatus } from '../../src/statuses/reflectStatus.ts';

type Obj = Record<string, unknown>;

const TEMPLATE_GENERATION = 'resourcetemplate.karmada.io/generation';

const federated = (kind: string, status: Obj | undefined, annotation: string | undefined = '1'): Obj => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: {
    name: 'test',
    namespace: 'test-ns',
    generation: 2,
    ...(annotation === undefined ? {} : { annotations: { [TEMPLATE_GENERATION]: annotation } }),
  },
  ...(status ? { status } : {}),
});

// Test_reflectPodDisruptionBudgetStatus "PDB with valid status" and "PDB without status".
test('a PodDisruptionBudget reflects its four counters and its disrupted pods; without a status, nothing', () => {
  const status = {
    currentHealthy: 2,
    desiredHealthy: 3,
    disruptionsAllowed: 1,
    expectedPods: 3,
    disruptedPods: { pod1: '2026-01-01T00:00:00Z' },
  };
  assert.equal(reflectStatus({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status }), status);
  assert.is(
    reflectStatus({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'test-pdb' } }),
    undefined,
  );
});

// Test_reflectHorizontalPodAutoscalerStatus "HPA without status"; Test_reflectWholeStatus both valid cases.
test('an HPA without status reflects nothing; a kind without a rule reflects its whole status, or nothing', () => {
  assert.is(
    reflectStatus({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'test-hpa' } }),
    undefined,
  );
  assert.equal(reflectStatus({ status: { key: 'value', num: 1 } }), { key: 'value', num: 1 });
  assert.is(reflectStatus({}), undefined);
});

// Test_reflectDeploymentStatus / Test_reflectReplicaSetStatus: valid status with the template generation, no status,
// and an annotation that is not a number (an error: null).
test('a Deployment and a ReplicaSet reflect their counters with generation and template generation', () => {
  assert.equal(
    reflectStatus(
      federated('Deployment', {
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 0,
        observedGeneration: 2,
        conditions: [{ type: 'Available', status: 'True' }],
      }),
    ),
    {
      availableReplicas: 3,
      generation: 2,
      observedGeneration: 2,
      readyReplicas: 3,
      replicas: 3,
      resourceTemplateGeneration: 1,
      updatedReplicas: 3,
    },
  );
  assert.equal(
    reflectStatus(
      federated('ReplicaSet', {
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 2,
        fullyLabeledReplicas: 3,
      }),
    ),
    {
      availableReplicas: 3,
      generation: 2,
      observedGeneration: 2,
      readyReplicas: 3,
      replicas: 3,
      resourceTemplateGeneration: 1,
    },
  );
  for (const kind of ['Deployment', 'ReplicaSet']) {
    assert.is(reflectStatus(federated(kind, undefined)), undefined, `${kind} without status`);
    assert.is(reflectStatus(federated(kind, { replicas: 3 }, 'invalid')), null, `${kind} invalid annotation fails`);
  }
});

// Test_reflectServiceStatus "LoadBalancer service without status should return nil" and "... with status".
test('a LoadBalancer Service reflects its load-balancer status, and nothing without a status', () => {
  assert.is(reflectStatus({ apiVersion: 'v1', kind: 'Service', spec: { type: 'LoadBalancer' } }), undefined);
  assert.equal(
    reflectStatus({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
    }),
    { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } },
  );
});

// Test_reflectIngressStatus "ingress with valid status" and "ingress without status".
test('an Ingress reflects its whole status, and nothing without one', () => {
  const status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } };
  assert.equal(reflectStatus({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', status }), status);
  assert.is(reflectStatus({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' }), undefined);
});

// Test_reflectJobStatus: all fields, no status, empty conditions, failed, only active, no completion time, no start.
test('a Job reflects its counters, conditions and start and completion times, whichever it has', () => {
  const job = (status?: Obj) => reflectStatus({ apiVersion: 'batch/v1', kind: 'Job', ...(status ? { status } : {}) });
  const full = {
    active: 1,
    succeeded: 2,
    failed: 0,
    startTime: '2026-01-01T00:00:00Z',
    completionTime: '2026-01-01T00:05:00Z',
    conditions: [{ type: 'Complete', status: 'True', reason: 'JobComplete', message: 'Job completed successfully' }],
  };
  const { failed: _zero, ...fullWithoutZero } = full;
  assert.equal(job({ ...full, ready: 0, uncountedTerminatedPods: {} }), fullWithoutZero);
  assert.is(job(), undefined, 'without status');
  const { conditions: _c, ...noConditions } = fullWithoutZero;
  assert.equal(job({ ...full, conditions: [] }), noConditions, 'empty conditions');
  const failed = {
    ...full,
    failed: 1,
    active: 0,
    succeeded: 0,
    conditions: [{ type: 'Failed', status: 'True', reason: 'JobFailed', message: 'Job failed due to error' }],
  };
  assert.equal(job(failed), {
    failed: 1,
    startTime: full.startTime,
    completionTime: full.completionTime,
    conditions: failed.conditions,
  });
  const { completionTime: _ct, ...activeOnly } = { ...full, succeeded: 0, conditions: [] };
  assert.equal(job(activeOnly), { active: 1, startTime: full.startTime }, 'only active');
  const { completionTime: _ct2, ...noCompletion } = fullWithoutZero;
  assert.equal(job({ ...full, completionTime: undefined }), noCompletion, 'no completion time');
  const { startTime: _st, ...noStart } = fullWithoutZero;
  assert.equal(job({ ...full, startTime: undefined }), noStart, 'no start time');
});

// Test_reflectJobStatus copies JobStatus.Conditions whole: each condition keeps the probe and transition times the
// member's Job controller stamped on it (it stamps them together, when the condition changes).
test("a Job's reflected conditions keep their probe and transition times", () => {
  const conditions = [
    {
      type: 'Complete',
      status: 'True',
      reason: 'CompletionsReached',
      message: 'Reached expected number of succeeded pods',
      lastProbeTime: '2026-01-01T00:05:00Z',
      lastTransitionTime: '2026-01-01T00:05:00Z',
    },
  ];
  assert.equal(reflectStatus({ apiVersion: 'batch/v1', kind: 'Job', status: { succeeded: 1, conditions } }), {
    conditions,
    succeeded: 1,
  });
});

// Test_reflectDaemonSetStatus: valid status with annotation, no status, invalid annotation.
test('a DaemonSet reflects its scheduling counters with generation and template generation', () => {
  assert.equal(
    reflectStatus(
      federated('DaemonSet', {
        currentNumberScheduled: 3,
        desiredNumberScheduled: 3,
        numberAvailable: 3,
        numberMisscheduled: 0,
        numberReady: 3,
        updatedNumberScheduled: 3,
        numberUnavailable: 0,
        observedGeneration: 2,
      }),
    ),
    {
      currentNumberScheduled: 3,
      desiredNumberScheduled: 3,
      generation: 2,
      numberAvailable: 3,
      numberMisscheduled: 0,
      numberReady: 3,
      observedGeneration: 2,
      resourceTemplateGeneration: 1,
      updatedNumberScheduled: 3,
    },
  );
  assert.is(reflectStatus(federated('DaemonSet', undefined)), undefined, 'without status');
  assert.is(
    reflectStatus(federated('DaemonSet', { currentNumberScheduled: 1, numberReady: 1 }, 'invalid')),
    null,
    'invalid annotation fails',
  );
});

// Test_reflectStatefulSetStatus: valid status, no status, partial status fields.
test('a StatefulSet reflects its replica counters, generation and template generation, but not observedGeneration', () => {
  assert.equal(
    reflectStatus(
      federated('StatefulSet', {
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 3,
        updatedReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 2,
        currentRevision: 'r1',
      }),
    ),
    {
      availableReplicas: 3,
      currentReplicas: 3,
      generation: 2,
      readyReplicas: 3,
      replicas: 3,
      resourceTemplateGeneration: 1,
      updatedReplicas: 3,
    },
  );
  assert.is(reflectStatus(federated('StatefulSet', undefined)), undefined, 'without status');
  assert.equal(reflectStatus(federated('StatefulSet', { replicas: 2, readyReplicas: 1, currentReplicas: 1 })), {
    availableReplicas: 0,
    currentReplicas: 1,
    generation: 2,
    readyReplicas: 1,
    replicas: 2,
    resourceTemplateGeneration: 1,
  });
});

// Test_getAllDefaultReflectStatusInterpreter: nine kinds grab selected fields; any other kind reflects everything.
test('nine kinds reflect selected fields; a kind without a rule reflects its whole status', () => {
  const extra = { somethingElse: 'x' };
  for (const [apiVersion, kind, status] of [
    ['apps/v1', 'Deployment', { replicas: 1 }],
    ['apps/v1', 'ReplicaSet', { replicas: 1 }],
    ['v1', 'Service', { loadBalancer: {} }],
    ['batch/v1', 'Job', { active: 1 }],
    ['apps/v1', 'DaemonSet', { numberReady: 1 }],
    ['apps/v1', 'StatefulSet', { replicas: 1 }],
    ['policy/v1', 'PodDisruptionBudget', { currentHealthy: 1 }],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', { desiredReplicas: 1 }],
  ] as [string, string, Obj][]) {
    const live = { apiVersion, kind, spec: { type: 'LoadBalancer' }, status: { ...status, ...extra } };
    assert.equal(reflectStatus(live)?.somethingElse, undefined, `${apiVersion} ${kind} grabs selected fields`);
  }
  // The Ingress rule reflects its whole status, as does a kind without a rule.
  assert.is(reflectStatus({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', status: extra })?.somethingElse, 'x');
  assert.is(reflectStatus({ apiVersion: 'fake/v1', kind: 'Fake', status: extra })?.somethingElse, 'x');
});

// default_test.go TestReflectStatus "object have correct format status".
test('a policy/v1 PodDisruptionBudget reflects exactly its counters', () => {
  assert.equal(
    reflectStatus({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      status: { currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 1, observedGeneration: 3 },
    }),
    { currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 1 },
  );
});

// The grabbed structs' fields without omitempty: PodDisruptionBudgetStatus' four counters, an HPA's desiredReplicas
// (and currentMetrics, null), a DaemonSet's four scheduling counters, a StatefulSet's replicas and availableReplicas,
// a ReplicaSet's replicas.
test('counters Karmada always writes are reflected as 0 when the member has none', () => {
  assert.equal(reflectStatus({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status: {} }), {
    currentHealthy: 0,
    desiredHealthy: 0,
    disruptionsAllowed: 0,
    expectedPods: 0,
  });
  assert.equal(
    reflectStatus({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', status: { currentReplicas: 0 } }),
    { currentMetrics: null, desiredReplicas: 0 },
  );
  assert.equal(reflectStatus(federated('DaemonSet', { numberAvailable: 0 }, '')), {
    currentNumberScheduled: 0,
    desiredNumberScheduled: 0,
    generation: 2,
    numberMisscheduled: 0,
    numberReady: 0,
  });
  assert.equal(reflectStatus(federated('StatefulSet', {}, '')), {
    availableReplicas: 0,
    generation: 2,
    replicas: 0,
  });
  assert.equal(reflectStatus(federated('ReplicaSet', { readyReplicas: 0 }, '')), { generation: 2, replicas: 0 });
  assert.equal(reflectStatus(federated('Deployment', { replicas: 0 }, '')), { generation: 2 });
});

// The "invalid status format" cases of Test_reflectPodDisruptionBudgetStatus, Test_reflectHorizontalPodAutoscalerStatus,
// Test_reflectWholeStatus, Test_reflectServiceStatus, Test_reflectIngressStatus, Test_reflectJobStatus,
// Test_reflectDaemonSetStatus and Test_reflectStatefulSetStatus: a status that is no object is an error (null), for
// every kind; a Service that is not a LoadBalancer is judged by its type first and reflects nothing.
test('a status that is no object cannot be reflected, whatever the kind', () => {
  const kinds: [string, string][] = [
    ['policy/v1', 'PodDisruptionBudget'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ['networking.k8s.io/v1', 'Ingress'],
    ['batch/v1', 'Job'],
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'],
    ['apps/v1', 'StatefulSet'],
    ['example.io/v1', 'Widget'],
  ];
  for (const [apiVersion, kind] of kinds)
    for (const status of ['invalid', [1], null, 3])
      assert.is(reflectStatus({ apiVersion, kind, status }), null, `${kind} with status ${JSON.stringify(status)}`);
  assert.is(
    reflectStatus({ apiVersion: 'v1', kind: 'Service', spec: { type: 'LoadBalancer' }, status: 'invalid' }),
    null,
  );
  assert.is(
    reflectStatus({ apiVersion: 'v1', kind: 'Service', spec: { type: 'ClusterIP' }, status: 'invalid' }),
    undefined,
  );
});

test.run();
