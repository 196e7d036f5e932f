import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { getCommand } from '../../src/commands/getCommand.ts';
import type { TempRepo } from '../commits/helpers/tempRepo.ts';
import { makeFleetRepo, runReadCommand } from './helpers/fleetRepo.ts';
import {
  clusterYaml,
  configMap,
  configMapPolicy,
  makeConfigRepoWith,
  MEMBERS,
  nginxPolicy,
  nginxSample,
  sample,
  type ConfigRepo,
} from '../helpers/fleet.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';

let repo: TempRepo;
// The helper commits at fixed dates (committer time 1700000100); "now" is one hour later.
const NOW = new Date((1_700_000_100 + 3600) * 1000);

test.before(async () => {
  ({ repo } = await makeFleetRepo());
});
test.after(() => repo.cleanup());

const get = (...args: string[]) => runReadCommand(getCommand, repo.path, NOW, args);

test('get clusters: karmadactl columns, status from the status branch, AGE from the commit that added it', async () => {
  const r = await get('clusters');
  assert.is(
    r.out,
    [
      'NAME      VERSION     MODE   READY     AGE',
      'member1   v1.32.0     Push   True      60m',
      'member2   v1.32.0     Push   True      60m',
      'member3   <unknown>   Push   Unknown   60m',
      '',
    ].join('\n'),
  );
  const wide = await get('clusters', '-o', 'wide');
  assert.match(wide.out.split('\n')[0]!, /^NAME +VERSION +MODE +READY +AGE +PROVIDER +REGION +ZONES +TAINTS$/);
});

test('get rb / deploy / works, -A adds NAMESPACE, -o wide adds the placement', async () => {
  assert.is(
    (await get('rb')).out,
    'NAME               SCHEDULED   FULLYAPPLIED   AGE\nnginx-deployment   True        True           60m\n',
  );
  assert.is(
    (await get('bindings', '-A', '-o', 'wide')).out,
    [
      'NAMESPACE   NAME               SCHEDULED   FULLYAPPLIED   AGE   REPLICAS   CLUSTERS',
      'default     nginx-deployment   True        True           60m   2          member1:1,member2:1',
      '',
    ].join('\n'),
  );
  assert.is(
    (await get('deploy')).out,
    'NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nnginx   2/2     2            2           60m\n',
  );
  assert.is(
    (await get('deployments.apps', '-A')).out.split('\n')[0],
    'NAMESPACE   NAME    READY   UP-TO-DATE   AVAILABLE   AGE',
  );
  assert.is(
    (await get('deploy', 'nginx', '--cluster', 'member2')).out,
    'NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nnginx   1/1     1            1           60m\n',
  );
  assert.is(
    (await get('works')).out,
    [
      'CLUSTER   NAMESPACE   KIND         NAME    APPLIED',
      'member1   default     Deployment   nginx   True',
      'member2   default     Deployment   nginx   True',
      '',
    ].join('\n'),
  );
  assert.is((await get('works', '--cluster', 'member3')).err, 'No resources found\n');
  // A cluster no Cluster registers is said so, not listed as empty.
  const misspelt = await get('deploy', '--cluster', 'membr2');
  assert.is(misspelt.out, '');
  assert.is(
    misspelt.err,
    'error: cluster membr2 is not registered; registered: member1, member2, member3 (did you mean member2?)\n',
  );
});

test('-o yaml and -o json: one named object as itself, several as a List', async () => {
  const one = parse((await get('deploy', 'nginx', '-o', 'yaml')).out);
  assert.is(one.kind, 'Deployment');
  assert.is(one.spec.replicas, 2);
  assert.is(one.status.readyReplicas, 2);
  assert.equal(
    one.status.aggregatedStatus.map((a: { clusterName: string }) => a.clusterName),
    ['member1', 'member2'],
  );
  const list = JSON.parse((await get('clusters', '-o', 'json')).out);
  assert.is(list.kind, 'List');
  assert.equal(
    list.items.map((c: { metadata: { name: string } }) => c.metadata.name),
    ['member1', 'member2', 'member3'],
  );
  assert.is(list.items[0].status.conditions[0].type, 'Ready');
  const rb = parse((await get('rb', 'nginx-deployment', '-o', 'yaml')).out);
  assert.equal(rb.spec.clusters, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ]);
  assert.equal(
    rb.status.conditions.map((c: { type: string }) => c.type),
    ['Scheduled', 'FullyApplied'],
  );
  const work = parse((await get('works', 'nginx', '--cluster', 'member1', '-o', 'yaml')).out);
  assert.is(work.kind, 'Work');
  assert.is(work.metadata.namespace, 'karmada-es-member1');
  assert.is(work.spec.workload.manifests[0].spec.replicas, 1);
});

