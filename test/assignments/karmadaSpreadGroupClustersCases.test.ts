// Grouping scored clusters for spread constraints, on Karmada's own cases:
// pkg/scheduler/core/spreadconstraint/group_clusters_test.go (Test_GroupClustersWithScore, Test_CalcGroupScore,
// Test_CalcGroupScoreForDuplicate).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement, SpreadConstraint } from '../../src/api/policy.ts';
import { buildCandidates, calcGroupScore, groupByRegion } from '../../src/assignments/selectClusters.ts';
import type { CandidateCluster } from '../../src/assignments/types.ts';
import { candidate, cluster, request } from './helpers.ts';

// ---- Test_GroupClustersWithScore: four clusters over two providers, two regions and two zones ----

const topology = (name: string, provider: string, region: string, zone: string) =>
  cluster(name, { provider, region, zones: [zone] });

const scored = [
  { cluster: topology('member1', 'P1', 'R1', 'Z1'), score: 20 },
  { cluster: topology('member2', 'P1', 'R1', 'Z2'), score: 40 },
  { cluster: topology('member3', 'P2', 'R1', 'Z1'), score: 30 },
  { cluster: topology('member4', 'P2', 'R2', 'Z2'), score: 60 },
];

const one = (spreadByField: SpreadConstraint['spreadByField']): SpreadConstraint => ({
  spreadByField,
  minGroups: 1,
  maxGroups: 1,
});

const grouping: { name: string; constraints?: SpreadConstraint[]; regions?: number }[] = [
  { name: 'no spread constraints' },
  { name: 'a cluster spread constraint', constraints: [one('cluster')] },
  { name: 'a zone spread constraint', constraints: [one('zone')] },
  { name: 'a region spread constraint', constraints: [one('region')], regions: 2 },
  { name: 'a provider spread constraint', constraints: [one('provider')] },
  {
    name: 'provider, region and zone spread constraints',
    constraints: [one('provider'), one('region'), one('zone')],
    regions: 2,
  },
];

for (const c of grouping) {
  test(`candidates are sorted by score, highest first, with ${c.name}`, () => {
    const placement: Placement = c.constraints ? { spreadConstraints: c.constraints } : {};
    const candidates = buildCandidates(scored, request(placement, 0));
    assert.equal(
      candidates.map((x) => x.name),
      ['member4', 'member2', 'member3', 'member1'],
    );
    if (c.regions !== undefined) {
      const regions = groupByRegion(candidates, placement, 0);
      assert.is(regions.length, c.regions);
      // Each region keeps the candidate order.
      assert.equal(
        regions.map((r) => [r.name, r.clusters.map((x) => x.name)]),
        [
          ['R2', ['member4']],
          ['R1', ['member2', 'member3', 'member1']],
        ],
      );
    }
  });
}

// ---- Test_CalcGroupScore: which of two groups of five clusters scores higher ----

function group(scores: number[], available: number[]): CandidateCluster[] {
  return scores.map((score, i) =>
    candidate(`member${i + 1}`, available[i], { score, availableReplicas: available[i] as number }),
  );
}

const strategies: Record<string, Placement> = {
  duplicated: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
  aggregated: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
  dynamicWeight: {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { dynamicWeight: 'AvailableReplicas' },
    },
  },
  staticWeight: {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { staticWeightList: [] },
    },
  },
};

const HIGH = [100, 100, 100, 100, 100];
const MIXED = [100, 100, 0, 0, 0];
const comparisons: {
  name: string;
  first: CandidateCluster[];
  second: CandidateCluster[];
  strategy: keyof typeof strategies;
  replicas: number;
  minGroups: number;
  firstWins: boolean;
}[] = [
  {
    name: 'duplicated: more clusters that hold every replica beat a higher mean score',
    first: group(MIXED, [30, 30, 30, 30, 30]),
    second: group(HIGH, [30, 30, 30, 10, 10]),
    strategy: 'duplicated',
    replicas: 20,
    minGroups: 0,
    firstWins: true,
  },
  {
    name: 'duplicated: as many clusters that hold every replica, the higher mean score wins',
    first: group(MIXED, [30, 30, 30, 10, 10]),
    second: group(HIGH, [30, 30, 30, 10, 10]),
    strategy: 'duplicated',
    replicas: 20,
    minGroups: 0,
    firstWins: false,
  },
  {
    name: 'aggregated: a group that holds its share beats one that does not',
    first: group(MIXED, [30, 30, 30, 10, 10]),
    second: group(HIGH, [10, 10, 10, 5, 5]),
    strategy: 'aggregated',
    replicas: 100,
    minGroups: 2,
    firstWins: true,
  },
  {
    name: 'dynamic weight: neither holds its share, the one holding more wins',
    first: group(MIXED, [10, 10, 10, 10, 5]),
    second: group(HIGH, [10, 10, 10, 5, 5]),
    strategy: 'dynamicWeight',
    replicas: 100,
    minGroups: 2,
    firstWins: true,
  },
  {
    name: 'static weight: holding as many, the higher mean score wins',
    first: group(MIXED, [10, 10, 10, 5, 5]),
    second: group(HIGH, [10, 10, 10, 5, 5]),
    strategy: 'staticWeight',
    replicas: 100,
    minGroups: 2,
    firstWins: false,
  },
  {
    name: 'aggregated: both hold their share, the higher score wins over more capacity',
    first: group([0, 0, 0, 0, 0], [100, 100, 100, 100, 100]),
    second: group(HIGH, [50, 50, 50, 50, 50]),
    strategy: 'aggregated',
    replicas: 100,
    minGroups: 2,
    firstWins: false,
  },
];

for (const c of comparisons) {
  test(`group score: ${c.name}`, () => {
    const placement = strategies[c.strategy] as Placement;
    const first = calcGroupScore(c.first, placement, c.replicas, c.minGroups);
    const second = calcGroupScore(c.second, placement, c.replicas, c.minGroups);
    assert.is(first >= second, c.firstWins, `first ${first}, second ${second}`);
  });
}

// ---- Test_CalcGroupScoreForDuplicate ----

test('duplicated group score: an empty group scores 0', () => {
  assert.is(calcGroupScore([], {}, 10, 0), 0);
});

test('duplicated group score: a group where no cluster holds every replica scores 0', () => {
  const short = [
    candidate('member1', 5, { score: 50, availableReplicas: 5 }),
    candidate('member2', 5, { score: 50, availableReplicas: 5 }),
  ];
  assert.is(calcGroupScore(short, {}, 10, 0), 0);
});

test.run();
