// Which bindings Karmada's scheduler schedules and what it writes back, on its own cases from
// pkg/scheduler/scheduler_test.go: TestDoScheduleClusterBinding, TestScheduleResourceBindingWithClusterAffinity,
// TestScheduleResourceBindingWithClusterAffinities, TestScheduleClusterResourceBindingWithClusterAffinity(ies),
// TestPatchBindingStatusCondition, TestPatchClusterBindingStatusCondition and
// TestPatchClusterBindingStatusWithAffinityName, with the scheduler's real algorithm in place of the mocked one.
// What scheduler.go does with each outcome: a FitError (no cluster fits) still patches the result, emptied, with the
// new placement (scheduleResourceBindingWithClusterAffinity, patchScheduleResultForResourceBinding); any other error
// patches nothing; getConditionByError turns the outcome into the Scheduled condition; doScheduleBinding leaves a
// binding it does not schedule, condition included, as it is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Cluster } from '../../src/api/cluster.ts';
import type { Template } from '../../src/api/model.ts';
import type { Placement } from '../../src/api/policy.ts';
import type { WorkloadRebalancer } from '../../src/api/rebalancer.ts';
import { scheduleBinding } from '../../src/assignments/scheduleBinding.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import {
  clustersOf,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
  templateOf,
} from '../helpers/inMemoryModel.ts';
import { DYNAMIC, clusterWithPods, show } from './helpers.ts';

const APPLIED = 'policy.karmada.io/applied-placement';

const role = templateOf(
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } },
  'templates/role.yaml',
  true,
);

function policyFor(template: Template, placement: Placement) {
  const policy = propagationPolicy('apps', {
    resourceSelectors: [{ apiVersion: template.ref.apiVersion, kind: template.ref.kind }],
    placement,
  });
  if (template.ref.namespace === '')
    policy.object = { ...policy.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'apps' } };
  return policy;
}

function run(
  template: Template,
  placement: Placement,
  clusters: Cluster[],
  previous?: ResourceBinding,
  rebalancers: WorkloadRebalancer[] = [],
) {
  const model = modelOf({ templates: [template], policies: [policyFor(template, placement)], clusters });
  const claim = claimTemplate(template, model, previous);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const previousResult = { clusters: previous?.spec.clusters ?? [], tasks: [] };
  return scheduleBinding(template, claim, previous, previousResult, clustersOf(model), rebalancers);
}

function rebalancer(template: Template): WorkloadRebalancer {
  const { apiVersion, kind, name, namespace } = template.ref;
  return {
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: { name: 'again' },
    spec: { workloads: [{ apiVersion, kind, name, ...(namespace ? { namespace } : {}) }] },
  };
}

const scheduled = (b: ResourceBinding) => b.status?.conditions?.find((c) => c.type === 'Scheduled');
const twoClusters = [memberCluster('cluster1'), memberCluster('cluster2')];
const only1: Placement = { clusterAffinity: { clusterNames: ['cluster1'] } };
const both: Placement = { clusterAffinity: { clusterNames: ['cluster1', 'cluster2'] } };

// ---- TestDoScheduleClusterBinding ----

test('a cluster-scoped binding whose placement changed is scheduled again under the new placement', () => {
  const first = run(role, only1, twoClusters).binding;
  assert.is(first.kind, 'ClusterResourceBinding');
  assert.is(first.metadata.annotations?.[APPLIED], JSON.stringify(only1));
  const again = run(role, both, twoClusters, first);
  assert.is(again.result.status, 'Scheduled');
  assert.is(show(again.binding.spec.clusters), 'cluster1=0 cluster2=0');
  assert.is(again.binding.metadata.annotations?.[APPLIED], JSON.stringify(both));
});

test('a cluster-scoped binding with an explicit reschedule request and an empty placement goes to every cluster', () => {
  const first = run(role, {}, [memberCluster('cluster1')]).binding;
  const again = run(role, {}, twoClusters, first, [rebalancer(role)]);
  assert.is(again.result.status, 'Scheduled');
  assert.is(show(again.binding.spec.clusters), 'cluster1=0 cluster2=0');
  assert.equal(again.rescheduledBy, ['again']);
});

// ---- TestScheduleResourceBindingWithClusterAffinity / TestScheduleClusterResourceBindingWithClusterAffinity ----

test('a cluster-scoped binding scheduled with clusterAffinity records its clusters and the placement they were computed for', () => {
  const { binding } = run(role, only1, twoClusters);
  assert.is(show(binding.spec.clusters), 'cluster1=0');
  assert.is(binding.metadata.annotations?.[APPLIED], JSON.stringify(only1));
  assert.equal(
    [scheduled(binding)?.status, scheduled(binding)?.reason, scheduled(binding)?.message],
    ['True', 'Success', 'Binding has been scheduled successfully.'],
  );
});

