import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { needsReschedule, placementChanged } from '../../src/assignments/needsReschedule.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { AGGREGATED, DYNAMIC, cluster, clusterWithPods, request, targets } from './helpers.ts';

// karmada-samples/nginx/propagationpolicy.yaml
const nginxPlacement: Placement = {
  clusterAffinity: { clusterNames: ['member1', 'member2'] },
  replicaScheduling: {
    replicaDivisionPreference: 'Weighted',
    replicaSchedulingType: 'Divided',
    weightPreference: {
      staticWeightList: [
        { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
        { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
      ],
    },
  },
};
const members = [cluster('member1'), cluster('member2'), cluster('member3')];

test('without candidate reasons a result is the same with only its filtered clusters explained; a failure keeps them all', () => {
  const full = schedule(request(nginxPlacement, 2), members);
  const lean = schedule({ ...request(nginxPlacement, 2), candidateReasons: false }, members);
  assert.equal(lean, { ...full, explanation: full.explanation.filter((e) => e.outcome === 'filtered') });
  assert.equal(
    lean.explanation.map((e) => e.cluster),
    ['member3'],
  );
  // Not enough capacity: Unschedulable, and every candidate keeps its reason (the problem shows them).
  const small = [clusterWithPods('a', 1), clusterWithPods('b', 1)];
  const scaleUp = () => request(DYNAMIC, 10, targets('a=2 b=2'), { previousPlacement: JSON.stringify(DYNAMIC) });
  const failedFull = schedule(scaleUp(), small);
  assert.is(failedFull.status, 'Unschedulable');
  assert.ok(failedFull.explanation.some((e) => e.outcome !== 'filtered'));
  assert.equal(schedule({ ...scaleUp(), candidateReasons: false }, small), failedFull);
});

test('nginx sample: static 1:1 over member1/member2 puts 1 replica on each and explains member3', () => {
  const result = schedule(request(nginxPlacement, 2), members);
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('member1=1 member2=1'));
  const m3 = result.explanation.find((e) => e.cluster === 'member3');
  assert.equal(m3, {
    cluster: 'member3',
    outcome: 'filtered',
    plugin: 'ClusterAffinity',
    reason: 'cluster(s) did not match the placement cluster affinity constraint',
    detail: 'not in clusterNames',
  });
  const m1 = result.explanation.find((e) => e.cluster === 'member1');
  assert.ok(
    m1 && m1.outcome === 'selected' && m1.why === 'static weight 1 of 2' && m1.replicas === 1,
    JSON.stringify(m1),
  );
});

test('nginx sample: same replicas and same applied placement is left Unchanged', () => {
  const previous = targets('member1=1 member2=1');
  const result = schedule(
    request(nginxPlacement, 2, previous, { previousPlacement: JSON.stringify(nginxPlacement) }),
    members,
  );
  assert.is(result.status, 'Unchanged');
  assert.equal(result.clusters, previous);
});

test('nginx sample: scaling to 3 recomputes static weights from scratch', () => {
  const previous = targets('member1=1 member2=1');
  const result = schedule(
    request(nginxPlacement, 3, previous, { previousPlacement: JSON.stringify(nginxPlacement) }),
    members,
  );
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('member1=2 member2=1'));
});

test('static weighting ties follow the UID: an odd FNV hash gives the extra replica to the larger name', () => {
  const uid = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';
  const req = request(nginxPlacement, 3);
  req.resource.uid = uid;
  assert.equal(schedule(req, members).clusters, targets('member1=1 member2=2'));
});

