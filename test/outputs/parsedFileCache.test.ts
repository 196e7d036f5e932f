import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepo, MEMBERS, sample, type ConfigRepo } from '../helpers/configRepo.ts';

const OUT = 'refs/heads/flotilla/rendered';
const CACHE = (r: ConfigRepo) => path.join(r.dir, '.git', 'flotilla-parsed.json');
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

function nginxRepo(): ConfigRepo {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit({ ...MEMBERS, 'templates/nginx.yaml': sample('nginx/deployment.yaml'), 'policies/nginx.yaml': sample('nginx/propagationpolicy.yaml') }, 'nginx');
  return r;
}

// Each sync opens the repo afresh, as a new process would: only the file on disk carries parsed policies over.
const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

test('a render keeps the parsed policy and cluster files, by blob oid and path, beside the object store', async () => {
  const r = nginxRepo();
  await sync(r);
  const cached = JSON.parse(readFileSync(CACHE(r), 'utf8')) as { parser: string; entries: Record<string, { file: string }> };
  const keys = Object.keys(cached.entries).sort();
  const expected = ['clusters/member1.yaml', 'clusters/member2.yaml', 'clusters/member3.yaml', 'policies/nginx.yaml']
    .map((f) => `${r.git('rev-parse', `HEAD:${f}`)} ${f}`).sort();
  assert.equal(keys, expected, 'templates are not kept, only Karmada files');
  assert.ok(r.ls('flotilla/rendered').every((f) => !f.includes('parsed')), 'nothing of it reaches the output branch');
});

test('a sync that reads the kept files makes the same output commit as one that parses everything again', async () => {
  const withCache = nginxRepo();
  const without = nginxRepo();
  for (const r of [withCache, without]) {
    await sync(r);
    r.commit({ 'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 4') }, 'four');
  }
  writeFileSync(CACHE(without), 'not json at all {');
  await sync(withCache);
  await sync(without);
  assert.is(withCache.git('rev-parse', 'flotilla/rendered'), without.git('rev-parse', 'flotilla/rendered'));
});

test('a policy change is parsed and replaces the kept version; a garbled or foreign cache file is ignored', async () => {
  const r = nginxRepo();
  await sync(r);
  writeFileSync(CACHE(r), JSON.stringify({ parser: 'some other Flotilla', entries: {} }));
  const pinned = sample('nginx/propagationpolicy.yaml').replace(/\n *- member2\n/, '\n');
  r.commit({ 'policies/nginx.yaml': pinned }, 'member1 only');
  await sync(r);
  assert.ok(existsSync(CACHE(r)));
  const cached = JSON.parse(readFileSync(CACHE(r), 'utf8')) as { parser: string; entries: Record<string, unknown> };
  assert.is.not(cached.parser, 'some other Flotilla');
  assert.ok(`${r.git('rev-parse', 'HEAD:policies/nginx.yaml')} policies/nginx.yaml` in cached.entries);
  assert.not.ok(`${r.git('rev-parse', 'HEAD~1:policies/nginx.yaml')} policies/nginx.yaml` in cached.entries, 'the old version is dropped');
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member2/default/deployment.apps_nginx.yaml'));
});

test.run();
