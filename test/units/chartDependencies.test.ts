import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { chartDependencyCopies, localChartDependencies } from '../../src/units/chartDependencies.ts';
import { resolveRelative } from '../../src/units/detectUnits.ts';
import { satisfiesChartVersion } from '../../src/units/chartVersionConstraint.ts';
import { PINNED_TOOLS_DIR } from '../../src/units/unitTools.ts';
import { makeConfigRepoWith, manifestOf, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';

const repos: ConfigRepo[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'flotilla-chart-deps-'));
test.after(() => {
  for (const r of repos) r.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const WEB_CHART = `apiVersion: v2
name: web
version: 0.1.0
dependencies:
  - name: common
    version: 0.1.0
    repository: file://../../libs/common
`;

function labels(tier: string): string {
  return `{{- define "common.labels" -}}\napp.kubernetes.io/name: {{ .Chart.Name }}\ntier: ${tier}\n{{- end -}}\n`;
}

/** A library chart in libs/common and an application chart in apps/web using its named template through file://. */
function monorepo(tier = 'web'): Record<string, string> {
  return {
    'libs/common/Chart.yaml': 'apiVersion: v2\nname: common\nversion: 0.1.0\ntype: library\n',
    'libs/common/templates/_labels.tpl': labels(tier),
    'apps/web/Chart.yaml': WEB_CHART,
    'apps/web/values.yaml': 'greeting: hello\n',
    'apps/web/templates/configmap.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-settings
  labels:
    {{- include "common.labels" . | nindent 4 }}
data:
  greeting: {{ .Values.greeting | quote }}
`,
  };
}

const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap, name: web-settings}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;

test('file:// dependencies are read from Chart.yaml at the line of their repository', () => {
  const file = 'apps/web/Chart.yaml';
  const deps = localChartDependencies(
    file,
    `${WEB_CHART}  - name: redis\n    version: 1.0.0\n    repository: https://charts.example\n`,
  );
  assert.equal(deps, [{ name: 'common', path: '../../libs/common', version: '0.1.0', file, line: 7, column: 17 }]);
});

test("a chart's own file:// dependencies are copied, as helm dependency build packs them, and one vendored under charts/ is left to helm", () => {
  const dep = (name: string, path: string, version = '0.1.0') => ({
    name,
    path,
    version,
    file: 'apps/web/Chart.yaml',
    line: 1,
    column: 1,
  });
  const charts = new Set(['apps/web', 'libs/common', 'libs/vendored']);
  const out = chartDependencyCopies(
    'apps/web',
    [
      dep('common', '../../libs/common'),
      dep('vendored', '../../libs/vendored'),
      dep('itself', '.'),
      dep('up', '..'),
      dep('newer', '../../libs/common', '^2.0.0'),
      // Matched in quadratic time: long enough, it would hold the render for minutes.
      dep('padded', '../../libs/common', `>=0.1.0${' '.repeat(400_000)}<1.0.0`),
    ],
    (dir) => charts.has(dir),
    new Set<string>(),
    (name) => name === 'vendored',
    resolveRelative,
    () => '0.1.0',
  );
  assert.equal(out.copies, [{ from: 'libs/common', to: 'charts/common' }]);
  assert.equal(
    out.problems.map((p) => p.message),
    [
      "file://. is the chart's own folder or one holding it: a chart cannot be its own dependency",
      'file://.. is not a chart folder of this commit (no apps/Chart.yaml)',
      `libs/common is version 0.1.0, which does not satisfy the constraint "^2.0.0" (helm dependency build: can't get a valid version for dependency newer)`,
      'dependency "padded" has a version constraint of 400013 characters, over the 256 a render reads',
    ],
  );
});

test('a version constraint is satisfied as helm dependency build decides it', () => {
  // What helm v3.17.2's dependency build answered for a file:// chart at version 0.1.0.
  const helm: [string, boolean | 'invalid'][] = [
    ['', 'invalid'],
    ['abc', 'invalid'],
    ['0.1.0', true],
    ['=0.1.0', true],
    ['v0.1.0', true],
    ['0.1', true],
    ['0', true],
    ['0.1.x', true],
    ['*', true],
    ['~0.1', true],
    ['^0.1.0', true],
    ['^0.2', false],
    ['>=0.1.0', true],
    ['>0.1', false],
    ['<0.2', true],
    ['<=0.1', true],
    ['!=0.1.0', false],
    ['>=0.0.1-0', true],
    ['1.0.0 - 2.0.0', false],
    ['0.0.1 - 0.1', true],
    ['>0.0.1, <0.1.1', true],
    ['>0.0.1 <0.1.1', true],
    ['0.2.0 || 0.1.0', true],
    // Between two conditions white space or one comma, around them white space only.
    ['>=0.0.1 , <0.2', true],
    ['  >=0.0.1,\t<0.2  ', true],
    ['>=0.0.1<0.2', 'invalid'],
    ['^0.1,', 'invalid'],
    [',^0.1', 'invalid'],
    ['>=0.0.1,,<0.2', 'invalid'],
    ['0.1.0 ||', 'invalid'],
  ];
  assert.equal(
    helm.map(([c]) => [c, satisfiesChartVersion(c, '0.1.0')]),
    helm,
  );
  assert.not.ok(satisfiesChartVersion('>=0.1.0', '0.2.0-rc.1'), 'a prerelease only for a constraint naming one');
  assert.ok(satisfiesChartVersion('>=0.1.0-0', '0.2.0-rc.1'));
  // Each condition apart: != of an exact version is the one that lets a prerelease through (helm 3.17's semver 3.3).
  assert.ok(satisfiesChartVersion('!=0.1.0', '0.2.0-rc.1'));
  assert.not.ok(satisfiesChartVersion('!=0.1', '0.2.0-rc.1'));
  assert.not.ok(satisfiesChartVersion('!=0.1.0 >0.0.1', '0.2.0-rc.1'));
});

test('a chart with a file:// library dependency renders the objects helm template gives after helm dependency build', async () => {
  const files = monorepo();
  // The real tools on a copy of the same files.
  const copy = path.join(scratch, 'helm');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    writeFileSync(path.join(copy, rel), text);
  }
  const home = path.join(scratch, 'home');
  const env = { ...process.env, HOME: home, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
  const helm = path.join(PINNED_TOOLS_DIR, 'helm');
  execFileSync(helm, ['dependency', 'build', path.join(copy, 'apps/web')], { env, stdio: 'pipe' });
  const rendered = execFileSync(
    helm,
    ['template', 'web', path.join(copy, 'apps/web'), '--namespace', 'default', '--skip-tests', '--include-crds'],
    { env, encoding: 'utf8' },
  );
  const expected = parseAllDocuments(rendered)
    .map((d) => d.toJS())
    .filter(Boolean);
  assert.is(expected.length, 1);

  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'a chart using a library chart of the repository');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(model.problems, []);
  assert.equal([...model.templates.keys()], ['v1/ConfigMap/default/web-settings']);
  assert.equal(model.templates.get('v1/ConfigMap/default/web-settings')!.manifest, expected[0]);
});

