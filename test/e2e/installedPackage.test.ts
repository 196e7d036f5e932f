// The package as a user gets it: `npm pack` (which builds dist/lib/ through `prepare`), installed from the tarball into an
// empty folder, and its CLI run from there. The install is offline: the production dependencies are copied from this
// checkout's node_modules (the ones the lockfile pins), since npm's cache holds tarballs but not the registry metadata
// an install from a tarball resolves its dependency ranges with.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parserIdentity } from '../../src/outputs/parsedFileCache.ts';
import { containerfileStages } from '../helpers/containerfileStages.ts';
import { helmGuestbook } from '../units/unitFixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'flotilla-package-'));
const app = path.join(work, 'app');
const installed = path.join(app, 'node_modules', 'flotilla');

/** npm and npx run as a user would: not as the child of `npm test`, whose npm_* variables would configure them. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

test.before(async () => {
  const pack = await run('npm', ['pack', '--silent', '--pack-destination', work], ROOT);
  assert.is(pack.code, 0, pack.err);
  const tarball = path.join(work, pack.out.trim().split('\n').pop()!);
  // The production dependencies, as the lockfile places them, copied (never linked: npm may rewrite what it finds).
  mkdirSync(app, { recursive: true });
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || entry.dev || where.lastIndexOf('node_modules/') !== 0) continue;
    const from = path.join(ROOT, where);
    if (existsSync(from)) cpSync(from, path.join(app, where), { recursive: true });
  }
  const install = await run(
    'npm',
    ['install', '--offline', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', app, tarball],
    app,
  );
  assert.is(install.code, 0, install.err);
});

test.after(() => {
  rmSync(work, { recursive: true, force: true });
});

test('the installed package holds the bundled CLI and what it reads at run time, and no sources or tsx', () => {
  assert.ok(existsSync(path.join(installed, 'dist', 'lib', 'cli.js')));
  assert.ok(existsSync(path.join(installed, 'dist', 'lib', 'offThreadWorker.js')), "the dashboard's worker beside it");
  assert.equal(readdirSync(path.join(installed, 'dist')), ['lib'], 'the bundle only, not the modules one by one');
  for (const dir of ['repo-template', 'policies', 'clusters', 'ui'])
    assert.ok(readdirSync(path.join(installed, dir)).length > 0, dir);
  assert.not.ok(existsSync(path.join(installed, 'src')), 'src/ is not shipped');
  assert.not.ok(existsSync(path.join(app, 'node_modules', 'tsx')), 'tsx is a development dependency only');
  assert.not.ok(readdirSync(path.join(installed, 'dist'), { recursive: true }).some((f) => String(f).endsWith('.ts')));
});

test('npx flotilla --help runs the installed CLI', async () => {
  const help = await run('npx', ['--offline', 'flotilla', '--help'], app);
  assert.is(help.code, 0, help.err);
  assert.match(help.out, 'Usage: flotilla <command> [options]');
});

test('npx flotilla up --exit runs the demo from the installed package, its repo template found beside the package', async () => {
  const demo = path.join(work, 'demo');
  const up = await run('npx', ['--offline', 'flotilla', 'up', '--exit', '--dir', demo], app);
  assert.is(up.code, 0, up.err);
  assert.match(up.out, 'deployment/nginx  READY 2/2 (aggregated)  member1 1/1, member2 1/1');
  // The sync in that run kept its parsed files under the parser identity built into the package, the one a run from
  // src/ computes (the header is the file's last line): a cache kept by either is read by the other.
  const lines = readFileSync(path.join(demo, 'repo.git', 'flotilla-parsed.jsonl'), 'utf8')
    .trimEnd()
    .split('\n');
  const header = JSON.parse(lines[lines.length - 1]!) as { parser: string };
  assert.is(header.parser, parserIdentity());
});

/**
 * The runtime stage of deploy/Containerfile laid out from this install, each COPY taken from where the build takes it:
 * the build context's files as npm packs them, dist/lib/ as the build stage makes it, and the production dependencies
 * (linked, not copied). Returns the folder that stands for /opt/flotilla.
 */
