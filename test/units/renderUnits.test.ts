import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { readUnitLayoutAt } from '../../src/units/readUnitObjects.ts';
import { renderUnits } from '../../src/units/renderUnits.ts';
import { DEFAULT_TOOL_LIMITS } from '../../src/units/runTool.ts';
import { GUESTBOOK_POLICY, helmGuestbook, KUSTOMIZE_GUESTBOOK, PODINFO_OVERLAYS } from './unitFixtures.ts';

const SOURCE = 'refs/heads/main';
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const DEPLOY = (name: string) => `clusters/member1/default/deployment.apps_${name}.yaml`;
const SERVICE = (name: string) => `clusters/member1/default/service_${name}.yaml`;

const everything = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: everything
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: v1, kind: Service}
    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease}
    - {apiVersion: source.toolkit.fluxcd.io/v1, kind: HelmRepository}
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: v\n`;

test("argocd-example-apps' guestbook folders render their Deployments and Services on the selected cluster, and a replicaCount change reaches the Deployment", async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...KUSTOMIZE_GUESTBOOK, ...helmGuestbook(1), 'policies/guestbook.yaml': GUESTBOOK_POLICY },
    'guestbook',
  );
  const repo = await openRepo(r.dir);
  const first = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(first.reports[0]!.problems, []);
  const files = r.ls('flotilla/rendered');
  for (const name of ['kustomize-guestbook-ui', 'helm-guestbook']) {
    assert.ok(files.includes(DEPLOY(name)), `${name} Deployment rendered`);
    assert.ok(files.includes(SERVICE(name)), `${name} Service rendered`);
  }
  assert.not.ok(
    files.some((f) => f.startsWith('clusters/member2/')),
    'only the selected cluster',
  );
  assert.match(r.show('flotilla/rendered', DEPLOY('helm-guestbook')), /replicas: 1\n/);
  // Chart.yaml, values.yaml and the templates are the chart's inputs, not broken manifests.
  assert.match(
    r.git('log', '-1', '--format=%B', 'flotilla/rendered'),
    /Render-Tools: helm v3\.\d+\.\d+, kustomize v5\.\d+\.\d+/,
  );

  r.commit({ 'helm-guestbook/values.yaml': helmGuestbook(3)['helm-guestbook/values.yaml']! }, 'guestbook: 3 replicas');
  const second = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.is(second.reports[0]!.full, false, 'incremental');
  assert.equal(second.reports[0]!.changes.member1?.changed, [DEPLOY('helm-guestbook')]);
  assert.match(r.show('flotilla/rendered', DEPLOY('helm-guestbook')), /replicas: 3\n/);
  const verified = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(verified.ok, JSON.stringify(verified));
});

test("flux2-kustomize-helm-example's overlays render as Kustomize units over their base, HelmRelease and HelmRepository passed through as templates", async () => {
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...PODINFO_OVERLAYS, 'policies/all.yaml': everything }, 'apps');
  const repo = await openRepo(r.dir);
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(reports[0]!.problems, []);
  const files = r.ls('flotilla/rendered').filter((f) => f.startsWith('clusters/member1/'));
  for (const ns of ['podinfo-staging', 'podinfo-production']) {
    assert.ok(
      files.includes(`clusters/member1/${ns}/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml`),
      files.join('\n'),
    );
    assert.ok(files.includes(`clusters/member1/${ns}/helmrepository.source.toolkit.fluxcd.io_podinfo.yaml`));
  }
  // The base is an input of both overlays, not a unit of its own: nothing lands in its namespace.
  assert.not.ok(
    files.some((f) => f.startsWith('clusters/member1/podinfo/')),
    files.join('\n'),
  );
  const production = r.show(
    'flotilla/rendered',
    'clusters/member1/podinfo-production/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml',
  );
  assert.match(production, /version: ">=1\.0\.0"\n/);
  assert.match(production, /replicaCount: 3/);

  // A change in the base renders both overlays again.
  r.commit(
    {
      'apps/base/podinfo/release.yaml': PODINFO_OVERLAYS['apps/base/podinfo/release.yaml']!.replace(
        'interval: 50m',
        'interval: 10m',
      ),
    },
    'base: interval',
  );
  const again = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(again.reports[0]!.changes.member1?.changed.sort(), [
    'clusters/member1/podinfo-production/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml',
    'clusters/member1/podinfo-staging/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml',
  ]);
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok);
});

test('two overlays that output the same object are a DUPLICATE_OBJECT naming both units, as two files would be', async () => {
  const sameNamespace = Object.fromEntries(
    Object.entries(PODINFO_OVERLAYS).map(([p, text]) => [
      p,
      text.replace(/namespace: podinfo-(staging|production)\n/, ''),
    ]),
  );
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...sameNamespace, 'policies/all.yaml': everything }, 'flux shape');
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const duplicate = snapshot.model.problems.find(
    (p) => p.code === 'DUPLICATE_OBJECT' && p.message.startsWith('HelmRelease podinfo/podinfo'),
  );
  assert.ok(duplicate, JSON.stringify(snapshot.model.problems));
  assert.equal(
    [duplicate!.file, duplicate!.message.split(' at ')[1]],
    ['apps/staging/kustomization.yaml', 'apps/production/kustomization.yaml:1'],
  );
  // Neither copy is a definition to delete: the fix is to tell the overlays apart.
  assert.match(
    duplicate!.fix,
    /^tell the two apart: give each Helm or Kustomize unit its own namespace \(namespace: in its kustomization or flotilla-unit\.yaml\) or namePrefix, or scope each to its clusters \(clusterAffinity in flotilla-unit\.yaml\), or keep one \(apps\/production\/kustomization\.yaml or apps\/staging\/kustomization\.yaml\) and vary it per cluster with an OverridePolicy; a folder not meant to render on its own goes in \.flotillaignore$/,
  );
});

test('an object one chart outputs twice is a DUPLICATE_OBJECT at the two templates that write it', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/templates/extra.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data: {from: extra}
`,
      'helm-guestbook/templates/more.yaml': `# settings again
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data: {from: more}
`,
    },
    'one chart, one object twice',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const duplicate = snapshot.model.problems.filter((p) => p.code === 'DUPLICATE_OBJECT');
  assert.is(duplicate.length, 1, JSON.stringify(snapshot.model.problems));
  assert.equal([duplicate[0]!.file, duplicate[0]!.line], ['helm-guestbook/templates/more.yaml', 2]);
  assert.match(duplicate[0]!.message, /defined twice: here and at helm-guestbook\/templates\/extra\.yaml:1$/);
  assert.match(duplicate[0]!.fix, /^remove one of the two from the chart's templates/);
});

