// The fast rows of the reliability table as uvu tests: each fails if an object was lost or an expectation of
// its scenario was not met. `npm run test:faults` runs the same scenarios and prints the table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from './helpers/frame.ts';
import { SCENARIOS } from './scenarios/index.ts';

for (const scenario of SCENARIOS.filter((s) => s.speed === 'fast')) {
  test(`${scenario.group}: ${scenario.name} (${scenario.injected})`, async () => {
    const { row, failures } = await runScenario(scenario);
    assert.equal(failures, [], `${row.scenario}: ${row.outcome}\n${failures.join('\n')}`);
    assert.is(row.lost, 0);
  });
}

test.run();
