// Karmada's graceful eviction controller, case by case (pkg/controllers/gracefuleviction/evictiontask_test.go,
// rb_ and crb_graceful_eviction_controller_test.go): which eviction tasks end, and when the controller looks again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GracefulEvictionTask } from '../../src/api/binding.ts';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';
import { assessEvictionTasks, nextTaskDeadline } from '../../src/evictions/gracefulEviction.ts';
import { syncEvictionTasks } from '../../src/evictions/syncEvictionTasks.ts';

const NOW = Date.parse('2026-11-29T15:00:00Z');
const now = new Date(NOW);
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
const task = (
  fromCluster: string,
  secondsAgo: number,
  extra: Partial<GracefulEvictionTask> = {},
): GracefulEvictionTask => ({
  fromCluster,
  purgeMode: 'Gracefully',
  reason: 'TaintUntolerated',
  producer: 'TaintManager',
  creationTimestamp: ago(secondsAgo),
  ...extra,
});
const item = (clusterName: string, health: AggregatedStatusItem['health']): AggregatedStatusItem => ({
  clusterName,
  applied: true,
  health,
});
const THREE_MINUTES = 180;
const twoTargets = [
  { name: 'memberA', replicas: 0 },
  { name: 'memberB', replicas: 0 },
];
const kept = (r: ReturnType<typeof assessEvictionTasks>) => r.kept.map((t) => t.fromCluster);
const ended = (r: ReturnType<typeof assessEvictionTasks>) => r.ended.map((e) => e.task.fromCluster);

// Test_assessSingleTask "task doesn't exceed the timeout, hasScheduled is true, scheduled result is unknown".
test('a task is kept while a cluster of the new result reports Unknown health', () => {
  const r = assessEvictionTasks(
    [task('member1', 60)],
    now,
    [{ name: 'memberA', replicas: 0 }],
    [item('memberA', 'Unknown')],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [['member1'], []]);
});

// Test_assessEvictionTasks "all tasks do not exceed the timeout, but hasScheduled is false" (run with hasScheduled
// true and no status at all).
test('tasks within their grace period are kept while the new result has no status yet', () => {
  const r = assessEvictionTasks(
    [task('member1', 60), task('member2', 120)],
    now,
    [{ name: 'memberA', replicas: 0 }],
    [],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [['member1', 'member2'], []]);
});

// Test_assessEvictionTasks "task that exceed the timeout should be removed, task do not exceed the timeout should do nothing".
test('of two tasks, the one past the timeout ends and the other is kept', () => {
  const r = assessEvictionTasks(
    [task('member1', 240), task('member2', 60)],
    now,
    [{ name: 'memberA', replicas: 0 }],
    [],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [['member2'], ['member1']]);
  assert.is(r.ended[0]!.why, 'gracePeriodEnded');
});

// Test_assessEvictionTasks "tasks that do not exceed the timeout and someone binding scheduled result is missing".
test('tasks are kept while one cluster of the new result has reported nothing', () => {
  const r = assessEvictionTasks(
    [task('member1', 60), task('member2', 120)],
    now,
    twoTargets,
    [item('memberA', 'Healthy')],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [['member1', 'member2'], []]);
});

// Test_assessEvictionTasks "tasks that do not exceed the timeout and binding scheduled result is healthy".
test('every task ends once every cluster of the new result is Healthy', () => {
  const r = assessEvictionTasks(
    [task('member1', 60), task('member2', 120)],
    now,
    twoTargets,
    [item('memberA', 'Healthy'), item('memberB', 'Healthy')],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [[], ['member1', 'member2']]);
  assert.equal(
    r.ended.map((e) => e.why),
    ['replacementsHealthy', 'replacementsHealthy'],
  );
});

