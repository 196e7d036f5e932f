import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyOutput } from '../../src/audits/verifyOutput.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, configMapPolicy, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';

// Karmada's binding controller overrides the template karmada-apiserver holds, which the detector's claim has labelled
// (detector/claim.go AddPPClaimMetadata): an override policy may select by that label, and an incremental sync must
// reach the template as a whole render (verify) does.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });

const web = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web
  namespace: default
data:
  k: v
`;

/** Annotates the ConfigMaps a PropagationPolicy has claimed. */
const claimedOwner = (owner: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: claimed-owner
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
      labelSelector:
        matchExpressions:
          - {key: propagationpolicy.karmada.io/permanent-id, operator: Exists}
  overrideRules:
    - overriders:
        annotationsOverrider:
          - operator: add
            value: {owner: ${owner}}
`;

const ownerOn = (r: ConfigRepo, cluster: string) =>
  /\n {4}owner: (\w+)\n/.exec(r.show('flotilla/rendered', `clusters/${cluster}/default/configmap_web.yaml`))?.[1];

test('an OverridePolicy added or changed reaches a template by the permanent-id label its claim gives it', async () => {
  const r = makeConfigRepo();
  repos.push(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1'),
      'policies/configmaps.yaml': configMapPolicy(['member1']),
      'templates/web.yaml': web,
    },
    'web on member1',
  );
  await sync(r);
  assert.is(ownerOn(r, 'member1'), undefined);
  r.commit({ 'policies/claimed-owner.yaml': claimedOwner('alice') }, 'claimed ConfigMaps belong to alice');
  await sync(r);
  assert.is(ownerOn(r, 'member1'), 'alice');
  r.commit({ 'policies/claimed-owner.yaml': claimedOwner('bob') }, 'to bob');
  await sync(r);
  assert.is(ownerOn(r, 'member1'), 'bob');
  const verified = await verifyOutput(await openRepo(r.dir), { outputRef: OUT });
  assert.ok(verified.ok, JSON.stringify({ differs: verified.differs, missing: verified.missing }));
});

test.run();
