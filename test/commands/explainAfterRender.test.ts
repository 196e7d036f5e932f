// explain after a render starts from the rendered branch's index, as sync does: a template pushed since the render is
// found, one removed since is not, and the words pick a namespace as they do on a whole-commit render.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clusterYaml, makeConfigRepo, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

const deployment = (name: string, namespace = 'default') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  replicas: 2
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: ${name}, image: nginx}]}
`;

const policy = (namespace: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: apps, namespace: ${namespace}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;

let r: ConfigRepo;
test.before(() => {
  r = makeConfigRepo();
  r.commit({
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'policies/default.yaml': policy('default'),
    'policies/shop.yaml': policy('shop'),
    'apps/web.yaml': deployment('web'),
    'apps/old.yaml': deployment('old'),
  });
  const synced = flotilla('sync', '--repo', r.dir);
  assert.is(synced.status, 0, synced.stderr);
  r.commit({
    'apps/old.yaml': null,
    'apps/api.yaml': `${deployment('api')}---\n${deployment('api', 'shop')}`,
    'apps/cart.yaml': `${deployment('cart', 'shop')}---\n${deployment('cart', 'team')}`,
  });
});
test.after(() => r.cleanup());

test('a template rendered, and one pushed since, are explained; the default namespace first, -n for another', () => {
  const web = flotilla('explain', 'deploy/web', '--repo', r.dir, '-o', 'json');
  assert.is(web.status, 0, web.stderr);
  assert.equal(JSON.parse(web.stdout).clusters, [{ name: 'member1', replicas: 2 }]);
  const api = flotilla('explain', 'deploy/api', '--repo', r.dir);
  assert.is(api.status, 0, api.stderr);
  assert.match(api.stdout, /^Deployment default\/api \(apps\/v1\)\n  policy: PropagationPolicy default\/apps\n/);
  assert.match(api.stdout, /\n  member1 +selected +2 /);
  assert.match(api.stdout, /\n  member2 +filtered +- +ClusterAffinity: not in clusterNames\n/);
  const shop = flotilla('explain', 'deploy/api', '-n', 'shop', '--repo', r.dir);
  assert.match(shop.stdout, /^Deployment shop\/api \(apps\/v1\)\n  policy: PropagationPolicy shop\/apps\n/);
});

test('a template removed since the render is no template; a name in two other namespaces asks for -n', () => {
  const old = flotilla('explain', 'deploy/old', '--repo', r.dir);
  assert.is(old.status, 1);
  assert.is(old.stderr, 'flotilla: no template deploy/old at main\n');
  // Nor is it the name nearest a typo.
  assert.is(flotilla('explain', 'deploy/olld', '--repo', r.dir).stderr, 'flotilla: no template deploy/olld at main\n');
  const cart = flotilla('explain', 'deploy/cart', '--repo', r.dir);
  assert.is(cart.status, 1);
  assert.is(
    cart.stderr,
    'flotilla: deploy/cart is a template in 2 namespaces (shop, team) at main; fix: pass -n with one of them\n',
  );
  const shop = flotilla('explain', 'deploy/cart', '-n', 'shop', '--repo', r.dir);
  assert.is(shop.status, 0, shop.stderr);
});

test.run();
