import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { calcGroupScore, selectBestClusters } from '../../src/assignments/selectClusters.ts';
import { candidate, cluster, clusterWithPods, request } from './helpers.ts';

// Karmada pkg/scheduler/core/spreadconstraint/select_clusters_test.go (TestSelectBestClusters):
// four candidates already in candidate order (score desc), name:score:available.
const infos = [
  candidate('member4', 50, {
    score: 60,
    availableReplicas: 50,
    cluster: cluster('member4', { provider: 'P2', region: 'R2', zones: ['Z2'] }),
  }),
  candidate('member2', 60, {
    score: 40,
    availableReplicas: 60,
    cluster: cluster('member2', { provider: 'P1', region: 'R1', zones: ['Z2'] }),
  }),
  candidate('member3', 80, {
    score: 30,
    availableReplicas: 80,
    cluster: cluster('member3', { provider: 'P2', region: 'R1', zones: ['Z1'] }),
  }),
  candidate('member1', 40, {
    score: 20,
    availableReplicas: 40,
    cluster: cluster('member1', { provider: 'P1', region: 'R1', zones: ['Z1'] }),
  }),
];
const AGG = { replicaSchedulingType: 'Divided' as const, replicaDivisionPreference: 'Aggregated' as const };
const byCluster = (min: number, max: number) => [{ spreadByField: 'cluster' as const, minGroups: min, maxGroups: max }];
const cases: { name: string; placement: Placement; need: number; want?: string[]; error?: RegExp }[] = [
  {
    name: 'by score (nil replicaScheduling ignores capacity)',
    placement: { spreadConstraints: byCluster(1, 2) },
    need: 100,
    want: ['member4', 'member2'],
  },
  {
    name: 'duplicated ignores capacity',
    placement: { spreadConstraints: byCluster(1, 2), replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
    need: 120,
    want: ['member4', 'member2'],
  },
  {
    name: 'static weighting ignores the spread constraint entirely',
    placement: {
      spreadConstraints: byCluster(1, 2),
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 2 }] },
      },
    },
    need: 120,
    want: ['member4', 'member2', 'member3', 'member1'],
  },
  // Karmada's cases use Divided with no preference; Flotilla applies the webhook default (Weighted, which
  // without weightPreference ignores spread), so Aggregated stands in for "capacity matters" here.
  {
    name: 'by score, swapping in capacity',
    placement: { spreadConstraints: byCluster(1, 2), replicaScheduling: AGG },
    need: 120,
    want: ['member4', 'member3'],
  },
  {
    name: 'insufficient capacity',
    placement: { spreadConstraints: byCluster(1, 2), replicaScheduling: AGG },
    need: 200,
    error: /^no enough resource when selecting 2 clusters: .*not enough capacity for 200 replicas in 2 cluster/,
  },
  {
    name: 'fewer clusters than minGroups',
    placement: { spreadConstraints: byCluster(7, 7) },
    need: 30,
    error: /^the number of feasible clusters is less than spreadConstraint.MinGroups: .*fewer than minGroups 7/,
  },
];
for (const c of cases) {
  test(`selectBestClusters: ${c.name}`, () => {
    const got = selectBestClusters(c.placement, infos, c.need);
    if (c.want) {
      assert.ok(got.ok, got.ok ? '' : got.message);
      if (got.ok)
        assert.equal(
          got.value.map((x) => x.name),
          c.want,
        );
    } else {
      assert.is(got.ok, false);
      if (!got.ok) {
        assert.is(got.status, 'SchedulerError');
        // Karmada's error, then Flotilla's account of it with the numbers.
        assert.match(`${got.message}: ${got.detail ?? ''}`, c.error as RegExp);
      }
    }
  });
}

test('selectBestClusters: an unset cluster maxGroups selects nothing (Karmada quirk)', () => {
  const got = selectBestClusters({ spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1 }] }, infos, 1);
  assert.equal(got, { ok: true, value: [] });
});

test('selectBestClusters: a divided spread without cluster maxGroups selects nothing, which is an error even for 0 replicas', () => {
  const placement: Placement = {
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1 }],
    replicaScheduling: AGG,
  };
  for (const need of [0, 5]) {
    const got = selectBestClusters(placement, infos, need);
    assert.is(got.ok, false, `${need} replicas`);
    if (!got.ok) {
      assert.is(got.status, 'SchedulerError');
      assert.is(got.message, 'no enough resource when selecting 0 clusters');
    }
  }
});

test('schedule: a workload at 0 replicas under a divided spread without cluster maxGroups fails selection, keeping its clusters', () => {
  const placement: Placement = {
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1 }],
    replicaScheduling: AGG,
  };
  const previous = [{ name: 'member1', replicas: 2 }];
  const got = schedule(request(placement, 0, previous, { replicaRequirements: true, resourceRequest: { cpu: '1' } }), [
    clusterWithPods('member1', 5),
    clusterWithPods('member2', 5),
  ]);
  assert.is(got.status, 'SchedulerError');
  assert.is(got.message, 'failed to select clusters: no enough resource when selecting 0 clusters');
  assert.equal(got.clusters, previous);
});

test('calcGroupScore: duplicated counts clusters that fit all replicas, plus their mean score', () => {
  // member3 (80) and member2 (60) hold 55: 2 * 1000 + (30 + 40) / 2.
  assert.is(calcGroupScore(infos.slice(1, 3), {}, 55, 1), 2035);
  assert.is(calcGroupScore(infos.slice(1, 3), {}, 100, 1), 0);
});

test('calcGroupScore: divided scores the replicas a group can hold toward ceil(replicas / minGroups)', () => {
  const divided: Placement = { replicaScheduling: { replicaSchedulingType: 'Divided' } };
  // target ceil(100 / 2) = 50; at least minGroups (2) clusters are counted: 50 * 1000 + (40 + 30) / 2.
  assert.is(calcGroupScore(infos.slice(1, 3), divided, 100, 2), 50035);
  // with minGroups 1, member2 alone (60) covers a target of 50: 50 * 1000 + 40.
  assert.is(calcGroupScore(infos.slice(1, 3), divided, 50, 1), 50040);
  // target 200 not reachable: (60 + 80) * 1000 + (40 + 30) / 2.
  assert.is(calcGroupScore(infos.slice(1, 3), divided, 200, 1), 140035);
});

test.run();
