// Binding helpers, case by case, as Karmada decides them (cases after pkg/util/binding_test.go and
// pkg/util/helper/binding_test.go at f8fdd02): when a result's replicas no longer match the binding
// (IsBindingReplicasChanged), how a scale-up's new replicas add to the previous ones (MergeTargetClusters), and which
// clusters keep a copy while eviction tasks run (ObtainBindingSpecExistingClusters, ObtainClustersWithPurgeModeDirectly).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GracefulEvictionTask, TargetCluster } from '../../src/api/binding.ts';
import type { Placement } from '../../src/api/policy.ts';
import { mergeTargetClusters } from '../../src/assignments/assignReplicas.ts';
import { replicasChanged } from '../../src/assignments/needsReschedule.ts';
import type { SchedulingRequest } from '../../src/assignments/types.ts';
import { syncEvictionTasks } from '../../src/evictions/syncEvictionTasks.ts';

const request = (placement: Placement, replicas: number, previous: TargetCluster[]): SchedulingRequest => ({
  resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'demo-ns', name: 'demo-name' },
  placement,
  replicas,
  previous,
});
const duplicated: Placement = { replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
const divided: Placement = { replicaScheduling: { replicaSchedulingType: 'Divided' } };

test('replicas changed: never without a strategy; Duplicated when any cluster differs; Divided when the sum differs', () => {
  // TestIsBindingReplicasChanged (the component cases need the alpha MultiplePodTemplatesScheduling gate).
  const m = (a: number, b: number): TargetCluster[] => [
    { name: 'member1', replicas: a },
    { name: 'member2', replicas: b },
  ];
  const cases: [string, SchedulingRequest, boolean][] = [
    ['no strategy', request({}, 0, []), false],
    ['an empty strategy', request({ replicaScheduling: {} }, 0, []), false],
    ['Duplicated, every cluster at spec.replicas', request(duplicated, 5, m(5, 5)), false],
    ['Duplicated, one cluster off', request(duplicated, 5, m(3, 5)), true],
    ['Divided, the sum is spec.replicas', request(divided, 5, m(2, 3)), false],
    ['Divided, the sum is off', request(divided, 5, m(3, 3)), true],
  ];
  for (const [name, req, want] of cases) assert.is(replicasChanged(req), want, name);
});

test("a scale-up's new replicas add to the previous ones per cluster; clusters only on one side are kept", () => {
  // TestMergeTargetClusters (compared as sets, as testhelper.IsScheduleResultEqual does).
  const sorted = (l: TargetCluster[]) => [...l].sort((a, b) => a.name.localeCompare(b.name));
  const cases: [string, TargetCluster[], TargetCluster[], TargetCluster[]][] = [
    ['both empty', [], [], []],
    ['no previous', [], [{ name: 'member2', replicas: 3 }], [{ name: 'member2', replicas: 3 }]],
    ['nothing new', [{ name: 'member1', replicas: 3 }], [], [{ name: 'member1', replicas: 3 }]],
    [
      'no cluster in common',
      [{ name: 'member1', replicas: 2 }],
      [{ name: 'member2', replicas: 3 }],
      [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 3 },
      ],
    ],
    [
      'a cluster in common',
      [{ name: 'member1', replicas: 2 }],
      [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 3 },
      ],
      [
        { name: 'member1', replicas: 6 },
        { name: 'member2', replicas: 3 },
      ],
    ],
  ];
  for (const [name, previous, added, want] of cases)
    assert.equal(sorted(mergeTargetClusters(previous, added)), want, name);
});

test('while eviction tasks run, their clusters keep a copy, except a Directly task whose copy goes at once', () => {
  // TestObtainBindingSpecExistingClusters and TestObtainClustersWithPurgeModeDirectly: the clusters that keep a copy are
  // the result plus the clusters of tasks not purged Directly (requiredBy's clusters are added by the dependencies).
  const task = (fromCluster: string, purgeMode: GracefulEvictionTask['purgeMode']): GracefulEvictionTask => ({
    fromCluster,
    purgeMode,
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    creationTimestamp: '2026-01-01T00:00:00Z',
  });
  const targets: TargetCluster[] = [
    { name: 'member1', replicas: 2 },
    { name: 'member2', replicas: 3 },
  ];
  const keeping = (tasks: GracefulEvictionTask[]) => {
    const synced = syncEvictionTasks(tasks, new Set(), targets, undefined);
    return [...new Set([...targets.map((t) => t.name), ...synced.evicting])].sort();
  };
  assert.equal(keeping([]), ['member1', 'member2'], 'no tasks');
  assert.equal(keeping([task('member4', 'Gracefully')]), ['member1', 'member2', 'member4'], 'one task');
  assert.equal(keeping([task('member1', 'Gracefully')]), ['member1', 'member2'], 'a task on a result cluster');
  assert.equal(
    keeping([task('member3', 'Directly'), task('member4', 'Gracefully'), task('member5', 'Never')]),
    ['member1', 'member2', 'member4', 'member5'],
    'purge modes',
  );
  // Without a clock no task ends: the Directly task stays recorded, its cluster only holds no copy.
  const synced = syncEvictionTasks([task('member3', 'Directly')], new Set(), targets, undefined);
  assert.equal(
    synced.tasks.map((t) => t.fromCluster),
    ['member3'],
  );
  assert.equal(synced.evicting, []);
});

test.run();
