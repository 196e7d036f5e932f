#!/usr/bin/env node
// The package runs dist/lib/cli.js, the command bundled by `npm run build` (scripts/build.js); it ships no src/ and
// no tsx. A source checkout (src/ beside bin/) runs src/ through tsx, a development dependency, so a test or a demo
// right after an edit runs that edit, never a dist/ built before it.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src/cli.ts', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
} else {
  await import('../dist/lib/cli.js');
}
