import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchFolderBindings, parseFolderBindings } from '../../src/outputs/previousOutputs.ts';

const template = (apiVersion: string, kind: string, namespace: string, name: string) =>
  [`${apiVersion}/${kind}/${namespace}/${name}`, { ref: { apiVersion, kind, namespace, name } }] as const;
const model = {
  templates: new Map([
    template('apps/v1', 'Deployment', 'default', 'web'),
    template('v1', 'Namespace', '', 'shop'),
    template('apps/v1', 'Deployment', 'shop', 'api'),
  ]),
} as never;

test('folder bindings in every form Karmada users write: List, many documents, namespace from metadata, ClusterResourceBinding', () => {
  const files = new Map([
    [
      'bindings/list.yaml',
      'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: work.karmada.io/v1alpha2, kind: ResourceBinding, metadata: {name: web-deployment, namespace: default}, spec: {resource: {apiVersion: apps/v1, kind: Deployment, name: web}, clusters: [{name: m1, replicas: 2}]}, status: {schedulerObservedAffinityName: primary}}\n',
    ],
    [
      'bindings/many.yaml',
      'apiVersion: work.karmada.io/v1alpha2\nkind: ClusterResourceBinding\nmetadata: {name: shop-namespace}\nspec: {resource: {apiVersion: v1, kind: Namespace, name: shop}, clusters: [{name: m1}]}\n---\napiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nmetadata: {name: api-deployment, namespace: shop}\nspec: {resource: {kind: Deployment, name: api}, clusters: [{name: m2, replicas: 3}]}\n---\nkind: ConfigMap\n',
    ],
    ['clusters/m1/default/x.yaml', 'kind: ResourceBinding\n'],
  ]);
  const found = matchFolderBindings(parseFolderBindings(files), model);
  assert.equal([...found.keys()].sort(), [
    'apps/v1/Deployment/default/web',
    'apps/v1/Deployment/shop/api',
    'v1/Namespace//shop',
  ]);
  assert.equal(found.get('apps/v1/Deployment/default/web')!.spec.clusters, [{ name: 'm1', replicas: 2 }]);
  assert.is(found.get('apps/v1/Deployment/default/web')!.status!.schedulerObservedAffinityName, 'primary');
  assert.equal(
    found.get('apps/v1/Deployment/shop/api')!.spec.clusters,
    [{ name: 'm2', replicas: 3 }],
    'namespace from metadata, apiVersion from the template',
  );
  assert.equal(found.get('v1/Namespace//shop')!.spec.clusters, [{ name: 'm1', replicas: 0 }]);
});

test("two files for one template: Flotilla's own path wins, whatever the order", () => {
  const rb = (replicas: number) =>
    `apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nmetadata: {name: web-deployment, namespace: default}\nspec: {resource: {apiVersion: apps/v1, kind: Deployment, namespace: default, name: web}, clusters: [{name: m1, replicas: ${replicas}}]}\n`;
  for (const order of [
    ['bindings/default/web-deployment.yaml', 'bindings/zz.yaml'],
    ['bindings/zz.yaml', 'bindings/default/web-deployment.yaml'],
  ]) {
    const files = new Map(order.map((p) => [p, rb(p === 'bindings/zz.yaml' ? 1 : 5)]));
    assert.is(
      matchFolderBindings(parseFolderBindings(files), model).get('apps/v1/Deployment/default/web')!.spec.clusters![0]!
        .replicas,
      5,
    );
  }
});

test('a binding whose apiVersion group differs from the template is not its previous result', () => {
  const files = new Map([
    [
      'bindings/x.yaml',
      'apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nmetadata: {name: web-deployment, namespace: default}\nspec: {resource: {apiVersion: example.io/v1, kind: Deployment, name: web}, clusters: [{name: m1, replicas: 1}]}\n',
    ],
  ]);
  assert.is(matchFolderBindings(parseFolderBindings(files), model).has('apps/v1/Deployment/default/web'), false);
});

test.run();
