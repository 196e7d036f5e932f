import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { makeConfigRepoWith, PROD_AND_DEV_MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

// An object defined twice in the commit that first brings it has no last good output: nothing is rendered for it, and
// the index has no entry of its own, only its files' entries list it. The commit that ends the duplicate (deleting or
// editing the other file) may leave the kept definition's file untouched: it must render then, as a cold render does.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});
const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
  placement:
    clusterAffinity:
      clusterNames: [member1]
`;
const manifest = 'clusters/member1/default/deployment.apps_nginx.yaml';
const nginx = sample('nginx/deployment.yaml');

for (const [how, end] of [
  ['deleting the other file', null],
  ['editing the other file', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n'],
] as const) {
  test(`an object defined twice from its first commit renders once the duplicate ends by ${how}`, async () => {
    const r = makeConfigRepoWith(repos, { ...PROD_AND_DEV_MEMBERS, 'policies/nginx.yaml': policy }, 'fleet');
    await sync(r);
    r.commit({ 'templates/nginx.yaml': nginx, 'templates/copy.yaml': nginx }, 'nginx, twice');
    await sync(r);
    assert.not.ok(r.ls('flotilla/rendered').includes(manifest), 'held while defined twice: no last good output');
    r.commit({ 'templates/copy.yaml': end }, 'one definition left');
    await sync(r);
    assert.ok(r.ls('flotilla/rendered').includes(manifest), 'rendered from the definition left');
    await assertVerifies(r);
  });
}

test.run();
