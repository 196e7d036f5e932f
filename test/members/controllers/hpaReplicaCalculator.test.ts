import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  calculateResourceReplicas,
  type CalculatorOptions,
  MetricsError,
  type PodSample,
} from '../../../src/members/controllers/hpaReplicaCalculator.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const LONG_AGO = '2026-01-01T00:00:00Z';
const options: CalculatorOptions = {
  tolerance: 0.1,
  cpuInitializationPeriodMs: 300_000,
  initialReadinessDelayMs: 30_000,
  now: NOW,
};

const pod = (
  name: string,
  state: { phase?: string; ready?: boolean; started?: string; readySince?: string } = {},
): KubeObject => ({
  metadata: { name },
  status: {
    phase: state.phase ?? 'Running',
    startTime: state.started ?? LONG_AGO,
    conditions: [
      {
        type: 'Ready',
        status: state.ready === false ? 'False' : 'True',
        lastTransitionTime: state.readySince ?? LONG_AGO,
      },
    ],
  },
});
const samples = (entries: [string, number][]) =>
  new Map<string, PodSample>(entries.map(([n, v]) => [n, { milliValue: v, timestamp: NOW, windowMs: 15_000 }]));
const requests = (names: string[], milli = 100) => new Map(names.map((n) => [n, milli]));

test('CPU utilization over target scales to ceil(ratio × ready pods)', () => {
  // 2 pods at 90m of 100m requested = 90% against a 50% target: ratio 1.8, ceil(3.6) = 4.
  const result = calculateResourceReplicas(
    2,
    [pod('a'), pod('b')],
    samples([
      ['a', 90],
      ['b', 90],
    ]),
    requests(['a', 'b']),
    'cpu',
    { averageUtilization: 50 },
    options,
  );
  assert.equal(result, { replicas: 4, utilization: 90, rawAverage: 90 });
});

test('a ratio within the 0.1 tolerance keeps the current count', () => {
  // 54% against 50%: ratio 1.08.
  assert.is(
    calculateResourceReplicas(
      3,
      [pod('a'), pod('b'), pod('c')],
      samples([
        ['a', 54],
        ['b', 54],
        ['c', 54],
      ]),
      requests(['a', 'b', 'c']),
      'cpu',
      { averageUtilization: 50 },
      options,
    ).replicas,
    3,
  );
  // 56%: ratio 1.12 is outside it.
  assert.is(
    calculateResourceReplicas(
      3,
      [pod('a'), pod('b'), pod('c')],
      samples([
        ['a', 56],
        ['b', 56],
        ['c', 56],
      ]),
      requests(['a', 'b', 'c']),
      'cpu',
      { averageUtilization: 50 },
      options,
    ).replicas,
    4,
  );
  assert.is(
    calculateResourceReplicas(
      3,
      [pod('a'), pod('b'), pod('c')],
      samples([
        ['a', 56],
        ['b', 56],
        ['c', 56],
      ]),
      requests(['a', 'b', 'c']),
      'cpu',
      { averageUtilization: 50 },
      { ...options, tolerance: 0.2 },
    ).replicas,
    3,
  );
});

test('utilization is whole percent of summed requests before the ratio is taken', () => {
  // 3 × 33m of 100m = 33% (99/300 truncated), against 66%: ratio 0.5 → ceil(1.5) = 2.
  assert.equal(
    calculateResourceReplicas(
      3,
      [pod('a'), pod('b'), pod('c')],
      samples([
        ['a', 33],
        ['b', 33],
        ['c', 33],
      ]),
      requests(['a', 'b', 'c']),
      'cpu',
      { averageUtilization: 66 },
      options,
    ),
    { replicas: 2, utilization: 33, rawAverage: 33 },
  );
});

test('on a scale-up, unready pods count as idle, which can cancel the scale-up', () => {
  // a: 200% of request; b pending. With b at 0 the average is 100% against 100% → no change.
  const pods = [pod('a'), pod('b', { phase: 'Pending' })];
  assert.is(
    calculateResourceReplicas(
      2,
      pods,
      samples([['a', 200]]),
      requests(['a', 'b']),
      'cpu',
      { averageUtilization: 100 },
      options,
    ).replicas,
    2,
  );
  // a pod still in its CPU initialization window whose readiness is younger than a sample window is unready too.
  const fresh = [
    pod('a'),
    pod('c', { started: new Date(NOW - 20_000).toISOString(), readySince: new Date(NOW - 5_000).toISOString() }),
  ];
  assert.is(
    calculateResourceReplicas(
      2,
      fresh,
      samples([
        ['a', 200],
        ['c', 200],
      ]),
      requests(['a', 'c']),
      'cpu',
      { averageUtilization: 100 },
      options,
    ).replicas,
    2,
  );
  assert.is(
    calculateResourceReplicas(
      2,
      fresh,
      samples([
        ['a', 200],
        ['c', 200],
      ]),
      requests(['a', 'c']),
      'cpu',
      { averageUtilization: 100 },
      { ...options, cpuInitializationPeriodMs: 0 },
    ).replicas,
    4,
  );
});

test('on a scale-down, a pod without a sample counts as using its full request', () => {
  // a alone is at 10% (ratio 0.2); b, missing, counted at 100% lifts the average to 55%, past the target, so the count stays.
  assert.is(
    calculateResourceReplicas(
      2,
      [pod('a'), pod('b')],
      samples([['a', 10]]),
      requests(['a', 'b']),
      'cpu',
      { averageUtilization: 50 },
      options,
    ).replicas,
    2,
  );
  // three pods, two idle samples and one missing: (0 + 0 + 100) / 300 = 33% against 50% → ceil(0.66 × 3) = 2.
  assert.is(
    calculateResourceReplicas(
      3,
      [pod('a'), pod('b'), pod('c')],
      samples([
        ['a', 0],
        ['b', 0],
      ]),
      requests(['a', 'b', 'c']),
      'cpu',
      { averageUtilization: 50 },
      options,
    ).replicas,
    2,
  );
});

test('an AverageValue target divides the plain average by the target', () => {
  assert.equal(
    calculateResourceReplicas(
      2,
      [pod('a'), pod('b')],
      samples([
        ['a', 300],
        ['b', 300],
      ]),
      new Map(),
      'cpu',
      { averageValueMilli: 200 },
      options,
    ),
    { replicas: 3, rawAverage: 300 },
  );
});

test('no pods or no usable samples is an error the controller reports, not a count', () => {
  assert.throws(
    () => calculateResourceReplicas(1, [], new Map(), new Map(), 'cpu', { averageUtilization: 50 }, options),
    (e: unknown) => e instanceof MetricsError && /no pods returned by selector/.test((e as Error).message),
  );
  assert.throws(
    () =>
      calculateResourceReplicas(
        1,
        [pod('a', { phase: 'Pending' })],
        new Map(),
        requests(['a']),
        'cpu',
        { averageUtilization: 50 },
        options,
      ),
    /did not receive metrics for targeted pods/,
  );
});

test.run();
