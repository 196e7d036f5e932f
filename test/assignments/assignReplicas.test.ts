import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClusterPreferences } from '../../src/api/policy.ts';
import {
  assignDuplicated,
  assignDynamically,
  assignReplicas,
  divideDynamically,
  removeZeroReplicas,
  staticWeights,
} from '../../src/assignments/assignReplicas.ts';
import { divideByWebster } from '../../src/assignments/divideByWebster.ts';
import { AGGREGATED, DYNAMIC, candidate, request, sameTargets, show, targets } from './helpers.ts';

const byName = (names: string[]): ClusterPreferences['staticWeightList'] =>
  names.map((n) => {
    const [name = '', weight = '0'] = n.split('=');
    return { targetCluster: { clusterNames: [name] }, weight: Number(weight) };
  });

// Karmada pkg/scheduler/core/assignment_test.go (Test_assignByStaticWeightStrategy).
const staticCases: { name: string; clusters: string[]; weights?: string[]; replicas: number; want: string }[] = [
  {
    name: 'replica 12, weight 3:2:1',
    clusters: ['member1', 'member2', 'member3'],
    weights: ['member1=3', 'member2=2', 'member3=1'],
    replicas: 12,
    want: 'member1=6 member2=4 member3=2',
  },
  {
    name: 'replica 12, default weight',
    clusters: ['member1', 'member2', 'member3'],
    replicas: 12,
    want: 'member1=4 member2=4 member3=4',
  },
  {
    name: 'replica 13, weight 3:2:1',
    clusters: ['member1', 'member2', 'member3'],
    weights: ['member1=3', 'member2=2', 'member3=1'],
    replicas: 13,
    want: 'member1=7 member2=4 member3=2',
  },
  {
    name: 'replica 14, weight 3:2:1',
    clusters: ['member1', 'member2', 'member3'],
    weights: ['member1=3', 'member2=2', 'member3=1'],
    replicas: 14,
    want: 'member1=7 member2=5 member3=2',
  },
  {
    name: '0 replicas gives every weighted cluster 0',
    clusters: ['member1', 'member2'],
    weights: ['member1=1', 'member2=1'],
    replicas: 0,
    want: 'member1=0 member2=0',
  },
  {
    name: 'a selected cluster without weight is ignored',
    clusters: ['member1', 'member2'],
    weights: ['member1=1'],
    replicas: 2,
    want: 'member1=2',
  },
  {
    name: 'a cluster matched by several rules takes the largest weight',
    clusters: ['member1', 'member2'],
    weights: ['member1=1', 'member2=1', 'member1=2'],
    replicas: 3,
    want: 'member1=2 member2=1',
  },
];
for (const c of staticCases) {
  test(`static weight: ${c.name}`, () => {
    const candidates = c.clusters.map((n) => candidate(n));
    const list = staticWeights(candidates, c.weights ? { staticWeightList: byName(c.weights) } : undefined);
    const got = divideByWebster(c.replicas, list, '');
    assert.ok(sameTargets(got, targets(c.want)), `got ${show(got)}, want ${c.want}`);
  });
}

test('static weight: every rule weighing 0 means weight 1 for all candidates', () => {
  const list = staticWeights([candidate('a'), candidate('b')], { staticWeightList: byName(['a=0', 'c=5']) });
  assert.equal(list, [
    { name: 'a', weight: 1 },
    { name: 'b', weight: 1 },
  ]);
});

// Karmada pkg/scheduler/core/division_algorithm_test.go (Test_dynamicDivideReplicas).
const divideCases: {
  name: string;
  strategy: 'DynamicWeight' | 'Aggregated';
  available: string;
  target: number;
  want: string;
}[] = [
  {
    name: 'replica 12, dynamic weight 18:12:6',
    strategy: 'DynamicWeight',
    available: 'member1=18 member2=12 member3=6',
    target: 12,
    want: 'member1=6 member2=4 member3=2',
  },
  {
    name: 'replica 12, dynamic weight 20:12:6',
    strategy: 'DynamicWeight',
    available: 'member1=20 member2=12 member3=6',
    target: 12,
    want: 'member1=6 member2=4 member3=2',
  },
  {
    name: 'replica 12, dynamic weight 6:12:6',
    strategy: 'DynamicWeight',
    available: 'member1=6 member2=12 member3=6',
    target: 12,
    want: 'member1=3 member2=6 member3=3',
  },
  {
    name: 'replica 12, aggregated 12:6:6',
    strategy: 'Aggregated',
    available: 'member2=12 member1=6 member3=6',
    target: 12,
    want: 'member2=12',
  },
  {
    name: 'replica 12, aggregated 6:6:6',
    strategy: 'Aggregated',
    available: 'member1=6 member2=6 member3=6',
    target: 12,
    want: 'member1=6 member2=6',
  },
];
for (const c of divideCases) {
  test(`dynamic division: ${c.name}`, () => {
    const got = divideDynamically(c.strategy, {
      available: targets(c.available),
      scheduled: [],
      target: c.target,
      uid: '',
    });
    assert.ok(got.ok);
    if (got.ok)
      assert.ok(sameTargets(removeZeroReplicas(got.value), targets(c.want)), `got ${show(got.value)}, want ${c.want}`);
  });
}

