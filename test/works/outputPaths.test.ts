import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { renderRevision } from '../../src/outputs/renderRevision.ts';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { bindingPath, manifestPath, outputPathKeys } from '../../src/branches/rendered/outputPaths.ts';
import { clusterYaml, makeConfigRepoWith, type ConfigRepo } from '../helpers/fleet.ts';

const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test('manifest paths name the group, binding files are named as Karmada names bindings; outputPathKeys lists both without the cluster', () => {
  const ingress = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', namespace: 'shop', name: 'web' };
  assert.is(manifestPath('member1', ingress), 'clusters/member1/shop/ingress.networking.k8s.io_web.yaml');
  assert.is(bindingPath(ingress), 'bindings/shop/web-ingress.yaml');
  assert.equal(outputPathKeys(ingress), [
    'manifest:shop/ingress.networking.k8s.io_web.yaml',
    'binding:bindings/shop/web-ingress.yaml',
  ]);
  const legacy = { ...ingress, apiVersion: 'example.com/v1' };
  assert.is.not(outputPathKeys(legacy)[0], outputPathKeys(ingress)[0]);
  assert.is(
    outputPathKeys(legacy)[1],
    outputPathKeys(ingress)[1],
    'same kind and name in two groups: one binding file',
  );
});

test('a manifest path is the same object on every cluster under its own folder, and never leaves it', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', namespace: '', name: 'settings' };
  assert.is(manifestPath('member1', cm), 'clusters/member1/_cluster/configmap_settings.yaml');
  assert.is(manifestPath('member2', cm), 'clusters/member2/_cluster/configmap_settings.yaml');
  for (const cluster of ['..', '.', '', 'a\\b', 'nul\0'])
    assert.throws(() => manifestPath(cluster, cm), /would leave clusters\//, JSON.stringify(cluster));
  assert.throws(() => manifestPath('member1', { ...cm, namespace: '..' }), /would leave clusters\//);
});

const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: all
spec:
  resourceSelectors:
    - apiVersion: networking.k8s.io/v1
      kind: Ingress
    - apiVersion: example.com/v1
      kind: Ingress
    - apiVersion: v1
      kind: ConfigMap
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const ingress = (apiVersion: string) =>
  `apiVersion: ${apiVersion}\nkind: Ingress\nmetadata:\n  name: web\n  namespace: default\nspec:\n  defaultBackend: {service: {name: web, port: {number: 80}}}\n`;

/** A repository whose one Ingress, web (networking.k8s.io/v1), is placed on member1 and rendered. */
async function renderedWeb() {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy,
      'templates/web.yaml': ingress('networking.k8s.io/v1'),
    },
    'web',
  );
  const repo = await openRepo(r.dir);
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  return { r, repo };
}

test('two templates that would share an output file are an error at both, and neither replaces or removes the other', async () => {
  const { r, repo } = await renderedWeb();
  const binding = r.show('flotilla/rendered', 'bindings/default/web-ingress.yaml');
  const manifest = r.show('flotilla/rendered', 'clusters/member1/default/ingress.networking.k8s.io_web.yaml');

  r.commit(
    {
      'templates/legacy.yaml': ingress('example.com/v1'),
      'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    },
    'the same Ingress in another group',
  );
  const report = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.equal(
    report.problems.filter((p) => p.code === 'PATH_COLLISION').map((p) => `${p.file}:${p.line}`),
    ['templates/legacy.yaml:1', 'templates/web.yaml:1'],
  );
  assert.match(
    report.problems.find((p) => p.code === 'PATH_COLLISION')!.message,
    'would both be written to bindings/default/web-ingress.yaml',
  );
  assert.is(r.show('flotilla/rendered', 'bindings/default/web-ingress.yaml'), binding, 'the binding was not replaced');
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/ingress.example.com_web.yaml'));
  assert.ok(
    r.ls('flotilla/rendered').includes('clusters/member1/default/configmap_cm.yaml'),
    'the rest of the commit renders',
  );

  r.commit({ 'templates/legacy.yaml': null }, 'drop the copy');
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.is(
    r.show('flotilla/rendered', 'clusters/member1/default/ingress.networking.k8s.io_web.yaml'),
    manifest,
    'removing the copy took nothing of the original',
  );
  assert.is(r.show('flotilla/rendered', 'bindings/default/web-ingress.yaml'), binding);
});

test('a template held by a collision renders as soon as the other object goes, though its own file does not change', async () => {
  const { r, repo } = await renderedWeb();
  r.commit({ 'templates/legacy.yaml': ingress('example.com/v1') }, 'the same Ingress in another group');
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  r.commit(
    { 'templates/other.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n' },
    'an unrelated change',
  );
  const unrelated = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.ok(
    unrelated.problems.some((p) => p.code === 'PATH_COLLISION' && p.file === 'templates/legacy.yaml'),
    'still held, and still said',
  );
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/ingress.example.com_web.yaml'));

  r.commit({ 'templates/web.yaml': null }, 'retire the new-group Ingress');
  const freed = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.equal(
    freed.problems.filter((p) => p.severity === 'error'),
    [],
  );
  const files = r.ls('flotilla/rendered');
  assert.ok(files.includes('clusters/member1/default/ingress.example.com_web.yaml'), 'the held one renders now');
  assert.not.ok(files.includes('clusters/member1/default/ingress.networking.k8s.io_web.yaml'));
  assert.match(r.show('flotilla/rendered', 'bindings/default/web-ingress.yaml'), 'apiVersion: example.com/v1');
  assert.not.match(r.show('flotilla/rendered', '.flotilla/index.json'), 'blocked');
});

test('two new templates colliding in one commit: both held, and the one left renders when the other is deleted', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/all.yaml': policy,
      'templates/web.yaml': ingress('networking.k8s.io/v1'),
      'templates/legacy.yaml': ingress('example.com/v1'),
    },
    'both at once',
  );
  const repo = await openRepo(r.dir);
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.not.ok(r.ls('flotilla/rendered').some((f) => f.includes('ingress')));
  r.commit({ 'templates/legacy.yaml': null }, 'keep the new group only');
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/ingress.networking.k8s.io_web.yaml'));
});