// Test_assessEvictionTasks "... someone binding scheduled result is unhealthy" and "... is unknown".
test('tasks are kept while one cluster of the new result is Unhealthy or Unknown', () => {
  for (const health of ['Unhealthy', 'Unknown'] as const) {
    const r = assessEvictionTasks(
      [task('member1', 60), task('member2', 120)],
      now,
      twoTargets,
      [item('memberA', 'Healthy'), item('memberB', health)],
      THREE_MINUTES,
    );
    assert.equal([kept(r), ended(r)], [['member1', 'member2'], []], health);
  }
});

// Test_assessEvictionTasks "task with custom GracePeriodSeconds should not leak timeout to subsequent tasks without it".
test("a task's own gracePeriodSeconds does not carry over to the next task", () => {
  const r = assessEvictionTasks(
    [task('member1', 15, { gracePeriodSeconds: 10 }), task('member2', 15)],
    now,
    [{ name: 'memberA', replicas: 0 }],
    [],
    THREE_MINUTES,
  );
  assert.equal([kept(r), ended(r)], [['member2'], ['member1']]);
});

// Test_nextRetry: the controller requeues at the earliest end by time of a task without suppressDeletion (creation +
// its grace period or the default timeout), and not at all when there is none. A task ends strictly after that
// moment at Flotilla's one-second resolution, so the render is due one second later.
const deadlineIn = (tasks: GracefulEvictionTask[], timeout: number) => {
  const at = nextTaskDeadline(tasks, timeout);
  return at === undefined ? undefined : (at.getTime() - NOW) / 1000 - 1;
};
test('the next look is when the earliest task without suppressDeletion runs out of time', () => {
  const TWENTY_MINUTES = 1200;
  assert.is(deadlineIn([], TWENTY_MINUTES), undefined, 'empty tasks');
  assert.is(deadlineIn([task('member1', 19 * 60), task('member2', 10 * 60)], TWENTY_MINUTES), 60, 'one minute left');
  assert.is(deadlineIn([task('member1', 10 * 60), task('member2', 5 * 60)], TWENTY_MINUTES), 600, 'ten minutes left');
  assert.is(
    deadlineIn([task('member1', 60 * 60, { suppressDeletion: true }), task('member2', 5 * 60)], TWENTY_MINUTES),
    900,
    'a suppressed task does not count',
  );
  assert.is(
    deadlineIn(
      [task('member1', 60 * 60, { suppressDeletion: true }), task('member2', 5 * 60, { suppressDeletion: true })],
      TWENTY_MINUTES,
    ),
    undefined,
    'only suppressed tasks: no retry',
  );
  assert.is(
    deadlineIn([task('member1', 5 * 60, { gracePeriodSeconds: 600 })], TWENTY_MINUTES),
    300,
    "a task's own grace period",
  );
});

// crb_graceful_eviction_controller_test.go TestCRBGracefulEvictionController_syncBinding "task not expired" / "task
// expired" (timeout 5 min): a status item without health keeps the task, 3 minutes before it expires; 6 minutes old,
// it ends. rb_graceful_eviction_controller_test.go "no eviction tasks": nothing to do.
test('a task 2 minutes into a 5-minute timeout is kept with 3 minutes left; at 6 minutes it ends', () => {
  const FIVE_MINUTES = 300;
  const targets = [{ name: 'cluster1', replicas: 0 }];
  const observed = [item('cluster1', 'Unknown')];
  const young = syncEvictionTasks([task('cluster1', 120)], new Set(), targets, {
    now,
    observed,
    gracePeriodSeconds: FIVE_MINUTES,
  });
  assert.equal([young.tasks.length, young.ended.length], [1, 0]);
  assert.is(deadlineIn(young.tasks, FIVE_MINUTES), 180);
  const old = syncEvictionTasks([task('cluster1', 360)], new Set(), targets, {
    now,
    observed,
    gracePeriodSeconds: FIVE_MINUTES,
  });
  assert.equal([old.tasks.length, old.ended.length], [0, 1]);
  const none = syncEvictionTasks([], new Set(), targets, { now, observed, gracePeriodSeconds: FIVE_MINUTES });
  assert.equal([none.tasks, none.ended], [[], []]);
});

test.run();
