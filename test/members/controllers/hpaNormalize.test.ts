import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type HpaHistory,
  type NormalizeInput,
  normalizeDesiredReplicas,
  recordScaleEvent,
} from '../../../src/members/controllers/hpaNormalize.ts';

const empty: HpaHistory = { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] };
const base: NormalizeInput = {
  currentReplicas: 4,
  desiredReplicas: 4,
  minReplicas: 1,
  maxReplicas: 10,
  behavior: undefined,
  history: empty,
  now: 1_000_000,
  downscaleStabilizationMs: 300_000,
};
const defaultBehavior = {
  scaleUp: {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max' as const,
    policies: [
      { type: 'Pods' as const, value: 4, periodSeconds: 15 },
      { type: 'Percent' as const, value: 100, periodSeconds: 15 },
    ],
  },
  scaleDown: {
    stabilizationWindowSeconds: 300,
    selectPolicy: 'Max' as const,
    policies: [{ type: 'Percent' as const, value: 100, periodSeconds: 15 }],
  },
};

test('without behavior, a scale-down waits for the highest recommendation in the downscale window', () => {
  const first = normalizeDesiredReplicas({ ...base, desiredReplicas: 4 });
  assert.is(first.replicas, 4);
  assert.equal(first.ableToScale.reason, 'ReadyForNewScale');
  const soon = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    history: first.history,
    now: base.now + 60_000,
  });
  assert.is(soon.replicas, 4);
  assert.equal([soon.ableToScale.reason, soon.scalingLimited.status], ['ScaleDownStabilized', 'False']);
  const later = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    history: soon.history,
    now: base.now + 300_001,
  });
  // the 4 fell out of the window; the 1 recorded a minute in is still in it.
  assert.is(later.replicas, 1);
  const short = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    history: first.history,
    now: base.now + 2_000,
    downscaleStabilizationMs: 1_000,
  });
  assert.is(short.replicas, 1);
});

test('without behavior, scale-up is capped at max(2 × current, 4) and at maxReplicas, each named in ScalingLimited', () => {
  const capped = normalizeDesiredReplicas({ ...base, currentReplicas: 3, desiredReplicas: 9 });
  assert.equal(
    [capped.replicas, capped.scalingLimited],
    [
      6,
      {
        status: 'True',
        reason: 'ScaleUpLimit',
        message: 'the desired replica count is increasing faster than the maximum scale rate',
      },
    ],
  );
  const max = normalizeDesiredReplicas({ ...base, currentReplicas: 8, desiredReplicas: 20 });
  assert.equal([max.replicas, max.scalingLimited.reason], [10, 'TooManyReplicas']);
  const min = normalizeDesiredReplicas({ ...base, minReplicas: 2, desiredReplicas: 1, currentReplicas: 2 });
  assert.equal([min.replicas, min.scalingLimited.reason], [2, 'TooFewReplicas']);
  const within = normalizeDesiredReplicas({ ...base, currentReplicas: 2, desiredReplicas: 3 });
  assert.equal(
    [within.replicas, within.scalingLimited],
    [3, { status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' }],
  );
});

test('with the default behavior, scale-up adds max(4 pods, 100%) per 15 s and counts recent scale events', () => {
  const up = normalizeDesiredReplicas({ ...base, currentReplicas: 2, desiredReplicas: 10, behavior: defaultBehavior });
  assert.equal([up.replicas, up.scalingLimited.reason], [6, 'ScaleUpLimit']);
  const history = recordScaleEvent(up.history, defaultBehavior, 2, 6, base.now);
  // 5 s later the period still holds the +4: the limit is from 2 again (6 pods), so no further growth.
  const again = normalizeDesiredReplicas({
    ...base,
    currentReplicas: 6,
    desiredReplicas: 10,
    behavior: defaultBehavior,
    history,
    now: base.now + 5_000,
  });
  assert.is(again.replicas, 6);
  const after = normalizeDesiredReplicas({
    ...base,
    currentReplicas: 6,
    desiredReplicas: 10,
    behavior: defaultBehavior,
    history,
    now: base.now + 16_000,
  });
  assert.is(after.replicas, 10);
});

test('with behavior, the scale-down window comes from the spec; a short one lets the drop through', () => {
  const seen = normalizeDesiredReplicas({ ...base, desiredReplicas: 4, behavior: defaultBehavior });
  const held = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    behavior: defaultBehavior,
    history: seen.history,
    now: base.now + 60_000,
  });
  assert.equal([held.replicas, held.ableToScale.reason], [4, 'ScaleDownStabilized']);
  const quick = { ...defaultBehavior, scaleDown: { ...defaultBehavior.scaleDown, stabilizationWindowSeconds: 1 } };
  const dropped = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    behavior: quick,
    history: seen.history,
    now: base.now + 2_000,
  });
  assert.is(dropped.replicas, 1);
  const slow = {
    ...quick,
    scaleDown: { ...quick.scaleDown, policies: [{ type: 'Pods' as const, value: 1, periodSeconds: 60 }] },
  };
  const limited = normalizeDesiredReplicas({
    ...base,
    desiredReplicas: 1,
    behavior: slow,
    history: seen.history,
    now: base.now + 2_000,
  });
  assert.equal([limited.replicas, limited.scalingLimited.reason], [3, 'ScaleDownLimit']);
});

test('a Disabled select policy never scales in that direction', () => {
  const behavior = { ...defaultBehavior, scaleUp: { ...defaultBehavior.scaleUp, selectPolicy: 'Disabled' as const } };
  assert.is(normalizeDesiredReplicas({ ...base, desiredReplicas: 8, behavior }).replicas, 4);
});

test.run();