test("no cluster fits: clusters are cleared, the message is Karmada's FitError and the detail names every cluster", () => {
  const placement: Placement = { clusterAffinity: { clusterNames: ['member2'] } };
  const clusters = [
    cluster('member2', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
    cluster('member3'),
  ];
  const result = schedule(request(placement, 1, targets('member9=1')), clusters);
  assert.is(result.status, 'NoClusterFit');
  assert.equal(result.clusters, []);
  assert.is(
    result.message,
    '0/2 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint, 1 cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}.',
  );
  assert.is(
    result.detail,
    'no cluster fits: member2 TaintToleration: cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}; member3 ClusterAffinity: not in clusterNames',
  );
});

test("a no-fit message counts each reason and sorts the counts as Go's sort.Strings does", () => {
  const clusters = Array.from({ length: 12 }, (_, i) =>
    cluster(`m${i}`, i < 2 ? { taints: [{ key: 'k', effect: 'NoSchedule' }] } : {}),
  );
  const result = schedule(request({ clusterAffinity: { clusterNames: ['m0', 'm1'] } }, 1), clusters);
  assert.is(
    result.message,
    '0/12 clusters are available: 10 cluster(s) did not match the placement cluster affinity constraint, 2 cluster(s) had untolerated taint {k:NoSchedule}.',
  );
  assert.is(schedule(request({}, 1), []).message, '0/0 clusters are available: no cluster exists.');
});

test('a failed selection or assignment is worded as Karmada wraps it, naming the step', () => {
  const small = [clusterWithPods('a', 2), clusterWithPods('b', 2)];
  const placement: Placement = {
    replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
  };
  const up = schedule(request(placement, 9, targets('a=1')), small);
  assert.is(up.status, 'Unschedulable');
  assert.is(
    up.message,
    'failed to assign replicas: failed to scale up: Clusters available replicas 4 are not enough to schedule.',
  );
  const fresh = schedule(request(placement, 9, targets('a=1'), { reschedule: true }), small);
  assert.is(
    fresh.message,
    'failed to assign replicas: failed to do fresh scale: Clusters available replicas 5 are not enough to schedule.',
  );
  const spread = schedule(
    request({ spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 3 }] }, 1),
    small,
  );
  assert.is(
    spread.message,
    'failed to select clusters: the number of feasible clusters is less than spreadConstraint.MinGroups',
  );
});

test('duplicated (nil replicaScheduling) is scheduled on every pass and picks up new clusters', () => {
  const placement: Placement = {};
  const result = schedule(
    request(placement, 3, targets('member1=3'), { previousPlacement: JSON.stringify(placement) }),
    members,
  );
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('member1=3 member2=3 member3=3'));
});

test('a tainted cluster already in the result keeps its workload; new tainted clusters are refused', () => {
  const tainted = { taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' as const }] };
  const clusters = [cluster('member1', tainted), cluster('member2', tainted)];
  const result = schedule(request({}, 2, targets('member1=2')), clusters);
  assert.equal(result.clusters, targets('member1=2'));
  const m2 = result.explanation.find((e) => e.cluster === 'member2');
  assert.is(m2?.outcome, 'filtered');
});

test('non-workload (replicas 0): every candidate with 0 replicas, even when Divided', () => {
  const result = schedule(request(DYNAMIC, 0), members);
  assert.equal(result.clusters, targets('member1=0 member2=0 member3=0'));
});

test('a workload at 0 replicas with replica requirements is placed on no cluster, whatever the strategy', () => {
  // Karmada's AssignReplicas divides it as a workload and drops every cluster assigned 0 replicas.
  for (const placement of [{}, nginxPlacement, DYNAMIC, AGGREGATED]) {
    const result = schedule(request(placement, 0, [], { replicaRequirements: true }), members);
    assert.is(result.status, 'Scheduled', JSON.stringify(placement));
    assert.equal(result.clusters, [], JSON.stringify(placement));
    assert.match(result.message, /a workload at 0 replicas is placed on no cluster/);
  }
  const duplicated = schedule(request({}, 0, [], { replicaRequirements: true }), members);
  assert.equal(
    duplicated.explanation.map((e) => e.outcome === 'filtered' || [e.outcome, e.why]),
    members.map(() => ['notSelected', 'duplicated: 0 replicas, so left out']),
  );
});

test('scaling a workload with replica requirements to 0 takes it off the clusters it held', () => {
  const dynamic = request(DYNAMIC, 0, targets('member1=2 member2=1'), {
    previousPlacement: JSON.stringify(DYNAMIC),
    replicaRequirements: true,
  });
  assert.equal(schedule(dynamic, members).clusters, []);
  const dup = request({}, 0, targets('member1=2 member2=2'), { previousPlacement: '{}', replicaRequirements: true });
  assert.equal(schedule(dup, members).clusters, []);
});

test('dynamic weight: first schedule divides by free capacity', () => {
  const clusters = [clusterWithPods('a', 6), clusterWithPods('b', 8), clusterWithPods('c', 10)];
  const result = schedule(request(DYNAMIC, 12), clusters);
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('a=3 b=4 c=5'));
});

