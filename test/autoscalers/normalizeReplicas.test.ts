import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  decideReplicas,
  EMPTY_HISTORY,
  type ScaleDecision,
  type ScaleInput,
  type ScalingHistory,
} from '../../src/autoscalers/normalizeReplicas.ts';
import { scalingBehavior } from '../../src/autoscalers/scalingBehavior.ts';

const t0 = Date.parse('2026-12-01T12:00:00Z');
const base: ScaleInput = {
  minReplicas: 1,
  maxReplicas: 10,
  behavior: scalingBehavior({}),
  currentReplicas: 2,
  memberReplicas: 2,
  metricReplicas: 2,
  metricName: 'cpu resource utilization (percentage of request)',
  now: t0,
  history: EMPTY_HISTORY,
};
const decide = (over: Partial<ScaleInput>): ScaleDecision => {
  const d = decideReplicas({ ...base, ...over });
  if ('error' in d) throw new Error(d.error);
  return d;
};

test('behavior defaults: scale up has no window and the larger of +4 pods or +100% per 15 s', () => {
  assert.equal(scalingBehavior({}), {
    scaleUp: {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    },
    scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  const partial = scalingBehavior({ scaleDown: { stabilizationWindowSeconds: 10 } });
  assert.equal(partial?.scaleDown.stabilizationWindowSeconds, 10);
  assert.equal(partial?.scaleDown.policies, [{ type: 'Percent', value: 100, periodSeconds: 15 }]);
  assert.is(scalingBehavior(undefined), undefined);
});

test('a recommendation above current scales up, limited by the scale-up policies (2 -> 6 = +4 pods, not 20)', () => {
  const d = decide({ metricReplicas: 20, maxReplicas: 30 });
  assert.is(d.desiredReplicas, 6);
  assert.is(d.scalingLimited, 'ScaleUpLimit');
  assert.is(d.reason, 'cpu resource utilization (percentage of request) above target');
  assert.equal(d.history.scaleUpEvents, [{ at: t0, change: 4 }]);
});

test('replicas added within the policy period count against the limit', () => {
  const first = decide({ metricReplicas: 20, maxReplicas: 30 });
  const second = decide({
    currentReplicas: 6,
    metricReplicas: 20,
    maxReplicas: 30,
    now: t0 + 5000,
    history: first.history,
  });
  // The period started at 2: max(2 + 4, 2 x 2) = 6, no more until the event leaves the 15 s period.
  assert.is(second.desiredReplicas, 6);
  assert.is(second.rescale, false);
  const later = decide({
    currentReplicas: 6,
    metricReplicas: 20,
    maxReplicas: 30,
    now: t0 + 16_000,
    history: first.history,
  });
  assert.is(later.desiredReplicas, 12);
});

test('max and min bound the result; a count outside them is brought in without metrics', () => {
  assert.equal(decide({ metricReplicas: 9, maxReplicas: 4 }).desiredReplicas, 4);
  assert.equal(decide({ metricReplicas: 9, maxReplicas: 4 }).scalingLimited, 'TooManyReplicas');
  const above = decide({ currentReplicas: 7, maxReplicas: 4, metricReplicas: undefined });
  assert.equal([above.desiredReplicas, above.reason], [4, 'Current number of replicas above Spec.MaxReplicas']);
  const below = decide({ currentReplicas: 1, minReplicas: 3, metricReplicas: undefined });
  assert.equal([below.desiredReplicas, below.reason], [3, 'Current number of replicas below Spec.MinReplicas']);
});

test('a target its members run at 0 replicas is not autoscaled; a template at 0 its members still run is raised to min', () => {
  const d = decide({ currentReplicas: 0, memberReplicas: 0, metricReplicas: 5 });
  assert.equal([d.desiredReplicas, d.rescale, d.ableToScale], [0, false, 'ScalingDisabled']);
  const raised = decide({ currentReplicas: 0, memberReplicas: 3, minReplicas: 2, metricReplicas: undefined });
  assert.equal(
    [raised.desiredReplicas, raised.rescale, raised.reason],
    [2, true, 'Current number of replicas below Spec.MinReplicas'],
  );
});

test('scale down waits for the stabilization window (default 300 s): the highest recent recommendation wins', () => {
  let history: ScalingHistory = EMPTY_HISTORY;
  const step = (s: number, current: number, metric: number) => {
    const d = decide({ currentReplicas: current, metricReplicas: metric, now: t0 + s * 1000, history });
    history = d.history;
    return d;
  };
  assert.is(step(0, 4, 4).desiredReplicas, 4);
  const early = step(60, 4, 1);
  assert.equal([early.desiredReplicas, early.ableToScale], [4, 'ScaleDownStabilized']);
  assert.is(step(299, 4, 1).desiredReplicas, 4);
  const after = step(301, 4, 1);
  assert.equal([after.desiredReplicas, after.reason], [1, 'All metrics below target']);
});

test('a configured scale-down window and a Pods policy bound the scale down', () => {
  const behavior = scalingBehavior({
    scaleDown: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
  });
  const d = decide({ behavior, currentReplicas: 5, metricReplicas: 1 });
  assert.equal([d.desiredReplicas, d.scalingLimited], [4, 'ScaleDownLimit']);
  const again = decide({ behavior, currentReplicas: 4, metricReplicas: 1, now: t0 + 30_000, history: d.history });
  assert.is(again.rescale, false, 'one pod per 60 s');
});

test('a scale-up window keeps the lowest recent recommendation', () => {
  const behavior = scalingBehavior({ scaleUp: { stabilizationWindowSeconds: 60 } });
  const first = decide({ behavior, currentReplicas: 2, metricReplicas: 2 });
  const second = decide({ behavior, currentReplicas: 2, metricReplicas: 5, now: t0 + 30_000, history: first.history });
  assert.equal([second.desiredReplicas, second.ableToScale], [2, 'ScaleUpStabilized']);
  const third = decide({ behavior, currentReplicas: 2, metricReplicas: 5, now: t0 + 61_000, history: second.history });
  assert.is(third.desiredReplicas, 5);
});

test('selectPolicy Disabled forbids scaling in that direction; Min picks the smaller change', () => {
  const off = scalingBehavior({ scaleUp: { selectPolicy: 'Disabled' } });
  assert.is(decide({ behavior: off, metricReplicas: 8 }).rescale, false);
  const min = scalingBehavior({ scaleUp: { selectPolicy: 'Min' } });
  // min(2 + 4, 2 x 2) = 4.
  assert.is(decide({ behavior: min, metricReplicas: 8 }).desiredReplicas, 4);
});

test('without behavior: the scale-up limit is max(2 x current, 4) and scale down is stabilized', () => {
  const d = decide({ behavior: undefined, currentReplicas: 3, metricReplicas: 9, maxReplicas: 20 });
  assert.equal([d.desiredReplicas, d.scalingLimited], [6, 'ScaleUpLimit']);
  assert.equal(d.history.scaleUpEvents, [], 'Karmada stores no scale events without behavior');
  const down = decide({
    behavior: undefined,
    currentReplicas: 6,
    metricReplicas: 2,
    now: t0 + 1000,
    history: d.history,
  });
  // The highest recommendation of the window is 9: without behavior the window works in both directions.
  assert.is(down.desiredReplicas, 9);
  const short = decide({
    behavior: undefined,
    currentReplicas: 6,
    metricReplicas: 2,
    now: t0 + 2000,
    history: d.history,
    downscaleStabilizationMs: 500,
  });
  assert.is(short.desiredReplicas, 2);
});

test('a widened scale-down window counts the older recommendations still held: each pass replaces only one', () => {
  // Karmada overwrites one recommendation older than the windows with the new one and keeps the rest, so a window
  // widened later reaches them again.
  const narrow = scalingBehavior({
    scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] },
  });
  const history: ScalingHistory = {
    ...EMPTY_HISTORY,
    recommendations: [
      { at: t0, replicas: 9 },
      { at: t0 + 10_000, replicas: 9 },
    ],
  };
  const first = decide({ behavior: narrow, currentReplicas: 10, metricReplicas: 4, now: t0 + 60_000, history });
  assert.equal([first.desiredReplicas, first.scalingLimited], [9, 'ScaleDownLimit']);
  const wide = scalingBehavior({
    scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] },
  });
  const next = decide({
    behavior: wide,
    currentReplicas: 9,
    metricReplicas: 4,
    now: t0 + 76_000,
    history: first.history,
  });
  assert.equal([next.desiredReplicas, next.ableToScale], [9, 'ScaleDownStabilized']);
});

test('a widened policy period counts the older scale events still held: each rescale replaces only one', () => {
  // Karmada's storeScaleEvent overwrites one event older than the longest period and keeps the rest.
  const narrow = scalingBehavior({ scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 15 }] } });
  const history: ScalingHistory = {
    ...EMPTY_HISTORY,
    scaleUpEvents: [
      { at: t0, change: 1 },
      { at: t0 + 5000, change: 1 },
    ],
  };
  const first = decide({ behavior: narrow, currentReplicas: 4, metricReplicas: 10, now: t0 + 60_000, history });
  assert.is(first.desiredReplicas, 5);
  const wide = scalingBehavior({ scaleUp: { policies: [{ type: 'Pods', value: 2, periodSeconds: 120 }] } });
  const next = decide({
    behavior: wide,
    currentReplicas: 5,
    metricReplicas: 10,
    now: t0 + 70_000,
    history: first.history,
  });
  // Three pods added in the last 120 s: the period started at 2, so 2 + 2 allows no more than the 5 there are.
  assert.equal([next.desiredReplicas, next.rescale], [5, false]);
});

test.run();
