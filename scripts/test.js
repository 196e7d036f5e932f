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
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parse } from 'uvu/parse';
import { buildForTests } from './testBuild.js';

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

// End-to-end suites wait on child processes, sockets, git and timers, which leaves a core idle in one process: they
// run in shards side by side, one process each, as many as the machine has cores, 2 at least, FLOTILLA_TEST_JOBS to
// choose (1: one process, as uvu alone runs them). Files are dealt in turn from a list sorted by name, so a shard
// always gets the same files.
const jobs = Math.max(1, Number(process.env.FLOTILLA_TEST_JOBS) || Math.max(2, os.availableParallelism()));
const shardRunner = path.join(root, 'scripts', 'uvuFiles.mjs');
const shardProcesses = new Set();

/** The suite files of one run, relative to the repository, sorted as uvu sorts them. */
async function suiteFiles({ dir, pattern, ignore }) {
  const { suites: found } = await parse(dir, pattern, { cwd: root, ignore: ['fixtures', 'helpers', ...ignore] });
  return found.map((s) => path.relative(root, s.file));
}

/**
 * Runs one shard: its files in one process. Lines are passed on whole, prefixed with the shard when there are several,
 * so that two shards' output never mixes within a line. Resolves to its counts, a crash before uvu's summary counting
 * as one failure.
 */
function runShard(files, imports, tag) {
  const args = ['--import', 'tsx', ...imports.flatMap((i) => ['--import', i]), shardRunner, ...files];
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  shardProcesses.add(child);
  child.on('close', () => shardProcesses.delete(child));
  let out = '';
  let pending = '';
  child.stdout.on('data', (chunk) => {
    const text = chunk.toString();
    out += text;
    if (!tag) return process.stdout.write(text);
    pending += text;
    const end = pending.lastIndexOf('\n');
    if (end < 0) return;
    for (const line of pending.slice(0, end).split('\n')) process.stdout.write(`${tag} ${line}\n`);
    pending = pending.slice(end + 1);
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      if (tag && pending) process.stdout.write(`${tag} ${pending}\n`);
      const num = (label) => Number((out.match(new RegExp(`${label}:\\s+(\\d+)`)) ?? [])[1] ?? 0);
      const total = num('Total');
      const passed = num('Passed');
      const skipped = num('Skipped');
      const failed = total - passed - skipped + (code !== 0 && total === passed + skipped ? 1 : 0);
      if (signal) console.log(`test runner${tag ? ` ${tag}` : ''} ended by ${signal}`);
      resolve({ passed, failed, skipped });
    }),
  );
}

/** Runs one set of suites, in shards when it is large enough to gain from them. */
async function run(r) {
  const files = await suiteFiles(r);
  const n = r.imports.includes(GUARD) ? 1 : Math.min(jobs, Math.ceil(files.length / 10));
  if (n <= 1) return runShard(files, r.imports, '');
  const shards = Array.from({ length: n }, (_, k) => files.filter((_, i) => i % n === k));
  const counts = await Promise.all(shards.map((f, k) => runShard(f, r.imports, `[${k + 1}/${n}]`)));
  return counts.reduce((a, b) => ({
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    skipped: a.skipped + b.skipped,
  }));
}

// The flotilla command the end-to-end suites start (test/helpers/flotillaBin.ts), transpiled from src/ as it is now.
const testBuild = runs.some((r) => !r.imports.includes(GUARD)) ? await buildForTests(root) : undefined;
if (testBuild) {
  process.env.FLOTILLA_TEST_BIN = testBuild.cli;
  // Ctrl-C reaches the shards too (one process group); a signal sent to this process alone is passed on to them.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => {
      for (const child of shardProcesses) child.kill(signal);
      testBuild.remove();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
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
testBuild?.remove();
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