test('dynamic weight steady scale-up adds the delta by free capacity on top of the previous result', () => {
  const clusters = [clusterWithPods('a', 10), clusterWithPods('b', 10), clusterWithPods('c', 10)];
  const result = schedule(
    request(DYNAMIC, 24, targets('a=2 b=4 c=6'), { previousPlacement: JSON.stringify(DYNAMIC) }),
    clusters,
  );
  assert.equal(result.clusters, targets('a=6 b=8 c=10'));
});

test('dynamic weight steady scale-down re-splits by previous replicas', () => {
  const clusters = [clusterWithPods('a', 1), clusterWithPods('b', 1), clusterWithPods('c', 1)];
  const result = schedule(
    request(DYNAMIC, 6, targets('a=2 b=4 c=6'), { previousPlacement: JSON.stringify(DYNAMIC) }),
    clusters,
  );
  assert.equal(result.clusters, targets('a=1 b=2 c=3'));
});

test('not enough capacity is Unschedulable and keeps the previous result', () => {
  const clusters = [clusterWithPods('a', 1), clusterWithPods('b', 1)];
  const previous = targets('a=2 b=2');
  const result = schedule(request(DYNAMIC, 10, previous, { previousPlacement: JSON.stringify(DYNAMIC) }), clusters);
  assert.is(result.status, 'Unschedulable');
  assert.equal(result.clusters, previous);
  assert.match(result.message, /not enough/);
});

test('divided workloads are not redistributed when a cluster joins', () => {
  const previous = targets('a=2');
  const result = schedule(request(AGGREGATED, 2, previous, { previousPlacement: JSON.stringify(AGGREGATED) }), [
    clusterWithPods('a', 5),
    clusterWithPods('b', 50),
  ]);
  assert.is(result.status, 'Unchanged');
  assert.equal(result.clusters, previous);
});

test('an explicit reschedule switches to fresh mode', () => {
  const result = schedule(
    request(AGGREGATED, 2, targets('a=2'), { previousPlacement: JSON.stringify(AGGREGATED), reschedule: true }),
    [clusterWithPods('a', 0), clusterWithPods('b', 50)],
  );
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('b=2'));
});

// clusterAffinities: ordered fallback.
const terms: Placement = {
  clusterAffinities: [
    { affinityName: 'local', clusterNames: ['local1'] },
    { affinityName: 'cloud', clusterNames: ['cloud1'] },
  ],
};

test('clusterAffinities: the first term that fits wins and is reported', () => {
  const result = schedule(request(terms, 1), [cluster('local1'), cluster('cloud1')]);
  assert.is(result.affinityName, 'local');
  assert.equal(result.clusters, targets('local1=1'));
});

test('clusterAffinities: falls over to the next term when the first does not fit', () => {
  const result = schedule(request(terms, 1), [cluster('cloud1')]);
  assert.is(result.status, 'Scheduled');
  assert.is(result.affinityName, 'cloud');
  assert.equal(result.clusters, targets('cloud1=1'));
  assert.match(result.message, /after affinity term local: no cluster fits/);
});

test('clusterAffinities: never moves back to an earlier term by itself', () => {
  const result = schedule(request(terms, 1, targets('cloud1=1'), { observedAffinityName: 'cloud' }), [
    cluster('local1'),
    cluster('cloud1'),
  ]);
  assert.is(result.affinityName, 'cloud');
  assert.equal(result.clusters, targets('cloud1=1'));
});

test('clusterAffinities: an explicit reschedule restarts at the first term', () => {
  const result = schedule(request(terms, 1, targets('cloud1=1'), { observedAffinityName: 'cloud', reschedule: true }), [
    cluster('local1'),
    cluster('cloud1'),
  ]);
  assert.is(result.affinityName, 'local');
  assert.equal(result.clusters, targets('local1=1'));
});

test('clusterAffinities: every term failing with no fit clears the clusters and keeps the observed term', () => {
  const result = schedule(request(terms, 1, targets('cloud1=1'), { observedAffinityName: 'cloud' }), [
    cluster('other'),
  ]);
  assert.is(result.status, 'NoClusterFit');
  assert.equal(result.clusters, []);
  assert.is(result.affinityName, 'cloud');
});

test('clusterAffinities: a first failure for capacity keeps the previous result', () => {
  const placement: Placement = { ...terms, replicaScheduling: DYNAMIC.replicaScheduling };
  const previous = targets('local1=1');
  const result = schedule(request(placement, 5, previous, { observedAffinityName: 'local' }), [
    clusterWithPods('local1', 1),
  ]);
  assert.is(result.status, 'Unschedulable');
  assert.equal(result.clusters, previous);
});

