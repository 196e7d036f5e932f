// The general replica estimator on Karmada's own cases: pkg/estimator/client/general_test.go
// (TestMaxAvailableReplicas, TestMaxAvailableReplicasGeneral, TestGetAllowedPodNumber,
// TestGetMaximumReplicasBasedOnClusterSummary, TestGetMaximumReplicasBasedOnResourceModels,
// TestMaxAvailableReplicasGeneralWithResourceModels). Karmada's MaxAvailableReplicas is reached through
// availableReplicas with a workload of a few replicas: a cluster reporting a resourceSummary is not capped.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, ClusterStatus } from '../../src/api/cluster.ts';
import { availableReplicas } from '../../src/assignments/availableReplicas.ts';
import { cluster, request } from './helpers.ts';

const divided = { replicaScheduling: { replicaSchedulingType: 'Divided' as const } };

type Summary = NonNullable<ClusterStatus['resourceSummary']> & {
  allocatableModelings?: { grade: number; count: number }[];
};

function withSummary(summary: Summary, spec: Partial<Cluster['spec']> = {}): Cluster {
  return cluster('member1', spec, { resourceSummary: summary });
}

function estimate(c: Cluster, resourceRequest?: Record<string, string>): number {
  return availableReplicas(c, request(divided, 3, [], resourceRequest ? { resourceRequest } : {}));
}

// TestMaxAvailableReplicas "single cluster with resources" and TestMaxAvailableReplicasGeneral "basic resource estimation".
test('free cpu and memory bound the replicas: min(3000m / 500m, 6Gi / 1Gi, 80 pods) = 6', () => {
  const c = withSummary({
    allocatable: { cpu: '4', memory: '8Gi', pods: '100' },
    allocated: { cpu: '1', memory: '2Gi', pods: '20' },
  });
  assert.is(estimate(c, { cpu: '500m', memory: '1Gi' }), 6);
});

// TestMaxAvailableReplicasGeneral "no allowed pods".
test('a cluster whose pods are all allocated has room for no replica', () => {
  const c = withSummary({ allocatable: { pods: '10' }, allocated: { pods: '10' } });
  assert.is(estimate(c), 0);
});

// TestMaxAvailableReplicasGeneral "nil replica requirements".
test('without replica requirements only the free pod count bounds the replicas', () => {
  assert.is(estimate(withSummary({ allocatable: { pods: '10' } })), 10);
});

// TestGetAllowedPodNumber: "normal case", "no allocatable pods", "over allocation".
test('allowed pods are allocatable minus allocated minus allocating, never below 0', () => {
  assert.is(
    estimate(withSummary({ allocatable: { pods: '100' }, allocated: { pods: '40' }, allocating: { pods: '10' } })),
    50,
  );
  assert.is(estimate(withSummary({ allocated: { pods: '10' } })), 0, 'no allocatable pods');
  assert.is(
    estimate(withSummary({ allocatable: { pods: '100' }, allocated: { pods: '90' }, allocating: { pods: '20' } })),
    0,
    'over allocation',
  );
});

// TestGetMaximumReplicasBasedOnClusterSummary "sufficient resources" and "insufficient memory".
test('the summary bound is the smallest quotient over the requested resources; one exhausted resource gives 0', () => {
  const enough = withSummary({
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    allocated: { cpu: '1', memory: '2Gi' },
  });
  assert.is(estimate(enough, { cpu: '500m', memory: '1Gi' }), 6);
  const short = withSummary({
    allocatable: { cpu: '4', memory: '2Gi', pods: '110' },
    allocated: { cpu: '1', memory: '1.5Gi' },
  });
  assert.is(estimate(short, { cpu: '500m', memory: '1Gi' }), 0);
});