function imageLayout(): string {
  const image = path.join(work, 'image', 'opt', 'flotilla');
  rmSync(image, { recursive: true, force: true });
  mkdirSync(image, { recursive: true });
  const runtime = containerfileStages(readFileSync(path.join(ROOT, 'deploy', 'Containerfile'), 'utf8')).at(-1)!;
  // The build stage is this checkout built (npm pack ran its prepare: dist/lib/ and the pinned tools in .tools/).
  const stageRoots: Record<string, string> = { build: ROOT, dependencies: app };
  for (const copy of runtime.copies)
    for (const source of copy.sources) {
      const from = copy.from
        ? path.join(stageRoots[copy.from]!, source.replace(/^\/src\//, ''))
        : path.join(installed, source);
      const target = copy.target === './' ? path.join(image, path.basename(source)) : path.join(image, copy.target);
      assert.ok(existsSync(from), `${source} (COPY ${copy.from ? `--from=${copy.from} ` : ''}…) is in the install`);
      if (source.endsWith('node_modules/')) symlinkSync(from, target.replace(/\/$/, ''));
      else cpSync(from, target, { recursive: true });
    }
  return image;
}

const repoOf = () => path.join(work, 'image-repo');

/** `flotilla run` from `image`, its dashboard on a free loopback port behind a token, against a repo of the template. */
function runFromImage(image: string) {
  const repo = repoOf();
  if (!existsSync(repo)) {
    cpSync(path.join(installed, 'repo-template'), repo, { recursive: true });
    // A Helm chart too: the image renders units with the binaries it carries.
    for (const [file, text] of Object.entries(helmGuestbook(1, 'units/guestbook'))) {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
    }
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'fleet'],
    ])
      assert.is(spawnSyncGit(args, repo), 0);
  }
  const creds = path.join(work, 'image-credentials');
  mkdirSync(creds, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      path.join(image, 'bin', 'flotilla.js'),
      'run',
      '--repo',
      repo,
      '--credentials-dir',
      creds,
      '--listen',
      '127.0.0.1:0',
      '--ui-token-env',
      'FLOTILLA_IMAGE_UI_TOKEN',
      '--log-format',
      'json',
    ],
    { cwd: work, env: { ...env, FLOTILLA_IMAGE_UI_TOKEN: UI_TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const dashboard = new Promise<string | null>((resolve) => {
    child.stderr.on('data', (c) => {
      err += c;
      const at = /dashboard at (http:\/\/127\.0\.0\.1:\d+)\/ui\//.exec(err);
      if (at) resolve(at[1]!);
    });
    child.on('close', () => resolve(null));
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, dashboard, closed, stderr: () => err };
}

const UI_TOKEN = 'a'.repeat(16) + 'b'.repeat(16);

function spawnSyncGit(args: string[], cwd: string): number | null {
  return spawnSync('git', args, { cwd, stdio: 'ignore' }).status;
}

test("the container image's files run `flotilla run` with its dashboard and render Helm units with their own helm; without ui/ the command stops and says what to copy", async () => {
  const image = imageLayout();
  const served = runFromImage(image);
  try {
    const url = await served.dashboard;
    assert.ok(url, served.stderr());
    const auth = { Authorization: `Bearer ${UI_TOKEN}` };
    const page = await fetch(`${url}/ui/`, { headers: auth });
    assert.is(page.status, 200);
    assert.match(await page.text(), '<script type="importmap">');
    // The page's modules from the image's production dependencies.
    assert.is((await fetch(`${url}/ui/vendor/preact.mjs`, { headers: auth })).status, 200);
  } finally {
    served.child.kill('SIGTERM');
    await served.closed;
  }
  // Its units render with the pinned helm it carries, not one from PATH (none here).
  const validate = spawnSync(
    process.execPath,
    [path.join(image, 'bin', 'flotilla.js'), 'validate', '--repo', repoOf()],
    {
      cwd: work,
      env: { ...env, PATH: path.dirname(process.execPath) },
      encoding: 'utf8',
    },
  );
  assert.match(validate.stdout, /\nunits render with helm v3\.17\.2 \(\S*\.tools\/helm, pinned\)\n/, validate.stderr);
  rmSync(path.join(image, 'ui'), { recursive: true });
  const broken = runFromImage(image);
  // It ends by itself: the reconciler it had started is stopped, not left running without the dashboard.
  const code = await broken.closed;
  assert.is(code, 3);
  assert.match(broken.stderr(), `the dashboard's page is not installed: no folder ${path.join(image, 'ui')}; fix:`);
  assert.not.match(broken.stderr(), 'internal error');
});

test.run();
