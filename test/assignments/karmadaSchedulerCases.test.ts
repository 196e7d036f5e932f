// The scheduler core and its reschedule decisions on Karmada's own cases:
// pkg/scheduler/core/generic_scheduler_test.go (Test_DistributionOfReplicas), core/common_test.go (TestSelectClusters,
// TestAssignReplicas, TestAssignComponentSchedulingResults), scheduler_test.go (TestDoScheduleBinding,
// TestPlacementChanged, TestPatchBindingStatusWithAffinityName), helper_test.go (Test_needConsideredPlacementChanged,
// Test_getAffinityIndex) and event_handler_test.go (TestResourceBindingEventFilter, TestSchedulerNameFilter).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { assignReplicas } from '../../src/assignments/assignReplicas.ts';
import { needsReschedule, placementChanged } from '../../src/assignments/needsReschedule.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { scheduleBinding } from '../../src/assignments/scheduleBinding.ts';
import { buildCandidates, selectBestClusters } from '../../src/assignments/selectClusters.ts';
import { claimTemplate, type ClaimedBinding } from '../../src/bindings/claimTemplate.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import {
  clustersOf,
  coldRenderInput,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
} from '../helpers/inMemoryModel.ts';
import { DYNAMIC, candidate, cluster, request, sameTargets, show, targets } from './helpers.ts';

// ---- Test_DistributionOfReplicas: static weights from scratch, UID empty (ties by ascending name) ----

function staticWeighted(weights: number[]): Placement {
  return {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: {
        staticWeightList: weights.map((weight, i) => ({
          targetCluster: { clusterNames: [`member${i + 1}`] },
          weight,
        })),
      },
    },
  };
}

const distribution: { name: string; clusters: number; weights: number[]; replicas: number; want: string }[] = [
  { name: '3 replicas at 1:1', clusters: 2, weights: [1, 1], replicas: 3, want: 'member1=2 member2=1' },
  { name: '3 replicas at 1:1:1', clusters: 3, weights: [1, 1, 1], replicas: 3, want: 'member1=1 member2=1 member3=1' },
  { name: '5 replicas at 1:1:1', clusters: 3, weights: [1, 1, 1], replicas: 5, want: 'member1=2 member2=2 member3=1' },
  {
    name: '7 replicas at 2:1:1:1',
    clusters: 4,
    weights: [2, 1, 1, 1],
    replicas: 7,
    want: 'member1=3 member2=2 member3=1 member4=1',
  },
  {
    name: '8 replicas at 2:1:1:1',
    clusters: 4,
    weights: [2, 1, 1, 1],
    replicas: 8,
    want: 'member1=3 member2=2 member3=2 member4=1',
  },
  {
    name: '9 replicas at 2:1:1:1',
    clusters: 4,
    weights: [2, 1, 1, 1],
    replicas: 9,
    want: 'member1=3 member2=2 member3=2 member4=2',
  },
  {
    name: '8 replicas at 2:1:1:1 after scaling down from 9',
    clusters: 4,
    weights: [2, 1, 1, 1],
    replicas: 8,
    want: 'member1=3 member2=2 member3=2 member4=1',
  },
  {
    name: '6 replicas at 1:1:1:1',
    clusters: 4,
    weights: [1, 1, 1, 1],
    replicas: 6,
    want: 'member1=2 member2=2 member3=1 member4=1',
  },
  {
    name: '6 replicas at 2:1:1:1',
    clusters: 4,
    weights: [2, 1, 1, 1],
    replicas: 6,
    want: 'member1=3 member2=1 member3=1 member4=1',
  },
  {
    name: '5 replicas at 1:1:1 (before a cluster joins)',
    clusters: 3,
    weights: [1, 1, 1],
    replicas: 5,
    want: 'member1=2 member2=2 member3=1',
  },
  {
    name: '5 replicas at 1:1:1:1 (a fourth cluster joined)',
    clusters: 4,
    weights: [1, 1, 1, 1],
    replicas: 5,
    want: 'member1=2 member2=1 member3=1 member4=1',
  },
  {
    name: '6 replicas at 1:1:1:1 (before a cluster leaves)',
    clusters: 4,
    weights: [1, 1, 1, 1],
    replicas: 6,
    want: 'member1=2 member2=2 member3=1 member4=1',
  },
  {
    name: '6 replicas at 1:1:1 (a cluster left)',
    clusters: 3,
    weights: [1, 1, 1],
    replicas: 6,
    want: 'member1=2 member2=2 member3=2',
  },
];
for (const c of distribution) {
  test(`static weights divide from scratch: ${c.name}`, () => {
    const candidates = Array.from({ length: c.clusters }, (_, i) => candidate(`member${i + 1}`));
    const got = assignReplicas(candidates, request(staticWeighted(c.weights), c.replicas));
    assert.ok(got.ok);
    if (got.ok)
      assert.ok(sameTargets(got.value.clusters, targets(c.want)), `got ${show(got.value.clusters)}, want ${c.want}`);
  });
}

