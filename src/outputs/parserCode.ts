import path from 'node:path';
import { parserSourcesDigest } from './parserSources.ts';

/**
 * The digest of the code that parses kept files (parserSources.ts). Run from src/ (tests, development through tsx)
 * it is computed from the sources now; the build (scripts/build.js) replaces this module in dist/ with the same
 * digest computed at build time, so the package never reads source files, which it does not ship.
 */
export function parserCodeDigest(): string {
  return parserSourcesDigest(path.resolve(import.meta.dirname, '..'));
}
