import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { configMapPolicy, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

// What a user pushes, committed with git as they commit it, and read as kubectl reads a checkout of that commit.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const configMap = (name: string, data = '') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n${data}`;

function fleetWith(files: Record<string, string | Buffer>): ConfigRepo {
  return makeConfigRepoWith(repos, { ...MEMBERS, 'policies/cm.yaml': configMapPolicy(['member1']), ...files }, 'push');
}

async function render(r: ConfigRepo) {
  return renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
}

const manifestsOn = (r: ConfigRepo, cluster: string) =>
  r.ls('flotilla/rendered').filter((p) => p.startsWith(`clusters/${cluster}/`));

test('a manifest saved as UTF-16 with a byte order mark renders as kubectl reads it, little- and big-endian', async () => {
  const utf16le = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from(configMap('le', 'data:\n  k: "hé 😀"\n'), 'utf16le'),
  ]);
  const r = fleetWith({
    'templates/le.yaml': utf16le,
    'templates/be.json': Buffer.concat([
      Buffer.from([0xfe, 0xff]),
      Buffer.from(
        Buffer.from(
          JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'be', namespace: 'default' } }),
          'utf16le',
        ).swap16(),
      ),
    ]),
  });
  const { problems } = await render(r);
  assert.equal(problems, []);
  assert.equal(manifestsOn(r, 'member1'), [
    'clusters/member1/default/configmap_be.yaml',
    'clusters/member1/default/configmap_le.yaml',
  ]);
  assert.match(r.show('flotilla/rendered', 'clusters/member1/default/configmap_le.yaml'), /^ {2}k: hé 😀$/m);
});

test('a file with a UTF-16 byte order mark that is not UTF-16 is FILE_NOT_TEXT at the file, and the rest renders', async () => {
  const r = fleetWith({
    'templates/ok.yaml': configMap('ok'),
    // An unpaired high surrogate.
    'templates/broken.yaml': Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x61, 0x00]),
  });
  const { problems } = await render(r);
  assert.equal(
    problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['templates/broken.yaml', 1, 'FILE_NOT_TEXT', 'error']],
  );
  assert.match(problems[0]!.fix, /UTF-8/);
  assert.equal(manifestsOn(r, 'member1'), ['clusters/member1/default/configmap_ok.yaml']);
});

test('a file whose name is not UTF-8 is an error at its name, and never read in place of a file whose name is', async () => {
  const r = fleetWith({ 'templates/\uFFFD.yaml': configMap('kept') });
  assert.equal((await render(r)).problems, []);
  // Names from a Latin-1 file system, as git stores them: é and è, each one byte, which UTF-8 decodes as U+FFFD.
  for (const [byte, name] of [
    [0xe9, 'intruder'],
    [0xe8, 'other'],
  ] as const)
    writeFileSync(
      Buffer.concat([Buffer.from(path.join(r.dir, 'templates/')), Buffer.from([byte]), Buffer.from('.yaml')]),
      configMap(name),
    );
  r.commit({ 'templates/also.yaml': configMap('also') }, 'Latin-1 names');
  const expected = [
    ['templates/\\xE8.yaml', 1, 'FILE_NOT_TEXT', 'error'],
    ['templates/\\xE9.yaml', 1, 'FILE_NOT_TEXT', 'error'],
  ];
  const incremental = await render(r);
  assert.equal(
    incremental.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    expected,
  );
  assert.match(incremental.problems[0]!.fix, /rename/);
  assert.equal(manifestsOn(r, 'member1'), [
    'clusters/member1/default/configmap_also.yaml',
    'clusters/member1/default/configmap_kept.yaml',
  ]);
  const cold = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    cold.model.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    expected,
  );
  assert.equal([...cold.model.templates.keys()].sort(), ['v1/ConfigMap/default/also', 'v1/ConfigMap/default/kept']);
});

test('a manifest committed as a Git LFS pointer is FILE_NOT_TEXT at the file, naming LFS and how to commit it', async () => {
  const r = fleetWith({
    '.gitattributes': 'templates/big.yaml filter=lfs diff=lfs merge=lfs -text\n',
    // What git-lfs's clean filter stores in the commit in place of the file.
    'templates/big.yaml':
      'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n',
    'templates/ok.yaml': configMap('ok'),
  });
  const { problems } = await render(r);
  assert.equal(
    problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['templates/big.yaml', 1, 'FILE_NOT_TEXT', 'error']],
  );
  assert.match(problems[0]!.message, /Git LFS pointer/);
  assert.match(problems[0]!.fix, /git lfs untrack/);
  assert.equal(manifestsOn(r, 'member1'), ['clusters/member1/default/configmap_ok.yaml']);
});

test.run();
