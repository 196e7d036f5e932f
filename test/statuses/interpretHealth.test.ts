import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretHealth } from '../../src/statuses/interpretHealth.ts';

const deploy = (status: Record<string, number>, replicas = 2, generation = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'w', generation },
  spec: { replicas },
  status,
});

test('Deployment is Healthy once the generation is observed and updated/available replicas caught up', () => {
  assert.is(interpretHealth(deploy({ observedGeneration: 1, updatedReplicas: 2, availableReplicas: 2 })), 'Healthy');
  assert.is(interpretHealth(deploy({ observedGeneration: 1, updatedReplicas: 2, availableReplicas: 1 })), 'Unhealthy');
  assert.is(
    interpretHealth(deploy({ observedGeneration: 0, updatedReplicas: 2, availableReplicas: 2 })),
    'Unhealthy',
    'old generation',
  );
  assert.is(interpretHealth(deploy({ observedGeneration: 1, updatedReplicas: 1, availableReplicas: 1 })), 'Unhealthy');
});

test('Service: only LoadBalancers need an ingress; Pod needs Running and Ready; PVC needs Bound', () => {
  assert.is(interpretHealth({ apiVersion: 'v1', kind: 'Service', spec: { type: 'ClusterIP' } }), 'Healthy');
  assert.is(
    interpretHealth({ apiVersion: 'v1', kind: 'Service', spec: { type: 'LoadBalancer' }, status: {} }),
    'Unhealthy',
  );
  assert.is(
    interpretHealth({
      apiVersion: 'v1',
      kind: 'Service',
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
    }),
    'Healthy',
  );
  assert.is(
    interpretHealth({
      apiVersion: 'v1',
      kind: 'Pod',
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    }),
    'Healthy',
  );
  assert.is(interpretHealth({ apiVersion: 'v1', kind: 'Pod', status: { phase: 'Pending' } }), 'Unhealthy');
  assert.is(
    interpretHealth({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', status: { phase: 'Pending' } }),
    'Unhealthy',
  );
});

test('kinds without a rule are Healthy; no live object is Unknown', () => {
  assert.is(interpretHealth({ apiVersion: 'v1', kind: 'ConfigMap' }), 'Healthy');
  assert.is(interpretHealth({ apiVersion: 'example.com/v1', kind: 'Widget' }), 'Healthy');
  assert.is(interpretHealth(undefined), 'Unknown');
});

test('workloads without spec.replicas skip the replica comparison, and absent generations read as 0 (cases after healthy_test.go)', () => {
  const noReplicas = (kind: string, status: Record<string, number>) => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'w' },
    spec: {},
    status,
  });
  assert.is(interpretHealth(noReplicas('Deployment', { updatedReplicas: 0, availableReplicas: 0 })), 'Healthy');
  assert.is(interpretHealth(noReplicas('StatefulSet', {})), 'Healthy');
  assert.is(interpretHealth(noReplicas('ReplicaSet', {})), 'Healthy');
  assert.is(interpretHealth(noReplicas('Deployment', { observedGeneration: 0 })), 'Healthy', 'generation absent is 0');
  assert.is(
    interpretHealth(
      noReplicas('DaemonSet', {
        observedGeneration: 0,
        desiredNumberScheduled: 2,
        updatedNumberScheduled: 2,
        numberAvailable: 2,
      }),
    ),
    'Healthy',
  );
});

test('rules are keyed by apiVersion and kind: the same kind at another version has none and is Healthy', () => {
  assert.is(
    interpretHealth({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      status: { currentHealthy: 1, desiredHealthy: 2 },
    }),
    'Unhealthy',
  );
  assert.is(
    interpretHealth({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      status: { currentHealthy: 1, desiredHealthy: 2 },
    }),
    'Healthy',
  );
  assert.is(interpretHealth({ apiVersion: 'extensions/v1beta1', kind: 'Ingress', status: {} }), 'Healthy');
  assert.is(
    interpretHealth({ apiVersion: 'apps/v1beta2', kind: 'Deployment', metadata: { generation: 2 }, status: {} }),
    'Healthy',
  );
});

test('a Pod is judged by its first Ready condition', () => {
  assert.is(
    interpretHealth({
      apiVersion: 'v1',
      kind: 'Pod',
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Ready', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
      },
    }),
    'Unhealthy',
  );
  assert.is(interpretHealth({ apiVersion: 'v1', kind: 'Pod', status: { phase: 'Succeeded' } }), 'Healthy');
});

test.run();
