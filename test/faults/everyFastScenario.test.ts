// Every fast reliability scenario runs in npm test: its group has a test file of its own (helpers/fastScenarios.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FILE_OF_GROUP } from './helpers/fastScenarios.ts';
import { SCENARIOS } from './scenarios/index.ts';

test('the group of every fast scenario has the test file that runs it', () => {
  const groups = new Set(SCENARIOS.filter((s) => s.speed === 'fast').map((s) => s.group));
  assert.ok(groups.size > 0);
  for (const group of groups) {
    const file = path.join(import.meta.dirname, `${FILE_OF_GROUP[group]}.test.ts`);
    assert.ok(existsSync(file), `${file} runs the fast scenarios of ${group}`);
  }
});

test.run();
