// The status controllers' decisions, case by case, as Karmada makes them (cases after
// pkg/controllers/status/cluster_condition_cache_test.go at f8fdd02, TestThresholdAdjustedReadyCondition, with its
// 30 s success and failure thresholds). Karmada's cache entry {readyCondition, thresholdStartTime} is Flotilla's
// pending observation {status, since}; the cluster's current Ready condition is the stored one.
// rb_status_controller_test.go and crb_status_controller_test.go test client errors only (template or binding not
// found, deletion timestamps); what those controllers build is ported in karmadaWorkStatusCases.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Condition } from '../../src/api/cluster.ts';
import type { PendingReady } from '../../src/branches/status/statusFiles.ts';
import { dampReadyCondition } from '../../src/statuses/dampReadyCondition.ts';

const NOW = Date.parse('2026-11-29T15:00:00Z');
const now = new Date(NOW);
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace('.000Z', 'Z');
const ready = (status: Condition['status']): Condition => ({ type: 'Ready', status });
const pending = (status: Condition['status'], secondsAgo: number): PendingReady => ({ status, since: ago(secondsAgo) });

/** [case, cache entry, current Ready status, observed Ready status, expected Ready status]. */
type Case = [
  string,
  PendingReady | undefined,
  Condition['status'] | undefined,
  Condition['status'],
  Condition['status'],
];

test('the Ready condition flips only after the observation has held for the threshold, either way', () => {
  const cases: Case[] = [
    ['cluster just joined in ready state', undefined, undefined, 'True', 'True'],
    ['cluster stays ready', undefined, 'True', 'True', 'True'],
    ['cluster becomes not ready but still not reach failure threshold', pending('False', 15), 'True', 'False', 'True'],
    ['cluster becomes not ready and reaches failure threshold', pending('False', 30), 'True', 'False', 'False'],
    ['cluster stays not ready', pending('False', 60), 'False', 'False', 'False'],
    ['cluster recovers but still not reach success threshold', pending('True', 15), 'False', 'True', 'False'],
    ['cluster recovers and reaches success threshold', pending('True', 30), 'False', 'True', 'True'],
    ['current condition is nil, should return observed condition', pending('False', 30), undefined, 'True', 'True'],
  ];
  for (const [name, cache, current, observed, want] of cases) {
    const got = dampReadyCondition(current ? ready(current) : undefined, cache, ready(observed), now);
    assert.is(got.ready.status, want, name);
  }
});

test('a change of observation restarts the threshold: a cache entry for the other status, however old, does not count', () => {
  // "ready condition changes from true to false" / "from false to true": the cache last saw the current status 10
  // minutes ago, so the new observation starts its own threshold now and the current condition stays.
  const cases: Case[] = [
    ['ready condition changes from true to false', pending('True', 600), 'True', 'False', 'True'],
    ['ready condition changes from false to true', pending('False', 600), 'False', 'True', 'False'],
  ];
  for (const [name, cache, current, observed, want] of cases) {
    const got = dampReadyCondition(current ? ready(current) : undefined, cache, ready(observed), now);
    assert.is(got.ready.status, want, name);
    assert.equal(got.pending, { status: observed, since: ago(0) }, `${name}: the threshold starts now`);
  }
});

test.run();
