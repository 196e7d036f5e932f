// deploy/Containerfile without building it (no container engine here): what it copies from the build context
// exists, what it copies into the runtime image is what `npm pack` ships, and its entrypoint is the package's CLI.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { containerfileStages } from '../helpers/containerfileStages.ts';
import { runProgram } from '../helpers/runProgram.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONTAINERFILE = readFileSync(path.join(ROOT, 'deploy', 'Containerfile'), 'utf8');

const parsed = containerfileStages(CONTAINERFILE);
const runtime = parsed[parsed.length - 1]!;

test('every path copied from the build context exists in the repository', () => {
  const fromContext = parsed.flatMap((s) => s.copies.filter((c) => !c.from).flatMap((c) => c.sources));
  assert.ok(fromContext.includes('src/'), 'the build stage compiles src/');
  for (const source of fromContext) assert.ok(existsSync(path.join(ROOT, source)), `${source} exists`);
});

test("the build stage copies every script `npm run build` imports, each where the build's imports find it", () => {
  const build = parsed.find((s) => s.lines.includes('RUN npm run build'))!;
  const copied = build.copies
    .filter((c) => !c.from)
    .flatMap((c) =>
      c.sources.map((source) =>
        c.target.endsWith('/') ? path.posix.join(c.target, path.posix.basename(source)) : c.target,
      ),
    );
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } };
  const script = /^node (\S+)$/.exec(pkg.scripts.build)?.[1];
  assert.ok(script, `npm run build runs one script: ${pkg.scripts.build}`);
  const wanted = [path.posix.normalize(script!)];
  for (let i = 0; i < wanted.length; i++) {
    const text = readFileSync(path.join(ROOT, wanted[i]!), 'utf8');
    for (const [, rel] of text.matchAll(/^import\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm))
      wanted.push(path.posix.join(path.posix.dirname(wanted[i]!), rel!));
  }
  assert.ok(wanted.length > 1, 'the build imports a script of its own');
  for (const file of wanted) assert.ok(copied.includes(file), `${file} is copied into the build stage`);
});

test('the runtime image holds what `npm pack` ships (less the demo), production dependencies, and no sources', async () => {
  const pack = await runProgram('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  });
  assert.is(pack.code, 0, pack.stderr);
  const packed = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  const byStage = new Map(parsed.map((s) => [s.name, s]));
  const copied: string[] = [];
  for (const copy of runtime.copies) {
    for (const source of copy.sources) {
      copied.push(source);
      if (!copy.from) {
        // From the build context: a file or folder of the package as npm packs it.
        const prefix = source.replace(/\/$/, '');
        assert.ok(
          packed.some((p) => p === prefix || p.startsWith(`${prefix}/`)),
          `${source} is in the packed files`,
        );
        continue;
      }
      const stage = byStage.get(copy.from);
      assert.ok(stage, `stage ${copy.from} exists`);
      if (source.endsWith('/.tools/')) {
        // The pinned unit tools, installed in the build stage as `npm ci` installs them in a checkout.
        assert.ok(
          stage!.lines.some((l) => l.startsWith('RUN node scripts/install-tools.js')),
          'the build stage installs the tools',
        );
      } else if (source.endsWith('/dist/lib/')) {
        // Bundled by the build stage: dist/lib/ is what the package ships, and the build stage runs the package's build.
        assert.ok(pkg.files.includes('dist/lib/'));
        assert.ok(stage!.lines.includes('RUN npm run build'));
      } else if (source.endsWith('/node_modules/')) {
        assert.ok(
          stage!.lines.some((l) => /^RUN npm ci\b.*--omit=dev\b/.test(l)),
          'node_modules holds production dependencies only',
        );
      } else assert.unreachable(`unexpected copy from ${copy.from}: ${source}`);
    }
  }
  assert.equal(copied.map((c) => c.replace(/^\/src\//, '').replace(/\/$/, '')).sort(), [
    '.tools',
    'bin',
    'dist/lib',
    'node_modules',
    'package.json',
    'policies',
    'ui',
  ]);
  assert.not.ok(
    runtime.lines.some((l) => /^COPY\b.*\bsrc\/\s/.test(`${l} `)),
    'no sources in the runtime image',
  );
});

test('the image runs `flotilla run` from the packaged CLI as a numeric non-root user', () => {
  const entrypoint = runtime.lines.find((l) => l.startsWith('ENTRYPOINT'))!;
  assert.equal(JSON.parse(entrypoint.replace(/^ENTRYPOINT\s+/, '')), ['node', '/opt/flotilla/bin/flotilla.js', 'run']);
  const workdir = runtime.lines.find((l) => l.startsWith('WORKDIR'))!.split(/\s+/)[1];
  assert.is(workdir, '/opt/flotilla', 'the package is copied to where the entrypoint runs it');
  const user = runtime.lines.filter((l) => l.startsWith('USER')).pop()!;
  // A kubelet can hold runAsNonRoot only against a numeric user.
  assert.match(user, /^USER\s+[1-9]\d*:\d+$/);
});

test.run();
