import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableReplicas } from '../../src/assignments/schedule.ts';
import { cluster, clusterWithResources, request } from './helpers.ts';

const divided = { replicaScheduling: { replicaSchedulingType: 'Divided' as const } };

test('a cluster without status is unlimited, capped at the requested replicas', () => {
  assert.is(availableReplicas(cluster('m'), request(divided, 7)), 7);
});

test('a cluster with status but no resourceSummary has room for 0', () => {
  assert.is(availableReplicas(cluster('m', {}, { conditions: [] }), request(divided, 7)), 0);
});

test('non-workloads are not estimated', () => {
  assert.is(availableReplicas(clusterWithResources('m', { pods: 10 }), request(divided, 0)), 0);
});

test('without requests only free pods count (not capped at replicas)', () => {
  assert.is(availableReplicas(clusterWithResources('m', { pods: 110 }, { pods: 10 }), request(divided, 3)), 100);
});

test('allocating pods are subtracted too; none free gives 0', () => {
  const c = cluster(
    'm',
    {},
    { resourceSummary: { allocatable: { pods: 10 }, allocated: { pods: 6 }, allocating: { pods: 4 } } },
  );
  assert.is(availableReplicas(c, request(divided, 3)), 0);
});

test('the minimum over pods and every requested resource, cpu in milli-units', () => {
  const c = clusterWithResources('m', { pods: 100, cpu: '4', memory: '8Gi' }, { pods: 0, cpu: '1500m', memory: '1Gi' });
  // cpu: 2500m / 500m = 5; memory: 7Gi / 1Gi = 7; pods 100.
  assert.is(availableReplicas(c, request(divided, 3, [], { resourceRequest: { cpu: '500m', memory: '1Gi' } })), 5);
  // memory-bound
  assert.is(availableReplicas(c, request(divided, 3, [], { resourceRequest: { cpu: '100m', memory: '2Gi' } })), 3);
});

test('a requested resource the cluster does not report gives 0; zero requests are skipped', () => {
  const c = clusterWithResources('m', { pods: 100, cpu: '4' });
  assert.is(availableReplicas(c, request(divided, 3, [], { resourceRequest: { 'nvidia.com/gpu': 1 } })), 0);
  assert.is(availableReplicas(c, request(divided, 3, [], { resourceRequest: { 'nvidia.com/gpu': 0, cpu: '1' } })), 4);
});

test('fully used cpu gives 0', () => {
  const c = clusterWithResources('m', { pods: 100, cpu: '2' }, { cpu: '2' });
  assert.is(availableReplicas(c, request(divided, 3, [], { resourceRequest: { cpu: '100m' } })), 0);
});

test.run();
