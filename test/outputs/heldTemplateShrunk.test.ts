import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { shardOf, shardPath } from '../../src/branches/rendered/outputIndex.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepoWith, PROD_AND_DEV_MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { WORKLOAD_CRD } from '../helpers/customWorkload.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

// A template a render holds (its file unreadable, the object invalid or defined twice, its policy no longer selecting
// it, its interpreter hook failing)
// keeps its last output, whatever the clusters do: a full render writes nothing for it. The relabel shortcut
// (outputs/steadyResults.ts) decides from the index entry, the policy and the previous binding alone, without the
// template: each of these must make it render instead of cutting the result.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});
const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
const blob = (r: ConfigRepo, rev: string, file: string) => r.git('rev-parse', `${rev}:${file}`);
const renderedKeys = (report: { explanations: Map<string, unknown> } | undefined) =>
  [...(report?.explanations.keys() ?? [])].sort();

const duplicated = (name: string, selector: string, extra = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ${name}
spec:
${extra}  resourceSelectors:
${selector}  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          env: prod
    replicaScheduling:
      replicaSchedulingType: Duplicated
`;
const deployment = (name: string) => `    - apiVersion: apps/v1\n      kind: Deployment\n      name: ${name}\n`;
const nginx = sample('nginx/deployment.yaml');
const leaveProd = { 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }) };

/**
 * Renders, holds `key` with `hold`, then takes member2 out of prod: the held template must keep its binding, its
 * index clusters and its manifest on member2, exactly as the render before left them (what a full render does).
 */
async function heldThroughRelabel(
  r: ConfigRepo,
  hold: Record<string, string>,
  key: string,
  binding: string,
  onMember2: string,
): Promise<void> {
  await sync(r);
  r.commit(hold, 'the template is held from here on');
  const [held] = (await sync(r)).reports;
  assert.ok(renderedKeys(held).includes(key), 'held: the render names it');
  const before = r.git('rev-parse', 'flotilla/rendered');
  assert.ok(r.ls(before).includes(onMember2));
  r.commit(leaveProd, 'member2 leaves prod');
  const [left] = (await sync(r)).reports;
  // verify holds a held template's files to the render before's.
  await assertVerifies(r);
  assert.ok(r.ls('flotilla/rendered').includes(onMember2), `${onMember2} is kept, as the held template's last output`);
  assert.is(blob(r, 'flotilla/rendered', binding), blob(r, before, binding), 'its binding is kept as it was');
  assert.ok(renderedKeys(left).includes(key), 'and the render still reports it held');
}

/** nginx Duplicated on the prod clusters (member1, member2), as most cases start. */
const nginxOnProd = () =>
  makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': nginx,
      'policies/nginx.yaml': duplicated('nginx', deployment('nginx')),
    },
    'nginx Duplicated on prod',
  );
const nginxHeldThroughRelabel = (hold: Record<string, string>) =>
  heldThroughRelabel(
    nginxOnProd(),
    hold,
    'apps/v1/Deployment/default/nginx',
    'bindings/default/nginx-deployment.yaml',
    'clusters/member2/default/deployment.apps_nginx.yaml',
  );

test('a template its policy no longer selects keeps its last output when a cluster leaves that placement', async () => {
  await nginxHeldThroughRelabel({ 'policies/nginx.yaml': duplicated('nginx', deployment('other')) });
});

const HOOK = `apiVersion: config.karmada.io/v1alpha1
kind: ResourceInterpreterCustomization
metadata: {name: workload}
spec:
  target: {apiVersion: apps.example.io/v1alpha1, kind: Workload}
  customizations:
    replicaResource:
      luaScript: |
        function GetReplicas(obj)
          if obj.spec.replicas > 5 then error("too many replicas for this kind") end
          return obj.spec.replicas, nil
        end
    replicaRevision:
      luaScript: |
        function ReviseReplica(obj, desiredReplica)
          obj.spec.replicas = desiredReplica
          return obj
        end
`;
const shop = (replicas: number) => `apiVersion: apps.example.io/v1alpha1
kind: Workload
metadata: {name: shop}
spec:
  replicas: ${replicas}
  template:
    metadata: {labels: {app: shop}}
    spec: {containers: [{name: shop, image: shop:1}]}
`;

