import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { namedTemplatesOnly } from '../../src/outputs/affectedByChange.ts';
import type { FileObjects } from '../../src/api/model.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';
import { loadChange } from './helpers/loadChange.ts';
import { clusterYaml, configMap, makeConfigRepo, sample, type ConfigRepo } from '../helpers/fleet.ts';

// A change to namespaced policies only reaches the templates of their namespaces: the sync finds those in the output
// index without reading it whole, including templates no policy placed before (their entries hold no cluster), and
// renders what a cold render would.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const policy = (namespace: string, names: string[]) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: configmaps
  namespace: ${namespace}
spec:
  resourceSelectors:
${names.map((name) => `    - {apiVersion: v1, kind: ConfigMap, name: ${name}}`).join('\n')}
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

test('a namespaced policy that now selects an unplaced template of its namespace renders it, and nothing of another namespace', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'policies/shop.yaml': policy('shop', ['a']),
    'policies/billing.yaml': policy('billing', ['a', 'b']),
  };
  for (const ns of ['shop', 'billing'])
    for (const name of ['a', 'b', 'c']) files[`templates/${ns}/${name}.yaml`] = configMap(name, name, ns);
  r.commit(files, 'two namespaces, shop places a only');
  await sync(r);
  assert.throws(() => r.show('flotilla/rendered', 'clusters/member1/shop/configmap_b.yaml'));

  r.commit({ 'policies/shop.yaml': policy('shop', ['a', 'b']) }, 'shop places b too');
  const [report] = (await sync(r)).reports;
  assert.equal(
    [...(report?.explanations.keys() ?? [])].sort(),
    ['v1/ConfigMap/shop/a', 'v1/ConfigMap/shop/b'],
    'the templates the old or the new policy selects, in its namespace only',
  );
  assert.match(r.show('flotilla/rendered', 'clusters/member2/shop/configmap_b.yaml'), /namespace: shop/);
  await assertVerifies(r);
});

const override = (namespace: string, selectors: string, value: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: web
  namespace: ${namespace}
spec:
${selectors}
  overrideRules:
    - targetCluster:
        clusterNames: [member2]
      overriders:
        annotationsOverrider:
          - operator: add
            value: {owner: ${value}}
`;
const NAMED = `  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web, namespace: shop}`;

function objectsOf(path: string, text: string): FileObjects {
  const { documents, problems } = parseDocuments(path, new TextEncoder().encode(text));
  return classifyDocuments(path, documents, problems);
}

test('policies that name every object they select reach those templates alone, read by key; a label selector or none needs the walk', () => {
  const path = 'policies/shop-override.yaml';
  const now = objectsOf(path, override('shop', NAMED, 'a'));
  const loaded = new Map([[path, now]]);
  assert.equal([...namedTemplatesOnly([{ path }], loaded, [])!], ['apps/v1/Deployment/shop/web']);
  const old = objectsOf(
    path,
    override('shop', '  resourceSelectors:\n    - {apiVersion: apps/v1, kind: Deployment, name: api}', 'a'),
  );
  assert.equal([...namedTemplatesOnly([{ path }], loaded, [old])!].sort(), [
    'apps/v1/Deployment/shop/api',
    'apps/v1/Deployment/shop/web',
  ]);
  const labels = objectsOf(
    path,
    override(
      'shop',
      '  resourceSelectors:\n    - {apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}',
      'a',
    ),
  );
  assert.is(namedTemplatesOnly([{ path }], new Map([[path, labels]]), []), undefined);
  assert.is(
    namedTemplatesOnly([{ path }], new Map([[path, objectsOf(path, override('shop', '', 'a'))]]), []),
    undefined,
  );
  assert.is(namedTemplatesOnly([{ path }], loaded, [labels]), undefined, 'the old version selected by labels');
});

test('an OverridePolicy naming its Deployment re-renders that Deployment alone, as a whole render does', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const deployment = sample('nginx/deployment.yaml').replace(/name: nginx\n/, 'name: web\n  namespace: shop\n');
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'templates/shop/web.yaml': deployment,
      'templates/shop/a.yaml': configMap('a', 'a', 'shop'),
      'policies/shop.yaml': policy('shop', ['a']).replace(
        '    - {apiVersion: v1, kind: ConfigMap, name: a}',
        '    - {apiVersion: v1, kind: ConfigMap, name: a}\n    - {apiVersion: apps/v1, kind: Deployment, name: web}',
      ),
      'policies/shop-override.yaml': override('shop', NAMED, 'a'),
    },
    'a Deployment with an override',
  );
  await sync(r);
  r.commit({ 'policies/shop-override.yaml': override('shop', NAMED, 'b') }, 'another owner');
  const [report] = (await sync(r)).reports;
  assert.equal([...(report?.explanations.keys() ?? [])], ['apps/v1/Deployment/shop/web']);
  assert.match(r.show('flotilla/rendered', 'clusters/member2/shop/deployment.apps_web.yaml'), /owner: b/);
  await assertVerifies(r);
});

test('a change to namespaced policies reads the policies of the namespaces it reaches, not every policy of the fleet', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
  };
  for (const ns of ['shop', 'billing', 'search']) {
    files[`policies/${ns}.yaml`] = policy(ns, ['a']);
    files[`templates/${ns}/a.yaml`] = configMap('a', 'a', ns);
  }
  const first = r.commit(files, 'three namespaces');
  await sync(r);
  const second = r.commit({ 'policies/shop.yaml': policy('shop', ['a', 'b']) }, 'shop places b too');
  const loaded = await loadChange(r, first, second);
  assert.equal(
    loaded.model.propagationPolicies.map((p) => p.object.metadata.namespace).sort(),
    ['shop'],
    'billing and search are not read',
  );
  assert.equal([...loaded.affected], ['v1/ConfigMap/shop/a']);
});

const clusterOverride = (selectors: string, value: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: owners
spec:
  resourceSelectors:
${selectors}
  overrideRules:
    - targetCluster:
        clusterNames: [member2]
      overriders:
        annotationsOverrider:
          - operator: add
            value: {owner: ${value}}
`;

