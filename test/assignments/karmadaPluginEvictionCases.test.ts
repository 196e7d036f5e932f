// The ClusterEviction filter on Karmada's own cases:
// pkg/scheduler/framework/plugins/clustereviction/cluster_eviction_test.go (TestClusterEviction_Filter), and the same
// filter inside a whole scheduling cycle (generic_scheduler.go#findClustersThatFit runs every filter).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement } from '../../src/api/policy.ts';
import { clusterEviction } from '../../src/assignments/plugins/clusterEviction.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { cluster, request, show } from './helpers.ts';

const filterCases: { name: string; evicting?: string[]; code: 'Success' | 'Unschedulable' }[] = [
  // "cluster is in graceful eviction tasks"
  { name: 'a cluster named by a graceful eviction task does not fit', evicting: ['cluster1'], code: 'Unschedulable' },
  // "cluster is not in graceful eviction tasks"
  { name: 'a task for another cluster leaves this one alone', evicting: ['cluster2'], code: 'Success' },
  // "no graceful eviction tasks"
  { name: 'without graceful eviction tasks every cluster fits', code: 'Success' },
];
for (const c of filterCases) {
  test(`ClusterEviction: ${c.name}`, () => {
    const req = request({}, 1, [], c.evicting ? { evictingClusters: c.evicting } : {});
    const result = clusterEviction.filter({ request: req, cluster: cluster('cluster1') });
    assert.is(result.code, c.code);
    // Karmada's Result.AsError() is non-nil exactly when the cluster does not fit: a reason comes with it.
    assert.is(result.reason !== undefined, c.code === 'Unschedulable');
  });
}

test('a duplicated workload is kept off the cluster it is being evicted from and placed on the others', () => {
  const placement: Placement = { replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
  const result = schedule(request(placement, 2, [], { evictingClusters: ['member2'] }), [
    cluster('member1'),
    cluster('member2'),
    cluster('member3'),
  ]);
  assert.is(result.status, 'Scheduled');
  assert.is(show(result.clusters), 'member1=2 member3=2');
  const member2 = result.explanation.find((e) => e.cluster === 'member2');
  assert.is(member2?.outcome === 'filtered' ? member2.plugin : undefined, 'ClusterEviction');
});

test('a binding whose only cluster is being evicted from fits nowhere', () => {
  const result = schedule(request({}, 0, [], { evictingClusters: ['member1'] }), [cluster('member1')]);
  assert.is(result.status, 'NoClusterFit');
  assert.equal(result.clusters, []);
});

test.run();