test('a folder stops being a unit when an overlay names it as its base, and is one again when the overlay goes', async () => {
  const base = Object.fromEntries(Object.entries(PODINFO_OVERLAYS).filter(([p]) => p.startsWith('apps/base/')));
  const staging = Object.fromEntries(Object.entries(PODINFO_OVERLAYS).filter(([p]) => p.startsWith('apps/staging/')));
  const r = makeConfigRepoWith(repos, { ...MEMBERS, ...base, 'policies/all.yaml': everything }, 'base alone');
  const release = (ns: string) => `clusters/member1/${ns}/helmrelease.helm.toolkit.fluxcd.io_podinfo.yaml`;
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.ok(r.ls('flotilla/rendered').includes(release('podinfo')), 'the base renders as a unit of its own');

  r.commit(staging, 'an overlay over the base');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  let files = r.ls('flotilla/rendered');
  assert.ok(files.includes(release('podinfo-staging')));
  assert.not.ok(files.includes(release('podinfo')), "the base is the overlay's input now");

  r.commit(Object.fromEntries(Object.keys(staging).map((p) => [p, null])), 'the overlay goes');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  files = r.ls('flotilla/rendered');
  assert.ok(files.includes(release('podinfo')), 'the base is a unit again, its files unchanged');
  assert.not.ok(files.includes(release('podinfo-staging')));
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test("a base inside an overlay's folder that names a folder outside it renders as kustomize builds it, and a change there re-renders the overlay", async () => {
  const settings = (color: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: ${color}\n`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/all.yaml': everything,
      'apps/prod/kustomization.yaml': 'resources: [base]\nnamePrefix: prod-\n',
      'apps/prod/base/kustomization.yaml': 'resources: [../../../shared/common]\n',
      'shared/common/kustomization.yaml': 'resources: [settings.yaml]\n',
      'shared/common/settings.yaml': settings('blue'),
    },
    'an overlay whose nested base names a shared folder',
  );
  const file = 'clusters/member1/default/configmap_prod-settings.yaml';
  const first = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(
    first.reports[0]!.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.match(r.show('flotilla/rendered', file), /color: blue/);

  r.commit({ 'shared/common/settings.yaml': settings('green') }, 'the shared folder changes');
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.match(r.show('flotilla/rendered', file), /color: green/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test('a folder of plain manifests that gains a kustomization becomes a unit: its objects stay, now from the unit', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/all.yaml': everything,
      'app/cm.yaml': configMap('app'),
      'other/cm.yaml': configMap('other'),
    },
    'plain files',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  r.commit({ 'app/kustomization.yaml': 'resources: [cm.yaml]\ncommonLabels: {via: kustomize}\n' }, 'kustomize it');
  const { reports } = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(reports[0]!.problems, []);
  assert.equal(reports[0]!.changes.member1?.changed, ['clusters/member1/default/configmap_app.yaml']);
  assert.match(r.show('flotilla/rendered', 'clusters/member1/default/configmap_app.yaml'), /via: kustomize/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);

  // And back: without its kustomization the folder's files are manifests again.
  r.commit({ 'app/kustomization.yaml': null }, 'plain again');
  const back = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(back.reports[0]!.problems, []);
  assert.equal(back.reports[0]!.changes.member1?.changed, ['clusters/member1/default/configmap_app.yaml']);
  assert.not.match(r.show('flotilla/rendered', 'clusters/member1/default/configmap_app.yaml'), /via: kustomize/);
  assert.ok((await verifyOutput(await openRepo(r.dir), { outputRef: OUT })).ok);
});

test('a dependency vendored under charts/ renders with its parent, offline, as one unit', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...helmGuestbook(1),
      'helm-guestbook/Chart.yaml': `${helmGuestbook()['helm-guestbook/Chart.yaml']}dependencies:\n  - name: cache\n    version: 1.0.0\n    repository: https://charts.example.com\n`,
      'helm-guestbook/charts/cache/Chart.yaml': 'apiVersion: v2\nname: cache\nversion: 1.0.0\n',
      'helm-guestbook/charts/cache/values.yaml': 'size: 64Mi\n',
      'helm-guestbook/charts/cache/templates/cm.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-cache\ndata:\n  size: {{ .Values.size }}\n',
    },
    'vendored dependency',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(snapshot.model.problems, []);
  const cache = snapshot.model.templates.get('v1/ConfigMap/default/helm-guestbook-cache');
  assert.ok(cache, [...snapshot.model.templates.keys()].join('\n'));
  assert.is(cache!.source.file, 'helm-guestbook/Chart.yaml');
  assert.is(cache!.origin?.file, 'helm-guestbook/charts/cache/templates/cm.yaml');
  assert.equal(snapshot.model.units?.size, 1, 'the subchart is part of its parent');
});

test('a chart that would fetch a dependency fails at its Chart.yaml with a fix, keeps its last good output, and the rest of the commit renders', async () => {
  const r = makeConfigRepoWith(
    repos,
    { ...MEMBERS, ...helmGuestbook(1), 'policies/all.yaml': everything, 'templates/a.yaml': configMap('a') },
    'chart',
  );
  const repo = await openRepo(r.dir);
  await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const before = r.show('flotilla/rendered', DEPLOY('helm-guestbook'));
  r.commit(
    {
      'helm-guestbook/Chart.yaml': `${helmGuestbook()['helm-guestbook/Chart.yaml']}dependencies:\n  - name: redis\n    version: 17.0.0\n    repository: https://charts.bitnami.com/bitnami\n`,
      'helm-guestbook/values.yaml': helmGuestbook(5)['helm-guestbook/values.yaml']!,
      'templates/b.yaml': configMap('b'),
    },
    'chart with a remote dependency',
  );
  const { reports } = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  const problem = reports[0]!.problems.find((p) => p.code === 'UNIT_FAILED');
  assert.ok(problem, JSON.stringify(reports[0]!.problems));
  assert.is(problem!.file, 'helm-guestbook/Chart.yaml');
  assert.match(problem!.message, /redis/);
  assert.match(problem!.fix, /last good output is kept/);
  assert.is(r.show('flotilla/rendered', DEPLOY('helm-guestbook')), before, 'the chart keeps its last good output');
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/configmap_b.yaml'), 'the rest renders');
  const v = await verifyOutput(repo, { outputRef: OUT });
  assert.ok(v.ok, JSON.stringify(v));
});

test('a kustomization naming a remote base is refused at its line, before kustomize runs', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/all.yaml': everything,
      'app/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - cm.yaml\n  - https://github.com/kubernetes-sigs/kustomize//examples/multibases?ref=v1.0.6\n',
      'app/cm.yaml': configMap('app'),
    },
    'remote base',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const problem = snapshot.model.problems.find((p) => p.file === 'app/kustomization.yaml');
  assert.ok(problem, JSON.stringify(snapshot.model.problems));
  assert.is(problem!.line, 5);
  assert.match(problem!.message, /never the network/);
  assert.is(snapshot.model.templates.size, 0);
});