const weighted: Placement = {
  clusterAffinity: { clusterNames: ['cluster1', 'cluster2'] },
  replicaScheduling: {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: {
      staticWeightList: [
        { targetCluster: { clusterNames: ['cluster1'] }, weight: 1 },
        { targetCluster: { clusterNames: ['cluster2'] }, weight: 3 },
      ],
    },
  },
};
const small = [clusterWithPods('cluster1', 1), clusterWithPods('cluster2', 1)];

test('a scheduling error other than no fit patches nothing: the previous clusters and applied placement stay', () => {
  const first = run(deployment('web', 4), weighted, small).binding;
  assert.is(show(first.spec.clusters), 'cluster1=1 cluster2=3');
  // Dynamic weights need 10 replicas of room; the clusters have 1 + 1 free (plus the 4 held).
  const failed = run(deployment('web', 10), DYNAMIC, small, first);
  assert.is(failed.result.status, 'Unschedulable');
  assert.is(show(failed.binding.spec.clusters), 'cluster1=1 cluster2=3');
  assert.is(failed.binding.metadata.annotations?.[APPLIED], JSON.stringify(weighted));
  assert.equal([scheduled(failed.binding)?.status, scheduled(failed.binding)?.reason], ['False', 'Unschedulable']);
});

test('no cluster fitting a changed placement empties the result and records the placement it was computed for', () => {
  const first = run(deployment('web', 4), weighted, twoClusters).binding;
  const nowhere: Placement = { ...weighted, clusterAffinity: { clusterNames: ['cluster9'] } };
  const failed = run(deployment('web', 4), nowhere, twoClusters, first);
  assert.is(failed.result.status, 'NoClusterFit');
  assert.equal(failed.binding.spec.clusters, []);
  assert.equal([scheduled(failed.binding)?.status, scheduled(failed.binding)?.reason], ['False', 'NoClusterFit']);
  // Karmada patches a FitError's (empty) result like any other, applied placement included.
  assert.is(failed.binding.metadata.annotations?.[APPLIED], JSON.stringify(nowhere));
});

// ---- TestScheduleResourceBindingWithClusterAffinities / TestScheduleClusterResourceBindingWithClusterAffinities ----

const terms: Placement = {
  clusterAffinities: [
    { affinityName: 'affinity1', clusterNames: ['cluster1'] },
    { affinityName: 'affinity2', clusterNames: ['cluster2'] },
  ],
};

test('a cluster-scoped binding scheduled by its first clusterAffinities term records that term', () => {
  const { binding } = run(role, terms, twoClusters);
  assert.is(show(binding.spec.clusters), 'cluster1=0');
  assert.is(binding.status?.schedulerObservedAffinityName, 'affinity1');
  assert.is(binding.metadata.annotations?.[APPLIED], JSON.stringify(terms));
});

test('a cluster-scoped binding falls over to the second term when no cluster fits the first', () => {
  const { binding } = run(role, terms, [memberCluster('cluster2')]);
  assert.is(show(binding.spec.clusters), 'cluster2=0');
  assert.is(binding.status?.schedulerObservedAffinityName, 'affinity2');
  assert.equal([scheduled(binding)?.status, scheduled(binding)?.reason], ['True', 'Success']);
});

test('a cluster-scoped binding resumes from the observed term, and an explicit reschedule restarts from the first', () => {
  const onSecond = run(role, terms, [memberCluster('cluster2')]).binding;
  const resumed = run(role, terms, twoClusters, onSecond);
  assert.is(resumed.binding.status?.schedulerObservedAffinityName, 'affinity2');
  assert.is(show(resumed.binding.spec.clusters), 'cluster2=0');
  const restarted = run(role, terms, twoClusters, onSecond, [rebalancer(role)]);
  assert.is(restarted.binding.status?.schedulerObservedAffinityName, 'affinity1');
  assert.is(show(restarted.binding.spec.clusters), 'cluster1=0');
});

test('a cluster-scoped binding no term fits gets no clusters and keeps the term it observed before', () => {
  const onFirst = run(role, terms, twoClusters).binding;
  const failed = run(role, terms, [memberCluster('cluster3')], onFirst);
  assert.is(failed.result.status, 'NoClusterFit');
  assert.equal(failed.binding.spec.clusters, []);
  assert.is(failed.binding.status?.schedulerObservedAffinityName, 'affinity1');
  assert.equal([scheduled(failed.binding)?.status, scheduled(failed.binding)?.reason], ['False', 'NoClusterFit']);
});