test('a workload whose replica hook fails keeps its last output when a cluster leaves its placement', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'crds/workload.yaml': WORKLOAD_CRD,
      'interpreters/workload.yaml': HOOK,
      'templates/shop.yaml': shop(2),
      'policies/shop.yaml': duplicated(
        'shop',
        '    - apiVersion: apps.example.io/v1alpha1\n      kind: Workload\n      name: shop\n',
      ),
    },
    'Workload shop Duplicated on prod',
  );
  await heldThroughRelabel(
    r,
    { 'templates/shop.yaml': shop(6) },
    'apps.example.io/v1alpha1/Workload/default/shop',
    'bindings/default/shop-workload.yaml',
    'clusters/member2/default/workload.apps.example.io_shop.yaml',
  );
});

test('a template whose file no longer parses keeps its last output when a cluster leaves its placement', async () => {
  await nginxHeldThroughRelabel({ 'templates/nginx.yaml': `${nginx}\n  : [broken\n` });
});

test('a dependency whose file no longer parses keeps its last output when its shrunk parent leaves a cluster', async () => {
  const withConfig = nginx.replace(
    '      containers:\n',
    '      volumes:\n        - name: conf\n          configMap:\n            name: nginx-conf\n      containers:\n',
  );
  const conf = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nginx-conf\ndata:\n  a: "1"\n';
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': withConfig,
      'templates/conf.yaml': conf,
      'policies/nginx.yaml': duplicated('nginx', deployment('nginx'), '  propagateDeps: true\n'),
    },
    'nginx Duplicated on prod with its ConfigMap',
  );
  await heldThroughRelabel(
    r,
    { 'templates/conf.yaml': `${conf}  : [broken\n` },
    'v1/ConfigMap/default/nginx-conf',
    'bindings/default/nginx-conf-configmap.yaml',
    'clusters/member2/default/configmap_nginx-conf.yaml',
  );
  const binding = parse(r.show('flotilla/rendered', 'bindings/default/nginx-deployment.yaml')) as {
    spec: { clusters: { name: string }[] };
  };
  assert.equal(
    binding.spec.clusters.map((c) => c.name),
    ['member1'],
    'the parent itself is cut',
  );
});

test('the index entry of a template held for its unreadable file says so, as its schema allows, until it renders again', async () => {
  const r = nginxOnProd();
  const key = 'apps/v1/Deployment/default/nginx';
  const shard = shardPath(shardOf(key));
  const entryAt = (rev: string) => JSON.parse(r.show(rev, shard)).templates[key];
  const schemaFile = path.resolve(import.meta.dirname, '../../docs/schemas/rendered-index-shard.schema.json');
  const validate = new Ajv({ strict: true, allowUnionTypes: true }).compile(
    JSON.parse(readFileSync(schemaFile, 'utf8')),
  );
  await sync(r);
  assert.is(entryAt('flotilla/rendered').held, undefined);
  r.commit({ 'templates/nginx.yaml': `${nginx}\n  : [broken\n` }, 'nginx.yaml broken');
  await sync(r);
  assert.is(entryAt('flotilla/rendered').held, true);
  assert.ok(validate(JSON.parse(r.show('flotilla/rendered', shard))), JSON.stringify(validate.errors));
  r.commit({ 'templates/nginx.yaml': nginx.replace('- image: nginx', '- image: nginx:1.27') }, 'nginx.yaml mended');
  await sync(r);
  assert.is(entryAt('flotilla/rendered').held, undefined);
  await assertVerifies(r);
});

test('a template that turns invalid keeps its last output when a cluster leaves its placement', async () => {
  await nginxHeldThroughRelabel({ 'templates/nginx.yaml': nginx.replace('replicas: 2', 'replicas: two') });
});

test('a template defined twice keeps its last output when a cluster leaves its placement', async () => {
  await nginxHeldThroughRelabel({ 'templates/nginx-copy.yaml': nginx });
});
test.run();
