import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { describeTemplateUnit } from '../../src/units/describeUnit.ts';
import { subchartFileResolver } from '../../src/units/subchartPaths.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { helmGuestbook, packedChart } from './unitFixtures.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const SUB = {
  'helm-guestbook/charts/store/Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n',
  'helm-guestbook/charts/store/templates/secret.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: {{ .Release.Name }}-{{ .Chart.Name }}
stringData:
  password: {{ randAlphaNum 12 | quote }}
`,
};

const withDependencies = (deps: string) =>
  `apiVersion: v2\nname: helm-guestbook\nversion: 0.1.0\ndependencies:\n${deps}`;

test('helm names a subchart by its alias or its chart name; the file is named where the commit holds it', () => {
  const charts = new Map([
    ['web', withDependencies('  - {name: db, version: 0.1.0, alias: primary}\n  - {name: common, version: 1.0.0}\n')],
    ['web/charts/store', 'apiVersion: v2\nname: db\nversion: 0.1.0\n'],
    ['web/charts/store/charts/cache', 'apiVersion: v2\nname: redis\nversion: 1.0.0\n'],
  ]);
  const place = subchartFileResolver(
    'web',
    charts,
    [{ from: 'libs/common', to: 'charts/common' }],
    new Map([
      ['web/charts/mongodb-13.1.0.tgz', 'mongodb'],
      ['web/charts/store/charts/queue-2.0.0.tgz', 'rabbitmq'],
    ]),
  );
  const file = (inChart: string) => place(inChart).file;
  assert.is(file('templates/a.yaml'), 'web/templates/a.yaml');
  assert.is(file('charts/primary/templates/s.yaml'), 'web/charts/store/templates/s.yaml');
  assert.is(file('charts/db/templates/s.yaml'), 'web/charts/store/templates/s.yaml');
  assert.is(file('charts/primary/charts/redis/templates/r.yaml'), 'web/charts/store/charts/cache/templates/r.yaml');
  assert.is(file('charts/common/templates/c.yaml'), 'libs/common/templates/c.yaml');
  // A packed subchart has no folder: its files are in its archive, named by the chart name it holds.
  assert.equal(place('charts/mongodb/templates/m.yaml'), {
    file: 'web/charts/mongodb-13.1.0.tgz',
    inArchive: 'templates/m.yaml',
  });
  assert.equal(place('charts/db/charts/rabbitmq/charts/x/templates/q.yaml'), {
    file: 'web/charts/store/charts/queue-2.0.0.tgz',
    inArchive: 'charts/x/templates/q.yaml',
  });
  // One the commit holds in no form is named as helm wrote it.
  assert.is(file('charts/other/templates/o.yaml'), 'web/charts/other/templates/o.yaml');
});

test("a packed subchart's objects, hooks and errors are named at its archive, with the template and line in it", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/Chart.yaml': withDependencies('  - {name: db, version: 0.1.0}\n'),
    },
    'guestbook',
  );
  const pack = (template: string) => {
    mkdirSync(path.join(r.dir, 'helm-guestbook/charts'), { recursive: true });
    writeFileSync(
      path.join(r.dir, 'helm-guestbook/charts/db-0.1.0.tgz'),
      packedChart('db', { 'Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n', 'templates/db.yaml': template }),
    );
  };
  pack(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-db
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-db-cleanup
  annotations:
    helm.sh/hook: post-delete
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
`);
  r.commit({}, 'db, packed');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(model.templates.get('v1/ConfigMap/default/helm-guestbook-db')?.origin, {
    file: 'helm-guestbook/charts/db-0.1.0.tgz',
    line: 1,
    column: 1,
  });
  // Plan and explain name the template inside the archive, as the render's problems do.
  assert.match(
    describeTemplateUnit(model, model.templates.get('v1/ConfigMap/default/helm-guestbook-db')) ?? '',
    /^Helm chart helm-guestbook \(.*\), templates\/db\.yaml in helm-guestbook\/charts\/db-0\.1\.0\.tgz$/,
  );
  assert.equal(
    model.problems.map((p) => [p.file, p.line, p.code, p.message.slice(0, p.message.indexOf(' output:'))]),
    [
      [
        'helm-guestbook/charts/db-0.1.0.tgz',
        1,
        'HOOK_NOT_RENDERED',
        'helm template (templates/db.yaml:6 in helm-guestbook/charts/db-0.1.0.tgz)',
      ],
    ],
  );
  pack('x: {{ required "db.host is required" .Values.host }}\n');
  r.commit({}, 'db requires a host');
  const failed = (await renderSnapshot(await openRepo(r.dir), 'HEAD')).model.problems.find(
    (p) => p.code === 'UNIT_FAILED',
  );
  assert.equal([failed?.file, failed?.line], ['helm-guestbook/charts/db-0.1.0.tgz', 1]);
  assert.match(
    failed?.message ?? '',
    /\(templates\/db\.yaml:1:6 in helm-guestbook\/charts\/db-0\.1\.0\.tgz\): db\.host/,
  );
  assert.match(failed?.fix ?? '', /correct templates\/db\.yaml in helm-guestbook\/charts\/db-0\.1\.0\.tgz/);
});

