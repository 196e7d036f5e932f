import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readOutputIndex } from '../../src/branches/rendered/readOutputIndex.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { INDEX_PATH, isIndexPath } from '../../src/branches/rendered/outputIndex.ts';
import { makeConfigRepoWith, nginxSample, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

const OUT = 'refs/heads/flotilla/rendered';
const NGINX = 'apps/v1/Deployment/default/nginx';
const repos: ConfigRepo[] = [];
const scratch: string[] = [];

test.after(() => {
  for (const r of repos) r.cleanup();
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

function nginxRepo(): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      ...nginxSample(),
      'templates/web.yaml': sample('nginx/deployment.yaml').replaceAll('nginx', 'web'),
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml').replace(
        'name: nginx\n',
        'name: nginx\n    - apiVersion: apps/v1\n      kind: Deployment\n      name: web\n',
      ),
    },
    'nginx and web',
  );
}

async function sync(r: ConfigRepo) {
  return syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
}

const changedFiles = (r: ConfigRepo, a: string, b: string) =>
  r.git('diff', '--name-only', a, b).split('\n').filter(Boolean);

test('the output branch holds a root and shards; a one-template change rewrites only the shards it touched', async () => {
  const r = nginxRepo();
  await sync(r);
  const files = r.ls('flotilla/rendered').filter(isIndexPath);
  assert.ok(files.includes(INDEX_PATH));
  assert.ok(
    files.some((f) => /^\.flotilla\/index\/[0-9a-f]{2}\.json$/.test(f)),
    files.join(', '),
  );
  assert.is(JSON.parse(r.show('flotilla/rendered', INDEX_PATH)).version, 2);
  const before = r.git('rev-parse', 'flotilla/rendered');

  // Same placement, new image: manifests change, and no index entry does.
  r.commit(
    { 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('image: nginx', 'image: nginx:1.27') },
    'nginx 1.27',
  );
  await sync(r);
  const changed = changedFiles(r, before, 'flotilla/rendered');
  assert.equal(changed.filter(isIndexPath), []);
  assert.ok(changed.length > 0 && changed.every((f) => f.includes('nginx')), changed.join(', '));

  // A new template: its own shard and its file's, plus the root (one more source file), and nothing else of the index.
  const before2 = r.git('rev-parse', 'flotilla/rendered');
  r.commit(
    { 'templates/extra.yaml': sample('nginx/deployment.yaml').replaceAll('nginx', 'extra') },
    'extra, not selected',
  );
  await sync(r);
  const indexChanged = changedFiles(r, before2, 'flotilla/rendered').filter(isIndexPath);
  assert.ok(indexChanged.includes(INDEX_PATH));
  assert.ok(indexChanged.length <= 3, indexChanged.join(', '));
  const index = await readOutputIndex(await openRepo(r.dir), r.git('rev-parse', 'flotilla/rendered^{tree}'));
  assert.equal(index?.files['templates/extra.yaml'], { templates: ['apps/v1/Deployment/default/extra'] });
  assert.equal(index?.templates[NGINX]?.clusters, ['member1', 'member2']);
  await assertVerifies(r);
});

test('a branch written with the version 1 index (one file) is read as it is, and the next render writes shards', async () => {
  const r = nginxRepo();
  await sync(r);
  const repo = await openRepo(r.dir);
  const whole = (await readOutputIndex(repo, r.git('rev-parse', 'flotilla/rendered^{tree}')))!;

  // Rewrite the head as an older Flotilla left it: the same files, the index as one version 1 file.
  const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-v1-'));
  scratch.push(dir);
  const v1 = path.join(dir, 'index.json');
  writeFileSync(v1, `${JSON.stringify({ version: 1, ...whole })}\n`);
  const env = { ...process.env, GIT_INDEX_FILE: path.join(dir, 'git-index') };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: r.dir, env, encoding: 'utf8' }).trim();
  git('read-tree', 'flotilla/rendered');
  git('rm', '-q', '--cached', '-r', '.flotilla/index');
  git('update-index', '--add', '--cacheinfo', `100644,${git('hash-object', '-w', v1)},${INDEX_PATH}`);
  const message = r.git('log', '-1', '--format=%B', 'flotilla/rendered');
  const legacy = git(
    '-c',
    'user.name=Old',
    '-c',
    'user.email=old@example.com',
    'commit-tree',
    git('write-tree'),
    '-p',
    'flotilla/rendered',
    '-m',
    message,
  );
  r.git('update-ref', OUT, legacy);
  assert.equal(r.ls('flotilla/rendered').filter(isIndexPath), [INDEX_PATH]);
  assert.equal(await readOutputIndex(await openRepo(r.dir), r.git('rev-parse', 'flotilla/rendered^{tree}')), whole);

  r.commit(
    {
      'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml')
        .replace('name: nginx\n', 'name: nginx\n    - apiVersion: apps/v1\n      kind: Deployment\n      name: web\n')
        .replace('weight: 1\n', 'weight: 3\n'),
    },
    'member1 weighs 3',
  );
  const result = await sync(r);
  assert.is(result.reports.length, 1);
  assert.not.ok(result.reports[0]!.full, 'the version 1 index served an incremental render');
  assert.is(JSON.parse(r.show('flotilla/rendered', INDEX_PATH)).version, 2);
  assert.ok(r.ls('flotilla/rendered').filter(isIndexPath).length > 1);
  const after = (await readOutputIndex(await openRepo(r.dir), r.git('rev-parse', 'flotilla/rendered^{tree}')))!;
  assert.equal(Object.keys(after.templates).sort(), Object.keys(whole.templates).sort());
  assert.equal(after.files, whole.files);
  await assertVerifies(r);
});

test.run();
