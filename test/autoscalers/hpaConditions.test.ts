import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hpaConditions, mergeHpaConditions } from '../../src/autoscalers/hpaConditions.ts';

const brief = (list: ReturnType<typeof hpaConditions>) => list.map((c) => `${c.type}=${c.status} ${c.reason}`);

test('no metric: AbleToScale True, ScalingActive False with the metric failure reason and message', () => {
  const out = hpaConditions({
    kind: 'metric-failed',
    reason: 'FailedGetResourceMetric',
    message: 'failed to get cpu utilization: did not receive metrics for any ready pods',
  });
  assert.equal(brief(out), ['AbleToScale=True SucceededGetScale', 'ScalingActive=False FailedGetResourceMetric']);
  assert.is(
    out[1]!.message,
    'the HPA was unable to compute the replica count: failed to get cpu utilization: did not receive metrics for any ready pods',
  );
  assert.equal(
    brief(hpaConditions({ kind: 'metric-failed', reason: 'FailedGetPodsMetric', message: 'x' }))[1],
    'ScalingActive=False FailedGetPodsMetric',
  );
});

test('a decision: SucceededRescale when the count moved, ValidMetricFound, ScalingLimited True only when limited', () => {
  const up = hpaConditions({
    kind: 'decided',
    ableToScale: 'ReadyForNewScale',
    scalingLimited: 'TooManyReplicas',
    rescale: true,
    desiredReplicas: 6,
    metricName: 'cpu resource utilization (percentage of request)',
  });
  assert.equal(brief(up), [
    'AbleToScale=True SucceededRescale',
    'ScalingActive=True ValidMetricFound',
    'ScalingLimited=True TooManyReplicas',
  ]);
  assert.is(up[0]!.message, 'the HPA controller was able to update the target scale to 6');
  assert.is(up[2]!.message, 'the desired replica count is more than the maximum replica count');
  const held = hpaConditions({
    kind: 'decided',
    ableToScale: 'ReadyForNewScale',
    scalingLimited: 'DesiredWithinRange',
    rescale: false,
    desiredReplicas: 2,
    metricName: 'cpu resource utilization (percentage of request)',
  });
  assert.equal(brief(held), [
    'AbleToScale=True ReadyForNewScale',
    'ScalingActive=True ValidMetricFound',
    'ScalingLimited=False DesiredWithinRange',
  ]);
  const few = hpaConditions({
    kind: 'decided',
    ableToScale: 'ReadyForNewScale',
    scalingLimited: 'TooFewReplicas',
    rescale: false,
    desiredReplicas: 1,
  });
  assert.equal(brief(few).at(-1), 'ScalingLimited=True TooFewReplicas');
});

test('a target at zero replicas is not scaled; no target cluster gives its scale: AbleToScale False FailedGetScale', () => {
  assert.equal(
    brief(
      hpaConditions({
        kind: 'decided',
        ableToScale: 'ScalingDisabled',
        scalingLimited: '',
        rescale: false,
        desiredReplicas: 0,
      }),
    ),
    ['AbleToScale=True SucceededGetScale', 'ScalingActive=False ScalingDisabled'],
  );
  assert.equal(brief(hpaConditions({ kind: 'no-scale', message: 'none' })), ['AbleToScale=False FailedGetScale']);
});

// Karmada's setConditionInList, as its TestSetConditionInList cases read it.
test('an evaluation updates the conditions it sets in place, keeps the others, and appends new types', () => {
  const c = (type: 'AbleToScale' | 'ScalingActive' | 'ScalingLimited', status: 'True' | 'False', reason: string) => ({
    type,
    status,
    reason,
    message: reason,
  });
  const decided = [
    c('AbleToScale', 'True', 'ReadyForNewScale'),
    c('ScalingActive', 'True', 'ValidMetricFound'),
    c('ScalingLimited', 'True', 'TooManyReplicas'),
  ];
  const failed = hpaConditions({ kind: 'metric-failed', reason: 'FailedGetResourceMetric', message: 'x' });
  assert.equal(brief(mergeHpaConditions(decided, failed)), [
    'AbleToScale=True SucceededGetScale',
    'ScalingActive=False FailedGetResourceMetric',
    'ScalingLimited=True TooManyReplicas',
  ]);
  assert.equal(brief(mergeHpaConditions([c('ScalingActive', 'True', 'ValidMetricFound')], [decided[0]!])), [
    'ScalingActive=True ValidMetricFound',
    'AbleToScale=True ReadyForNewScale',
  ]);
  assert.equal(brief(mergeHpaConditions(undefined, failed)), brief(failed));
});

test.run();
