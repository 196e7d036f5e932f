// explain and reschedule take the resource references get, describe and blame take: short names, plurals,
// kind.group, TYPE NAME; history takes kubectl's words for the built-in kinds too.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { makeConfigRepoWith, MEMBERS, type ConfigRepo } from '../helpers/fleet.ts';
import { FLOTILLA_BIN as BIN } from '../helpers/flotillaBin.ts';

const repos: ConfigRepo[] = [];
const flotilla = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
test.after(() => {
  for (const r of repos) r.cleanup();
});

const FILES = {
  ...MEMBERS,
  'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: example.io/v1
kind: Widget
metadata: {name: web}
spec: {}
`,
  'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
    - {apiVersion: example.io/v1, kind: Widget, name: web}
  placement: {clusterAffinity: {clusterNames: [member1]}}
`,
};

test('explain accepts deploy/web, deploy web, deployments.apps/web and Deployment/web alike', () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  const expected = flotilla('explain', 'deployment/web', '--repo', r.dir);
  assert.is(expected.status, 0, expected.stderr);
  assert.match(expected.stdout, 'Deployment default/web (apps/v1)');
  for (const words of [['deploy/web'], ['deploy', 'web'], ['deployments.apps/web'], ['Deployment/web']]) {
    const res = flotilla('explain', ...words, '--repo', r.dir);
    assert.is(res.status, 0, `${words.join(' ')}: ${res.stderr}`);
    assert.is(res.stdout, expected.stdout, words.join(' '));
  }
});

test("explain resolves a custom kind by its plural, and a kind with another group's name is not found", () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  const widget = flotilla('explain', 'widgets/web', '--repo', r.dir);
  assert.is(widget.status, 0, widget.stderr);
  assert.match(widget.stdout, 'Widget default/web (example.io/v1)');
  const wrongGroup = flotilla('explain', 'deployments.example.io/web', '--repo', r.dir);
  assert.is(wrongGroup.status, 2);
  assert.match(wrongGroup.stderr, 'no resource type "deployments.example.io"');
});

test('explain refuses what is not one template, with the usage: no name, clusters, an unknown word', () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  for (const words of [[], ['deploy'], ['clusters/member1']]) {
    const res = flotilla('explain', ...words, '--repo', r.dir);
    assert.is(res.status, 2, `${words.join(' ')}: ${res.stdout}${res.stderr}`);
    assert.match(res.stderr, 'flotilla explain <kind>/<name>');
  }
  const unknown = flotilla('explain', 'gizmos/web', '--repo', r.dir);
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, 'no resource type "gizmos"');
});

test('explain takes a name outside the default namespace when one namespace has it, and asks for -n when several do; history says where it is', () => {
  const inNamespace = (ns: string) =>
    FILES['apps/web.yaml'].split('---')[0]!.replace('metadata: {name: web}', `metadata: {name: api, namespace: ${ns}}`);
  const policy = (ns: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: api, namespace: ${ns}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: api}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...FILES,
      'apps/api-shop.yaml': inNamespace('shop'),
      'apps/api-blog.yaml': inNamespace('blog'),
      'policies/api-shop.yaml': policy('shop'),
      'policies/api-blog.yaml': policy('blog'),
    },
    'api',
  );
  const both = flotilla('explain', 'deploy/api', '--repo', r.dir);
  assert.is(both.status, 1, both.stdout);
  assert.is(both.stdout, '');
  assert.match(both.stderr, 'deploy/api is a template in 2 namespaces (blog, shop)');
  assert.match(both.stderr, 'pass -n');
  const one = flotilla('explain', 'deploy/api', '-n', 'shop', '--repo', r.dir);
  assert.is(one.status, 0, one.stderr);
  assert.match(one.stdout, 'Deployment shop/api (apps/v1)');
  const web = flotilla('explain', 'deploy/web', '--repo', r.dir);
  assert.is(web.status, 0, web.stderr);
  // history reads the default namespace without -n, as kubectl does, and says where else the name is, and placed.
  assert.is(flotilla('render', '--repo', r.dir).status, 0);
  const history = flotilla('history', 'deploy/api', '--repo', r.dir);
  assert.is(history.status, 1, history.stdout);
  assert.match(
    history.stderr,
    'deploy/api never appears on flotilla/rendered: no template of that name is in namespace default; it is a template in namespace blog (placed on member1) and namespace shop (placed on member1); fix: pass -n with one of blog, shop',
  );
  const inShop = flotilla('history', 'deploy/api', '-n', 'shop', '--repo', r.dir);
  assert.is(inShop.status, 0, inShop.stderr);
});