test('every term failing on capacity first patches nothing: previous clusters, applied placement and term stay', () => {
  const divided: Placement = {
    clusterAffinities: [
      { affinityName: 'affinity1', clusterNames: ['cluster1'] },
      { affinityName: 'affinity2', clusterNames: ['cluster9'] },
    ],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const first = run(deployment('web', 1), divided, small).binding;
  assert.equal([show(first.spec.clusters), first.status?.schedulerObservedAffinityName], ['cluster1=1', 'affinity1']);
  const failed = run(deployment('web', 5), divided, small, first);
  assert.is(failed.result.status, 'Unschedulable');
  assert.is(show(failed.binding.spec.clusters), 'cluster1=1');
  assert.is(failed.binding.status?.schedulerObservedAffinityName, 'affinity1');
  assert.is(failed.binding.metadata.annotations?.[APPLIED], JSON.stringify(divided));
  assert.equal([scheduled(failed.binding)?.status, scheduled(failed.binding)?.reason], ['False', 'Unschedulable']);
});

test('every term finding no fit empties the result and records the placement it was computed for', () => {
  const first = run(deployment('web', 2), only1, twoClusters).binding;
  const nowhere: Placement = {
    clusterAffinities: [
      { affinityName: 'affinity1', clusterNames: ['cluster8'] },
      { affinityName: 'affinity2', clusterNames: ['cluster9'] },
    ],
  };
  const failed = run(deployment('web', 2), nowhere, twoClusters, first);
  assert.is(failed.result.status, 'NoClusterFit');
  assert.equal(failed.binding.spec.clusters, []);
  assert.is(failed.binding.status?.schedulerObservedAffinityName, undefined);
  assert.is(failed.binding.metadata.annotations?.[APPLIED], JSON.stringify(nowhere));
});

// ---- TestPatchBindingStatusCondition / TestPatchClusterBindingStatusCondition ----

/** The first result with its Scheduled condition replaced, as a previous schedule would have left it. */
function withCondition(binding: ResourceBinding, status: 'True' | 'False', reason: string, message: string) {
  return { ...binding, status: { ...binding.status, conditions: [{ type: 'Scheduled', status, reason, message }] } };
}

const tooFewClusters: Placement = { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 3 }] };

test('a scheduler error adds a Scheduled False SchedulerError condition', () => {
  const { result, binding } = run(deployment('web', 2), tooFewClusters, twoClusters);
  assert.is(result.status, 'SchedulerError');
  assert.equal(
    binding.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
    [['Scheduled', 'False', 'SchedulerError']],
  );
});

test('a success replaces a failure condition: one Scheduled condition, True', () => {
  const first = run(deployment('web', 2), only1, twoClusters).binding;
  const failedBefore = withCondition(first, 'False', 'SchedulerError', 'schedule error');
  const { binding } = run(deployment('web', 2), both, twoClusters, failedBefore);
  assert.equal(
    binding.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message]),
    [['Scheduled', 'True', 'Success', 'Binding has been scheduled successfully.']],
  );
});

test('a failure replaces a success condition, and each failure replaces the one before', () => {
  const first = run(role, only1, twoClusters).binding;
  const noFit = run(role, { clusterAffinity: { clusterNames: ['cluster9'] } }, twoClusters, first).binding;
  assert.equal(
    noFit.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
    [['Scheduled', 'False', 'NoClusterFit']],
  );
  const error = run(role, tooFewClusters, twoClusters, noFit).binding;
  assert.equal(
    error.status?.conditions?.map((c) => [c.type, c.status, c.reason]),
    [['Scheduled', 'False', 'SchedulerError']],
  );
});

test('a binding left unscheduled keeps the Scheduled condition its last schedule wrote, even a failed one', () => {
  // Scaled to 10, the schedule failed for capacity and kept 1 + 3; scaled back to 4, nothing asks for a schedule
  // (same placement, replicas equal to the sum held), so doScheduleBinding patches no condition.
  const first = run(deployment('web', 4), weighted, small).binding;
  const failedBefore = withCondition(
    first,
    'False',
    'Unschedulable',
    'Clusters available replicas 6 are not enough to schedule.',
  );
  const again = run(deployment('web', 4), weighted, small, failedBefore);
  assert.is(again.result.status, 'Unchanged');
  assert.equal(scheduled(again.binding), scheduled(failedBefore));
});

test.run();
