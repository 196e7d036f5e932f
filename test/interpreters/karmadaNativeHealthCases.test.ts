// Health of member objects as Karmada's native interpreter judges it (cases after
// pkg/resourceinterpreter/default/native/healthy_test.go and default_test.go TestInterpretHealth / TestHookEnabled).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretHealth } from '../../src/statuses/interpretHealth.ts';
import { interpretsHealth } from '../../src/interpreters/healthHook.ts';

type Obj = Record<string, unknown>;

const workload = (kind: string, generation: number | undefined, spec: Obj, status: Obj): Obj => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name: 'fake', ...(generation === undefined ? {} : { generation }) },
  spec,
  status,
});

// Test_interpretDeploymentHealth "generation not equal to observedGeneration": a status ahead of the generation is no
// more observed than one behind it.
test('a Deployment whose observedGeneration is ahead of its generation is Unhealthy', () => {
  assert.is(
    interpretHealth(
      workload('Deployment', 1, { replicas: 3 }, { availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2 }),
    ),
    'Unhealthy',
  );
});

// Test_interpretStatefulSetHealth, all four cases.
test('a StatefulSet is Healthy once its generation is observed and updated and available replicas caught up', () => {
  const sts = (status: Obj) => interpretHealth(workload('StatefulSet', 1, { replicas: 3 }, status));
  assert.is(sts({ availableReplicas: 3, updatedReplicas: 3, observedGeneration: 1 }), 'Healthy');
  assert.is(sts({ availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2 }), 'Unhealthy', 'generation');
  assert.is(sts({ updatedReplicas: 1, observedGeneration: 1 }), 'Unhealthy', 'updated < replicas');
  assert.is(sts({ availableReplicas: 1, updatedReplicas: 3, observedGeneration: 1 }), 'Unhealthy', 'available');
});

// Test_interpretReplicaSetHealth, all three cases.
test('a ReplicaSet is Healthy once its generation is observed and available replicas reach spec.replicas', () => {
  const rs = (status: Obj) => interpretHealth(workload('ReplicaSet', 1, { replicas: 3 }, status));
  assert.is(rs({ availableReplicas: 3, observedGeneration: 1 }), 'Healthy');
  assert.is(rs({ availableReplicas: 3, observedGeneration: 2 }), 'Unhealthy', 'generation');
  assert.is(rs({ availableReplicas: 2, observedGeneration: 2 }), 'Unhealthy', 'available < replicas');
});

// Test_interpretDaemonSetHealth, all four cases (the last two have no generation at all: both read as 0).
test('a DaemonSet is Healthy once its generation is observed and updated and available pods caught up', () => {
  const ds = (generation: number | undefined, status: Obj) =>
    interpretHealth(workload('DaemonSet', generation, {}, status));
  assert.is(ds(1, { observedGeneration: 1 }), 'Healthy');
  assert.is(ds(1, { observedGeneration: 2 }), 'Unhealthy', 'generation');
  assert.is(ds(undefined, { updatedNumberScheduled: 3, desiredNumberScheduled: 5 }), 'Unhealthy', 'updated < desired');
  assert.is(ds(undefined, { updatedNumberScheduled: 5, numberAvailable: 3 }), 'Unhealthy', 'available < updated');
});

// Test_interpretServiceHealth "not loadBalancer type" and "status.loadBalancer.ingress list is empty".
test('a NodePort Service is Healthy whatever its status; a LoadBalancer with an empty ingress list is not', () => {
  const lb = { loadBalancer: { ingress: [{ ip: 'localhost' }] } };
  assert.is(interpretHealth({ apiVersion: 'v1', kind: 'Service', spec: { type: 'NodePort' }, status: lb }), 'Healthy');
  assert.is(
    interpretHealth({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [] } },
    }),
    'Unhealthy',
  );
});

// Test_interpretIngressHealth, both cases.
test('an Ingress is Healthy with an ingress point and Unhealthy with an empty ingress list', () => {
  const ingress = (list: Obj[]) =>
    interpretHealth({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      status: { loadBalancer: { ingress: list } },
    });
  assert.is(ingress([{ ip: 'localhost' }]), 'Healthy');
  assert.is(ingress([]), 'Unhealthy');
});

// Test_interpretPersistentVolumeClaimHealth "persistentVolumeClaim healthy".
test('a Bound PersistentVolumeClaim is Healthy', () => {
  assert.is(
    interpretHealth({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', status: { phase: 'Bound' } }),
    'Healthy',
  );
});

// Test_interpretPodHealth "pod condition ready false", "pod phase not running and not succeeded", "condition or phase nil".
test('a Pod whose Ready condition is Unknown, a Failed Pod and a Pod without status are Unhealthy', () => {
  const pod = (status?: Obj) =>
    interpretHealth({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fake-pod' }, ...(status ? { status } : {}) });
  assert.is(pod({ conditions: [{ type: 'Ready', status: 'Unknown' }], phase: 'Running' }), 'Unhealthy');
  assert.is(pod({ phase: 'Failed' }), 'Unhealthy');
  assert.is(pod(), 'Unhealthy');
});

// Test_interpretPodDisruptionBudgetHealth "podDisruptionBudget healthy" and "... desired healthy equals to current".
test('a PodDisruptionBudget is Healthy while its current healthy pods reach the desired count', () => {
  const pdb = (currentHealthy: number) =>
    interpretHealth({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      status: { desiredHealthy: 2, currentHealthy },
    });
  assert.is(pdb(3), 'Healthy');
  assert.is(pdb(2), 'Healthy');
});

// Test_getAllDefaultHealthInterpreter and TestHookEnabled "poddisruptionbudget with interprethealth operation enabled".
test('exactly nine kinds have a native health rule, keyed by apiVersion and kind', () => {
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
  for (const [apiVersion, kind] of [
    ['policy/v1', 'Deployment'],
    ['batch/v1', 'Job'],
    ['v1', 'ConfigMap'],
    ['apps/v1beta1', 'Deployment'],
  ])
    assert.not.ok(interpretsHealth({ apiVersion, kind }, undefined), `${apiVersion} ${kind}`);
});

// default_test.go TestInterpretHealth "cannot get health state for given kind and apiversion": Karmada has no rule for a
// policy/v1 Deployment, and its work status controller treats a kind without a health hook as healthy.
test('a Deployment under an apiVersion without a rule is not judged and counts as Healthy', () => {
  assert.is(
    interpretHealth({
      apiVersion: 'policy/v1',
      kind: 'Deployment',
      metadata: { name: 'fake-deployment', generation: 1 },
      spec: { replicas: 3 },
      status: { availableReplicas: 0, updatedReplicas: 3, observedGeneration: 2 },
    }),
    'Healthy',
  );
});

test.run();