test('a template changed in the commit that adds a same-name copy renders its change; the copy, held, never replaces it', async () => {
  const { r, repo } = await renderedWeb();
  r.commit(
    {
      'templates/legacy.yaml': ingress('example.com/v1'),
      'templates/web.yaml': ingress('networking.k8s.io/v1').replace('spec:\n', 'spec:\n  ingressClassName: changed\n'),
    },
    'a copy, and a change to web',
  );
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  const path = 'clusters/member1/default/ingress.networking.k8s.io_web.yaml';
  assert.match(r.show('flotilla/rendered', path), 'ingressClassName: changed', 'the object already there renders');
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/ingress.example.com_web.yaml'));
  r.commit({ 'templates/legacy.yaml': null }, 'drop the copy');
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.match(r.show('flotilla/rendered', path), 'ingressClassName: changed');
});

test('an object the API server would refuse never holds back the template whose binding name it shares', async () => {
  const { r, repo } = await renderedWeb();
  // INGRESS in networking.k8s.io/v1 is no kind Kubernetes serves: refused, and its binding would be web-ingress too.
  r.commit(
    { 'templates/refused.yaml': ingress('networking.k8s.io/v1').replace('kind: Ingress', 'kind: INGRESS') },
    'a refused copy',
  );
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  r.commit(
    { 'templates/web.yaml': ingress('networking.k8s.io/v1').replace('spec:\n', 'spec:\n  ingressClassName: nginx\n') },
    'the owner changes its Ingress',
  );
  const changed = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.equal(
    changed.problems.filter((p) => p.code === 'PATH_COLLISION'),
    [],
  );
  assert.match(
    r.show('flotilla/rendered', 'clusters/member1/default/ingress.networking.k8s.io_web.yaml'),
    'ingressClassName: nginx',
  );
});

test("an object of another group with the same kind and name cannot freeze the one already rendered: the owner's changes still render, the newcomer is held", async () => {
  const { r, repo } = await renderedWeb();
  r.commit({ 'templates/legacy.yaml': ingress('example.com/v1') }, 'the same Ingress in another group');
  await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  r.commit(
    { 'templates/web.yaml': ingress('networking.k8s.io/v1').replace('spec:\n', 'spec:\n  ingressClassName: nginx\n') },
    'the owner changes its Ingress',
  );
  const changed = await renderRevision(repo, r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.match(
    r.show('flotilla/rendered', 'clusters/member1/default/ingress.networking.k8s.io_web.yaml'),
    'ingressClassName: nginx',
  );
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member1/default/ingress.example.com_web.yaml'));
  const collisions = changed.problems.filter((p) => p.code === 'PATH_COLLISION');
  assert.equal(
    collisions.map((p) => p.file),
    ['templates/legacy.yaml'],
    "the error is the newcomer's only",
  );
  assert.match(collisions[0]!.message, 'was there first and keeps rendering');
  assert.ok((await verifyOutput(repo, { outputRef: OUT })).ok, 'a re-render from the bindings decides the same');

  // A cold render has no render before it to tell which came first: both are held.
  r.git('update-ref', '-d', 'refs/heads/flotilla/rendered');
  const cold = await renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  assert.equal(
    cold.problems.filter((p) => p.code === 'PATH_COLLISION').map((p) => p.file),
    ['templates/legacy.yaml', 'templates/web.yaml'],
  );
});

test('kinds that differ only in case would share a manifest path: an error at both', async () => {
  const crd = (kind: string) =>
    `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: x\n  namespace: default\n`;
  const r = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'templates/a.yaml': crd('Widget'),
      'templates/b.yaml': crd('WIDGET'),
    },
    'two widgets',
  );
  const report = await renderRevision(await openRepo(r.dir), r.git('rev-parse', 'HEAD'), { outputRef: OUT });
  const collisions = report.problems.filter((p) => p.code === 'PATH_COLLISION');
  assert.equal(
    collisions.map((p) => p.file),
    ['templates/a.yaml', 'templates/b.yaml'],
    'one pair, reported once at each file',
  );
  assert.match(collisions[0]!.message, 'clusters/<cluster>/default/widget.example.com_x.yaml');
});

test.run();
