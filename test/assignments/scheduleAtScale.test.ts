import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { AGGREGATED, DYNAMIC, cluster, clusterWithPods, request } from './helpers.ts';

// A pull request decides replicas, weights and spread; none of them may make one scheduling pass slow. No clock here:
// the work is bounded by counts (divideByWebsterAtScale.test.ts counts the division's comparisons, selectGroups.test.ts
// the spread search's steps), and a division done seat by seat would not finish these 2147483647 replicas for minutes.
const INT32_MAX = 2147483647;
const names = Array.from({ length: 500 }, (_, i) => `member-${String(i).padStart(3, '0')}`);

const divided: [string, Placement, () => ReturnType<typeof cluster>[]][] = [
  [
    'static weights',
    {
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: {
          staticWeightList: names.map((n, i) => ({ targetCluster: { clusterNames: [n] }, weight: 1 + (i % 7) })),
        },
      },
    },
    () => names.map((n) => cluster(n)),
  ],
  ['dynamic weights by free capacity', DYNAMIC, () => names.map((n, i) => clusterWithPods(n, INT32_MAX - i))],
  ['aggregated', AGGREGATED, () => names.map((n, i) => clusterWithPods(n, 5_000_000 + i))],
];
for (const [name, placement, clusters] of divided) {
  test(`${INT32_MAX} replicas divided over 500 clusters (${name}) are scheduled in full`, () => {
    const members = clusters();
    const result = schedule(request(placement, INT32_MAX), members);
    assert.is(result.status, 'Scheduled', result.message);
    assert.is(
      result.clusters.reduce((s, tc) => s + tc.replicas, 0),
      INT32_MAX,
    );
  });
}

test('a region spread over 28 regions too large to search is refused with a scheduling reason naming the search budget', () => {
  const members = Array.from({ length: 28 }, (_, i) =>
    cluster(`member-${String(i).padStart(2, '0')}`, { region: `region-${String(i).padStart(2, '0')}` }),
  );
  const placement: Placement = {
    ...AGGREGATED,
    spreadConstraints: [
      { spreadByField: 'region', minGroups: 1, maxGroups: 28 },
      { spreadByField: 'cluster', minGroups: 14, maxGroups: 28 },
    ],
  };
  const result = schedule(request(placement, 28), members);
  assert.is(result.status, 'SchedulerError', result.message);
  assert.match(
    result.message,
    /spread constraint region: choosing 1\.\.28 of 28 regions .* more than 200000 search steps/,
  );
  assert.match(result.message, /lower the region maxGroups/);
});

test('a region spread over 28 regions with a small maxGroups is still scheduled', () => {
  const members = Array.from({ length: 28 }, (_, i) =>
    cluster(`member-${String(i).padStart(2, '0')}`, { region: `region-${String(i).padStart(2, '0')}` }),
  );
  const placement: Placement = {
    ...DYNAMIC,
    spreadConstraints: [
      { spreadByField: 'region', minGroups: 1, maxGroups: 3 },
      { spreadByField: 'cluster', minGroups: 3, maxGroups: 3 },
    ],
  };
  const result = schedule(request(placement, 6), members);
  assert.is(result.status, 'Scheduled', result.message);
  assert.equal(
    result.clusters.map((tc) => tc.replicas),
    [2, 2, 2],
  );
});

test('replicas beyond int32 (from a replicaResource customization) are unschedulable with a reason, not divided', () => {
  const result = schedule(
    request(DYNAMIC, 1e12),
    names.slice(0, 3).map((n) => cluster(n)),
  );
  assert.is(result.status, 'Unschedulable');
  assert.match(result.message, /replicas 1000000000000 is not a whole number from 0 to 2147483647/);
});

test.run();