test("a subchart rendered under an alias names its own files: its objects' origin, its unreproducible calls, its errors", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/Chart.yaml': withDependencies('  - {name: db, version: 0.1.0, alias: primary}\n'),
      ...SUB,
    },
    'aliased subchart',
  );
  for (const pass of ['run', 'cached']) {
    const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    const secret = model.templates.get('v1/Secret/default/helm-guestbook-primary');
    assert.is(secret?.origin?.file, 'helm-guestbook/charts/store/templates/secret.yaml', pass);
    assert.equal(
      model.problems.map((p) => [p.file, p.line, p.code]),
      [['helm-guestbook/charts/store/templates/secret.yaml', 6, 'NOT_REPRODUCIBLE']],
      pass,
    );
  }
  r.commit(
    { 'helm-guestbook/charts/store/templates/need.yaml': '{{ required "db.host is required" .Values.host }}\n' },
    'a value the subchart requires',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const failed = model.problems.find((p) => p.code === 'UNIT_FAILED');
  assert.is(failed?.file, 'helm-guestbook/charts/store/templates/need.yaml');
  assert.match(
    failed?.message ?? '',
    /\(helm-guestbook\/charts\/store\/templates\/need\.yaml:1:3\): db\.host is required/,
  );
});

test("a cached render reads a packed subchart's archive once per blob id, not again on every render", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/Chart.yaml': withDependencies('  - {name: db, version: 0.1.0}\n'),
    },
    'guestbook',
  );
  mkdirSync(path.join(r.dir, 'helm-guestbook/charts'), { recursive: true });
  writeFileSync(
    path.join(r.dir, 'helm-guestbook/charts/db-0.1.0.tgz'),
    packedChart('db', {
      'Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n',
      'values.schema.json': '{"type": "object"}\n',
      'templates/db.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  annotations:\n    helm.sh/hook: post-delete\n',
    }),
  );
  r.commit({}, 'db, packed');
  const first = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  // The archive's object is gone: a render reading it again would fail on the missing object.
  const oid = r.git('rev-parse', 'HEAD:helm-guestbook/charts/db-0.1.0.tgz');
  rmSync(path.join(r.dir, '.git/objects', oid.slice(0, 2), oid.slice(2)));
  const again = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    again.model.problems.map((p) => [p.file, p.line, p.code, p.message.slice(0, p.message.indexOf(' output:'))]),
    [
      [
        'helm-guestbook/charts/db-0.1.0.tgz',
        1,
        'HOOK_NOT_RENDERED',
        'helm template (templates/db.yaml:1 in helm-guestbook/charts/db-0.1.0.tgz)',
      ],
    ],
  );
  assert.equal(again.model.problems, first.model.problems);
});

test("problems found after a packed subchart's objects render name the template and line inside the archive, as the render's own do", () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'app/Chart.yaml': withDependencies('  - {name: db, version: 0.1.0}\n').replace('helm-guestbook', 'app'),
      'app/values.yaml': '{}\n',
      'policies/config.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: config}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement: {clusterAffinity: {clusterNames: [member9]}}
`,
    },
    'app',
  );
  mkdirSync(path.join(r.dir, 'app/charts'));
  writeFileSync(
    path.join(r.dir, 'app/charts/db-0.1.0.tgz'),
    packedChart('db', {
      'Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n',
      'templates/db.yaml':
        '# the database settings\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\n  namespace: store\ndata: {a: b}\n',
    }),
  );
  r.commit({}, 'db, packed');
  const res = spawnSync(process.execPath, [BIN, 'validate', '--repo', r.dir], { encoding: 'utf8' });
  assert.is(res.status, 0, res.stderr);
  // The namespace check (bindings) and the scheduler (assignments) run after the unit rendered.
  assert.match(
    res.stdout,
    'app/charts/db-0.1.0.tgz:1:1  warning  NAMESPACE_NOT_IN_COMMIT  templates/db.yaml:3 in app/charts/db-0.1.0.tgz: namespace store holds placed objects (ConfigMap store/db first)',
  );
  assert.match(
    res.stdout,
    'app/charts/db-0.1.0.tgz:1:1  warning  NO_CLUSTER_FITS  templates/db.yaml:3 in app/charts/db-0.1.0.tgz: ConfigMap store/db (ClusterPropagationPolicy config): ',
  );
});

test.run();
