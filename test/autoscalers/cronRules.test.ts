import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  heldFhpaLimits,
  evaluateCronRules,
  recordExecution,
  type CronRule,
  type RuleHistory,
} from '../../src/autoscalers/cronRules.ts';

const at = (text: string) => Date.parse(text);
const up: CronRule = { name: 'scale-up', schedule: '0 9 * * *', targetReplicas: 5, timeZone: 'Asia/Shanghai' };
const down: CronRule = { name: 'scale-down', schedule: '0 18 * * *', targetReplicas: 1, timeZone: 'Asia/Shanghai' };

test('a rule fires in its time zone when its minute falls between two looks; the last one wins', () => {
  // 09:00 in Shanghai is 01:00 UTC.
  const e = evaluateCronRules([up, down], at('2026-12-01T00:59:00Z'), at('2026-12-01T01:00:30Z'));
  assert.equal(
    e.fired.map((f) => [f.rule.name, new Date(f.scheduleTime).toISOString()]),
    [['scale-up', '2026-12-01T01:00:00.000Z']],
  );
  assert.is(evaluateCronRules([up, down], at('2026-12-01T01:00:00Z'), at('2026-12-01T09:59:00Z')).fired.length, 0);
  const both = evaluateCronRules([down, up], at('2026-11-30T00:00:00Z'), at('2026-12-01T12:00:00Z'));
  assert.equal(
    both.fired.map((f) => f.rule.name),
    ['scale-up', 'scale-down'],
    'each rule once, at its latest run (01:00Z and 10:00Z on 1 December), in time order',
  );
});

test("time zones are the names Go's LoadLocation takes: case counts, links and Local (the controller's UTC) are zones", () => {
  const rule = (timeZone: string): CronRule => ({ name: timeZone, schedule: '0 9 * * *', targetReplicas: 1, timeZone });
  const e = evaluateCronRules(
    ['America/New_York', 'US/Eastern', 'Local', 'america/new_york', 'utc'].map(rule),
    at('2026-12-01T00:00:00Z'),
    at('2026-12-02T00:00:00Z'),
  );
  assert.equal(
    e.fired.map((f) => [f.rule.name, new Date(f.scheduleTime).toISOString()]),
    [
      ['Local', '2026-12-01T09:00:00.000Z'],
      ['America/New_York', '2026-12-01T14:00:00.000Z'],
      ['US/Eastern', '2026-12-01T14:00:00.000Z'],
    ],
  );
  assert.equal(
    e.invalid.map((i) => i.message),
    ['unknown time zone "america/new_york"', 'unknown time zone "utc"'],
  );
});

test('a suspended rule does not fire; a bad schedule or time zone is reported, not run', () => {
  const e = evaluateCronRules(
    [
      { ...up, suspend: true },
      { name: 'bad', schedule: '61 * * * *' },
      { name: 'zone', schedule: '* * * * *', timeZone: 'Mars/Olympus' },
    ],
    at('2026-12-01T00:00:00Z'),
    at('2026-12-02T00:00:00Z'),
  );
  assert.is(e.fired.length, 0);
  assert.equal(e.invalid, [
    { rule: 'bad', message: 'invalid schedule: minute "61": out of range 0-59' },
    { rule: 'zone', message: 'unknown time zone "Mars/Olympus"' },
  ]);
});

test('history keeps the newest executions up to the limit (default 3) and the next execution time', () => {
  let h: RuleHistory = { ruleName: 'scale-up', successfulExecutions: [], failedExecutions: [] };
  for (let day = 1; day <= 4; day++) {
    const time = at(`2026-12-0${day}T01:00:00Z`);
    h = recordExecution(h, up, { ok: true, value: { scheduleTime: time, executionTime: time, appliedReplicas: 5 } });
  }
  assert.equal(
    h.successfulExecutions.map((e) => new Date(e.scheduleTime).toISOString().slice(0, 10)),
    ['2026-12-04', '2026-12-03', '2026-12-02'],
  );
  assert.is(new Date(h.nextExecutionTime!).toISOString(), '2026-12-05T01:00:00.000Z');
  const one = recordExecution(
    h,
    { ...up, failedHistoryLimit: 1 },
    { ok: false, value: { scheduleTime: 1, executionTime: 2, message: 'x' } },
  );
  assert.is(one.failedExecutions.length, 1);
});

test("a rule's FederatedHPA limits hold per field while Git's value is the one it ran over; an old record holds", () => {
  const applied = { minReplicas: 3, maxReplicas: 10, gitMinReplicas: 1, gitMaxReplicas: 4 };
  assert.equal(heldFhpaLimits(applied, { minReplicas: 1, maxReplicas: 4 }), { minReplicas: 3, maxReplicas: 10 });
  assert.equal(heldFhpaLimits(applied, { minReplicas: 1, maxReplicas: 6 }), { minReplicas: 3 });
  assert.equal(heldFhpaLimits(applied, { minReplicas: 2, maxReplicas: 4 }), { maxReplicas: 10 });
  assert.equal(heldFhpaLimits({ maxReplicas: 10 }, { minReplicas: 2, maxReplicas: 6 }), { maxReplicas: 10 });
  assert.equal(heldFhpaLimits(undefined, { minReplicas: 1, maxReplicas: 4 }), {});
});

test.run();
