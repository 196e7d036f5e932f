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
// run in shards side by side, as many as the machine has cores, 2 at least, FLOTILLA_TEST_JOBS to choose (1: one
// process, as uvu alone runs them). Each file goes to the first shard that is free, so the shards end together.
const jobs = Math.max(1, Number(process.env.FLOTILLA_TEST_JOBS) || Math.max(2, os.availableParallelism()));
const shardRunner = path.join(root, 'scripts', 'uvuFiles.mjs');
const shardProcesses = new Set();
/** How many of the slowest files a sharded run names at its end. */
const SLOWEST_SHOWN = 12;
/** What a shard prints after a file's suites and their summary (scripts/uvuFiles.mjs). */
const FILE_DONE = '\u001euvu file done';

/** The suite files of one run, relative to the repository, sorted as uvu sorts them. */
async function suiteFiles({ dir, pattern, ignore }) {
  const { suites: found } = await parse(dir, pattern, { cwd: root, ignore: ['fixtures', 'helpers', ...ignore] });
  return found.map((s) => path.relative(root, s.file));
}

/** uvu's summary counts in `out`, summed over every summary it holds. */
function summaryCounts(out) {
  const sum = (label) =>
    [...out.matchAll(new RegExp(`${label}:\\s+(\\d+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
  const total = sum('Total');
  const passed = sum('Passed');
  const skipped = sum('Skipped');
  return { total, passed, skipped, failed: total - passed - skipped };
}

/** A process running scripts/uvuFiles.mjs with `args`; `dealt`: with the IPC channel its files come through. */
function startShard(imports, args, dealt) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...imports.flatMap((i) => ['--import', i]), shardRunner, ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit', ...(dealt ? ['ipc'] : [])],
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  shardProcesses.add(child);
  child.on('close', () => shardProcesses.delete(child));
  return child;
}

/** Runs files in one process, its output passed on as it comes; a crash before uvu's summary counts as one failure. */
function runTogether(files, imports) {
  const child = startShard(imports, files, false);
  let out = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    out += chunk.toString();
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      const { total, passed, skipped, failed } = summaryCounts(out);
      if (signal) console.log(`test runner ended by ${signal}`);
      resolve({ passed, skipped, failed: failed + (code !== 0 && total === passed + skipped ? 1 : 0) });
    }),
  );
}

/**
 * Runs files in `n` shards, each file dealt to the first shard free. A file's output is printed whole once it is done,
 * without uvu's per-file summary; one summary for them all ends the run. A shard that ends before a file is done
 * counts it as one failure, and a new shard takes the files left.
 */
async function runDealt(files, imports, n) {
  const queue = [...files];
  const counts = { total: 0, passed: 0, skipped: 0, failed: 0 };
  const started = performance.now();
  /** Seconds each file took in its shard, for the slowest listed at the end (where to look for a faster run). */
  const took = new Map();
  const fileDone = (file, out, crash) => {
    const c = summaryCounts(out);
    for (const k of Object.keys(counts)) counts[k] += c[k];
    const shown = out.replace(/\n {2}(Total|Passed|Skipped|Duration):.*/g, '').trimEnd();
    process.stdout.write(
      `${shown || file}\n${crash ? `  ${file}: its test process ${crash} before it was done\n` : ''}\n`,
    );
    if (crash && c.failed === 0) counts.failed += 1;
  };
  const shard = () =>
    new Promise((resolve) => {
      const child = startShard(imports, ['--dealt', FILE_DONE], true);
      let file;
      let fileStarted = 0;
      let out = '';
      const next = () => {
        if (file !== undefined) took.set(file, (performance.now() - fileStarted) / 1000);
        file = queue.shift();
        fileStarted = performance.now();
        // A shard gone meanwhile: its close handler reports the file.
        child.send(file ?? null, () => {});
      };
      child.stdout.on('data', (chunk) => {
        out += chunk.toString();
        for (let end = out.indexOf(`${FILE_DONE}\n`); end >= 0; end = out.indexOf(`${FILE_DONE}\n`)) {
          fileDone(file, out.slice(0, end), undefined);
          out = out.slice(end + FILE_DONE.length + 1);
          next();
        }
      });
      child.on('close', (code, signal) => {
        if (file === undefined) return resolve();
        fileDone(file, out, signal ? `was ended by ${signal}` : `exited with code ${code}`);
        resolve(queue.length > 0 ? shard() : undefined);
      });
      next();
    });
  await Promise.all(Array.from({ length: Math.min(n, files.length) }, shard));
  const slowest = [...took].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
  process.stdout.write(
    `Slowest files (s): ${slowest.map(([file, seconds]) => `${path.relative(path.join(root, 'test'), path.join(root, file))} ${seconds.toFixed(1)}`).join(', ')}\n\n`,
  );
  process.stdout.write(
    `  Total:     ${counts.total}\n  Passed:    ${counts.passed}\n  Skipped:   ${counts.skipped}\n` +
      `  Duration:  ${(performance.now() - started).toFixed(2)}ms\n\n`,
  );
  return counts;
}

/** Runs one set of suites, in shards when it is large enough to gain from them. */
async function run(r) {
  const files = await suiteFiles(r);
  const n = r.imports.includes(GUARD) ? 1 : Math.min(jobs, Math.ceil(files.length / 10));
  return n <= 1 ? runTogether(files, r.imports) : runDealt(files, r.imports, n);
}

// The flotilla command the end-to-end suites start (test/helpers/flotillaBin.ts), bundled from src/ as it is now.
const testBuild = runs.some((r) => !r.imports.includes(GUARD))
  ? await buildForTests(root).catch(() => {
      // esbuild has printed each error with its file and line.
      console.log(
        'src/ did not bundle for the end-to-end suites: fix the errors above (npm run typecheck lists them too)',
      );
      console.log('0 passed, 1 failed');
      process.exit(1);
    })
  : undefined;
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
try {
  // One after the other, every suite to its end: a failing unit test does not hide how the end-to-end ones fare.
  for (const r of runs) {
    const counts = await run(r);
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
} finally {
  testBuild?.remove();
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