// Karmada assignment_test.go (Test_dynamicScale and Test_dynamicScaleUp): steady mode on the previous result.
// `free` is each candidate's estimated free replicas (AllocatableReplicas); want undefined = Unschedulable.
interface SteadyCase {
  name: string;
  strategy: 'DynamicWeight' | 'Aggregated';
  free: string;
  previous: string;
  replicas: number;
  wants?: string[];
}
const steadyCases: SteadyCase[] = [
  {
    name: 'replica 12 -> 6, dynamic weighted 1:1:1',
    strategy: 'DynamicWeight',
    free: 'member1=1 member2=1 member3=1',
    previous: 'member1=2 member2=4 member3=6',
    replicas: 6,
    wants: ['member1=1 member2=2 member3=3'],
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 10:10:10',
    strategy: 'DynamicWeight',
    free: 'member1=10 member2=10 member3=10',
    previous: 'member1=2 member2=4 member3=6',
    replicas: 24,
    wants: ['member1=6 member2=8 member3=10'],
  },
  {
    name: 'replica 12 -> 24, dynamic weighted 1:1:1 lacks capacity',
    strategy: 'DynamicWeight',
    free: 'member1=1 member2=1 member3=1',
    previous: 'member1=2 member2=4 member3=6',
    replicas: 24,
  },
  {
    name: 'replica 12 -> 6, aggregated 1:1:1',
    strategy: 'Aggregated',
    free: 'member1=1 member2=1 member3=1',
    previous: 'member1=4 member2=8',
    replicas: 6,
    wants: ['member2=6'],
  },
  {
    name: 'replica 12 -> 8, aggregated 100:100',
    strategy: 'Aggregated',
    free: 'member1=100 member2=100',
    previous: 'member1=4 member2=8',
    replicas: 8,
    wants: ['member2=8'],
  },
  {
    name: 'replica 12 -> 24, aggregated 4:6:8',
    strategy: 'Aggregated',
    free: 'member1=4 member2=6 member3=8',
    previous: 'member1=4 member2=8',
    replicas: 24,
    wants: ['member1=7 member2=12 member3=5'],
  },
  {
    name: 'replica 12 -> 24, aggregated 6:6:20',
    strategy: 'Aggregated',
    free: 'member1=6 member2=6 member3=20',
    previous: 'member1=4 member2=8',
    replicas: 24,
    wants: ['member1=10 member2=14'],
  },
  {
    name: 'replica 12 -> 24, aggregated 1:1:1 lacks capacity',
    strategy: 'Aggregated',
    free: 'member1=1 member2=1 member3=1',
    previous: 'member1=4 member2=8',
    replicas: 24,
  },
  {
    name: 'replica 12 -> 24, aggregated 4:8:12, member2 gone and member4 new',
    strategy: 'Aggregated',
    free: 'member1=4 member3=8 member4=12',
    previous: 'member1=4 member2=8',
    replicas: 24,
    wants: ['member1=7 member3=7 member4=10'],
  },
  {
    name: 'replica 12 fresh, dynamic weight 6:8:10',
    strategy: 'DynamicWeight',
    free: 'member1=6 member2=8 member3=10',
    previous: '',
    replicas: 12,
    wants: ['member1=3 member2=4 member3=5'],
  },
  {
    name: 'replica 12 fresh, dynamic weight 8:8:10',
    strategy: 'DynamicWeight',
    free: 'member1=8 member2=8 member3=10',
    previous: '',
    replicas: 12,
    wants: ['member1=4 member2=4 member3=4'],
  },
  {
    name: 'replica 12 fresh, dynamic weight 3:3:3 lacks capacity',
    strategy: 'DynamicWeight',
    free: 'member1=3 member2=3 member3=3',
    previous: '',
    replicas: 12,
  },
  {
    name: 'replica 12 fresh, aggregated 6:8:10',
    strategy: 'Aggregated',
    free: 'member1=6 member2=8 member3=10',
    previous: '',
    replicas: 12,
    wants: ['member2=5 member3=7'],
  },
  {
    name: 'replica 12 fresh, aggregated 12:8:10',
    strategy: 'Aggregated',
    free: 'member1=12 member2=8 member3=10',
    previous: '',
    replicas: 12,
    wants: ['member1=12'],
  },
  {
    name: 'replica 12 fresh, aggregated 3:3:3 lacks capacity',
    strategy: 'Aggregated',
    free: 'member1=3 member2=3 member3=3',
    previous: '',
    replicas: 12,
  },
  {
    name: 'replica 12, dynamic 3:3, member3 gone and member2 new',
    strategy: 'DynamicWeight',
    free: 'member1=3 member2=3',
    previous: 'member1=6 member3=6',
    replicas: 12,
    wants: ['member1=9 member2=3'],
  },
];
for (const c of steadyCases) {
  test(`steady ${c.strategy}: ${c.name}`, () => {
    const candidates = targets(c.free).map((t) => candidate(t.name, t.replicas));
    const got = assignDynamically(c.strategy, {
      candidates,
      replicas: c.replicas,
      previous: targets(c.previous),
      uid: '',
      mode: 'Steady',
    });
    if (!c.wants) {
      assert.is(got.ok, false);
      if (!got.ok) assert.is(got.status, 'Unschedulable');
      return;
    }
    assert.ok(got.ok);
    if (got.ok) {
      const value = removeZeroReplicas(got.value);
      assert.ok(
        c.wants.some((w) => sameTargets(value, targets(w))),
        `got ${show(value)}, want ${c.wants.join(' | ')}`,
      );
    }
  });
}

