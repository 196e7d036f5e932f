import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { placeRenderedDocuments } from '../../src/units/templateSections.ts';
import { committedLine, renderedErrorLine } from '../../src/units/yamlErrorLines.ts';
import { makeConfigRepoWith, MEMBERS } from '../helpers/fleet.ts';
import { unitSuite } from '../helpers/unitSuite.ts';
import { helmGuestbook, packedChart } from './unitFixtures.ts';

const { repos } = unitSuite(test);

const job = (name: string, hook: string, extra = '') => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  annotations:
    helm.sh/hook: ${hook}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: run, image: busybox}]
${extra}`;

// helm template prints this file's documents as ConfigMap, Widget, Pod, Job cleanup, Job migrate: kinds in install
// order (unknown ones last), hooks after every ordinary object.
const EXTRA = [
  `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-cfg
  labels:
    app: extra
data:
  a: "1"
  b: "2"
  c: "3"
  d: "4"
`,
  job('cleanup', 'post-delete'),
  job('migrate', 'pre-install', '      # the migration\n'),
  `apiVersion: v1
kind: Pod
metadata:
  name: rollback
  annotations:
    helm.sh/hook: pre-rollback
spec:
  containers: [{name: run, image: busybox}]
`,
  `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec: {}
`,
].join('---\n');

/** Each object's origin line and each problem's line, as plan, explain, blame and validate show them. */
const placed = (model: Awaited<ReturnType<typeof renderSnapshot>>['model']) => ({
  objects: [...model.templates].map(([id, t]) => [id, t.origin?.file, t.origin?.line]).sort(),
  problems: model.problems.map((p) => [p.file, p.line, p.code, /cleanup|rollback/.exec(p.message)?.[0]]),
});

test("a template's objects are placed at their own lines of the template, whatever order helm template prints them in", async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'helm-guestbook/templates/extra.yaml': EXTRA },
    'extra',
  );
  for (const pass of ['run', 'cached']) {
    const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.equal(
      placed(model),
      {
        objects: [
          ['apps/v1/Deployment/default/helm-guestbook', 'helm-guestbook/templates/deployment.yaml', 1],
          ['batch/v1/Job/default/migrate', 'helm-guestbook/templates/extra.yaml', 25],
          ['example.com/v1/Widget/default/w', 'helm-guestbook/templates/extra.yaml', 47],
          ['v1/ConfigMap/default/helm-guestbook-cfg', 'helm-guestbook/templates/extra.yaml', 1],
          ['v1/Service/default/helm-guestbook', 'helm-guestbook/templates/service.yaml', 1],
        ],
        problems: [
          ['helm-guestbook/templates/extra.yaml', 13, 'HOOK_NOT_RENDERED', 'cleanup'],
          ['helm-guestbook/templates/extra.yaml', 38, 'HOOK_NOT_RENDERED', 'rollback'],
        ],
      },
      pass,
    );
  }
});

test("a packed subchart's objects are placed at their own lines of the template in its archive", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/Chart.yaml':
        'apiVersion: v2\nname: helm-guestbook\nversion: 0.1.0\ndependencies:\n  - {name: db, version: 0.1.0}\n',
    },
    'guestbook',
  );
  mkdirSync(path.join(r.dir, 'helm-guestbook/charts'), { recursive: true });
  writeFileSync(
    path.join(r.dir, 'helm-guestbook/charts/db-0.1.0.tgz'),
    packedChart('db', { 'Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n', 'templates/extra.yaml': EXTRA }),
  );
  r.commit({}, 'db, packed');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(model.problems.map((p) => [p.file, p.line, p.message.slice(0, p.message.indexOf(' output:'))]).sort(), [
    [
      'helm-guestbook/charts/db-0.1.0.tgz',
      1,
      'helm template (templates/extra.yaml:13 in helm-guestbook/charts/db-0.1.0.tgz)',
    ],
    [
      'helm-guestbook/charts/db-0.1.0.tgz',
      1,
      'helm template (templates/extra.yaml:38 in helm-guestbook/charts/db-0.1.0.tgz)',
    ],
  ]);
});

test('documents a template writes in a loop, or that its text cannot tell apart, are placed by their order in the output', async () => {
  const loop = `{{- range $i, $n := list "one" "two" }}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ $n }}
  annotations:
    helm.sh/hook: post-delete
spec: {template: {spec: {restartPolicy: Never, containers: [{name: run, image: busybox}]}}}
{{- end }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: loop-cfg
`;
  // Two Jobs of templated names, one rendered: which one the text cannot tell.
  const either = `{{- if .Values.first }}
${job('{{ .Release.Name }}-a', 'post-delete')}{{- end }}
---
${job('{{ .Release.Name }}-b', 'post-delete')}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: either-cfg
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/loop.yaml': loop,
      'helm-guestbook/templates/either.yaml': either,
    },
    'loops',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const lines = (file: string) =>
    [
      ...[...model.templates.values()].filter((t) => t.origin?.file === file).map((t) => t.origin!.line),
      ...model.problems.filter((p) => p.file === file).map((p) => p.line),
    ].sort((a, b) => a - b);
  // helm prints the ConfigMap first, each file's Jobs after it, counted from there.
  assert.equal(lines('helm-guestbook/templates/loop.yaml'), [1, 6, 14]);
  assert.equal(lines('helm-guestbook/templates/either.yaml'), [1, 6]);
});

