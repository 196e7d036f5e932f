// The Scheduled condition a schedule writes to its binding, on Karmada's own cases:
// pkg/scheduler/helper_test.go (Test_getConditionByError). The reasons come from the error kinds of
// pkg/scheduler/core: UnschedulableError for capacity (common.go, division_algorithm.go, also wrapped by
// assignment.go's "failed to scale up"), FitError when no cluster fits, any other error is SchedulerError.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Cluster } from '../../src/api/cluster.ts';
import type { Placement } from '../../src/api/policy.ts';
import { scheduleBinding } from '../../src/assignments/scheduleBinding.ts';
import { claimTemplate, type ClaimedBinding } from '../../src/bindings/claimTemplate.ts';
import { deployment, modelOf, propagationPolicy } from '../helpers/inMemoryModel.ts';
import { DYNAMIC, clusterWithPods } from './helpers.ts';

function run(replicas: number, placement: Placement, clusters: Cluster[], previous?: ResourceBinding) {
  const web = deployment('web', replicas);
  const policy = propagationPolicy('apps', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    placement,
  });
  const model = modelOf({ templates: [web], policies: [policy], clusters });
  const claim = claimTemplate(web, model, previous) as ClaimedBinding;
  const previousResult = { clusters: previous?.spec.clusters ?? [], tasks: [] };
  return scheduleBinding(web, claim, previous, previousResult, clusters, []);
}

const condition = (binding: ResourceBinding) =>
  binding.status?.conditions?.map((c) => [c.type, c.status, c.reason]) ?? [];

test('every overflow tier exhausted: Scheduled is False with reason Unschedulable and the previous clusters stay', () => {
  const placement: Placement = {
    replicaScheduling: DYNAMIC.replicaScheduling,
    clusterAffinities: [
      { affinityName: 'primary', clusterNames: ['member1'], overflowAffinities: [{ clusterNames: ['member2'] }] },
    ],
  };
  const scheduled = run(10, placement, [clusterWithPods('member1', 2), clusterWithPods('member2', 2)]);
  assert.is(scheduled.result.status, 'Unschedulable');
  assert.equal(condition(scheduled.binding), [['Scheduled', 'False', 'Unschedulable']]);
  assert.match(scheduled.binding.status?.conditions?.[0]?.message ?? '', /not enough/);
  assert.equal(scheduled.binding.spec.clusters, []);
});

test('a steady scale-up short of free capacity: Scheduled is False with reason Unschedulable, the result is kept', () => {
  const clusters = [clusterWithPods('member1', 3), clusterWithPods('member2', 3)];
  const first = run(4, DYNAMIC, clusters);
  assert.equal(condition(first.binding), [['Scheduled', 'True', 'Success']]);
  // 8 more replicas, 6 free: Karmada's "failed to scale up" wraps an UnschedulableError.
  const scaled = run(12, DYNAMIC, clusters, first.binding);
  assert.is(scaled.result.status, 'Unschedulable');
  assert.equal(condition(scaled.binding), [['Scheduled', 'False', 'Unschedulable']]);
  assert.equal(scaled.binding.spec.clusters, first.binding.spec.clusters);
});

test('a spread constraint that cannot be met: Scheduled is False with reason SchedulerError', () => {
  const placement: Placement = {
    replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }],
  };
  // Neither cluster alone holds 5 replicas ("no enough resource when selecting 1 clusters").
  const scheduled = run(5, placement, [clusterWithPods('member1', 3), clusterWithPods('member2', 3)]);
  assert.is(scheduled.result.status, 'SchedulerError');
  assert.equal(condition(scheduled.binding), [['Scheduled', 'False', 'SchedulerError']]);
});

// With clusterAffinities, Karmada reports the first term's error whatever the later terms say
// (scheduler.go#scheduleResourceBindingWithClusterAffinities: firstErr).

const twoTerms: Placement = {
  replicaScheduling: DYNAMIC.replicaScheduling,
  clusterAffinities: [
    { affinityName: 'first', clusterNames: ['member1'] },
    { affinityName: 'second', clusterNames: ['member2'] },
  ],
};

test('clusterAffinities: no fit in the first term and too little capacity in the second is NoClusterFit', () => {
  const scheduled = run(10, twoTerms, [clusterWithPods('member2', 2)]);
  assert.is(scheduled.result.status, 'NoClusterFit');
  assert.equal(condition(scheduled.binding), [['Scheduled', 'False', 'NoClusterFit']]);
  assert.equal(scheduled.binding.spec.clusters, []);
});

test('clusterAffinities: too little capacity in the first term and no fit in the second is Unschedulable', () => {
  const scheduled = run(10, twoTerms, [clusterWithPods('member1', 2)]);
  assert.is(scheduled.result.status, 'Unschedulable');
  assert.equal(condition(scheduled.binding), [['Scheduled', 'False', 'Unschedulable']]);
});

test.run();
