import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatProblem } from '../../src/errors/problem.ts';

test('formatProblem prints path:line:col, severity, code, message and a fix line', () => {
  const text = formatProblem({
    file: 'policies/web.yaml',
    line: 12,
    column: 5,
    code: 'POLICY_SELECTS_NOTHING',
    severity: 'error',
    message: 'PropagationPolicy "web" selects nothing',
    fix: 'correct spec.resourceSelectors[0].name',
  });
  assert.is(
    text,
    'policies/web.yaml:12:5  error  POLICY_SELECTS_NOTHING  PropagationPolicy "web" selects nothing\n  fix: correct spec.resourceSelectors[0].name',
  );
});

test.run();
