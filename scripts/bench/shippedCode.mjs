// `node --import tsx --import ./scripts/bench/shippedCode.mjs …`: the bench measures the package as users run it,
// dist/ (what `npm ci` builds and bin/flotilla.js imports outside a checkout), not src/ through tsx. The same code
// through tsx (esbuild's output, loaded by tsx's hooks with source maps on) measured 5-10 % slower small syncs and a
// ~7 % slower cold render; esbuild's keepNames alone, tried on dist/, did not account for it. The bench keeps
// importing src/…/x.ts (its types come from there); this resolves each such module to dist/…/x.js, built fresh here
// once per bench run (a child process started by the bench inherits the build), and loads it without tsx.
import { execFileSync } from 'node:child_process';
import { register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
if (process.env.FLOTILLA_BENCH_DIST_BUILT !== '1') {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: ['ignore', 2, 2] });
  process.env.FLOTILLA_BENCH_DIST_BUILT = '1';
}
register('./shippedCodeHooks.mjs', import.meta.url, {
  data: {
    src: `${pathToFileURL(path.join(root, 'src')).href}/`,
    dist: `${pathToFileURL(path.join(root, 'dist')).href}/`,
  },
});