test('overflowAffinities: the primary tier fills to capacity, the overflow tier takes the rest', () => {
  const placement: Placement = {
    clusterAffinities: [
      { affinityName: 'primary', clusterNames: ['onprem'], overflowAffinities: [{ clusterNames: ['cloud'] }] },
    ],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const result = schedule(request(placement, 10), [clusterWithPods('onprem', 4), clusterWithPods('cloud', 100)]);
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('cloud=6 onprem=4'));
  const cloud = result.explanation.find((e) => e.cluster === 'cloud');
  assert.ok(cloud && cloud.outcome === 'selected' && cloud.why.includes('overflow tier 1'), JSON.stringify(cloud));
});

// Spread constraints.
const regional = [
  clusterWithPods('eu1', 10, { region: 'eu' }),
  clusterWithPods('eu2', 20, { region: 'eu' }),
  clusterWithPods('us1', 30, { region: 'us' }),
  clusterWithPods('us2', 5, { region: 'us' }),
  clusterWithPods('nowhere', 50),
];

test('spread by region: one cluster per region, the best of each, clusters without a region filtered', () => {
  const placement: Placement = {
    spreadConstraints: [
      { spreadByField: 'region', minGroups: 2, maxGroups: 2 },
      { spreadByField: 'cluster', minGroups: 2, maxGroups: 2 },
    ],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const result = schedule(request(placement, 10), regional);
  assert.is(result.status, 'Scheduled', result.message);
  assert.equal(
    result.clusters.map((c) => c.name),
    ['eu2', 'us1'],
  );
  assert.is(result.explanation.find((e) => e.cluster === 'nowhere')?.outcome, 'filtered');
  const eu2 = result.explanation.find((e) => e.cluster === 'eu2');
  assert.ok(eu2 && eu2.outcome === 'selected' && eu2.why.includes('spread group region=eu'), JSON.stringify(eu2));
});

test('spread by region: too few regions is a scheduler error that keeps the previous result', () => {
  const placement: Placement = {
    spreadConstraints: [
      { spreadByField: 'region', minGroups: 3, maxGroups: 3 },
      { spreadByField: 'cluster', minGroups: 3, maxGroups: 3 },
    ],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const result = schedule(request(placement, 4, targets('eu1=4')), regional);
  assert.is(result.status, 'SchedulerError');
  assert.equal(result.clusters, targets('eu1=4'));
});

test('spread by cluster: duplicated picks maxGroups clusters by available capacity, ignoring the amount needed', () => {
  const placement: Placement = { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }] };
  const result = schedule(request(placement, 3), regional);
  assert.equal(result.clusters, targets('nowhere=3 us1=3'));
});

test('spread by cluster: divided swaps in a bigger cluster when the chosen ones lack capacity', () => {
  const clusters = [clusterWithPods('a', 3), clusterWithPods('b', 2), clusterWithPods('c', 1)];
  // previous on c gives it score 100 so it sorts first, but c+a (1+1 held +3) cannot hold 8: b is not bigger
  // than a, so the selection fails; with 5 needed, c and a suffice.
  const placement: Placement = {
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }],
    replicaScheduling: DYNAMIC.replicaScheduling,
  };
  const ok = schedule(request(placement, 5, targets('c=1'), { reschedule: true }), clusters);
  assert.equal(
    ok.clusters.map((c) => c.name),
    ['a', 'c'],
  );
  const short = schedule(request(placement, 8, targets('c=1'), { reschedule: true }), clusters);
  assert.is(short.status, 'SchedulerError');
  assert.is(short.message, 'failed to select clusters: no enough resource when selecting 2 clusters');
  assert.match(short.detail ?? '', /not enough capacity/);
});

test('spread constraints are ignored for static weighting', () => {
  const placement: Placement = {
    ...nginxPlacement,
    clusterAffinity: {},
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 1 }],
  };
  const result = schedule(request(placement, 2), members);
  assert.equal(result.clusters, targets('member1=1 member2=1'));
});

