// The flotilla command the end-to-end suites start: src/ transpiled module by module into a folder of the checkout,
// in the layout of dist/ (so every path a module finds from its own folder, ../../ui or ../../repo-template, is the
// same), made right before the suites run, so a test after an edit runs that edit. bin/flotilla.js in a checkout
// runs src/ through tsx, whose hooks cost each start some 2.5 s of CPU for `flotilla help` against 1.1 s for the same
// modules as plain JavaScript; the suites start the command a few hundred times. tsx runs src/ through esbuild too,
// so this is the code the tests ran before, without the hooks. Types are not checked here: `npm test` runs tsc first.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { writeParserCodeModule } from './parserCodeModule.js';

/**
 * Transpiles `root`/src into a folder of its own, `root`/.test-build-PID (two test runs in one checkout never share
 * one), and returns the path of its cli.js and a function that removes the folder.
 */
export async function buildForTests(root) {
  const src = path.join(root, 'src');
  const out = path.join(root, `.test-build-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const entryPoints = readdirSync(src, { recursive: true })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(src, f));
  const built = build({
    entryPoints,
    outdir: out,
    outbase: src,
    // Bundling only so that the plugin below sees every import: each one stays an import, a relative one renamed from
    // .ts to .js as tsc's rewriteRelativeImportExtensions renames it for dist/.
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // No source maps: inline ones made each start read and scan 2.8 times the bytes (0.67 s against 0.60 s for help).
    sourcemap: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'every-import-external',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point'
              ? undefined
              : { path: args.path.replace(/^(\.\.?\/.*)\.ts$/, '$1.js'), external: true },
          );
        },
      },
    ],
  });
  try {
    await built;
    await writeParserCodeModule(out, src);
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  }
  return { cli: path.join(out, 'cli.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}
