import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { openOutputIndex } from '../../src/branches/rendered/readOutputIndex.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { matchFolderBindings, parseFolderBindings, readPreviousOutputs } from '../../src/outputs/previousOutputs.ts';
import { makeConfigRepoWith, nginxPolicy, PROD_AND_DEV_MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';

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

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

test("a cluster-only change finds a template's previous manifests: on the changed cluster at once, elsewhere when asked", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': nginxPolicy(),
    },
    'nginx on member1 and member2',
  );
  await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
  const repo = await openRepo(r.dir);
  const tree = r.git('rev-parse', 'flotilla/rendered^{tree}');
  const index = (await openOutputIndex(repo, tree))!;
  const key = 'apps/v1/Deployment/default/nginx';
  await index.load({ templates: [key] });
  const manifest = (c: string) => `clusters/${c}/default/deployment.apps_nginx.yaml`;
  for (const only of [new Set(['member1']), new Set(['member3']), null]) {
    const previous = await readPreviousOutputs(repo, tree, [key], index, only);
    assert.equal([...previous.bindings.keys()], [key]);
    for (const c of ['member1', 'member2']) {
      assert.ok(previous.files.has(manifest(c)), `${c} with ${only ? [...only] : 'every cluster'}`);
      assert.is(previous.files.get(manifest(c))?.trimEnd(), r.show('flotilla/rendered', manifest(c)).trimEnd());
    }
    assert.not.ok(previous.files.has(manifest('member3')), 'the template is not on member3');
    assert.is(previous.files.get(manifest('member3')), undefined);
  }
});

test.run();