test('-o yaml and -o json print keys sorted and lists laid out as kubectl prints unstructured objects', async () => {
  const yaml = (await get('deploy', '-o', 'yaml')).out;
  assert.ok(yaml.startsWith('apiVersion: v1\nitems:\n- apiVersion: apps/v1\n'), yaml);
  assert.ok(yaml.endsWith('kind: List\nmetadata:\n  resourceVersion: ""\n'), yaml);
  assert.match(yaml, /\n {8}- image: [^\n]+\n {10}name: nginx\n/);
  const json = (await get('deploy', 'nginx', '-o', 'json')).out;
  const keys = (text: string) => [...text.matchAll(/^ {4}"(\w+)"/gm)].map((m) => m[1]);
  assert.equal(keys(json), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  assert.match(json, /\n {24}"image": "nginx",\n {24}"name": "nginx"\n/);
});

test("-o name prints kind.group/name as kubectl does, with the object's own name", async () => {
  assert.is((await get('deploy', '-o', 'name')).out, 'deployment.apps/nginx\n');
  assert.is((await get('clusters', 'member1', '-o', 'name')).out, 'cluster.cluster.karmada.io/member1\n');
  const work = parse((await get('works', 'nginx', '--cluster', 'member1', '-o', 'yaml')).out);
  assert.is(
    (await get('works', '--cluster', 'member1', '-o', 'name')).out,
    `work.work.karmada.io/${work.metadata.name}\n`,
  );
  assert.match((await get('rb', '-o', 'name')).out, /^resourcebinding\.work\.karmada\.io\/nginx-deployment\n/);
});

test('the empty case and a missing name read like kubectl', async () => {
  const empty = await get('svc');
  assert.is(empty.code, 0);
  assert.is(empty.out, '');
  assert.is(empty.err, 'No resources found in default namespace.\n');
  assert.is((await get('deploy', '-n', 'other')).err, 'No resources found in other namespace.\n');
  // kubectl names no namespace when it looked in all of them.
  assert.is((await get('svc', '-A')).err, 'No resources found\n');
  assert.is((await get('pp', '-A', '-l', 'team=none')).err, 'No resources found\n');
  assert.is(
    (await get('cm', '-o', 'json')).out,
    JSON.stringify({ apiVersion: 'v1', items: [], kind: 'List', metadata: { resourceVersion: '' } }, null, 4) + '\n',
  );
  assert.is(
    (await get('cm', '-o', 'yaml')).out,
    'apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n',
  );
  const missing = await get('deploy', 'nope');
  assert.is(missing.code, 1);
  assert.is(missing.err, 'Error from server (NotFound): deployments.apps "nope" not found\n');
  const onMember = await get('deploy', 'nope', '--cluster', 'member1');
  assert.is(onMember.code, 1);
  assert.is(onMember.err, 'Error from server (NotFound): deployments.apps "nope" not found\n');
  const unknown = await get('gizmos');
  assert.is(unknown.code, 1);
  assert.is(unknown.err.split('\n')[0], 'error: the server doesn\'t have a resource type "gizmos"');
  assert.match(unknown.err.split('\n')[1]!, /use clusters, bindings \(rb\)/);
});

test('a name with -A is refused for a namespaced type, as kubectl refuses it, and read for a cluster-scoped one', async () => {
  try {
    await get('deploy', 'nginx', '-A');
    assert.unreachable('a name across all namespaces was read');
  } catch (err) {
    assert.is((err as Error).message, 'a resource cannot be retrieved by name across all namespaces');
  }
  assert.is((await get('clusters', 'member1', '-A', '-o', 'name')).out, 'cluster.cluster.karmada.io/member1\n');
});

test("several types: a table each with kind.group/name, templates with their aggregated status or a member's copy", async () => {
  assert.is(
    (await get('deploy,rb,clusters', '-l', 'app=nginx')).out,
    'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/nginx   2/2     2            2           60m\n',
  );
  assert.is(
    (await get('deploy/nginx', 'rb/nginx-deployment', 'cluster/member3')).out,
    [
      'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE',
      'deployment.apps/nginx   2/2     2            2           60m',
      '',
      'NAME                                               SCHEDULED   FULLYAPPLIED   AGE',
      'resourcebinding.work.karmada.io/nginx-deployment   True        True           60m',
      '',
      'NAME                                 VERSION     MODE   READY     AGE',
      'cluster.cluster.karmada.io/member3   <unknown>   Push   Unknown   60m',
      '',
    ].join('\n'),
  );
  // A Work's table names the template it carries: no kind is put before that name.
  assert.is(
    (await get('deploy,works', '--cluster', 'member2')).out,
    [
      'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE',
      'deployment.apps/nginx   1/1     1            1           60m',
      '',
      'CLUSTER   NAMESPACE   KIND         NAME    APPLIED',
      'member2   default     Deployment   nginx   True',
      '',
    ].join('\n'),
  );
  const list = parse((await get('deploy,pp', '-o', 'yaml')).out);
  assert.is(list.kind, 'List');
  assert.equal(
    list.items.map((o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`),
    ['Deployment/nginx', 'PropagationPolicy/nginx-propagation'],
  );
  assert.is(list.items[0].status.readyReplicas, 2);
  assert.is(
    (await get('deploy,rb,cpp', '-o', 'name')).out,
    'deployment.apps/nginx\nresourcebinding.work.karmada.io/nginx-deployment\n',
  );
  const named = await get('deploy', 'nginx', 'nope', '--cluster', 'member1', '-o', 'name');
  assert.is(named.code, 1);
  assert.is(named.out, 'deployment.apps/nginx\n');
  assert.is(named.err, 'Error from server (NotFound): deployments.apps "nope" not found\n');
});

test("get all lists the templates of the kinds in kubectl's all category; beside a name it is kubectl's refusal", async () => {
  for (const args of [['all'], ['deploy,all'], ['all', '-o', 'name']]) {
    const listed = await get(...args);
    assert.is(listed.code, 0, `${args.join(' ')}: ${listed.err}`);
    assert.match(listed.out, /deployment\.apps\/nginx/, args.join(' '));
  }
  const named = await get('all', 'nginx');
  assert.is(named.code, 1);
  assert.is(named.err, 'error: you must specify only one resource\n');
});

test("-l takes the rows whose object has the labels, in kubectl's selector grammar", async () => {
  const deploy = 'NAME    READY   UP-TO-DATE   AVAILABLE   AGE\nnginx   2/2     2            2           60m\n';
  for (const selector of ['app=nginx', 'app==nginx', 'app in (web,nginx)', 'app', 'tier!=db', '!tier'])
    assert.is((await get('deploy', '-l', selector)).out, deploy, selector);
  for (const selector of ['app=web', 'app notin (nginx)', '!app', 'app,tier']) {
    const none = await get('deploy', '--selector', selector);
    assert.is(none.out, '', selector);
    assert.is(none.err, 'No resources found in default namespace.\n', selector);
  }
  assert.is((await get('clusters', '-l', 'environment=prod')).err, 'No resources found\n');
  assert.is(
    (await get('rb', '-l', 'propagationpolicy.karmada.io/permanent-id', '-o', 'name')).out,
    'resourcebinding.work.karmada.io/nginx-deployment\n',
  );
  // A Work carries the labels and annotations Karmada's binding controller gives it: its binding's permanent id.
  const rb = parse((await get('rb', 'nginx-deployment', '-o', 'yaml')).out);
  const id = rb.metadata.labels['resourcebinding.karmada.io/permanent-id'];
  const works = parse((await get('works', '-l', `resourcebinding.karmada.io/permanent-id=${id}`, '-o', 'yaml')).out);
  assert.is(works.items.length, 2);
  assert.equal(works.items[0].metadata.annotations, {
    'resourcebinding.karmada.io/namespace': 'default',
    'resourcebinding.karmada.io/name': 'nginx-deployment',
    'work.karmada.io/conflict-resolution': 'abort',
  });
  assert.ok(works.items[0].metadata.labels['work.karmada.io/permanent-id']);
  for (const [args, message] of [
    [['deploy', 'nginx', '-l', 'app=nginx'], 'name cannot be provided when a selector is specified'],
    [['deploy', '-l', 'app in'], "unable to parse requirement: found '' expected: '('"],
  ] as const) {
    try {
      await get(...args);
      assert.unreachable(args.join(' '));
    } catch (err) {
      assert.match((err as Error).message, message);
    }
  }
});

test('get of a policy kind warns, as kubectl prints a server warning, when files of the commit do not validate', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'policies/override.yaml':
          'apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: o}\nspec:\n  overrideRules: [{overriders: {bogus: 1}}]\n',
      },
      'an invalid OverridePolicy',
    );
    const got = await runReadCommand(getCommand, r.dir, NOW, ['op']);
    assert.is(got.code, 0);
    assert.is(
      got.err,
      'Warning: 1 file of the source commit does not validate (policies/override.yaml): what they define is not listed; flotilla validate says why\nNo resources found in default namespace.\n',
    );
    assert.is((await get('pp')).err, '', 'a commit that validates has nothing to warn of');
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test('get clusters finds a Cluster however its YAML spells the kind: flow style, JSON, a tag, an escape', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'clusters/flow.yaml': '{apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: flow1}}\n',
        'clusters/json.yaml':
          '{"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster","metadata":{"name":"json1"}}\n',
        'clusters/tagged.yaml':
          'apiVersion: cluster.karmada.io/v1alpha1\nkind: !!str Cluster\nmetadata:\n  name: tagged1\n',
        'clusters/escaped.yaml':
          'apiVersion: cluster.karmada.io/v1alpha1\nkind: "Clu\\x73ter"\nmetadata:\n  name: escaped1\n',
        'policies/everywhere.yaml':
          'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: everywhere}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement: {clusterAffinity: {clusterNames: [member1]}}\n',
      },
      'Clusters in four spellings',
    );
    const got = await runReadCommand(getCommand, r.dir, NOW, ['clusters', '-o', 'name']);
    assert.is(got.err, '');
    assert.is(
      got.out,
      ['escaped1', 'flow1', 'json1', 'member1', 'member2', 'member3', 'tagged1']
        .map((name) => `cluster.cluster.karmada.io/${name}\n`)
        .join(''),
    );
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test('get reads the Clusters and policies of the commit asked for, pushed after the last render or before it', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const r = makeConfigRepoWith(repos, nginxSample(), 'nginx on three members');
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const extra = nginxPolicy().replace('name: nginx-propagation', 'name: extra');
    r.commit(
      {
        'clusters/member3.yaml': null,
        'clusters/member4.yaml': clusterYaml('member4'),
        'policies/extra.yaml': extra,
        // Inside a kustomization's folder a file is the unit's input, never read as a policy.
        'app/kustomization.yaml': 'resources: [deploy.yaml]\n',
        'app/deploy.yaml': sample('nginx/deployment.yaml'),
        'app/policy.yaml': extra.replace('name: extra', 'name: unit-input'),
        'policies/broken.yaml': 'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: [\n',
      },
      'member4 for member3, a policy, a broken file: not rendered yet',
    );
    const names = async (...args: string[]) =>
      (await runReadCommand(getCommand, r.dir, NOW, [...args, '-o', 'name'])).out;
    assert.is(
      await names('clusters'),
      ['member1', 'member2', 'member4'].map((n) => `cluster.cluster.karmada.io/${n}\n`).join(''),
    );
    const pp = await runReadCommand(getCommand, r.dir, NOW, ['pp', '-o', 'name']);
    assert.is(
      pp.out,
      'propagationpolicy.policy.karmada.io/extra\npropagationpolicy.policy.karmada.io/nginx-propagation\n',
    );
    assert.match(pp.err, '1 file of the source commit does not validate (policies/broken.yaml)');
    // The commit the index was made from, asked for by --rev: as it was.
    assert.is(
      await names('clusters', '--rev', 'HEAD~1'),
      ['member1', 'member2', 'member3'].map((n) => `cluster.cluster.karmada.io/${n}\n`).join(''),
    );
    assert.is(await names('pp', '--rev', 'HEAD~1'), 'propagationpolicy.policy.karmada.io/nginx-propagation\n');
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test('get works NAME reads one namespace of each cluster, and finds a name too long for its file name', async () => {
  const repos: ConfigRepo[] = [];
  try {
    const long = `cfg-${'x'.repeat(238)}`; // Karmada's longest (242): its file is named by a prefix and a hash
    const r = makeConfigRepoWith(
      repos,
      {
        ...MEMBERS,
        'policies/cm.yaml': configMapPolicy(['member1', 'member3']),
        'policies/cm-shop.yaml': configMapPolicy(['member2'], 'shop'),
        'templates/cm.yaml': [configMap('app'), configMap(long), configMap('app', { v: '1' }, 'shop')].join('---\n'),
      },
      'ConfigMaps in two namespaces',
    );
    await syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: 'refs/heads/flotilla/rendered' });
    const works = async (...args: string[]) =>
      (await runReadCommand(getCommand, r.dir, NOW, ['works', ...args, '--no-headers'])).out
        .trim()
        .split('\n')
        .map((line) => line.split(/ +/).slice(0, 4).join(' '));
    assert.equal(await works('app', '-n', 'default'), [
      'member1 default ConfigMap app',
      'member3 default ConfigMap app',
    ]);
    assert.equal(await works('app', '-n', 'shop'), ['member2 shop ConfigMap app']);
    assert.equal(await works(long, '-n', 'default'), [
      `member1 default ConfigMap ${long}`,
      `member3 default ConfigMap ${long}`,
    ]);
    assert.equal(await works('app', '-A', '--cluster', 'member2'), ['member2 shop ConfigMap app']);
  } finally {
    for (const r of repos) r.cleanup();
  }
});

test.run();
