#!/usr/bin/env node
// Builds dist/, what the package runs: a clean tsc emit of src/ (tsconfig.build.json), then the parsing code's
// digest fixed into dist/outputs/parserCode.js (see src/outputs/parserCode.ts), so the package never reads src/, and
// the command bundled into dist/lib/ (scripts/bundleCli.js, which says what it saves a start), which bin/flotilla.js
// starts. The modules one by one stay for what imports them singly (the benchmark measures dist/'s modules,
// scripts/bench/shippedCode.mjs).
// Plain JavaScript on purpose: `npm ci` runs it through `prepare`, before anything could run TypeScript.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bundleCli } from './bundleCli.js';
import { writeParserCodeModule } from './parserCodeModule.js';

const root = path.dirname(import.meta.dirname);
const dist = path.join(root, 'dist');
// Emptied first: tsc never deletes the output of a module that was moved or removed since the last build.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });

const src = path.join(root, 'src');
await bundleCli(src, dist, await writeParserCodeModule(dist, src));
