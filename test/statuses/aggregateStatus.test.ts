import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateStatus, fullyApplied } from '../../src/statuses/aggregateStatus.ts';
import { reflectStatus } from '../../src/statuses/reflectStatus.ts';

test('Deployment: reflect keeps the counters and generations; aggregate sums the counters', () => {
  const live = (ready: number) => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w', generation: 2 },
    status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: ready, availableReplicas: ready, conditions: [{ type: 'Available' }] },
  });
  const a = reflectStatus(live(2))!;
  assert.equal(a, { availableReplicas: 2, generation: 2, observedGeneration: 2, readyReplicas: 2, replicas: 2, updatedReplicas: 2 });
  const agg = aggregateStatus('apps/v1', 'Deployment', [
    { clusterName: 'm1', applied: true, health: 'Healthy', status: a },
    { clusterName: 'm2', applied: true, health: 'Unhealthy', status: reflectStatus(live(1))! },
    { clusterName: 'm3', applied: false, health: 'Unknown' },
  ]);
  assert.equal(agg, { replicas: 4, updatedReplicas: 4, readyReplicas: 3, availableReplicas: 3, unavailableReplicas: 0 });
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
  const pvc = (...phases: string[]) => aggregateStatus('v1', 'PersistentVolumeClaim', phases.map((phase, i) => ({ clusterName: `m${i}`, applied: true, health: 'Healthy' as const, status: { phase } })));
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
  assert.equal(agg, { active: 1, succeeded: 1, failed: 0 });
  const all = aggregateStatus('batch/v1', 'Job', [{ clusterName: 'a', applied: true, health: 'Healthy', status: done }]);
  assert.is((all!.conditions as { type: string }[])[0]!.type, 'Complete');
});

test('kinds Karmada does not aggregate get no aggregated status; timestamps that tick are not reflected', () => {
  assert.is(aggregateStatus('v1', 'ConfigMap', []), undefined);
  assert.equal(reflectStatus({ apiVersion: 'example.com/v1', kind: 'W', status: { b: 1, a: { lastHeartbeatTime: 'x', lastTransitionTime: 't' } } }), { a: { lastTransitionTime: 't' }, b: 1 });
  assert.is(reflectStatus({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }), undefined);
});

test('FullyApplied is True only when every member applied', () => {
  assert.is(fullyApplied([{ clusterName: 'a', applied: true, health: 'Healthy' }]).status, 'True');
  const f = fullyApplied([{ clusterName: 'a', applied: true, health: 'Healthy' }, { clusterName: 'b', applied: false, health: 'Unknown' }]);
  assert.is(f.status, 'False');
  assert.match(f.message, /b/);
});

test.run();