test("explain, reschedule and blame take one object: several types, names or TYPE/NAME words are refused naming what was given and what is taken, kubectl's malformed words in its words", () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  for (const [words, given] of [
    [['deploy,widgets', 'web'], '(2 objects: deploy/web widgets/web)'],
    [['deploy/web', 'widgets/web'], '(2 objects: deploy/web widgets/web)'],
    [['deploy', 'web', 'api'], '(2 names of deploy: web api)'],
    [['deploy,widgets'], '(2 types: deploy,widgets)'],
    [['deploy/web/x'], 'arguments in resource/name form may not have more than one slash'],
    [['deploy/web', 'api'], 'there is no need to specify a resource type as a separate argument'],
  ] as const) {
    for (const command of [['explain'], ['reschedule'], ['blame', '--cluster', 'member1']]) {
      const res = flotilla(...command, ...words, '--repo', r.dir);
      const what = `${command[0]} ${words.join(' ')}`;
      assert.is(res.status, 2, `${what}: ${res.stdout}${res.stderr}`);
      assert.ok(res.stderr.includes(given), `${what}: ${res.stderr}`);
      assert.ok(res.stderr.includes(`flotilla ${command[0]} `), `${what} names its usage: ${res.stderr}`);
      if (given.startsWith('(')) assert.match(res.stderr, 'one object at a time, as TYPE/NAME or TYPE NAME');
    }
  }
  assert.is(r.ls('main').filter((f) => f.startsWith('rebalancers/')).length, 0, 'nothing was rescheduled');
});

test('reschedule deploy web commits the same WorkloadRebalancer deployment/web would', () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  const res = flotilla('reschedule', 'deploy', 'web', '--repo', r.dir);
  assert.is(res.status, 0, res.stderr);
  const file = r.ls('main').find((f) => f.startsWith('rebalancers/'));
  assert.ok(file, res.stdout);
  assert.equal(parse(r.show('main', file!)).spec.workloads, [
    { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
  ]);
  const widget = flotilla('reschedule', 'widgets/web', '--repo', r.dir);
  assert.is(widget.status, 0, widget.stderr);
  assert.is(flotilla('reschedule', 'clusters/member1', '--repo', r.dir).status, 2);
});

test('history deploy/web is the history of deployment/web', () => {
  const r = makeConfigRepoWith(repos, FILES, 'web');
  assert.is(flotilla('render', '--repo', r.dir).status, 0);
  const long = flotilla('history', 'deployment/web', '--repo', r.dir, '-o', 'json');
  assert.is(long.status, 0, long.stderr);
  assert.is(JSON.parse(long.stdout).length, 1);
  const short = flotilla('history', 'deploy/web', '--repo', r.dir, '-o', 'json');
  assert.is(short.status, 0, short.stderr);
  assert.is(short.stdout, long.stdout);
});

test('history of a template no policy places says so, as explain does, and names the fix, not another namespace', () => {
  const r = makeConfigRepoWith(
    repos,
    { ...FILES, 'apps/db.yaml': FILES['apps/web.yaml'].split('---')[0]!.replaceAll('web', 'db') },
    'db',
  );
  assert.is(flotilla('render', '--repo', r.dir).status, 0);
  const explain = flotilla('explain', 'deploy/db', '--repo', r.dir);
  assert.match(
    explain.stdout,
    'why: no PropagationPolicy in namespace default or ClusterPropagationPolicy selects Deployment default/db',
  );
  for (const args of [[], ['-n', 'default'], ['--cluster', 'member1']]) {
    const history = flotilla('history', 'deploy/db', ...args, '--repo', r.dir);
    assert.is(history.status, 1, history.stdout);
    assert.match(
      history.stderr,
      'never appears on flotilla/rendered: Deployment default/db (apps/db.yaml) is a template, but no PropagationPolicy in namespace default or ClusterPropagationPolicy selects it, so no cluster gets it; fix: add a policy whose resourceSelectors match it',
    );
    assert.not.match(history.stderr, 'pass -n');
  }
  const elsewhere = flotilla('history', 'deploy/db', '-n', 'shop', '--repo', r.dir);
  assert.match(
    elsewhere.stderr,
    'deploy/db in namespace shop never appears on flotilla/rendered: no template of that name is in namespace shop; it is a template in namespace default (placed on no cluster); fix: pass -n default',
  );
  const otherCluster = flotilla('history', 'deploy/web', '--cluster', 'member2', '--repo', r.dir);
  assert.match(
    otherCluster.stderr,
    'Deployment default/web (apps/web.yaml) is placed by PropagationPolicy default/web on member1, not on member2; fix: name one of those with --cluster',
  );
  const typo = flotilla('history', 'deploy/wbe', '--repo', r.dir);
  assert.match(typo.stderr, 'its newest render holds no template of that kind and name; did you mean deploy/web?');
});

test.run();
