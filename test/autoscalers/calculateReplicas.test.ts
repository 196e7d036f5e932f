import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  calculateAverageValueReplicas,
  calculateResourceReplicas,
  type ScaledPod,
} from '../../src/autoscalers/calculateReplicas.ts';

// Long running: started, and Ready since, at the epoch; the calculations run long after unless told the time.
const pod = (name: string, extra: Partial<ScaledPod> = {}): ScaledPod => ({
  name,
  phase: 'Running',
  ready: 'True',
  startTime: 0,
  readySince: 0,
  requestMilli: 100,
  ...extra,
});
const usage = (entries: Record<string, number>) => new Map(Object.entries(entries));
const replicas = (r: ReturnType<typeof calculateResourceReplicas>) => (r.ok ? r.value.replicas : r.message);

test('usage above target scales to ceil(ratio x ready pods); utilization is the integer percent of request', () => {
  const r = calculateResourceReplicas(2, 50, [pod('a'), pod('b')], usage({ a: 90, b: 70 }));
  assert.equal(r, { ok: true, value: { replicas: 4, utilization: 80, averageMilli: 80 } });
});

test('within the 10% tolerance the current count stays', () => {
  assert.is(replicas(calculateResourceReplicas(3, 50, [pod('a'), pod('b')], usage({ a: 54, b: 54 }))), 3);
  assert.is(replicas(calculateResourceReplicas(3, 50, [pod('a'), pod('b')], usage({ a: 56, b: 56 }))), 3);
});

test('usage below target scales down', () => {
  assert.is(
    replicas(
      calculateResourceReplicas(4, 50, [pod('a'), pod('b'), pod('c'), pod('d')], usage({ a: 10, b: 10, c: 10, d: 10 })),
    ),
    1,
  );
});

test('a pod without a metric counts as 100% of its request when scaling down, so the scale down is smaller', () => {
  const pods = [pod('a'), pod('b'), pod('c')];
  // a, b at 20% -> ratio 0.4; c missing counted at 100%: (20+20+100)/300 = 46% -> ratio 0.92 -> within tolerance.
  assert.is(replicas(calculateResourceReplicas(3, 50, pods, usage({ a: 20, b: 20 }))), 3);
  // a, b at 0%: (0+0+100)/300 = 33% -> ratio 0.66 -> ceil(0.66 x 3) = 2.
  assert.is(replicas(calculateResourceReplicas(3, 50, pods, usage({ a: 0, b: 0 }))), 2);
});

test('unready and pending pods count as 0 when scaling up, never turning a scale up into a scale down', () => {
  const pods = [pod('a'), pod('b', { ready: 'False' }), pod('c', { phase: 'Pending' })];
  // a alone at 100% -> ratio 2; with b, c at 0: 33% -> ratio 0.66 reverses the direction: keep.
  assert.is(replicas(calculateResourceReplicas(3, 50, pods, usage({ a: 100, b: 100 }))), 3);
  // a at 300%: with b, c at 0: 100% -> ratio 2 -> ceil(2 x 3) = 6.
  assert.is(replicas(calculateResourceReplicas(3, 50, pods, usage({ a: 300, b: 100 }))), 6);
});

test('deleting and Failed pods are ignored', () => {
  const pods = [pod('a'), pod('b', { deleting: true }), pod('c', { phase: 'Failed' })];
  assert.is(replicas(calculateResourceReplicas(3, 50, pods, usage({ a: 100, b: 0, c: 0 }))), 2);
});

test('a pod without a CPU request, or no pod with a metric, is an error (no decision)', () => {
  const noRequest = calculateResourceReplicas(1, 50, [pod('a', { requestMilli: undefined })], usage({ a: 1 }));
  assert.is(noRequest.ok, false);
  const noMetrics = calculateResourceReplicas(1, 50, [pod('a')], usage({}));
  assert.equal(noMetrics.ok ? '' : noMetrics.message, 'did not receive metrics for any ready pods');
  assert.is(calculateResourceReplicas(1, 50, [], usage({})).ok, false);
});

test("calibration (members' replicas over the template's) divides the proposal: a Duplicated template over 2 clusters", () => {
  // Karmada's replica_calculator: ceil(ratio x pods / calibration). 2 pods at 75% of a 50% target, one per cluster.
  const pods = [pod('member1/a'), pod('member2/b')];
  const load = usage({ 'member1/a': 75, 'member2/b': 75 });
  assert.is(replicas(calculateResourceReplicas(1, 50, pods, load)), 3, 'uncalibrated: the total');
  assert.is(replicas(calculateResourceReplicas(1, 50, pods, load, 0.1, 2)), 2, 'per cluster, as the template counts');
});

test('an AverageValue target: average usage per pod against the value, no requests needed', () => {
  const pods = [pod('a', { requestMilli: undefined }), pod('b', { requestMilli: undefined })];
  const r = calculateAverageValueReplicas(2, 50, pods, usage({ a: 90, b: 70 }));
  assert.equal(r, { ok: true, value: { replicas: 4, utilization: 0, averageMilli: 80 } });
  assert.is(replicas(calculateAverageValueReplicas(2, 80, pods, usage({ a: 90, b: 70 }))), 2, 'within tolerance');
  // Scaling down, a pod without a metric counts at the target (not at its request).
  const three = [pod('a'), pod('b'), pod('c')];
  assert.is(replicas(calculateAverageValueReplicas(3, 100, three, usage({ a: 10, b: 10 }))), 2);
  const none = calculateAverageValueReplicas(1, 50, [pod('a', { phase: 'Pending' })], usage({}));
  assert.equal(none, {
    ok: false,
    reason: 'FailedGetResourceMetric',
    message: 'did not receive metrics for any ready pods',
  });
});

