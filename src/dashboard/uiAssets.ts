import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { humanDuration } from '../time/humanDuration.ts';

/** One file the page loads, held in memory: the whole UI is a few hundred kilobytes. */
export interface UiAsset {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// The page's own files sit at the package root beside repo-template/: src/dashboard/ and dist/dashboard/ both reach it
// as ../../ui, so a source checkout and the installed package serve the same files.
const UI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ui');

/**
 * Preact, its hooks and htm, served from the installed packages under /ui/vendor/ (no CDN): resolved through Node's
 * own resolution, so whichever node_modules holds them (a checkout's, or the one the package was installed into).
 */
const VENDOR: Record<string, (require: NodeJS.Require) => string> = {
  'preact.mjs': (require) => require.resolve('preact'),
  'hooks.mjs': (require) => require.resolve('preact/hooks'),
  // htm exports its ES module build only under the "browser" condition Node never matches: found beside its main file.
  'htm.mjs': (require) => path.join(path.dirname(require.resolve('htm')), 'htm.module.js'),
};

/**
 * Functions the CLI and the page share, served as modules under /ui/shared/ from the code the CLI runs, so an age on
 * the page reads as `kubectl get` and `flotilla get` print it, from one definition. Each is self-contained (no
 * imports, no closure), which is what makes its source text a module of its own.
 */
const SHARED: Record<string, (...args: never[]) => unknown> = { 'humanDuration.mjs': humanDuration };

/** Every file the page can ask for, by URL path under /ui/. */
export function loadUiAssets(): Map<string, UiAsset> {
  const out = new Map<string, UiAsset>();
  let names: string[];
  try {
    names = readdirSync(UI_DIR);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // With a code, the command prints the message alone: an install missing a folder, not a fault of the code.
    throw Object.assign(
      new Error(
        `the dashboard's page is not installed: no folder ${UI_DIR}; fix: install the whole package (its ui/ folder sits beside dist/), or copy ui/ into the image beside dist/ as deploy/Containerfile does`,
      ),
      { code: 'UI_NOT_INSTALLED' },
    );
  }
  for (const name of names) {
    const type = TYPES[path.extname(name)];
    if (type && /^[a-z0-9-]+\.[a-z]+$/.test(name))
      out.set(`/ui/${name}`, { body: readFileSync(path.join(UI_DIR, name)), type });
  }
  const require = createRequire(import.meta.url);
  for (const [file, locate] of Object.entries(VENDOR))
    out.set(`/ui/vendor/${file}`, { body: readFileSync(locate(require)), type: TYPES['.mjs']! });
  for (const [file, fn] of Object.entries(SHARED))
    out.set(`/ui/shared/${file}`, { body: Buffer.from(`export ${fn.toString()}\n`), type: TYPES['.mjs']! });
  return out;
}