test("a ClusterOverridePolicy whose selectors each name a namespace reaches those namespaces' templates alone; one selector without a namespace reaches the fleet", async () => {
  const r = makeConfigRepo();
  repos.push(r);
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
  };
  for (const ns of ['shop', 'billing', 'search']) {
    files[`policies/${ns}.yaml`] = policy(ns, ['a']);
    files[`templates/${ns}/a.yaml`] = configMap('a', 'a', ns);
  }
  const inShop = '    - {apiVersion: v1, kind: ConfigMap, namespace: shop}';
  files['policies/owners.yaml'] = clusterOverride(inShop, 'a');
  const first = r.commit(files, 'three namespaces, an override for shop');
  await sync(r);
  const load = (second: string) => loadChange(r, first, second);
  const scoped = await load(r.commit({ 'policies/owners.yaml': clusterOverride(inShop, 'b') }, 'another owner'));
  assert.equal(
    scoped.model.propagationPolicies.map((p) => p.object.metadata.namespace),
    ['shop'],
    'billing and search are not read',
  );
  assert.equal([...scoped.affected], ['v1/ConfigMap/shop/a']);
  const [report] = (await sync(r)).reports;
  assert.equal([...(report?.explanations.keys() ?? [])], ['v1/ConfigMap/shop/a']);
  assert.match(r.show('flotilla/rendered', 'clusters/member2/shop/configmap_a.yaml'), /owner: b/);
  await assertVerifies(r);

  const everywhere = await load(
    r.commit(
      { 'policies/owners.yaml': clusterOverride('    - {apiVersion: v1, kind: ConfigMap}', 'c') },
      'every namespace',
    ),
  );
  assert.equal(everywhere.model.propagationPolicies.map((p) => p.object.metadata.namespace).sort(), [
    'billing',
    'search',
    'shop',
  ]);
  assert.equal([...everywhere.affected].sort(), [
    'v1/ConfigMap/billing/a',
    'v1/ConfigMap/search/a',
    'v1/ConfigMap/shop/a',
  ]);
});

test.run();
