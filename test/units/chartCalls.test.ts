import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { formatVerifyReport } from '../../src/commands/verifyCommand.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { UNIT_CACHE_DIR } from '../../src/units/unitOutputCache.ts';
import { chartCallWarnings } from '../../src/units/chartCalls.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { helmGuestbook } from './unitFixtures.ts';

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const warned = (files: Record<string, string>) =>
  chartCallWarnings('web', new Map(Object.entries(files))).map((p) => [p.file, p.line, p.column, p.code, p.severity]);

test('a template calling a random, key-making or clock function warns NOT_REPRODUCIBLE at the call, once per function and file', () => {
  assert.equal(
    warned({
      'templates/secret.yaml': [
        'apiVersion: v1',
        'kind: Secret',
        'data:',
        '  password: {{ randAlphaNum 16 | b64enc | quote }}',
        '  again: {{ randAlphaNum 8 }}',
        '  id: {{- /* uuidv4 in a comment is no call */ -}} {{ uuidv4 }}',
        '  stamp: {{ now | date "2006" }}',
      ].join('\n'),
      'templates/_helpers.tpl': '{{- define "x.cert" -}}\n{{- $ca := genCA "x" 365 -}}\n{{- end -}}\n',
      // A vendored subchart's templates render with the chart.
      'charts/db/templates/pw.yaml': 'pw: {{ .Values.pw | default (randAlpha 10) }}\n',
    }),
    [
      ['web/charts/db/templates/pw.yaml', 1, 30, 'NOT_REPRODUCIBLE', 'warning'],
      ['web/templates/_helpers.tpl', 2, 12, 'NOT_REPRODUCIBLE', 'warning'],
      ['web/templates/secret.yaml', 4, 16, 'NOT_REPRODUCIBLE', 'warning'],
      ['web/templates/secret.yaml', 6, 55, 'NOT_REPRODUCIBLE', 'warning'],
      ['web/templates/secret.yaml', 7, 13, 'NOT_REPRODUCIBLE', 'warning'],
    ],
  );
});

test('lookup and getHostByName warn LOOKUP_EMPTY: a render has no cluster and no network to answer them', () => {
  const [lookup, host] = chartCallWarnings(
    'web',
    new Map([
      ['templates/a.yaml', '{{- $s := (lookup "v1" "Secret" .Release.Namespace "db") }}\n'],
      ['templates/b.yaml', 'ip: {{ getHostByName "db.example.com" }}\n'],
    ]),
  );
  assert.equal(
    [lookup!.file, lookup!.line, lookup!.column, lookup!.code],
    ['web/templates/a.yaml', 1, 12, 'LOOKUP_EMPTY'],
  );
  assert.match(lookup!.message, /lookup returns an empty map/);
  assert.equal([host!.file, host!.code], ['web/templates/b.yaml', 'LOOKUP_EMPTY']);
});

test('the same words as fields, variables, strings, text outside actions or files outside templates/ are no calls', () => {
  assert.equal(
    warned({
      'templates/ok.yaml': [
        '# now and lookup in YAML text are not template code',
        'a: {{ .Values.now }} {{ $.Values.lookup }} {{ $now := 1 }}{{ $now }}',
        'b: {{ "randAlphaNum" }} {{ `uuidv4` }} {{ printf "%s" "now\\" lookup" }}',
        'c: {{ include "nowhere" . }} {{ .Values.randomness }}',
      ].join('\n'),
      'values.yaml': 'password: "{{ randAlphaNum 5 }}"\n',
      'files/script.sh': 'echo {{ now }}\n',
    }),
    [],
  );
});

test("a rendered chart's unreproducible call is a warning of the render at its template line, kept with the cached output", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/secret.yaml': `apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: {{ randAlphaNum 16 | quote }}
`,
    },
    'random password',
  );
  for (const pass of ['run', 'cached']) {
    const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.ok(snapshot.model.templates.has('v1/Secret/default/db'), pass);
    assert.equal(
      snapshot.model.problems.map((p) => [p.file, p.line, p.column, p.code, p.severity]),
      [['helm-guestbook/templates/secret.yaml', 6, 16, 'NOT_REPRODUCIBLE', 'warning']],
      pass,
    );
  }
});

test("verify without the cache of the render names the chart's call for each file it makes another value for, not tampering", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/password.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: password
data:
  password: {{ randAlphaNum 16 | quote }}
`,
      'policies/all.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: all
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap, name: password}
    - {apiVersion: apps/v1, kind: Deployment, name: helm-guestbook}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`,
    },
    'random password',
  );
  const repo = await openRepo(r.dir);
  const out = 'refs/heads/flotilla/rendered';
  await syncRepo(repo, { sourceRef: 'refs/heads/main', outputRef: out });
  assert.ok((await verifyOutput(repo, { outputRef: out })).ok, 'replayed from the cache, the password is the same');
  // Another machine's verify, or this one after the cache is gone: helm runs again and makes another password.
  rmSync(path.join(repo.gitdir, UNIT_CACHE_DIR), { recursive: true, force: true });
  const report = await verifyOutput(repo, { outputRef: out });
  const files = [
    'clusters/member1/default/configmap_password.yaml',
    'clusters/member2/default/configmap_password.yaml',
  ];
  assert.equal(report.differs, files);
  const call = 'randAlphaNum at helm-guestbook/templates/password.yaml:6';
  assert.equal(
    report.unreproducible,
    files.map((p) => ({ path: p, call })),
  );
  const text = formatVerifyReport(report, 'flotilla/rendered');
  assert.match(text, `differs  ${files[0]}  (not reproducible: its chart calls ${call})`);
  assert.match(text, /each output by a chart that gives another value on each run \(NOT_REPRODUCIBLE\)/);
  assert.not.match(text, /tampering/);
});

test.run();
