#!/usr/bin/env node
// Runs every uvu suite under test/ and ends with the plain `N passed, N failed` line that CI reads
// (uvu's own summary is "Total/Passed/Skipped"). Usage: node scripts/test.js [dir] [pattern]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const [dir = 'test', pattern = '\\.test\\.ts$'] = process.argv.slice(2);
const uvu = path.join(root, 'node_modules', 'uvu', 'bin.js');
const child = spawn(process.execPath, ['--import', 'tsx', uvu, dir, pattern, '-i', 'fixtures', '-i', 'helpers'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NO_COLOR: '1' },
});
let out = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  out += chunk.toString();
});
child.on('close', (code, signal) => {
  const num = (label) => Number((out.match(new RegExp(`${label}:\\s+(\\d+)`)) ?? [])[1] ?? 0);
  const total = num('Total');
  const passed = num('Passed');
  const skipped = num('Skipped');
  // A crash before uvu's summary still counts as a failure, never as a silent pass.
  const failed = total - passed - skipped + (code !== 0 && total === passed + skipped ? 1 : 0);
  if (signal) console.log(`test runner ended by ${signal}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code === 0 && failed === 0 ? 0 : 1);
});