test("a link at charts/<name> to the file:// dependency's folder (Rook's charts/library) is the copy's place: no warning", async () => {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...monorepo() }, 'a chart using a library chart');
  mkdirSync(path.join(r.dir, 'apps/web/charts'), { recursive: true });
  symlinkSync('../../../libs/common', path.join(r.dir, 'apps/web/charts/common'));
  r.commit({}, 'the library linked where helm dependency build would put it');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(model.problems, []);
  assert.equal([...model.templates.keys()], ['v1/ConfigMap/default/web-settings']);
});

test('a change in the library chart renders the charts depending on it again on the next sync, and verify replays it', async () => {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...monorepo('web'), 'policies/web.yaml': POLICY }, 'web');
  const sync = async () =>
    syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const rendered = () => r.git('show', `flotilla/rendered:${manifestOf('member1', 'ConfigMap', 'web-settings')}`);
  await sync();
  assert.match(rendered(), 'tier: web');
  r.commit({ 'libs/common/templates/_labels.tpl': labels('frontend') }, 'common: tier frontend');
  await sync();
  assert.match(rendered(), 'tier: frontend');
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: 'refs/heads/flotilla/rendered' })).ok);
});

test("an error in a dependency's template names its file where the commit has it, not the render's copy", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...monorepo(),
      'libs/common/templates/_labels.tpl': '{{- define "common.labels" -}}\ntier: {{ .Values.x.y.z }}\n{{- end -}}\n',
    },
    'a broken library template',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const failed = model.problems.find((p) => p.code === 'UNIT_FAILED');
  assert.ok(failed?.message.includes('libs/common/templates/_labels.tpl:2:'), failed?.message);
  assert.not.ok(failed?.message.includes('charts/common'), failed?.message);
});

