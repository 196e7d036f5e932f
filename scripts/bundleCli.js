// The flotilla command as one code-split bundle: src/cli.ts and the dashboard's off-thread worker, with every module
// of src/ they import, into `outDir`/lib. Run module by module (dist/'s tsc emit), `flotilla help` took 0.56-0.83 s;
// bundled, where a command loads only the chunks it imports (cli.ts imports each command when it is named),
// 0.12-0.17 s, and `flotilla get --help` 0.35-0.45 s. Both dist/ (scripts/build.js, what the package runs) and the
// end-to-end suites' build (scripts/testBuild.js) are made here. Every output file
// sits one folder down, as dist/'s modules do (dist/commands/x.js), so each path a module finds from its own folder,
// ../../ui, ../../repo-template or ../../.tools, is the same, and offThreadWorker.js is beside every chunk that
// starts it. Packages stay imports of node_modules; types are checked by tsc, not here.
import path from 'node:path';
import { build } from 'esbuild';
import { parserCodeModuleText } from './parserCodeModule.js';

export const BUNDLE_COMMON = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external' };

/**
 * Bundles `src` into `outDir`/lib, outputs/parserCode.ts replaced by a module returning `digest` (the digest of the
 * parsing code, computed at build time from the same `src`), and returns the path of the bundle's cli.js.
 */
export async function bundleCli(src, outDir, digest) {
  const lib = path.join(outDir, 'lib');
  await build({
    ...BUNDLE_COMMON,
    entryPoints: {
      cli: path.join(src, 'cli.ts'),
      offThreadWorker: path.join(src, 'dashboard', 'offThreadWorker.ts'),
    },
    outdir: lib,
    splitting: true,
    chunkNames: '[name]-[hash]',
    // No source maps: inline ones made each start read and scan 2.8 times the bytes.
    sourcemap: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'parser-code-digest',
        setup(b) {
          // The digest computed now, not from sources the bundle's folder does not hold.
          b.onLoad({ filter: /[\\/]outputs[\\/]parserCode\.ts$/ }, (args) =>
            args.path === path.join(src, 'outputs', 'parserCode.ts')
              ? { contents: parserCodeModuleText(digest), loader: 'js' }
              : undefined,
          );
        },
      },
    ],
  });
  return path.join(lib, 'cli.js');
}
