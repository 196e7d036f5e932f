// A Job's status gathered from its members (cases after pkg/util/helper/job_test.go at f8fdd02, TestParsingJobStatus,
// first case; the second and TestGetJobFinishedStatus are in karmadaWorkStatusCases.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { aggregateStatus } from '../../src/interpreters/aggregateStatus.ts';

test('a Job complete on every member sums its successes under Complete and SuccessCriteriaMet conditions', () => {
  const complete = {
    active: 0,
    succeeded: 1,
    failed: 0,
    startTime: '2026-01-01T00:00:00Z',
    completionTime: '2026-01-01T00:01:00Z',
    conditions: [
      { type: 'Complete', status: 'True' },
      { type: 'SuccessCriteriaMet', status: 'True' },
    ],
  };
  const member = (clusterName: string) => ({
    clusterName,
    applied: true,
    health: 'Healthy' as const,
    status: complete,
  });
  const agg = aggregateStatus('batch/v1', 'Job', [member('memberA'), member('memberB')])!;
  assert.is(agg.active, undefined, 'omitempty: no active Job');
  assert.is(agg.succeeded, 2);
  assert.is(agg.failed, undefined, 'omitempty: none failed');
  const conditions = (agg.conditions as Record<string, unknown>[]).map(({ type, status, reason, message }) => ({
    type,
    status,
    reason,
    message,
  }));
  assert.equal(conditions, [
    { type: 'Complete', status: 'True', reason: 'Completed', message: 'Job completed' },
    {
      type: 'SuccessCriteriaMet',
      status: 'True',
      reason: 'CompletionsReached',
      message: 'All member clusters have met success criteria',
    },
  ]);
});

test.run();
