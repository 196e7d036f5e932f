// The flotilla command the end-to-end suites start: src/ bundled (scripts/bundleCli.js) into a folder of the checkout,
// made right before the suites run, so a test after an edit runs that edit. bin/flotilla.js in a checkout runs src/
// through tsx, whose hooks cost each start some 2.5 s of CPU for `flotilla help`, against 0.55 s for the bundle; the
// suites start the command well over a thousand times.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_COMMON, bundleCli } from './bundleCli.js';

/**
 * Bundles `root`/src into a folder of its own, `root`/.test-build-PID (two test runs in one checkout never share one),
 * and returns the path of its cli.js and a function that removes the folder.
 */
export async function buildForTests(root) {
  const src = path.join(root, 'src');
  const out = path.join(root, `.test-build-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const remove = () => rmSync(out, { recursive: true, force: true });
  try {
    const cli = await bundleCli(src, out, await parserDigest(src, out));
    return { cli, remove };
  } catch (e) {
    remove();
    throw e;
  }
}

/** The digest src/outputs/parserCode.ts computes from `src`, with parserSources.ts bundled alone into `out` to run it. */
async function parserDigest(src, out) {
  const file = path.join(out, 'parserSources.mjs');
  await build({
    ...BUNDLE_COMMON,
    entryPoints: [path.join(src, 'outputs', 'parserSources.ts')],
    outfile: file,
    logLevel: 'warning',
  });
  const { parserSourcesDigest } = await import(pathToFileURL(file).href);
  rmSync(file);
  return parserSourcesDigest(src);
}
