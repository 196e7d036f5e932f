// CronFederatedHPA rule helpers, case by case (cases after pkg/util/helper/cronfederatedhpa_test.go at f8fdd02):
// whether a rule is suspended (IsCronFederatedHPARuleSuspend) and how many executions its history keeps
// (GetCronFederatedHPASuccessHistoryLimits, GetCronFederatedHPAFailedHistoryLimits: 3 unless set).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  evaluateCronRules,
  recordExecution,
  type CronRule,
  type RuleHistory,
} from '../../src/autoscalers/cronRules.ts';

const at = (text: string) => Date.parse(text);
const hourly: CronRule = { name: 'hourly', schedule: '0 * * * *', targetReplicas: 2 };

test('a rule runs unless suspend is true: unset and false both run', () => {
  const fired = (rule: CronRule) =>
    evaluateCronRules([rule], at('2026-12-01T00:30:00Z'), at('2026-12-01T01:30:00Z')).fired.length;
  assert.is(fired(hourly), 1, 'suspend unset');
  assert.is(fired({ ...hourly, suspend: true }), 0, 'suspend true');
  assert.is(fired({ ...hourly, suspend: false }), 1, 'suspend false');
});

test('a history keeps 3 executions of each kind unless its limit says otherwise', () => {
  const kept = (rule: CronRule, ok: boolean) => {
    let h: RuleHistory = { ruleName: rule.name, successfulExecutions: [], failedExecutions: [] };
    for (let hour = 1; hour <= 8; hour++) {
      const time = at(`2026-12-01T0${hour}:00:00Z`);
      h = ok
        ? recordExecution(h, rule, { ok: true, value: { scheduleTime: time, executionTime: time, appliedReplicas: 2 } })
        : recordExecution(h, rule, {
            ok: false,
            value: { scheduleTime: time, executionTime: time, message: 'failed' },
          });
    }
    return ok ? h.successfulExecutions.length : h.failedExecutions.length;
  };
  assert.is(kept(hourly, true), 3, 'successful, unset');
  assert.is(kept({ ...hourly, successfulHistoryLimit: 5 }, true), 5, 'successful, 5');
  assert.is(kept(hourly, false), 3, 'failed, unset');
  assert.is(kept({ ...hourly, failedHistoryLimit: 5 }, false), 5, 'failed, 5');
  assert.is(kept({ ...hourly, failedHistoryLimit: 0 }, false), 0, 'failed, 0');
});

test.run();