test("kustomize's error about a resource it could not read is at that file and line", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'app/kustomization.yaml': 'resources:\n  - deployment.yaml\n',
      'app/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n   bad: [\n',
    },
    'broken resource',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.code, p.file, p.line]),
    [['UNIT_FAILED', 'app/deployment.yaml', 5]],
  );
  assert.match(snapshot.model.problems[0]!.message, /^kustomize v5\.\d+\.\d+ failed for app: /);
  assert.not.match(snapshot.model.problems[0]!.message, /flotilla-unit-/, 'no temporary path');
});

test("kustomize's error about a patch or a replacement it could not apply is at the patch's path line or the replacement's source, in the base's files where a base failed", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'apps/base/kustomization.yaml':
        'resources:\n  - cm.yaml\npatches:\n  - path: patches/data.yaml\n    target: {kind: ConfigMap}\n',
      'apps/base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n',
      'apps/base/patches/data.yaml': '- op: replace\n  path: /data/level\n  value: debug\n',
      'apps/prod/kustomization.yaml': 'resources:\n  - ../base\n',
      'apps/edge/kustomization.yaml': `resources:
  - cm.yaml
replacements:
  - source: {kind: ConfigMap, name: settings, fieldPath: data.level}
    targets:
      - select: {kind: ConfigMap}
        fieldPaths: [data.copy]
`,
      'apps/edge/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: edge\n',
    },
    'patch and replacement that do not apply',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  assert.equal(
    snapshot.model.problems.map((p) => [p.code, p.file, p.line, p.column]),
    [
      ['UNIT_FAILED', 'apps/base/patches/data.yaml', 2, 9],
      ['UNIT_FAILED', 'apps/edge/kustomization.yaml', 4, 37],
    ],
  );
  assert.match(snapshot.model.problems[0]!.message, /doc is missing path: \/data\/level/);
  assert.match(snapshot.model.problems[0]!.fix, /^correct apps\/base\/patches\/data\.yaml /);
  assert.match(snapshot.model.problems[1]!.message, /nothing selected by ConfigMap\.\[noVer\]\.\[noGrp\]\/settings/);
});