test("a made-up value in a dependency's template is warned at its file in the commit, as one in the chart is", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...monorepo(),
      'libs/common/templates/_labels.tpl': '{{- define "common.labels" -}}\ntoken: {{ randAlphaNum 8 }}\n{{- end -}}\n',
    },
    'a library template with a random value',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    model.problems.map((p) => `${p.file}:${p.line} ${p.code}`),
    ['libs/common/templates/_labels.tpl:2 NOT_REPRODUCIBLE'],
  );
});

test('a file:// dependency outside the repository, naming no chart folder or a version its constraint refuses, is refused at its line', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...monorepo(),
      'apps/web/Chart.yaml': WEB_CHART.replace('../../libs/common', '../../../common'),
      'apps/api/Chart.yaml': WEB_CHART.replace('name: web', 'name: api').replace(
        '../../libs/common',
        '../../libs/gone',
      ),
      'apps/old/Chart.yaml': WEB_CHART.replace('name: web', 'name: old').replace(
        'version: 0.1.0\n    repo',
        'version: ~0.2.0\n    repo',
      ),
    },
    'dependencies a render cannot read',
  );
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const refused = model.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.code} ${p.message}`);
  assert.equal(refused, [
    'apps/api/Chart.yaml:7:17 INVALID_VALUE file://../../libs/gone is not a chart folder of this commit (no libs/gone/Chart.yaml)',
    `apps/old/Chart.yaml:7:17 INVALID_VALUE libs/common is version 0.1.0, which does not satisfy the constraint "~0.2.0" (helm dependency build: can't get a valid version for dependency common)`,
    'apps/web/Chart.yaml:7:17 INVALID_VALUE file://../../../common is outside the repository',
  ]);
});

test('a file:// dependency naming a symbolic link to a chart folder is refused at its line, the link not followed', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...monorepo(), 'apps/web/Chart.yaml': WEB_CHART.replace('libs/common', 'libs/link') },
    'a dependency through a link',
  );
  symlinkSync('common', path.join(r.dir, 'libs/link'));
  r.commit({}, 'link');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    model.problems.map((p) => `${p.file}:${p.line} ${p.message}`),
    [
      'apps/web/Chart.yaml:7 file://../../libs/link is a file or symbolic link, not a chart folder: a render copies files out of the commit, not links',
    ],
  );
});

