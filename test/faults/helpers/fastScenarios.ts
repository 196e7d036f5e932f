// The fast rows of the reliability table as uvu tests, one test file per group of scenarios so that the end-to-end
// shards share them out (one file of every group took over two minutes of one shard). Each test fails if an object
// was lost or an expectation of its scenario was not met. `npm run test:faults` runs the same scenarios and prints the
// table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario, type ScenarioGroup } from './frame.ts';
import { SCENARIOS } from '../scenarios/index.ts';

/** The test file (test/faults/NAME.test.ts) that runs each group's fast scenarios. */
export const FILE_OF_GROUP: Readonly<Record<ScenarioGroup, string>> = {
  'bad input': 'badInput',
  source: 'sourceFaults',
  member: 'memberFaults',
  process: 'processFaults',
  deletion: 'deletionSafety',
  security: 'security',
  tenant: 'tenant',
  load: 'load',
};

/** Registers one uvu test per fast scenario of `group`, and runs them. */
export function testFastScenarios(group: ScenarioGroup): void {
  for (const scenario of SCENARIOS.filter((s) => s.speed === 'fast' && s.group === group)) {
    test(`${scenario.group}: ${scenario.name} (${scenario.injected})`, async () => {
      const { row, failures } = await runScenario(scenario);
      assert.equal(failures, [], `${row.scenario}: ${row.outcome}\n${failures.join('\n')}`);
      assert.is(row.lost, 0);
    });
  }
  test.run();
}