// When to schedule (doScheduleBinding).
test('needsReschedule: the reasons Karmada schedules a binding', () => {
  const applied = JSON.stringify(nginxPlacement);
  const prev = targets('member1=1 member2=1');
  assert.is(needsReschedule(request(nginxPlacement, 2, prev), members), 'PlacementChanged');
  assert.is(
    needsReschedule(request(nginxPlacement, 3, prev, { previousPlacement: applied }), members),
    'ReplicasChanged',
  );
  assert.is(
    needsReschedule(request(nginxPlacement, 2, prev, { previousPlacement: applied, reschedule: true }), members),
    'RescheduleTriggered',
  );
  assert.is(needsReschedule(request(nginxPlacement, 2, prev, { previousPlacement: applied }), members), undefined);
  assert.is(
    needsReschedule(request(nginxPlacement, 2, prev, { previousPlacement: applied }), [cluster('member1')]),
    'TargetClusterGone',
  );
  const dup: Placement = { replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
  assert.is(
    needsReschedule(request(dup, 2, targets('member1=3'), { previousPlacement: JSON.stringify(dup) }), members),
    'ReplicasChanged',
  );
  assert.is(
    needsReschedule(request(dup, 2, targets('member1=2'), { previousPlacement: JSON.stringify(dup) }), members),
    'AlwaysScheduled',
  );
  // Divided at 0 replicas: a non-workload is scheduled every time, a workload (it has requirements) is left alone.
  const none = { previousPlacement: applied };
  assert.is(needsReschedule(request(nginxPlacement, 0, [], none), members), 'AlwaysScheduled');
  assert.is(
    needsReschedule(request(nginxPlacement, 0, [], { ...none, replicaRequirements: true }), members),
    undefined,
  );
});

test('placementChanged: only the observed clusterAffinities term counts', () => {
  const before: Placement = {
    clusterAffinities: [
      { affinityName: 'a', clusterNames: ['x'] },
      { affinityName: 'b', clusterNames: ['y'] },
    ],
  };
  const otherTermEdited: Placement = {
    clusterAffinities: [
      { affinityName: 'a', clusterNames: ['x'] },
      { affinityName: 'b', clusterNames: ['z'] },
    ],
  };
  assert.is(placementChanged(otherTermEdited, JSON.stringify(before), 'a'), false);
  assert.is(placementChanged(otherTermEdited, JSON.stringify(before), 'b'), true);
  assert.is(placementChanged(otherTermEdited, JSON.stringify(before), undefined), true);
  assert.is(placementChanged(before, '{not json', 'a'), false);
});

test("Aggregated scale-up over more than 12 clusters keeps the equals that Go's sort puts first, as Karmada does", () => {
  // Free replicas in name order; m13 already holds 1 of the 6. Karmada sorts the free replicas with sort.Sort, which
  // past 12 elements leaves m12 (3 free) before m01 and m04 (3 free each), so the shortest prefix holding 5 more is
  // m13, m12, m01: checked with Go's own sort on these inputs.
  const free = [3, 2, 2, 3, 1, 1, 2, 1, 3, 1, 3, 3, 1];
  const clusters = free.map((pods, i) => clusterWithPods(`m${String(i + 1).padStart(2, '0')}`, pods));
  const result = schedule(
    request(AGGREGATED, 6, targets('m13=1'), { previousPlacement: JSON.stringify(AGGREGATED) }),
    clusters,
  );
  assert.is(result.status, 'Scheduled');
  assert.equal(result.clusters, targets('m01=2 m12=2 m13=2'));
});

test.run();

test('without candidate reasons a schedule decides the same and explains only the clusters filtered out', () => {
  const cases: [Placement, number][] = [
    [nginxPlacement, 2],
    [{ clusterAffinity: { clusterNames: ['member1', 'member3'] } }, 0],
    [{ replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } }, 3],
  ];
  for (const [placement, replicas] of cases) {
    const whole = schedule(request(placement, replicas), members);
    const lean = schedule(request(placement, replicas, [], { candidateReasons: false }), members);
    assert.equal({ ...lean, explanation: [] }, { ...whole, explanation: [] });
    assert.equal(
      lean.explanation,
      whole.explanation.filter((e) => e.outcome === 'filtered'),
    );
    assert.ok(whole.explanation.some((e) => e.outcome !== 'filtered'));
  }
  // A failure still names every cluster: its message and problem are made of them.
  const none: Placement = { clusterAffinity: { clusterNames: ['member9'] } };
  const failed = schedule(request(none, 1, [], { candidateReasons: false }), members);
  assert.equal(failed, schedule(request(none, 1), members));
});
