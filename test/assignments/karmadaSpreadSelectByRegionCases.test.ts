// Selecting clusters by a region spread constraint, on Karmada's own cases:
// pkg/scheduler/core/spreadconstraint/select_clusters_by_region_test.go (Test_selectBestClustersByRegion).
//
// Karmada's cases hand each region a score; Flotilla always computes it (Karmada's calcGroupScore). Here every
// cluster has no free capacity and the placement is Aggregated with 1 replica, so a region scores the mean of its
// cluster scores (no region holds its share: 0 x 1000 + mean), which ranks the regions as each case's given
// scores do. Selecting by region does not look at capacity, so the selected clusters are Karmada's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { groupByRegion, selectBestClusters, sortCandidates } from '../../src/assignments/selectClusters.ts';
import type { CandidateCluster } from '../../src/assignments/types.ts';
import { candidate, cluster } from './helpers.ts';

/** Clusters as name:region:score. */
function candidates(spec: string): CandidateCluster[] {
  return sortCandidates(
    spec
      .split(/\s+/)
      .filter(Boolean)
      .map((entry) => {
        const [name = '', region = '', score = '0'] = entry.split(':');
        return candidate(name, 0, {
          score: Number(score),
          cluster: cluster(name, { provider: 'P1', region, zones: ['Z1'] }),
        });
      }),
  );
}

function placement(region: [number, number], clusters: [number, number]): Placement {
  return {
    spreadConstraints: [
      { spreadByField: 'region', minGroups: region[0], maxGroups: region[1] },
      { spreadByField: 'cluster', minGroups: clusters[0], maxGroups: clusters[1] },
    ],
    replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
  };
}

const TWO_REGIONS = 'member1:R1:100 member2:R1:80 member3:R2:80 member4:R2:80 member5:R2:60';

const cases: {
  name: string;
  clusters: string;
  region: [number, number];
  cluster: [number, number];
  want?: string[];
  error?: RegExp;
}[] = [
  {
    name: 'one region of two with the higher score gives both its clusters',
    clusters: TWO_REGIONS,
    region: [1, 1],
    cluster: [2, 2],
    want: ['member1', 'member2'],
  },
  {
    name: 'the only region with enough clusters is chosen over a higher-scored one',
    clusters: TWO_REGIONS,
    region: [1, 1],
    cluster: [3, 3],
    want: ['member3', 'member4', 'member5'],
  },
  {
    name: 'two regions holding enough clusters with the highest total score',
    clusters:
      'member1:R1:90 member2:R2:70 member3:R2:60 member4:R2:30 member5:R3:80 member6:R3:50 ' +
      'member7:R4:50 member8:R4:40 member9:R4:10 member10:R4:0',
    region: [2, 2],
    cluster: [4, 5],
    want: ['member1', 'member2', 'member3', 'member4'],
  },
  {
    name: 'more regions than minGroups when fewer cannot hold the cluster minGroups',
    clusters:
      'member1:R1:70 member2:R2:40 member3:R2:40 member4:R2:40 member5:R3:60 member6:R3:50 member7:R4:70 member8:R5:50',
    region: [1, 3],
    cluster: [6, 8],
    // The best cluster of each chosen region first, then the rest by score.
    want: ['member1', 'member5', 'member2', 'member6', 'member3', 'member4'],
  },
  {
    name: 'fewer regions than the region minGroups',
    clusters: TWO_REGIONS,
    region: [3, 3],
    cluster: [3, 3],
    error: /^the number of feasible region is less than spreadConstraint.MinGroups: .*fewer than minGroups 3/,
  },
  {
    name: 'no region combination holds the cluster minGroups',
    clusters: TWO_REGIONS,
    region: [1, 1],
    cluster: [4, 4],
    error:
      /^the number of clusters is less than the cluster spreadConstraint.MinGroups: .*hold the cluster minGroups 4/,
  },
  {
    name: 'a single region with too few clusters and none to add',
    clusters: 'member1:R1:100 member2:R1:80',
    region: [1, 1],
    cluster: [3, 4],
    error:
      /^the number of clusters is less than the cluster spreadConstraint.MinGroups: .*hold the cluster minGroups 3/,
  },
];

for (const c of cases) {
  test(`spread by region: ${c.name}`, () => {
    const list = candidates(c.clusters);
    const p = placement(c.region, c.cluster);
    const got = selectBestClusters(p, list, 1);
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

test('spread by region: without free capacity a region scores the mean of its cluster scores', () => {
  const regions = groupByRegion(candidates(TWO_REGIONS), placement([1, 1], [2, 2]), 1);
  assert.equal(
    regions.map((r) => [r.name, r.score]),
    [
      ['R1', 90],
      ['R2', 73],
    ],
  );
});

test.run();
