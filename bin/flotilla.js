#!/usr/bin/env node
// The CLI is written in TypeScript and run through tsx, so `npx flotilla` works right after `npm ci`
// with no build step and no output folder to keep in sync with src/.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