test('a section helm rendered nothing for is passed over by the literal names of the documents around it; a templated kind places nothing', () => {
  const text = `{{- if .Values.a }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
{{- end }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: "b" # the second
`;
  const head = (name: string) => ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    name,
    hook: false,
    firstLine: 'apiVersion: v1',
  });
  assert.equal(placeRenderedDocuments(text, [head('b')]), [8]);
  assert.equal(placeRenderedDocuments(text, [head('a'), head('b')]), [2, 8]);
  assert.is(placeRenderedDocuments(text, [head('c')]), undefined);
  assert.is(
    placeRenderedDocuments(text.replace('kind: ConfigMap', 'kind: {{ .Values.kind }}'), [head('b')]),
    undefined,
  );
});

test("helm's YAML error in a template's later document is placed at its line of the template file, packed or not", async () => {
  // helm counts `line 6` from the start of the document that failed: the second one, which this text starts at line 9.
  const bad = `{{- /* a comment
spanning lines */ -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  labels:
    {{- include "helm-guestbook.name" . | nindent 4 | replace "\\n" "\\n\\n\\n" }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  x: [1
  y: 2
`;
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'helm-guestbook/templates/bad.yaml': bad },
    'not YAML',
  );
  for (const pass of ['run', 'cached']) {
    const failed = (await renderSnapshot(await openRepo(r.dir), 'HEAD')).model.problems.find(
      (p) => p.code === 'UNIT_FAILED',
    );
    assert.equal([failed?.file, failed?.line], ['helm-guestbook/templates/bad.yaml', 15], pass);
    assert.match(failed?.message ?? '', /yaml: line 6 of its document as helm counts, line 15 of the template:/, pass);
  }
  r.commit(
    {
      'helm-guestbook/templates/bad.yaml': null,
      'helm-guestbook/Chart.yaml':
        'apiVersion: v2\nname: helm-guestbook\nversion: 0.1.0\ndependencies:\n  - {name: db, version: 0.1.0}\n',
    },
    'packed',
  );
  mkdirSync(path.join(r.dir, 'helm-guestbook/charts'), { recursive: true });
  writeFileSync(
    path.join(r.dir, 'helm-guestbook/charts/db-0.1.0.tgz'),
    packedChart('db', {
      'Chart.yaml': 'apiVersion: v2\nname: db\nversion: 0.1.0\n',
      'templates/bad.yaml': bad.replaceAll('helm-guestbook.name', 'db.name'),
      'templates/_helpers.tpl': '{{- define "db.name" -}}db{{- end -}}\n',
    }),
  );
  r.commit({}, 'db, packed');
  const failed = (await renderSnapshot(await openRepo(r.dir), 'HEAD')).model.problems.find(
    (p) => p.code === 'UNIT_FAILED',
  );
  assert.equal([failed?.file, failed?.line], ['helm-guestbook/charts/db-0.1.0.tgz', 1]);
  assert.match(
    failed?.message ?? '',
    /templates\/bad\.yaml in helm-guestbook\/charts\/db-0\.1\.0\.tgz: .*yaml: line 6 of its document as helm counts, line 15 of the template:/,
  );
});

test("helm's document line is found in the rendered template as helm splits it, then in the committed text by its literal lines", () => {
  const rendered =
    '\n\n# only a comment\n---\n\napiVersion: v1\nkind: ConfigMap\ndata:\n  x: [1\n---   \nkind: Secret\n';
  assert.is(renderedErrorLine(rendered, 4), 9);
  // go-yaml finds a document's last line unfinished at the line after it.
  assert.is(renderedErrorLine('kind: Pod\nspec: {}\ninvalid\n---\nkind: Secret\n', 4), 3);
  // Two documents long enough and this reader refusing neither: helm's count cannot be placed.
  assert.is(renderedErrorLine('a: 1\nb: 2\n---\nc: 3\nd: 4\n', 2), undefined);
  const committed = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  {{- toYaml .Values.data | nindent 2 }}\n  x: [1\n';
  assert.is(committedLine(committed, 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: 1\n  b: 2\n  x: [1\n', 6), 5);
  // A templated line is counted from the nearest literal line above it.
  assert.is(committedLine('kind: A\nx: {{ .Values.x }}\n', 'kind: A\nx: [1\n', 2), 2);
});

test('a hook whose annotation an included template writes is placed at its own lines, as a literal one is', async () => {
  const hooks = `{{- define "guestbook.hook" -}}
helm.sh/hook: {{ . }}
{{- end -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
  annotations:
    {{- include "guestbook.hook" "pre-install" | nindent 4 }}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: run, image: busybox}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cleanup
  {{- if .Values.cleanup }}
  annotations:
    helm.sh/hook: post-delete
  {{- end }}
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/hooks.yaml': hooks,
      'helm-guestbook/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  valuesObject: {cleanup: true}\n',
    },
    'hooks',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const at = placed(model);
  assert.equal(
    at.objects.filter(([, file]) => file === 'helm-guestbook/templates/hooks.yaml'),
    [
      ['batch/v1/Job/default/migrate', 'helm-guestbook/templates/hooks.yaml', 4],
      ['v1/ConfigMap/default/settings', 'helm-guestbook/templates/hooks.yaml', 16],
    ],
  );
  assert.equal(at.problems, [['helm-guestbook/templates/hooks.yaml', 21, 'HOOK_NOT_RENDERED', 'cleanup']]);
});

test.run();
