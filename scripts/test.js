#!/usr/bin/env node
// Runs the uvu suites under test/ and ends with the plain `N passed, N failed` line that CI reads (uvu's own summary
// is "Total/Passed/Skipped"), one line for all suites run.
//   node scripts/test.js            unit, then end-to-end
//   node scripts/test.js unit|e2e   one of them
//   node scripts/test.js DIR [PATTERN]   the suites of one folder
// Unit and end-to-end are told apart by folder (test/ mirrors src/), so renaming a test file never moves it: the
// folders in UNIT hold pure tests only, no processes and no network, which a guard loaded before them enforces; every
// other folder, a new one included, is end-to-end.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const UNIT = [
  'assignments',
  'concurrency',
  'errors',
  'evictions',
  'kubeValidation',
  'labels',
  'leases',
  'overrides',
  'patches',
  'quantities',
  'selectors',
  'shards',
  'sorting',
  'taints',
  'text',
];
const GUARD = './test/helpers/forbidProcessesAndNetwork.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');
const unitFolders = `^(${UNIT.join('|')})`;
const suites = {
  unit: { dir: 'test', pattern: `${unitFolders}[\\\\/].*\\.test\\.ts$`, ignore: [], imports: [GUARD] },
  e2e: { dir: 'test', pattern: '\\.test\\.ts$', ignore: [`${unitFolders}$`], imports: [] },
};
const [first, pattern = '\\.test\\.ts$'] = process.argv.slice(2);
const runs =
  first === undefined
    ? [suites.unit, suites.e2e]
    : first in suites
      ? [suites[first]]
      : [{ dir: first, pattern, ignore: [], imports: [] }];

/** Runs one uvu invocation; resolves to its counts, a crash before uvu's summary counting as one failure. */
function run({ dir, pattern, ignore, imports }) {
  const ignores = ['fixtures', 'helpers', ...ignore].flatMap((i) => ['-i', i]);
  const args = ['--import', 'tsx', ...imports.flatMap((i) => ['--import', i]), uvu, dir, pattern, ...ignores];
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    out += chunk.toString();
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const num = (label) => Number((out.match(new RegExp(`${label}:\\s+(\\d+)`)) ?? [])[1] ?? 0);
      const total = num('Total');
      const passed = num('Passed');
      const skipped = num('Skipped');
      const failed = total - passed - skipped + (code !== 0 && total === passed + skipped ? 1 : 0);
      if (signal) console.log(`test runner ended by ${signal}`);
      resolve({ passed, failed, skipped });
    }),
  );
}

let passed = 0;
let failed = 0;
let skipped = 0;
// One after the other, every suite to its end: a failing unit test does not hide how the end-to-end ones fare.
for (const r of runs) {
  const counts = await run(r);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
