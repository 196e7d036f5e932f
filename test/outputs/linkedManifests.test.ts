import { symlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { configMap, configMapPolicy, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

// A manifest committed as a symbolic link (Knative's config/ links files from vendor/): git keeps the path it points
// to as the file's content.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});
const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

test('a manifest committed as a symbolic link is an error at the link naming its target, not a string document', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'policies/cm.yaml': configMapPolicy(['member1']), 'vendor/real.yaml': configMap('real') },
    'base',
  );
  symlinkSync('../vendor/real.yaml', path.join(r.dir, 'templates-link.yaml'));
  r.commit({}, 'link');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['templates-link.yaml', 1, 'SYMLINK_NOT_FOLLOWED', 'error']],
  );
  assert.match(snapshot.model.problems[0]!.message, 'is a symbolic link (to ../vendor/real.yaml)');
  assert.match(snapshot.model.problems[0]!.fix, /^commit the file itself in place of the link/);
  assert.equal([...snapshot.model.templates.keys()], ['v1/ConfigMap/default/real']);
});

test('a rendered manifest replaced by a link keeps its output, on a sync and on a cold render alike', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cm.yaml': configMapPolicy(['member1']),
      'templates/app.yaml': configMap('app'),
      'vendor/app.yaml': configMap('other'),
    },
    'base',
  );
  await sync(r);
  const manifest = 'clusters/member1/default/configmap_app.yaml';
  assert.ok(r.ls(OUT).includes(manifest));
  rmSync(path.join(r.dir, 'templates/app.yaml'));
  symlinkSync('../vendor/app.yaml', path.join(r.dir, 'templates/app.yaml'));
  r.commit({}, 'link');
  const synced = await sync(r);
  assert.ok(r.ls(OUT).includes(manifest), 'kept');
  assert.ok(
    synced.reports[0]!.problems.some((p) => p.file === 'templates/app.yaml' && p.code === 'SYMLINK_NOT_FOLLOWED'),
    JSON.stringify(synced.reports[0]!.problems),
  );
  await assertVerifies(r);
});

test('a link whose target is larger than any path is named by its size, read from its object header; the rest renders', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, 'policies/cm.yaml': configMapPolicy(['member1']), 'templates/real.yaml': configMap('real') },
    'base',
  );
  // git writes what it is given as a link's blob: a hand-made commit can make it 40 MiB of one byte.
  const blob = r.git('hash-object', '-w', path.join(fillFile(r.dir, 40 * 1024 * 1024)));
  r.git('update-index', '--add', '--cacheinfo', `120000,${blob},templates/link.yaml`);
  r.git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-m', 'a huge link');
  const before = process.memoryUsage().arrayBuffers;
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.ok(process.memoryUsage().arrayBuffers - before < 20 * 1024 * 1024, 'the target was not inflated');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.code]),
    [['templates/link.yaml', 'SYMLINK_NOT_FOLLOWED']],
  );
  assert.match(snapshot.model.problems[0]!.message, `(to a target of ${40 * 1024 * 1024} bytes, no path)`);
  assert.equal([...snapshot.model.templates.keys()], ['v1/ConfigMap/default/real']);
});

/** A file of `size` bytes of 'a' outside the work tree's files: its path. */
function fillFile(dir: string, size: number): string {
  const file = path.join(dir, '.git', 'fill');
  writeFileSync(file, Buffer.alloc(size, 'a'));
  return file;
}

test.run();