test('a dependency is copied without what its .helmignore names, as helm dependency build packs it', async () => {
  const files = {
    ...monorepo(),
    'apps/web/Chart.yaml': `${WEB_CHART}  - name: extra\n    version: 0.1.0\n    repository: file://../extra\n`,
    'apps/extra/Chart.yaml': 'apiVersion: v2\nname: extra\nversion: 0.1.0\n',
    'apps/extra/.helmignore': '# drafts\n*.draft.yaml\nscratch/\n',
    'apps/extra/templates/kept.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-kept\n',
    'apps/extra/templates/old.draft.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: draft\n',
    'apps/extra/templates/scratch/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scratch\n',
  };
  const copy = mkdtempSync(path.join(scratch, 'ignore-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    writeFileSync(path.join(copy, rel), text);
  }
  const home = path.join(scratch, 'home');
  const env = { ...process.env, HOME: home, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
  const helm = path.join(PINNED_TOOLS_DIR, 'helm');
  execFileSync(helm, ['dependency', 'build', path.join(copy, 'apps/web')], { env, stdio: 'pipe' });
  const names = parseAllDocuments(
    execFileSync(helm, ['template', 'web', path.join(copy, 'apps/web'), '--namespace', 'default'], {
      env,
      encoding: 'utf8',
    }),
  )
    .map((d) => (d.toJS() as { metadata?: { name?: string } } | null)?.metadata?.name)
    .filter(Boolean)
    .sort();
  assert.equal(names, ['web-kept', 'web-settings']);
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files }, 'a dependency with a .helmignore');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(model.problems, []);
  // apps/extra renders on its own too (a unit of its own, as an Argo CD Application would be): extra-kept, draft...
  const web = [...model.templates.values()].filter((t) => t.source.file === 'apps/web/Chart.yaml');
  assert.equal(web.map((t) => t.ref.name).sort(), names);
});

/** The Chart.lock real helm writes for `files` (helm dependency build on a copy). */
function helmLock(files: Record<string, string>, chartDir: string): string {
  const copy = mkdtempSync(path.join(scratch, 'lock-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    writeFileSync(path.join(copy, rel), text);
  }
  const home = path.join(scratch, 'home');
  const env = { ...process.env, HOME: home, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home };
  execFileSync(path.join(PINNED_TOOLS_DIR, 'helm'), ['dependency', 'build', path.join(copy, chartDir)], {
    env,
    stdio: 'pipe',
  });
  return readFileSync(path.join(copy, chartDir, 'Chart.lock'), 'utf8');
}

test("with a Chart.lock, helm's digest and the version it pins are checked, as helm dependency build does", async () => {
  const files = {
    ...monorepo(),
    'apps/web/Chart.yaml': WEB_CHART.replace('version: 0.1.0\n    repo', 'version: "~0.1"\n    repo'),
  };
  const lock = helmLock(files, 'apps/web');
  const problems = async (changed: Record<string, string>) => {
    const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files, 'apps/web/Chart.lock': lock, ...changed }, 'locked');
    const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    return model.problems.map((p) => `${p.file}:${p.line} ${p.message}`);
  };
  assert.equal(await problems({}), [], 'the lock helm wrote is in sync');
  assert.equal(
    await problems({ 'libs/common/Chart.yaml': 'apiVersion: v2\nname: common\nversion: 0.1.1\ntype: library\n' }),
    [
      `apps/web/Chart.yaml:7 libs/common is version 0.1.1, but apps/web/Chart.lock pins common at 0.1.0 (helm dependency build: can't get a valid version for dependency common)`,
    ],
  );
  assert.equal(await problems({ 'apps/web/Chart.yaml': files['apps/web/Chart.yaml']!.replace('~0.1', '>=0.1') }), [
    `apps/web/Chart.lock:${lock.split('\n').findIndex((l) => l.startsWith('digest:')) + 1} the lock file (Chart.lock) is out of sync with the dependencies file (Chart.yaml): helm dependency build stops before it copies common`,
  ]);
});

test('a Chart.lock helm wrote over YAML 1.1 words (enabled: yes, tags: [on]) is in sync, as helm reads Chart.yaml', async () => {
  // helm reads Chart.yaml with sigs.k8s.io/yaml: `yes` is the boolean true, `on` in a list of strings is "true",
  // and the digest is over those values.
  const files = {
    ...monorepo(),
    'apps/web/Chart.yaml': WEB_CHART.replace(
      'repository: file://../../libs/common\n',
      'repository: file://../../libs/common\n    enabled: yes\n    tags: [backend, on]\n    condition: n\n',
    ),
  };
  const lock = helmLock(files, 'apps/web');
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...files, 'apps/web/Chart.lock': lock }, 'locked 1.1');
  const { model } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    model.problems.map((p) => `${p.file}:${p.line} ${p.message}`),
    [],
  );
});

test.run();