test('steady: the same total keeps the previous result on the remaining candidates', () => {
  const got = assignDynamically('DynamicWeight', {
    candidates: [candidate('a', 5), candidate('b', 5)],
    replicas: 4,
    previous: targets('a=1 b=3'),
    uid: '',
    mode: 'Steady',
  });
  assert.equal(got, { ok: true, value: targets('a=1 b=3') });
});

test('fresh mode re-divides everything by free plus held replicas', () => {
  // a holds 6 and has 0 free, b has 6 free: weights 6:6 -> 4 replicas split 2:2, ignoring the previous 6 on a.
  const got = assignDynamically('DynamicWeight', {
    candidates: [candidate('a', 0), candidate('b', 6)],
    replicas: 4,
    previous: targets('a=6'),
    uid: '',
    mode: 'Fresh',
  });
  assert.ok(got.ok);
  if (got.ok) assert.ok(sameTargets(removeZeroReplicas(got.value), targets('a=2 b=2')), show(got.value));
});

// Karmada assignment_test.go (Test_assignByDuplicatedStrategy).
test('duplicated: every candidate gets all replicas', () => {
  assert.equal(assignDuplicated([candidate('member1'), candidate('member2')], 2), targets('member1=2 member2=2'));
  assert.equal(assignDuplicated([], 2), []);
  assert.equal(assignDuplicated([candidate('member1'), candidate('member2')], 0), targets('member1=0 member2=0'));
});

test('assignReplicas: no candidates is a scheduler error', () => {
  const got = assignReplicas([], request({}, 2));
  assert.equal(got, { ok: false, status: 'SchedulerError', message: 'no clusters available to schedule' });
});

test('assignReplicas: a non-workload gets every candidate with 0 replicas, whatever the strategy', () => {
  const got = assignReplicas([candidate('a'), candidate('b')], request(DYNAMIC, 0));
  assert.ok(got.ok);
  if (got.ok) assert.equal(got.value.clusters, targets('a=0 b=0'));
});

test('assignReplicas: Divided without a division preference schedules no workload, as newAssignState picks no strategy', () => {
  // What a replicaSchedulingType written "" is stored as (the webhook gives it no Weighted preference).
  const divided = { replicaScheduling: { replicaSchedulingType: 'Divided' as const } };
  const got = assignReplicas([candidate('a', 5)], request(divided, 2));
  assert.equal(got, {
    ok: false,
    status: 'SchedulerError',
    message:
      'unsupported replica scheduling strategy, replicaSchedulingType: Divided, replicaDivisionPreference: , please try another scheduling strategy',
  });
  const nonWorkload = assignReplicas([candidate('a'), candidate('b')], request(divided, 0));
  assert.ok(nonWorkload.ok);
});

test('assignReplicas: capacity shortage in steady scale-up is Unschedulable (Karmada test on UnschedulableError)', () => {
  const got = assignReplicas([candidate('member1', 3)], request(DYNAMIC, 10));
  assert.is(got.ok, false);
  if (!got.ok) assert.is(got.status, 'Unschedulable');
});

test('assignReplicas: aggregated from scratch fills the biggest cluster first', () => {
  const got = assignReplicas([candidate('a', 3), candidate('b', 10)], request(AGGREGATED, 5));
  assert.ok(got.ok);
  if (got.ok) assert.equal(got.value.clusters, targets('b=5'));
});

test('assignReplicas: overflow tiers fill the primary tier to capacity, then the next', () => {
  const placement = {
    clusterAffinities: [
      { affinityName: 'primary', clusterNames: ['a'], overflowAffinities: [{ clusterNames: ['b'] }] },
    ],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const candidates = [candidate('a', 3), candidate('b', 10, { overflowOrder: 1 })];
  const got = assignReplicas(candidates, request(placement, 5), 'primary');
  assert.ok(got.ok);
  if (got.ok) assert.equal(got.value.clusters, targets('a=3 b=2'));
  const short = assignReplicas(candidates, request(placement, 20), 'primary');
  assert.is(short.ok, false);
  if (!short.ok) assert.is(short.status, 'Unschedulable');
});

test.run();