// ---- TestSelectClusters: scored clusters to candidates, then spread selection ----

function select(scores: [string, number][], placement: Placement, affinityName?: string): string[] {
  const req = request(placement, 0);
  const scored = scores.map(([name, score]) => ({ cluster: cluster(name), score }));
  const selected = selectBestClusters(placement, buildCandidates(scored, req, affinityName), req.replicas);
  assert.ok(selected.ok);
  return selected.ok ? selected.value.map((c) => c.name).sort() : [];
}

test('without spread constraints every scored cluster is selected', () => {
  assert.equal(
    select(
      [
        ['cluster1', 10],
        ['cluster2', 20],
      ],
      {},
    ),
    ['cluster1', 'cluster2'],
  );
});

test('a cluster spread of at most 1 selects the best-scored cluster', () => {
  const placement: Placement = {
    clusterAffinity: { clusterNames: ['cluster1', 'cluster2', 'cluster3'] },
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }],
  };
  const scores: [string, number][] = [
    ['cluster1', 10],
    ['cluster2', 20],
    ['cluster3', 15],
  ];
  assert.equal(select(scores, placement), ['cluster2']);
});

test('clusters left after affinity filtering are all selected', () => {
  const placement: Placement = { clusterAffinity: { clusterNames: ['cluster1', 'cluster3'] } };
  const scores: [string, number][] = [
    ['cluster1', 10],
    ['cluster3', 15],
  ];
  assert.equal(select(scores, placement), ['cluster1', 'cluster3']);
});

const overflowPlacement: Placement = {
  replicaScheduling: DYNAMIC.replicaScheduling!,
  clusterAffinities: [
    {
      affinityName: 'affinity1',
      clusterNames: ['member1'],
      overflowAffinities: [{ clusterNames: ['member2'] }],
    },
  ],
};

test('the primary tier comes before a better-scored overflow cluster in a spread of 1', () => {
  const placement: Placement = {
    ...overflowPlacement,
    clusterAffinities: [
      {
        affinityName: 'affinity1',
        clusterNames: ['cluster1'],
        overflowAffinities: [{ clusterNames: ['cluster2'] }],
      },
    ],
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }],
  };
  const scores: [string, number][] = [
    ['cluster1', 10],
    ['cluster2', 20],
  ];
  assert.equal(select(scores, placement, 'affinity1'), ['cluster1']);
});

// ---- TestAssignReplicas and TestAssignComponentSchedulingResults ----

test('a single-pod-template workload divided over one cluster gets all its replicas there', () => {
  const placement: Placement = {
    replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
  };
  const got = assignReplicas([candidate('member1')], request(placement, 3));
  assert.ok(got.ok);
  if (got.ok) assert.equal(got.value.clusters, targets('member1=3'));
});

test('overflow: a primary tier with room for every replica leaves the overflow tier empty', () => {
  const candidates = [candidate('member1', 10), candidate('member2', 10, { overflowOrder: 1 })];
  const got = assignReplicas(candidates, request(overflowPlacement, 5), 'affinity1');
  assert.ok(got.ok);
  if (got.ok) assert.ok(sameTargets(got.value.clusters, targets('member1=5')), show(got.value.clusters));
});

test('overflow: what the primary tier cannot hold goes to the next tier', () => {
  const candidates = [candidate('member1', 2), candidate('member2', 10, { overflowOrder: 1 })];
  const got = assignReplicas(candidates, request(overflowPlacement, 5), 'affinity1');
  assert.ok(got.ok);
  if (got.ok) assert.ok(sameTargets(got.value.clusters, targets('member1=2 member2=3')), show(got.value.clusters));
});

