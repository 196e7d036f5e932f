// The flotilla command the end-to-end suites start: src/ bundled into a folder of the checkout, made right before the
// suites run, so a test after an edit runs that edit. bin/flotilla.js in a checkout runs src/ through tsx, whose hooks
// cost each start some 2.5 s of CPU for `flotilla help`; the same modules transpiled one by one, as in dist/, 0.9 s;
// bundled (code split, so a command loads only the chunks it imports), 0.55 s. The suites start the command well over a
// thousand times. Every output file sits one folder down, as dist/'s modules do (dist/commands/x.js), so each path a
// module finds from its own folder, ../../ui, ../../repo-template or ../../.tools, is the same, and the dashboard's
// offThreadWorker.js is beside every chunk that starts it. Packages stay imports of node_modules. tsx runs src/ through
// esbuild too; types are not checked here: `npm test` runs tsc first.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { parserCodeModuleText } from './parserCodeModule.js';

const COMMON = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external' };

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
    const digest = await parserDigest(src, out);
    await build({
      ...COMMON,
      entryPoints: {
        cli: path.join(src, 'cli.ts'),
        offThreadWorker: path.join(src, 'dashboard', 'offThreadWorker.ts'),
      },
      outdir: path.join(out, 'lib'),
      splitting: true,
      chunkNames: '[name]-[hash]',
      // No source maps: inline ones made each start read and scan 2.8 times the bytes.
      sourcemap: false,
      logLevel: 'warning',
      plugins: [
        {
          name: 'parser-code-digest',
          setup(b) {
            // As in dist/: the digest computed now, not from sources the bundle's folder does not hold.
            b.onLoad({ filter: /[\\/]outputs[\\/]parserCode\.ts$/ }, (args) =>
              args.path === path.join(src, 'outputs', 'parserCode.ts')
                ? { contents: parserCodeModuleText(digest), loader: 'js' }
                : undefined,
            );
          },
        },
      ],
    });
  } catch (e) {
    remove();
    throw e;
  }
  return { cli: path.join(out, 'lib', 'cli.js'), remove };
}

/** The digest src/outputs/parserCode.ts computes from `src`, with parserSources.ts bundled alone into `out` to run it. */
async function parserDigest(src, out) {
  const file = path.join(out, 'parserSources.mjs');
  await build({
    ...COMMON,
    entryPoints: [path.join(src, 'outputs', 'parserSources.ts')],
    outfile: file,
    logLevel: 'warning',
  });
  const { parserSourcesDigest } = await import(pathToFileURL(file).href);
  rmSync(file);
  return parserSourcesDigest(src);
}