test('a kustomization asking for buildMetadata managedByLabel renders its objects labelled as the kustomize release of the recorded version labels them', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/all.yaml': everything,
      'apps/managed/kustomization.yaml': 'resources:\n  - cm.yaml\nbuildMetadata: [managedByLabel]\n',
      // The words in the data are no label: they stay as written.
      'apps/managed/cm.yaml':
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: managed\n  labels: {app.kubernetes.io/managed-by: helm, a: b}\ndata:\n  k: 'app.kubernetes.io/managed-by: kustomize-(devel)'\n",
    },
    'managed-by label',
  );
  const { reports } = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(reports[0]!.problems, []);
  const version = /Render-Tools: kustomize (v\d+\.\d+\.\d+)/.exec(r.git('log', '-1', '--format=%B', OUT))![1]!;
  const rendered = r.show('flotilla/rendered', 'clusters/member1/default/configmap_managed.yaml');
  assert.match(rendered, `labels:\n    a: b\n    app.kubernetes.io/managed-by: kustomize-${version}\n`);
  assert.match(rendered, 'k: "app.kubernetes.io/managed-by: kustomize-(devel)"');
});

test("kustomize's error in a base is at the line of that base that holds its cause: a strategic-merge patch matching nothing, an object added twice, a generator with nothing to merge into, a namespace making two objects one, a file it cannot read", async () => {
  const cm = (name: string, more = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${more}`;
  const over = (base: string) => `resources:\n  - ../${base}\n`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'a/base/kustomization.yaml': 'resources:\n  - cm.yaml\npatches:\n  - path: p.yaml\n',
      'a/base/cm.yaml': cm('cfg'),
      'a/base/p.yaml': `${cm('cfg')}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n`,
      'a/o/kustomization.yaml': over('base'),
      'b/base/kustomization.yaml': 'resources:\n  - cm.yaml\n  - more.yaml\n',
      'b/base/cm.yaml': cm('cfg'),
      'b/base/more.yaml': `${cm('other')}---\n${cm('cfg')}`,
      'b/o/kustomization.yaml': over('base'),
      'c/b1/kustomization.yaml': 'namePrefix: a-\nresources:\n  - cm.yaml\n',
      'c/b1/cm.yaml': cm('x'),
      'c/b2/kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'c/b2/cm.yaml': cm('a-x'),
      'c/o/kustomization.yaml': 'resources:\n  - ../b1\n  - ../b2\n',
      'd/base/kustomization.yaml':
        'resources:\n  - cm.yaml\nconfigMapGenerator:\n  - name: settings\n    behavior: merge\n    literals: [a=b]\n',
      'd/base/cm.yaml': cm('cfg'),
      'd/o/kustomization.yaml': over('base'),
      'e/base/kustomization.yaml': 'resources:\n  - cm.yaml\nnamespace: prod\n',
      'e/base/cm.yaml': `${cm('x', '  namespace: dev\n')}---\n${cm('x', '  namespace: qa\n')}`,
      'e/o/kustomization.yaml': over('base'),
      'f/base/kustomization.yaml': 'resources:\n  - cm.yaml\n',
      'f/base/cm.yaml': cm('x', '  labels: [a\n'),
      'f/o/kustomization.yaml': over('base'),
    },
    'kustomize errors in bases',
  );
  const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
  const problems = [...snapshot.model.problems].sort((x, y) => x.file.localeCompare(y.file));
  assert.equal(
    problems.map((p) => [p.code, p.file, p.line, p.column]),
    [
      ['UNIT_FAILED', 'a/base/p.yaml', 6, 1],
      ['UNIT_FAILED', 'b/base/more.yaml', 6, 1],
      ['UNIT_FAILED', 'c/b2/cm.yaml', 1, 1],
      ['UNIT_FAILED', 'd/base/kustomization.yaml', 4, 11],
      ['UNIT_FAILED', 'e/base/kustomization.yaml', 3, 1],
      ['UNIT_FAILED', 'f/base/cm.yaml', 4, 1],
    ],
  );
  const messages = problems.map((p) => p.message);
  assert.match(messages[0]!, /no matches for Id Deployment\.v1\.apps\/web\.\[noNs\]/);
  assert.match(messages[1]!, /may not add resource with an already registered id: ConfigMap\.v1\.\[noGrp\]\/cfg/);
  assert.match(messages[2]!, /already registered id: ConfigMap\.v1\.\[noGrp\]\/a-x\.\[noNs\]/);
  // kustomize prints the generator by its Go pointer, which differs on every run.
  assert.match(
    messages[3]!,
    /merging from generator: id ConfigMap\.v1\.\[noGrp\]\/settings\.\[noNs\] does not exist; cannot merge or replace$/,
  );
  assert.match(
    messages[4]!,
    /ID conflict: ConfigMap\.v1\.\[noGrp\]\/x\.prod \(was in dev\), ConfigMap\.v1\.\[noGrp\]\/x\.prod \(was in qa\)$/,
  );
  assert.match(problems[5]!.fix, /^correct f\/base\/cm\.yaml /);
});

test('a kustomization naming a file the commit lacks is held until a later commit adds it, then renders', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      'policies/all.yaml': everything,
      'app/kustomization.yaml': 'resources:\n  - cm.yaml\n',
    },
    'names a file not committed yet',
  );
  const repo = await openRepo(r.dir);
  const first = await syncRepo(repo, { sourceRef: SOURCE, outputRef: OUT });
  assert.match(first.reports[0]!.problems.map((p) => p.message).join('\n'), /cm\.yaml is not in this commit/);
  r.commit({ 'app/cm.yaml': configMap('shared') }, 'the file');
  const second = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE, outputRef: OUT });
  assert.equal(second.reports[0]!.problems, []);
  assert.equal(second.reports[0]!.changes.member1?.added, ['clusters/member1/default/configmap_shared.yaml']);
});

test("a chart whose output would escape its cluster folder or set Flotilla's labels is held whole", async () => {
  const chart = (template: string) => ({
    'evil/Chart.yaml': 'apiVersion: v2\nname: evil\nversion: 0.1.0\n',
    'evil/templates/cm.yaml': template,
    'evil/templates/fine.yaml': configMap('fine'),
  });
  for (const template of [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "../../../escape"\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: posing\n  annotations:\n    flotilla.io/source-commit: abc\n',
  ]) {
    const r = makeConfigRepoWith(repos, { ...MEMBERS, 'policies/all.yaml': everything, ...chart(template) }, 'evil');
    const snapshot = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    assert.ok(snapshot.model.unreadableFiles.has('evil/Chart.yaml'));
    assert.is(snapshot.model.templates.size, 0, 'nothing of the unit is rendered, the fine object neither');
    const problem = snapshot.model.problems.find((p) => p.severity === 'error');
    assert.is(problem?.file, 'evil/templates/cm.yaml', JSON.stringify(snapshot.model.problems));
  }
});

test('the units one render renders hold a bounded number of objects: the unit that crosses it and those after it are held at their marker', async () => {
  const kustomization = (names: string[]) => `resources: [${names.map((n) => `${n}.yaml`).join(', ')}]\n`;
  const unit = (dir: string, names: string[]) => ({
    [`${dir}/kustomization.yaml`]: kustomization(names),
    ...Object.fromEntries(names.map((n) => [`${dir}/${n}.yaml`, configMap(n)])),
  });
  const r = makeConfigRepoWith(
    repos,
    {
      ...MEMBERS,
      ...unit('a', ['a1', 'a2', 'a3']),
      ...unit('b', ['b1', 'b2', 'b3']),
      ...unit('c', ['c1']),
    },
    'three units',
  );
  const repo = await openRepo(r.dir);
  const tree = r.git('rev-parse', 'HEAD^{tree}');
  const layout = await readUnitLayoutAt(repo, tree, { maxEntries: 10_000 });
  const rendered = await renderUnits(repo, tree, layout.units, DEFAULT_TOOL_LIMITS, 5);
  assert.equal(
    [...rendered.values()].map((f) => [f.file, f.templates.length, f.unreadable, f.problems.map((p) => p.code)]),
    [
      ['a/kustomization.yaml', 3, false, []],
      ['b/kustomization.yaml', 0, true, ['COMMIT_TOO_LARGE']],
      ['c/kustomization.yaml', 0, true, ['COMMIT_TOO_LARGE']],
    ],
  );
  assert.match(rendered.get('c/kustomization.yaml')!.problems[0]!.message, 'from b/kustomization.yaml');
});

test.run();