test('overflow: every tier exhausted is Unschedulable, naming the shortage', () => {
  const candidates = [candidate('member1', 2), candidate('member2', 2, { overflowOrder: 1 })];
  const got = assignReplicas(candidates, request(overflowPlacement, 10), 'affinity1');
  assert.is(got.ok, false);
  if (!got.ok) {
    assert.is(got.status, 'Unschedulable');
    assert.match(got.message, /Clusters available replicas are not enough to schedule/);
  }
});

test('overflow: replicas already held count toward the primary tier, and steady scale-up tops it up', () => {
  // member1 held 3 and has 2 free: the tier takes min(8, 3 + 2) = 5, the remaining 3 overflow to member2.
  const candidates = [
    candidate('member1', 2, { availableReplicas: 5 }),
    candidate('member2', 10, { overflowOrder: 1 }),
  ];
  const got = assignReplicas(candidates, request(overflowPlacement, 8, targets('member1=3')), 'affinity1');
  assert.ok(got.ok);
  if (got.ok) assert.ok(sameTargets(got.value.clusters, targets('member1=5 member2=3')), show(got.value.clusters));
});

// ---- TestDoScheduleBinding / TestPlacementChanged / Test_needConsideredPlacementChanged ----

test('a binding is scheduled when its placement, its replicas or an explicit reschedule say so', () => {
  const widened: Placement = { clusterAffinity: { clusterNames: ['cluster1', 'cluster2'] } };
  const clusters = [cluster('cluster1'), cluster('cluster2')];
  assert.is(
    needsReschedule(
      request(widened, 0, [], { previousPlacement: '{"clusterAffinity":{"clusterNames":["cluster1"]}}' }),
      clusters,
    ),
    'PlacementChanged',
  );
  const divided: Placement = { replicaScheduling: { replicaSchedulingType: 'Divided' } };
  assert.is(
    needsReschedule(request(divided, 2, [], { previousPlacement: JSON.stringify(divided) }), clusters),
    'ReplicasChanged',
  );
  assert.ok(needsReschedule(request({}, 0, [], { previousPlacement: '{}', reschedule: true }), clusters));
});

test('placementChanged: changed, unchanged, unparsable applied placement, and an empty placement', () => {
  const both: Placement = { clusterAffinity: { clusterNames: ['cluster1', 'cluster2'] } };
  assert.is(placementChanged(both, '{"clusterAffinity":{"clusterNames":["cluster1"]}}', undefined), true);
  assert.is(placementChanged(both, '{"clusterAffinity":{"clusterNames":["cluster1","cluster2"]}}', undefined), false);
  assert.is(placementChanged(both, 'invalid json', undefined), false);
  assert.is(placementChanged({}, '{}', undefined), false);
});

const full: Placement = {
  clusterAffinity: { clusterNames: ['m1'] },
  clusterTolerations: [{ key: 'foo', operator: 'Equal', value: 'foo', effect: 'NoSchedule' }],
  spreadConstraints: [{ minGroups: 1, maxGroups: 1, spreadByField: 'cluster' }],
  replicaScheduling: { replicaSchedulingType: 'Duplicated' },
};
const group = (name: string, clusterNames: string[]) => ({ affinityName: name, clusterNames });