test('a pod without a request of the resource fails the metric, naming the resource', () => {
  const pods = [pod('a'), pod('b', { requestMilli: undefined })];
  assert.is(
    replicas(calculateResourceReplicas(2, 50, pods, usage({ a: 10, b: 10 }), undefined, 1, { resource: 'memory' })),
    'missing request for memory in a container of Pod b',
  );
  assert.is(
    replicas(calculateResourceReplicas(2, 50, pods, usage({ a: 10, b: 10 }))),
    'missing request for cpu in a container of Pod b',
  );
});

// replica_calculator.go groupPods, as Karmada's TestGroupPods and the helper's probe read it.
test('readiness counts for CPU only: a Ready=False pod is unready for cpu, ready for memory', () => {
  const pods = [pod('a'), pod('b', { ready: 'False' })];
  const use = usage({ a: 100, b: 100 });
  // cpu: b is unready, its usage dropped; a alone at 200% -> ratio 2 -> ceil(2 x 1) = 2, within the corrections.
  assert.is(replicas(calculateResourceReplicas(2, 50, pods, use, 0.1, 1, { resource: 'cpu' })), 2);
  // memory: both count, 200% -> ratio 2 -> ceil(2 x 2) = 4.
  assert.is(replicas(calculateResourceReplicas(2, 50, pods, use, 0.1, 1, { resource: 'memory' })), 4);
});

test('for CPU, a pod that went NotReady after being Ready counts once its initialization period is over', () => {
  const minute = 60_000;
  const now = 60 * minute;
  const use = usage({ a: 100, b: 100 });
  const late = pod('b', { ready: 'False', startTime: 0, readySince: 30 * minute });
  assert.is(replicas(calculateResourceReplicas(2, 50, [pod('a'), late], use, 0.1, 1, { resource: 'cpu', now })), 4);
  // Never Ready: turned False within the readiness delay of its start.
  const never = pod('b', { ready: 'False', startTime: 0, readySince: 10_000 });
  assert.is(replicas(calculateResourceReplicas(2, 50, [pod('a'), never], use, 0.1, 1, { resource: 'cpu', now })), 2);
  // No startTime or no Ready condition: unready.
  assert.is(
    replicas(
      calculateResourceReplicas(2, 50, [pod('a'), pod('b', { startTime: undefined })], use, 0.1, 1, {
        resource: 'cpu',
        now,
      }),
    ),
    2,
  );
});

test('for CPU, inside its initialization period a Ready pod counts once a sample window has passed since it turned Ready', () => {
  const now = 120_000;
  const use = usage({ a: 100, b: 100 });
  const started = { startTime: 0, readySince: 60_000 };
  const a = pod('a', { sample: { timestamp: 100_000, windowMs: 30_000 } });
  const fresh = pod('b', { ...started, sample: { timestamp: 70_000, windowMs: 30_000 } });
  assert.is(replicas(calculateResourceReplicas(2, 50, [a, fresh], use, 0.1, 1, { resource: 'cpu', now })), 2);
  const settled = pod('b', { ...started, sample: { timestamp: 100_000, windowMs: 30_000 } });
  assert.is(replicas(calculateResourceReplicas(2, 50, [a, settled], use, 0.1, 1, { resource: 'cpu', now })), 4);
});

// Karmada's TestGroupPods builds pods whose Ready condition has no lastTransitionTime: Go reads it as the zero time.
test('for CPU, a Ready condition without a lastTransitionTime turned so before any start or sample', () => {
  const now = 60 * 60_000;
  const use = usage({ a: 150, b: 150 });
  // Started 30 s ago, inside the initialization period, sampled now over 1 minute: the sample counts.
  const young = pod('b', {
    startTime: now - 30_000,
    readySince: undefined,
    sample: { timestamp: now, windowMs: 60_000 },
  });
  assert.is(replicas(calculateResourceReplicas(2, 50, [pod('a'), young], use, 0.1, 1, { resource: 'cpu', now })), 6);
  // Ready=False long after its start, with no readiness delay: its start is still after that zero time, so never Ready.
  const down = pod('b', { ready: 'False', startTime: 0, readySince: undefined });
  const readiness = { resource: 'cpu', now, initialReadinessDelayMs: 0 };
  // a alone at 150% -> ratio 3; b counted at 0 for the scale up -> 75% -> ratio 1.5 -> ceil(1.5 x 2) = 3.
  assert.is(replicas(calculateResourceReplicas(2, 50, [pod('a'), down], use, 0.1, 1, readiness)), 3);
});

test('AverageValue: pods missing a metric are left out when the others are exactly at target, so the count stays', () => {
  // calcPlainMetricReplicas fills missing pods in only for a ratio below or above 1: at exactly 1 they count for nothing.
  const pods = ['a', 'b', 'c', 'd'].map((name) => pod(name));
  const r = calculateAverageValueReplicas(4, 100, pods, usage({ a: 100 }), 0.1, 1, { resource: 'memory' });
  assert.is(replicas(r), 4);
});

test.run();