// Resource models (CustomizedClusterResourceModeling, beta, on by default): when the cluster status carries
// allocatableModelings, Karmada estimates on one virtual node per counted node of each grade, each holding the grade's
// minimum of every range (and 110 pods), first fit (general.go#getMaximumReplicasBasedOnResourceModels); the summary
// quotient is not consulted then. Grades 0, 1, 2 as in TestGetMaximumReplicasBasedOnResourceModels, one node each; the
// summary adds up nodes of 0.5 / 1.5 / 2.5 cpu and 0.5Gi / 1.5Gi / 3Gi, so the summary alone would allow more.
const gradedModels = [
  {
    grade: 0,
    ranges: [
      { name: 'cpu', min: '0', max: '1' },
      { name: 'memory', min: '0', max: '1Gi' },
    ],
  },
  {
    grade: 1,
    ranges: [
      { name: 'cpu', min: '1', max: '2' },
      { name: 'memory', min: '1Gi', max: '2Gi' },
    ],
  },
  {
    grade: 2,
    ranges: [
      { name: 'cpu', min: '2', max: '4' },
      { name: 'memory', min: '2Gi', max: '4Gi' },
    ],
  },
];
const gradedSummary: Summary = {
  allocatable: { cpu: '4500m', memory: '5Gi', pods: '100' },
  allocated: {},
  allocating: {},
  allocatableModelings: [
    { grade: 0, count: 1 },
    { grade: 1, count: 1 },
    { grade: 2, count: 1 },
  ],
};
const graded = withSummary(gradedSummary, { resourceModels: gradedModels });

test('resource models: 1.5 cpu fits only the grade-2 node once (summary alone: 3)', () => {
  // "Partially compliant grades"
  assert.is(estimate(graded, { cpu: '1500m' }), 1);
});

test('resource models: 3 cpu fits no grade minimum, so no replica (summary alone: 1)', () => {
  // "No compliant grades"
  assert.is(estimate(graded, { cpu: '3' }), 0);
});

test('resource models: 1 cpu and 1.5Gi fit only the grade-2 node once (summary alone: 3)', () => {
  // "Multi resource request"
  assert.is(estimate(graded, { cpu: '1', memory: '1.5Gi' }), 1);
});

test('resource models: 2.5Gi exceeds the highest grade minimum, so no replica (summary alone: 2)', () => {
  // "request exceeds highest grade"
  assert.is(estimate(graded, { cpu: '1', memory: '2.5Gi' }), 0);
});

test('modelings without resource models in the spec fall back to the summary', () => {
  // "No grade defined should result in an error": the model path fails and the summary decides.
  assert.is(estimate(withSummary(gradedSummary), { cpu: '1500m' }), 3);
});

test('resource models: three grade-1 nodes of 1 cpu take two 500m replicas each', () => {
  // TestMaxAvailableReplicasGeneralWithResourceModels, without assumed workloads: 6.
  const c = withSummary(
    {
      allocatable: { pods: '100', cpu: '3' },
      allocatableModelings: [
        { grade: 0, count: 0 },
        { grade: 1, count: 3 },
      ],
    },
    {
      resourceModels: [
        { grade: 0, ranges: [{ name: 'cpu', min: '0', max: '1' }] },
        { grade: 1, ranges: [{ name: 'cpu', min: '1', max: '2' }] },
      ],
    },
  );
  assert.is(estimate(c, { cpu: '500m' }), 6);
});

test('resource models: a node claim without requests still takes 110 pods per model node', () => {
  // maxAvailableReplicas reads the models whenever the binding has replicaRequirements, a nodeSelector alone included.
  const c = withSummary(
    {
      allocatable: { pods: '500', cpu: '8' },
      allocated: { pods: '10' },
      allocatableModelings: [{ grade: 1, count: 2 }],
    },
    { resourceModels: [{ grade: 1, ranges: [{ name: 'cpu', min: '4', max: '8' }] }] },
  );
  assert.is(availableReplicas(c, request(divided, 3, [], { replicaRequirements: true })), 220);
  assert.is(availableReplicas(c, request(divided, 3)), 490);
});

test.run();
