// A private repo over smart HTTP: the credential in the URL reaches the server, and no file of the mirror, no
// error and no log line; the mirror is its owner's alone.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fetchBranch } from '../../src/commits/fetchBranch.ts';
import { openMirror } from '../../src/commits/openMirror.ts';
import { pushBranch } from '../../src/commits/pushBranch.ts';
import { openRemoteMirror } from '../../src/passes/remoteMirror.ts';
import { startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer.ts';

const TOKEN = 'tok-9f8e7d6c5b4a';
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@x',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@x',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

let root: string;
let server: GitHttpServer;
let base: string;

test.before.each(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'flotilla-mirror-creds-'));
  git(root, 'init', '-q', '--bare', '-b', 'main', 'fleet.git');
  git(root, 'clone', '-q', 'fleet.git', 'work');
  const work = path.join(root, 'work');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'one');
  git(work, 'push', '-q', 'origin', 'HEAD:main', 'HEAD:flotilla/status');
  server = await startGitHttpServer(root, { basicAuth: `bot:${TOKEN}` });
  base = `${server.url}/fleet.git`;
});
test.after.each(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(e.parentPath, e.name);
    if (e.isFile() && readFileSync(full).includes(needle)) out.push(path.relative(dir, full));
  }
  return out;
}

test('the agent mirror: fetch and push with a token in the URL; no file holds it; owner-only modes', async () => {
  const withToken = base.replace('http://', `http://bot:${TOKEN}@`);
  const gitdir = path.join(root, 'cache', 'agent', 'mirror.git');
  const mirror = await openMirror(gitdir, withToken);
  assert.ok(await fetchBranch(mirror, withToken, 'main'));
  assert.ok(await fetchBranch(mirror, withToken, 'flotilla/status'));
  assert.is(await pushBranch(mirror, withToken, 'flotilla/status'), 'pushed');
  assert.equal(filesContaining(path.join(root, 'cache'), TOKEN), []);
  assert.match(readFileSync(path.join(gitdir, 'config'), 'utf8'), `url = ${base}`);
  for (const dir of [path.join(root, 'cache'), path.join(root, 'cache', 'agent'), gitdir])
    assert.is(statSync(dir).mode & 0o777, 0o700, dir);
  assert.is(statSync(path.join(gitdir, 'config')).mode & 0o777, 0o600);
});

test('the server does demand the credential, and a refused one never appears in the error', async () => {
  const gitdir = path.join(root, 'mirror.git');
  const mirror = await openMirror(gitdir, base);
  const none = await fetchBranch(mirror, base, 'main').then(
    () => 'fetched',
    (e: Error) => e.message,
  );
  assert.match(none, '401');
  const wrong = base.replace('http://', 'http://bot:wrong-secret@');
  const refused = await fetchBranch(mirror, wrong, 'main').then(
    () => 'fetched',
    (e: Error) => e.message,
  );
  assert.match(refused, '401');
  assert.not.match(refused, 'wrong-secret');
  const push = await pushBranch(mirror, wrong, 'main').then(
    () => 'pushed',
    (e: Error) => e.message,
  );
  assert.not.match(push, 'wrong-secret');
});

test("the reconciler's mirror: fetch and push with a token in the URL; no file holds it; owner-only modes", async () => {
  const gitdir = path.join(root, 'mirrors', 'fleet.git');
  const remote = await openRemoteMirror({
    url: base.replace('http://', `http://bot:${TOKEN}@`),
    gitdir,
    sourceBranch: 'main',
    outputBranches: ['flotilla/status'],
  });
  assert.ok((await remote.fetchSource()).head);
  assert.equal(filesContaining(path.join(root, 'mirrors'), TOKEN), []);
  assert.is(statSync(gitdir).mode & 0o777, 0o700);
  assert.is(statSync(path.join(gitdir, 'config')).mode & 0o777, 0o600);
});

test.run();