const placementCases: { name: string; now: Placement; applied?: Placement; observed?: string; want: boolean }[] = [
  { name: 'no applied placement', now: { clusterAffinity: { clusterNames: ['m1'] } }, want: true },
  { name: 'the same placement', now: full, applied: full, want: false },
  {
    name: 'clusterAffinity removed',
    now: { ...full, clusterAffinity: undefined },
    applied: { ...full, clusterAffinity: { clusterNames: ['m2'] } },
    want: true,
  },
  {
    name: 'a toleration operator changed',
    now: full,
    applied: { ...full, clusterTolerations: [{ key: 'foo', operator: 'Exists', value: 'foo', effect: 'NoSchedule' }] },
    want: true,
  },
  {
    name: 'spread maxGroups changed',
    now: full,
    applied: { ...full, spreadConstraints: [{ minGroups: 1, maxGroups: 2, spreadByField: 'cluster' }] },
    want: true,
  },
  {
    name: 'replicaScheduling type changed',
    now: full,
    applied: { ...full, replicaScheduling: { replicaSchedulingType: 'Divided' } },
    want: true,
  },
  {
    name: 'clusterAffinities added while no term was observed',
    now: { clusterAffinities: [group('group1', ['m1'])] },
    applied: {},
    want: true,
  },
  {
    name: 'the observed term edited',
    now: { clusterAffinities: [group('group1', ['m1', 'm2'])] },
    applied: { clusterAffinities: [group('group1', ['m1'])] },
    observed: 'group1',
    want: true,
  },
  {
    name: 'the observed term deleted',
    now: { clusterAffinities: [group('group2', ['m2'])] },
    applied: { clusterAffinities: [group('group1', ['m1']), group('group2', ['m2'])] },
    observed: 'group1',
    want: true,
  },
  {
    name: 'every term deleted',
    now: {},
    applied: { clusterAffinities: [group('group1', ['m1'])] },
    observed: 'group1',
    want: true,
  },
  {
    name: 'another term added',
    now: { clusterAffinities: [group('group1', ['m1']), group('group2', ['m1', 'm2'])] },
    applied: { clusterAffinities: [group('group1', ['m1'])] },
    observed: 'group1',
    want: false,
  },
  {
    name: 'another term edited',
    now: { clusterAffinities: [group('group1', ['m1']), group('group2', ['m1', 'm2'])] },
    applied: { clusterAffinities: [group('group1', ['m1']), group('group2', ['m2'])] },
    observed: 'group1',
    want: false,
  },
  {
    name: 'another term deleted',
    now: { clusterAffinities: [group('group1', ['m1'])] },
    applied: { clusterAffinities: [group('group1', ['m1']), group('group2', ['m2'])] },
    observed: 'group1',
    want: false,
  },
];
for (const c of placementCases) {
  test(`placement change detection: ${c.name}`, () => {
    const applied = c.applied ? JSON.stringify(c.applied) : undefined;
    assert.is(placementChanged(c.now, applied, c.observed), c.want);
  });
}

// ---- Test_getAffinityIndex: where a clusterAffinities schedule starts ----

test('clusterAffinities start at the observed term, or at the first when none or an unknown one is observed', () => {
  const placement: Placement = {
    clusterAffinities: [group('group1', ['c1']), group('group2', ['c2']), group('group3', ['c3'])],
  };
  const clusters = [cluster('c1'), cluster('c2'), cluster('c3')];
  const from = (observed?: string) =>
    schedule(request(placement, 1, [], observed ? { observedAffinityName: observed } : {}), clusters);
  assert.equal([from().affinityName, show(from().clusters)], ['group1', 'c1=1']);
  assert.equal([from('group0').affinityName, show(from('group0').clusters)], ['group1', 'c1=1']);
  assert.equal([from('group3').affinityName, show(from('group3').clusters)], ['group3', 'c3=1']);
});

// ---- TestPatchBindingStatusWithAffinityName ----

test('the binding status records the clusterAffinities term that was scheduled', () => {
  const web = deployment('web', 2);
  const policy = propagationPolicy('web', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    placement: { clusterAffinities: [group('group1', ['member9']), group('group2', ['member1'])] },
  });
  const model = modelOf({ templates: [web], policies: [policy], clusters: [memberCluster('member1')] });
  const claim = claimTemplate(web, model, undefined) as ClaimedBinding;
  const scheduled = scheduleBinding(web, claim, undefined, { clusters: [], tasks: [] }, clustersOf(model), []);
  assert.is(scheduled.binding.status?.schedulerObservedAffinityName, 'group2');
  assert.equal(scheduled.binding.spec.clusters, targets('member1=2'));
});

// ---- TestResourceBindingEventFilter / TestSchedulerNameFilter ----

async function renderWith(schedulerName?: string) {
  const web = deployment('web', 2);
  const model = modelOf({
    templates: [web],
    policies: [
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
        ...(schedulerName !== undefined ? { schedulerName } : {}),
      }),
    ],
    clusters: [memberCluster('member1')],
  });
  const out = await renderTemplates(coldRenderInput(model));
  return out.explanations.get([...model.templates.keys()][0]!)?.clusters ?? [];
}

test('a policy naming the default scheduler, or none, is scheduled', async () => {
  assert.equal(await renderWith(), targets('member1=2'));
  assert.equal(await renderWith('default-scheduler'), targets('member1=2'));
});

test('a policy naming another scheduler is left to it: the default scheduler places it nowhere', async () => {
  assert.equal(await renderWith('other-scheduler'), []);
});

test.run();
