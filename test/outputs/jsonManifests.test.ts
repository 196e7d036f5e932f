import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { configMapPolicy, makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

// `kubectl apply -f dir` reads .json files beside .yaml ones; a repository's other JSON is no manifest.
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test('a .json manifest renders as kubectl reads it, and JSON that holds no object (package.json, tsconfig) is passed over', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cm.yaml': configMapPolicy(['member1']),
      'templates/settings.json': JSON.stringify(
        {
          apiVersion: 'v1',
          kind: 'List',
          items: [
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { on: 'yes' } },
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } },
          ],
        },
        null,
        2,
      ),
      'package.json': '{"name": "config", "private": true}\n',
      'tsconfig.json':
        '{\n  // comments, trailing commas: not JSON, and no manifest either\n  "compilerOptions": {},\n}\n',
      'dashboards/overview.json': '{"title": "Overview", "panels": [{"type": "graph"}]}\n',
    },
    'json',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(snapshot.model.problems, []);
  assert.equal([...snapshot.model.templates.keys()].sort(), ['v1/ConfigMap/default/a', 'v1/ConfigMap/default/b']);
  assert.equal((snapshot.model.templates.get('v1/ConfigMap/default/a')!.manifest as { data: unknown }).data, {
    on: 'yes',
  });
});

test('a broken .json manifest is an error at its line, as kubectl refuses it', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/bad.json': '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {"name": "bad"\n}\n',
    },
    'broken json',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.code, p.severity]),
    [['templates/bad.json', 'YAML_SYNTAX', 'error']],
  );
});

test('a stream of JSON objects, one after another, renders each as kubectl reads it, a problem at its own line', async () => {
  // What `kubectl create --dry-run=client -o json` of several objects writes; kubectl reads any file whose first
  // character is `{` as such a stream, .yaml too.
  const object = (name: string, data: string) =>
    `{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {"name": "${name}", "namespace": "default"},\n  "data": ${data}\n}`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/cm.yaml': configMapPolicy(['member1']),
      'templates/dump.json': `${object('a', '{"k": "a"}')}\n${object('b', '{"k": "b"}')}${object('c', '{"k": 3}')}\n`,
      'templates/dump.yaml': `  ${object('d', '{"k": "d"}')} ${object('e', '{}')}`,
    },
    'json stream',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  // c's data value is a number: refused at its own line in the stream, the others render.
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.column, p.code]),
    [['templates/dump.json', 16, 17, 'INVALID_VALUE']],
  );
  assert.equal([...snapshot.model.templates.keys()].sort(), [
    'v1/ConfigMap/default/a',
    'v1/ConfigMap/default/b',
    'v1/ConfigMap/default/d',
    'v1/ConfigMap/default/e',
  ]);
  assert.equal((snapshot.model.templates.get('v1/ConfigMap/default/b')!.manifest as { data: unknown }).data, {
    k: 'b',
  });
});

test('a JSON array of objects is refused, as kubectl refuses it, not passed over as JSON of another kind', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'templates/array.json': '[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]\n',
    },
    'json array',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.code, p.severity]),
    [['templates/array.json', 'NOT_AN_OBJECT', 'error']],
  );
});

test.run();
