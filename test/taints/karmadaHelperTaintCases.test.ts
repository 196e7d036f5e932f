// Cluster taints and tolerations, case by case, as Karmada's taint helpers decide them (cases after
// pkg/util/helper/taint_test.go at f8fdd02): SetCurrentClusterTaints/TaintExists through the managed taints of a Ready
// change, GetMatchingTolerations through the scheduler's filter and the taint manager, GetMinTolerationTimeWithCurrentTime
// through the taint manager's verdict.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, Condition, Taint } from '../../src/api/cluster.ts';
import type { Toleration } from '../../src/api/policy.ts';
import { findUntoleratedTaint } from '../../src/assignments/plugins/taintToleration.ts';
import { taintEviction } from '../../src/evictions/taintEviction.ts';
import { buildManagedTaints, TAINT_NOT_READY, TAINT_UNREACHABLE } from '../../src/taints/clusterTaints.ts';

const member = (taints?: Taint[]): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member' },
  spec: { syncMode: 'Push', ...(taints ? { taints } : {}) },
});
const ready = (status: Condition['status']): Condition[] => [{ type: 'Ready', status }];
const T0 = '2025-09-23T11:00:00Z';
const NOW = '2025-09-23T12:00:00Z';
const notReady: Taint = { key: TAINT_NOT_READY, effect: 'NoSchedule', timeAdded: T0 };
const unreachable: Taint = { key: TAINT_UNREACHABLE, effect: 'NoSchedule', timeAdded: T0 };
const shown = (ts: readonly Taint[]) => ts.map((t) => `${t.key}:${t.effect}@${t.timeAdded}`);

test('a Ready change swaps the automatic taints: the one it needs is added, the other removed', () => {
  // TestSetCurrentClusterTaints (Karmada's cluster controller now uses NoSchedule for both taints).
  const cases: [string, Taint[], Condition['status'], string[]][] = [
    ['true to false', [], 'False', [`${TAINT_NOT_READY}:NoSchedule@${NOW}`]],
    ['true to unknown', [], 'Unknown', [`${TAINT_UNREACHABLE}:NoSchedule@${NOW}`]],
    ['false to unknown', [notReady], 'Unknown', [`${TAINT_UNREACHABLE}:NoSchedule@${NOW}`]],
    ['false to true', [notReady], 'True', []],
    ['unknown to true', [unreachable], 'True', []],
    ['unknown to false', [unreachable], 'False', [`${TAINT_NOT_READY}:NoSchedule@${NOW}`]],
    // Nothing to add or remove: the list is returned as it was, timeAdded included.
    ['unknown stays unknown', [unreachable], 'Unknown', [`${TAINT_UNREACHABLE}:NoSchedule@${T0}`]],
  ];
  for (const [name, previous, status, want] of cases)
    assert.equal(shown(buildManagedTaints(previous, ready(status), [], member(), NOW)), want, name);
});

test("a taint counts as present by key and effect: the cluster's own not-ready taint blocks the automatic one only with the same effect", () => {
  // TestTaintExists: same key and effect exists; same key with another effect does not.
  // The registered one is kept as it is (the controller's to keep or remove), not added again.
  const ownSameEffect = member([{ key: TAINT_NOT_READY, value: 'x', effect: 'NoSchedule' }]);
  assert.equal(buildManagedTaints([], ready('False'), [], ownSameEffect, NOW), [
    { key: TAINT_NOT_READY, value: 'x', effect: 'NoSchedule' },
  ]);
  const ownOtherEffect = member([{ key: TAINT_NOT_READY, effect: 'NoExecute' }]);
  assert.equal(shown(buildManagedTaints([], ready('False'), [], ownOtherEffect, NOW)), [
    `${TAINT_NOT_READY}:NoSchedule@${NOW}`,
  ]);
});

test('every taint must find a toleration: no taints is tolerated, no tolerations is not, one value off is not', () => {
  // TestGetMatchingTolerations, on the scheduler's filter (NoSchedule taints) and on the taint manager (NoExecute).
  const key1: Taint = { key: 'key1', value: 'value1', effect: 'NoSchedule' };
  const key2: Taint = { key: 'key2', value: 'value2', effect: 'NoSchedule' };
  const tolerating: Toleration[] = [
    { key: 'key1', value: 'value1', effect: 'NoSchedule' },
    { key: 'key2', value: 'value2', effect: 'NoSchedule' },
  ];
  const offByValue: Toleration[] = [
    { key: 'key1', value: 'value_1', effect: 'NoSchedule' },
    { key: 'key2', value: 'value_2', effect: 'NoSchedule' },
  ];
  const cases: [string, Taint[], Toleration[], boolean][] = [
    ['no taints', [], [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }], true],
    ['no tolerations', [key1], [], false],
    ['each taint tolerated', [key1, key2], tolerating, true],
    ['values differ', [key1, key2], offByValue, false],
  ];
  for (const [name, taints, tolerations, tolerated] of cases) {
    assert.is(findUntoleratedTaint(taints, tolerations) === undefined, tolerated, `filter: ${name}`);
    const noExecute = taints.map((t) => ({ ...t, effect: 'NoExecute' as const, timeAdded: T0 }));
    const asNoExecute = tolerations.map((t) => ({ ...t, effect: 'NoExecute' as const }));
    assert.is(taintEviction(noExecute, asNoExecute, new Date(NOW)).evict, !tolerated, `taint manager: ${name}`);
  }
});

test('the toleration time left is the earliest timeAdded + tolerationSeconds; none, without seconds or timeAdded, is for ever', () => {
  // TestGetMinTolerationTimeWithCurrentTime: -1 is "never", 0 is "now", a duration is "at now + duration".
  const now = new Date(NOW);
  const noExec = (key: string, timeAdded?: string): Taint => ({
    key,
    value: 'value',
    effect: 'NoExecute',
    ...(timeAdded ? { timeAdded } : {}),
  });
  const exists = (key: string, seconds?: number): Toleration => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
  });
  const later = (s: number) => new Date(now.getTime() + s * 1000);
  // no NoExecute taints: never
  assert.equal(taintEviction([], [exists('key', 60)], now), { evict: false }, 'no taints');
  // no tolerations: now
  assert.is(taintEviction([noExec('key', NOW)], [], now).evict, true, 'no tolerations');
  // 60 s left
  assert.equal(
    taintEviction([noExec('key', NOW)], [exists('key', 60)], now),
    { evict: false, at: later(60), taint: noExec('key', NOW) },
    'with seconds',
  );
  assert.equal(taintEviction([noExec('key', NOW)], [exists('key')], now), { evict: false }, 'without seconds');
  assert.equal(taintEviction([noExec('key')], [exists('key', 60)], now), { evict: false }, 'without timeAdded');
  // two taints, 120 s and 60 s: the earlier
  const two = [noExec('key1', NOW), noExec('key2', NOW)];
  assert.equal(
    taintEviction(two, [exists('key1', 120), exists('key2', 60)], now),
    { evict: false, at: later(60), taint: two[1] },
    'the earliest trigger',
  );
  // added 2 minutes ago with 60 s: time is up
  const old = noExec('key', '2025-09-23T11:58:00Z');
  assert.equal(
    taintEviction([old], [exists('key', 60)], now),
    { evict: true, taint: old, why: 'tolerationExpired', tolerationSeconds: 60 },
    'time is up',
  );
});

test.run();
