import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GracefulEvictionTask } from '../../src/api/binding.ts';
import { syncEvictionTasks } from '../../src/evictions/syncEvictionTasks.ts';

const T0 = '2026-11-29T15:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000);
const task = (fromCluster: string, extra: Partial<GracefulEvictionTask> = {}): GracefulEvictionTask => ({
  fromCluster,
  purgeMode: 'Gracefully',
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  creationTimestamp: T0,
  replicas: 2,
  ...extra,
});
const targets = [
  { name: 'member1', replicas: 2 },
  { name: 'member3', replicas: 2 },
];
const NONE = new Set<string>();

test('without a clock no task ends, and the evicted clusters outside the new result keep their copy', () => {
  const synced = syncEvictionTasks([task('member4'), task('member2')], NONE, targets, undefined);
  assert.equal(
    synced.tasks.map((t) => t.fromCluster),
    ['member4', 'member2'],
  );
  assert.equal(synced.ended, []);
  assert.equal(synced.evicting, ['member2', 'member4']);
});

test('a task past its grace period ends; until then it is kept', () => {
  const before = syncEvictionTasks([task('member2', { gracePeriodSeconds: 60 })], NONE, targets, {
    now: at(60),
    observed: undefined,
  });
  assert.equal([before.tasks.length, before.ended.length], [1, 0]);
  const after = syncEvictionTasks([task('member2', { gracePeriodSeconds: 60 })], NONE, targets, {
    now: at(61),
    observed: undefined,
  });
  assert.equal(after.tasks, []);
  assert.equal(
    after.ended.map((e) => [e.task.fromCluster, e.why]),
    [['member2', 'gracePeriodEnded']],
  );
  assert.equal(after.evicting, [], 'an ended task releases its cluster');
});

test('the default grace period comes from the clock when a task names none', () => {
  const synced = syncEvictionTasks([task('member2')], NONE, targets, {
    now: at(31),
    observed: undefined,
    gracePeriodSeconds: 30,
  });
  assert.equal(
    synced.ended.map((e) => e.why),
    ['gracePeriodEnded'],
  );
});

test('every cluster of the new result healthy with its replicas ends the task', () => {
  const observed = targets.map((t) => ({
    clusterName: t.name,
    applied: true,
    health: 'Healthy' as const,
    status: { replicas: 2 },
  }));
  const synced = syncEvictionTasks([task('member2')], NONE, targets, { now: at(1), observed });
  assert.equal(
    synced.ended.map((e) => e.why),
    ['replacementsHealthy'],
  );
});

test('a task the taint manager created in this very render waits for the next one, even when it would end', () => {
  const synced = syncEvictionTasks([task('member2', { gracePeriodSeconds: 0 })], new Set(['member2']), targets, {
    now: at(10),
    observed: undefined,
  });
  assert.equal(
    synced.tasks.map((t) => t.fromCluster),
    ['member2'],
  );
  assert.equal(synced.ended, []);
  assert.equal(synced.evicting, ['member2']);
});

test('a cluster with a task that is back in the new result is not listed as evicting: it gets the new manifest', () => {
  const synced = syncEvictionTasks([task('member1', { suppressDeletion: true })], NONE, targets, {
    now: at(10),
    observed: undefined,
  });
  assert.equal(
    synced.tasks.map((t) => t.fromCluster),
    ['member1'],
  );
  assert.equal(synced.evicting, []);
});

test.run();
