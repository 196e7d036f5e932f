import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Condition } from '../../src/api/cluster.ts';
import { dampReadyCondition } from '../../src/statuses/dampReadyCondition.ts';

const t0 = Date.parse('2026-11-29T15:00:00Z');
const at = (s: number) => new Date(t0 + s * 1000);
const ready: Condition = {
  type: 'Ready',
  status: 'True',
  reason: 'ClusterReady',
  lastTransitionTime: '2026-11-29T14:00:00Z',
};
const down: Condition = { type: 'Ready', status: 'False', reason: 'ClusterNotReachable' };
const up: Condition = { type: 'Ready', status: 'True', reason: 'ClusterReady' };

test('a cluster seen for the first time takes what was observed', () => {
  assert.equal(dampReadyCondition(undefined, undefined, down, at(0)), { ready: down });
});

test('NotReady is reported only after 30 s of consistent failures; until then Ready stays and the observation is remembered', () => {
  const first = dampReadyCondition(ready, undefined, down, at(0));
  assert.is(first.ready, ready);
  assert.equal(first.pending, { status: 'False', since: '2026-11-29T15:00:00Z' });
  const still = dampReadyCondition(ready, first.pending, down, at(29));
  assert.is(still.ready, ready);
  assert.equal(still.pending, first.pending, 'the threshold counts from the first failure, not the latest');
  const flipped = dampReadyCondition(ready, still.pending, down, at(30));
  assert.is(flipped.ready, down);
  assert.is(flipped.pending, undefined);
});

test('a flap resets the count: one good probe in between starts the failure threshold again', () => {
  const first = dampReadyCondition(ready, undefined, down, at(0));
  const good = dampReadyCondition(ready, first.pending, up, at(10));
  assert.equal(good, { ready: up }, 'agrees with the stored condition: nothing pending');
  const again = dampReadyCondition(ready, good.pending, down, at(20));
  assert.equal(again.pending, { status: 'False', since: '2026-11-29T15:00:20Z' });
  assert.is(
    dampReadyCondition(ready, again.pending, down, at(40)).ready,
    ready,
    '20 s since the new start: still Ready',
  );
  assert.is(dampReadyCondition(ready, again.pending, down, at(50)).ready, down);
});

test('recovery waits for the success threshold, configurable apart from the failure one', () => {
  const stored = { ...down, lastTransitionTime: '2026-11-29T14:59:00Z' };
  const thresholds = { successMs: 60_000, failureMs: 5_000 };
  const seen = dampReadyCondition(stored, undefined, up, at(0), thresholds);
  assert.is(seen.ready, stored);
  assert.is(dampReadyCondition(stored, seen.pending, up, at(59), thresholds).ready, stored);
  assert.is(dampReadyCondition(stored, seen.pending, up, at(60), thresholds).ready, up);
});

test('Unknown to False is not a Ready flip: it passes at once', () => {
  const unknown: Condition = { type: 'Ready', status: 'Unknown', reason: 'ClusterStatusUnknown' };
  assert.equal(dampReadyCondition(unknown, undefined, down, at(0)), { ready: down });
});

test.run();
