import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { subchartFileResolver } from '../../src/units/subchartPaths.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { helmGuestbook } from './unitFixtures.ts';

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
  const file = subchartFileResolver('web', charts, [{ from: 'libs/common', to: 'charts/common' }]);
  assert.is(file('templates/a.yaml'), 'web/templates/a.yaml');
  assert.is(file('charts/primary/templates/s.yaml'), 'web/charts/store/templates/s.yaml');
  assert.is(file('charts/db/templates/s.yaml'), 'web/charts/store/templates/s.yaml');
  assert.is(file('charts/primary/charts/redis/templates/r.yaml'), 'web/charts/store/charts/cache/templates/r.yaml');
  assert.is(file('charts/common/templates/c.yaml'), 'libs/common/templates/c.yaml');
  // A packed subchart has no folder: named as helm wrote it.
  assert.is(file('charts/mongodb/templates/m.yaml'), 'web/charts/mongodb/templates/m.yaml');
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

test.run();
