import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { formatVerifyReport } from '../../src/commands/verifyCommand.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { UNIT_CACHE_DIR } from '../../src/units/unitOutputCache.ts';
import { chartArchiveFiles } from '../../src/units/chartArchive.ts';
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
      // Another call of the chart, in a file sorted first: the ConfigMap's own file names its call, not this one.
      'helm-guestbook/templates/_stamp.tpl': '{{- define "stamp" -}}{{ now | date "2006" }}{{- end -}}\n',
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

/** A gzipped tar as `helm package` writes one: ustar headers, a PAX record for a name past 100 bytes. */
function tgz(entries: { name: string; text?: string; dir?: boolean }[]): Uint8Array {
  const blocks: Buffer[] = [];
  const header = (name: string, size: number, type: string) => {
    const h = Buffer.alloc(512);
    h.write(name.slice(0, 100), 0);
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(type, 156);
    h.write('ustar\0' + '00', 257);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    return h;
  };
  const body = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
  for (const e of entries) {
    if (e.name.length > 100) {
      const rec = ` path=${e.name}\n`;
      let len = rec.length + 2;
      len = `${len}${rec}`.length;
      const pax = Buffer.from(`${len}${rec}`);
      blocks.push(header('PaxHeaders/x', pax.length, 'x'), body(pax));
    }
    const bytes = Buffer.from(e.text ?? '');
    blocks.push(header(e.name, e.dir ? 0 : bytes.length, e.dir ? '5' : '0'));
    if (!e.dir) blocks.push(body(bytes));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

const COMMON = [
  { name: 'common/', dir: true },
  { name: 'common/Chart.yaml', text: 'apiVersion: v2\nname: common\nversion: 1.0.0\ntype: library\n' },
  {
    name: 'common/templates/_secrets.tpl',
    text: '{{- define "common.password" -}}\n{{- $found := lookup "v1" "Secret" .Release.Namespace "db" -}}\n{{- $found | default (randAlphaNum 16) -}}\n{{- end -}}\n',
  },
];

test("a packed subchart's files are read by their path in the chart, long names included", () => {
  const long = `common/templates/${'n'.repeat(120)}.yaml`;
  const files = chartArchiveFiles(tgz([...COMMON, { name: long, text: 'x: 1\n' }]));
  assert.equal([...files.keys()], ['Chart.yaml', 'templates/_secrets.tpl', long.slice('common/'.length)]);
  assert.is(chartArchiveFiles(new Uint8Array([1, 2, 3])).size, 0);
});

test("a packed subchart's unreproducible and lookup calls are warnings at the archive, naming the template and line in it", async () => {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...helmGuestbook(1) }, 'guestbook');
  mkdirSync(path.join(r.dir, 'helm-guestbook/charts'), { recursive: true });
  writeFileSync(path.join(r.dir, 'helm-guestbook/charts/common-1.0.0.tgz'), tgz(COMMON));
  r.commit({}, 'common library, packed');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.ok(snapshot.model.templates.has('apps/v1/Deployment/default/helm-guestbook'), 'the chart renders with it');
  assert.equal(
    snapshot.model.problems.map((p) => [p.file, p.line, p.code, p.message.slice(0, p.message.indexOf(': '))]),
    [
      [
        'helm-guestbook/charts/common-1.0.0.tgz',
        1,
        'LOOKUP_EMPTY',
        'templates/_secrets.tpl:2:15 in helm-guestbook/charts/common-1.0.0.tgz',
      ],
    ],
    // Its random helper is never included: a second run writes the same bytes, so NOT_REPRODUCIBLE would be noise.
  );
});

test('a random call in a branch these values do not take is no warning: a second run writes the same output', async () => {
  const secret = `apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: {{ .Values.password | default (randAlphaNum 16) | quote }}
`;
  const given = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/secret.yaml': secret,
      'helm-guestbook/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  valuesObject: {password: s3cret}\n',
    },
    'password given',
  );
  const snapshot = await renderSnapshot(await openRepo(given.dir), 'HEAD');
  assert.equal(snapshot.model.problems, []);
  // Without the value the password is generated on each run: the warning stands.
  given.commit({ 'helm-guestbook/flotilla-unit.yaml': null }, 'password generated');
  const generated = await renderSnapshot(await openRepo(given.dir), 'HEAD');
  assert.equal(
    generated.model.problems.map((p) => [p.file, p.code]),
    [['helm-guestbook/templates/secret.yaml', 'NOT_REPRODUCIBLE']],
  );
});

test('a lookup in a template these values render nothing of is no warning; with the branch on, it is', async () => {
  const policy = `{{- if .Values.networkPolicy }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: np
data:
  found: {{ (lookup "v1" "Namespace" "" "kube-system") | toString | quote }}
{{- end }}
`;
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'helm-guestbook/templates/np.yaml': policy },
    'network policy off',
  );
  assert.equal((await renderSnapshot(await openRepo(r.dir), 'HEAD')).model.problems, []);
  r.commit(
    {
      'helm-guestbook/flotilla-unit.yaml':
        'apiVersion: flotilla.io/v1alpha1\nkind: HelmUnit\nspec:\n  valuesObject: {networkPolicy: true}\n',
    },
    'network policy on',
  );
  assert.equal(
    (await renderSnapshot(await openRepo(r.dir), 'HEAD')).model.problems.map((p) => [p.file, p.code]),
    [['helm-guestbook/templates/np.yaml', 'LOOKUP_EMPTY']],
  );
});

test.run();
