import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMapPolicy, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

// Karmada matches OverridePolicies against the object its ClusterOverridePolicies changed
// (overridemanager.go ApplyOverridePolicies): an incremental sync must reach a template that way too, and render
// what a whole render (verify) does.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

async function assertVerified(r: ConfigRepo) {
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.ok(
    verified.ok,
    JSON.stringify({ differs: verified.differs, missing: verified.missing, extra: verified.extra }),
  );
}

const web = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  namespace: default
data:
  k: v
`;

/** Labels every ConfigMap tier=gold on the clusters `target` takes. */
const goldTier = (target: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: gold-tier
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
  overrideRules:
    - ${target}
      overriders:
        labelsOverrider:
          - operator: add
            value: {tier: gold}
`;

/** Annotates the ConfigMaps labelled tier=gold, on the clusters `target` takes. */
const goldOwner = (owner: string, target = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: gold-owner
  namespace: default
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap, labelSelector: {matchLabels: {tier: gold}}}
  overrideRules:
    - ${target}
      overriders:
        annotationsOverrider:
          - operator: add
            value: {owner: ${owner}}
`;

const ownerOn = (r: ConfigRepo, cluster: string) =>
  /\n {4}owner: (\w+)\n/.exec(r.show('flotilla/rendered', `clusters/${cluster}/default/configmap_web.yaml`))?.[1];

test('an OverridePolicy added or changed reaches a template through the label a ClusterOverridePolicy gives it', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'clusters/member2.yaml': clusterYaml('member2'),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member2']),
      'policies/gold-tier.yaml': goldTier('targetCluster: {clusterNames: [member2]}'),
      'templates/web.yaml': web,
    },
    'web, gold on member2',
  );
  await sync(r);
  r.commit({ 'policies/gold-owner.yaml': goldOwner('alice') }, 'gold ConfigMaps belong to alice');
  await sync(r);
  assert.equal([ownerOn(r, 'member1'), ownerOn(r, 'member2')], [undefined, 'alice']);
  await assertVerified(r);
  r.commit({ 'policies/gold-owner.yaml': goldOwner('bob') }, 'to bob');
  await sync(r);
  assert.is(ownerOn(r, 'member2'), 'bob');
  await assertVerified(r);
});

test("a relabeled cluster that an OverridePolicy's target now takes reaches a template through the label a ClusterOverridePolicy gives it", async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'dev' } }),
      'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }),
      'policies/configmaps.yaml': configMapPolicy(['member1', 'member2']),
      'policies/gold-tier.yaml': goldTier('targetCluster: {clusterNames: [member1, member2]}'),
      'policies/gold-owner.yaml': goldOwner('alice', 'targetCluster: {labelSelector: {matchLabels: {env: prod}}}'),
      'templates/web.yaml': web,
    },
    'web, gold everywhere, alice owns it in prod',
  );
  await sync(r);
  assert.is(ownerOn(r, 'member1'), undefined);
  r.commit({ 'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod' } }) }, 'member1 goes to prod');
  await sync(r);
  assert.equal([ownerOn(r, 'member1'), ownerOn(r, 'member2')], ['alice', undefined]);
  await assertVerified(r);
});

test.run();
