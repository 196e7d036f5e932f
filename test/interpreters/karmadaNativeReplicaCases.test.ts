// InterpretReplica and ReviseReplica of Karmada's native interpreter (cases after
// pkg/resourceinterpreter/default/native/replica_test.go, revisereplica_test.go and default_test.go TestGetReplicas /
// TestReviseReplica / TestHookEnabled; the Deployment cases are in interpretReplicas.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretReplicas, mayHaveReplicas } from '../../src/interpreters/interpretReplicas.ts';
import { reviseReplicas } from '../../src/interpreters/reviseReplicas.ts';

type Obj = Record<string, unknown>;

const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'foo', operator: 'Exists' }] }] };
const tolerations = [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }];
const claimingPodSpec = {
  nodeSelector: { foo: 'foo1' },
  tolerations,
  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } },
};
const nodeClaim = { nodeSelector: { foo: 'foo1' }, tolerations, hardNodeAffinity: required };

// Test_statefulSetReplica, Test_replicaSetReplica, Test_jobReplica (parallelism 3 capped by completions 2) and
// Test_podReplica: the count and the node claim of the pod template, with no resource request.
test('StatefulSet, ReplicaSet, Job and Pod report their replicas with the node claim of their pod template', () => {
  assert.equal(
    interpretReplicas({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      spec: { replicas: 2, template: { spec: claimingPodSpec } },
    }),
    { replicas: 2, nodeClaim },
  );
  assert.equal(
    interpretReplicas({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      spec: { replicas: 3, template: { spec: claimingPodSpec } },
    }),
    { replicas: 3, nodeClaim },
  );
  assert.equal(
    interpretReplicas({
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: { parallelism: 3, completions: 2, template: { spec: claimingPodSpec } },
    }),
    { replicas: 2, nodeClaim },
  );
  assert.equal(interpretReplicas({ apiVersion: 'v1', kind: 'Pod', spec: claimingPodSpec }), { replicas: 1, nodeClaim });
});

// Test_getAllDefaultReplicaInterpreter; default_test.go TestGetReplicas "cannot get desired replica of given kind and
// apiversion" (an apps/v1 Pod) and TestHookEnabled "deployment with interpretreplica operation enabled".
test('five kinds have replicas, keyed by apiVersion and kind; any other has none', () => {
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'StatefulSet'],
    ['batch/v1', 'Job'],
    ['v1', 'Pod'],
  ] as [string, string][])
    assert.ok(mayHaveReplicas(apiVersion, kind), `${apiVersion} ${kind}`);
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Pod'],
    ['apps/v1', 'DaemonSet'],
    ['batch/v1', 'CronJob'],
  ] as [string, string][])
    assert.not.ok(mayHaveReplicas(apiVersion, kind), `${apiVersion} ${kind}`);
  assert.equal(
    interpretReplicas({
      apiVersion: 'apps/v1',
      kind: 'Pod',
      metadata: { name: 'fake-pod', labels: { app: 'my-app' } },
    }),
    { replicas: 0 },
  );
});

// TestReviseReplicaSetReplica "revise replicaset replica" and TestReviseStatefulSetReplica "revise statefulset replica".
test('a ReplicaSet and a StatefulSet get the replicas assigned to the member', () => {
  for (const kind of ['ReplicaSet', 'StatefulSet']) {
    const object = { apiVersion: 'apps/v1', kind, metadata: { name: 'fake' }, spec: { replicas: 1 } };
    assert.equal(reviseReplicas(object, 3), { ...object, spec: { replicas: 3 } }, kind);
  }
});

// TestGetAllDefaultReviseReplicaInterpreter; TestHookEnabled "statefulset with revisereplica operation enabled";
// default_test.go TestReviseReplica "cannot revise deployment replica of given kind and apiversion" (an apps/v1 Job).
test('four kinds are revised, keyed by apiVersion and kind; any other is left as it is', () => {
  const revised = (apiVersion: string, kind: string, spec: Obj) =>
    (reviseReplicas({ apiVersion, kind, spec }, 3).spec as Obj) ?? {};
  assert.is(revised('apps/v1', 'Deployment', { replicas: 1 }).replicas, 3);
  assert.is(revised('apps/v1', 'ReplicaSet', { replicas: 1 }).replicas, 3);
  assert.is(revised('apps/v1', 'StatefulSet', { replicas: 1 }).replicas, 3);
  assert.is(revised('batch/v1', 'Job', { parallelism: 1 }).parallelism, 3);
  const job = { apiVersion: 'apps/v1', kind: 'Job', metadata: { name: 'fake-deployment' }, spec: { replicas: 1 } };
  assert.equal(reviseReplicas(job, 3), job);
  const pod = { apiVersion: 'v1', kind: 'Pod', spec: { replicas: 1 } };
  assert.equal(reviseReplicas(pod, 3), pod);
});

test.run();
