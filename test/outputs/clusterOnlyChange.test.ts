import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, makeConfigRepoWith, PROD_AND_DEV_MEMBERS, sample, type ConfigRepo } from '../helpers/fleet.ts';
import { assertVerifies } from './helpers/assertVerifies.ts';

// A commit that changes only Cluster registrations: templates whose placement stays the same keep their
// manifests on the other clusters without re-rendering them; everything that moved is rendered again.
const OUT = 'refs/heads/flotilla/rendered';
const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const prodSpread = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx-prod
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          env: prod
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - targetCluster:
              labelSelector:
                matchLabels:
                  env: prod
            weight: 1
`;
const goldNote = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: gold-note
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  overrideRules:
    - targetCluster:
        labelSelector:
          matchLabels:
            tier: gold
      overriders:
        annotationsOverrider:
          - operator: add
            value:
              tier: gold
`;

function fleet(): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 6'),
      'policies/nginx.yaml': prodSpread,
      'policies/gold.yaml': goldNote,
    },
    'three members, two of them prod',
  );
}

const sync = async (r: ConfigRepo) => syncRepo(await openRepo(r.dir), { sourceRef: 'refs/heads/main', outputRef: OUT });
const manifest = (c: string) => `clusters/${c}/default/deployment.apps_nginx.yaml`;
const blob = (r: ConfigRepo, rev: string, file: string) => r.git('rev-parse', `${rev}:${file}`);
const replicas = (r: ConfigRepo, c: string) =>
  (parse(r.show('flotilla/rendered', manifest(c))) as { spec: { replicas: number } }).spec.replicas;

test('a label change on a target cluster re-renders its manifest (an override now applies) and keeps the others', async () => {
  const r = fleet();
  await sync(r);
  const before = r.git('rev-parse', 'flotilla/rendered');
  r.commit(
    { 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'prod', tier: 'gold' } }) },
    'member2 is gold',
  );
  await sync(r);
  const m2 = parse(r.show('flotilla/rendered', manifest('member2'))) as {
    metadata: { annotations: Record<string, string> };
  };
  assert.is(m2.metadata.annotations.tier, 'gold');
  assert.is(blob(r, 'flotilla/rendered', manifest('member1')), blob(r, before, manifest('member1')));
  assert.equal([replicas(r, 'member1'), replicas(r, 'member2')], [3, 3]);
  await assertVerifies(r);
});

test('a change to a cluster the template is not on, nor can be, leaves the output files as they were', async () => {
  const r = fleet();
  await sync(r);
  const before = r.git('rev-parse', 'flotilla/rendered^{tree}');
  r.commit(
    { 'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'dev', tier: 'gold' } }) },
    'member3 is gold',
  );
  await sync(r);
  const after = r.git('rev-parse', 'flotilla/rendered^{tree}');
  const changed = r.git('diff', '--name-only', before, after).split('\n').filter(Boolean);
  assert.ok(
    changed.every((f) => f === '.flotilla/index.json' || f.startsWith('.flotilla/index/')),
    `changed: ${changed.join(', ')}`,
  );
  await assertVerifies(r);
});

test('a label no placement or override reads renders nothing again; one an override reads renders the templates it targets', async () => {
  const r = fleet();
  await sync(r);
  const before = r.git('rev-parse', 'flotilla/rendered^{tree}');
  r.commit(
    { 'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod', team: 'payments' } }) },
    'member1 gets a team label',
  );
  const [unread] = (await sync(r)).reports;
  assert.equal([...(unread?.explanations.keys() ?? [])], [], 'no template is rendered again');
  const changed = r.git('diff', '--name-only', before, 'flotilla/rendered^{tree}').split('\n').filter(Boolean);
  assert.ok(
    changed.every((f) => f.startsWith('.flotilla/')),
    `changed: ${changed.join(', ')}`,
  );
  await assertVerifies(r);

  r.commit(
    { 'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod', team: 'payments', tier: 'gold' } }) },
    'member1 is gold',
  );
  const [read] = (await sync(r)).reports;
  assert.equal([...(read?.explanations.keys() ?? [])], ['apps/v1/Deployment/default/nginx']);
  const m1 = parse(r.show('flotilla/rendered', manifest('member1'))) as {
    metadata: { annotations: Record<string, string> };
  };
  assert.is(m1.metadata.annotations.tier, 'gold');
  await assertVerifies(r);
});

const configMapIn = (namespace: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ${namespace}
data:
  mode: plain
`;
const byNameIn = (namespace: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: settings
  namespace: ${namespace}
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
`;
const noteOn = (kind: string, namespace: string | undefined, label: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ${kind}
metadata:
  name: note-${label}${namespace ? `\n  namespace: ${namespace}` : ''}
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  overrideRules:
    - targetCluster:
        labelSelector:
          matchLabels:
            ${label}: "set"
      overriders:
        annotationsOverrider:
          - operator: add
            value:
              ${label}: "set"
`;

test("a relabel re-renders a namespace's templates for its own OverridePolicies, and every namespace's for a ClusterOverridePolicy", async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/team-a.yaml': configMapIn('team-a'),
      'templates/team-b.yaml': configMapIn('team-b'),
      'templates/team-c.yaml': configMapIn('team-c'),
      'policies/team-a.yaml': `${byNameIn('team-a')}---\n${noteOn('OverridePolicy', 'team-a', 'gold')}`,
      'policies/team-b.yaml': `${byNameIn('team-b')}---\n${noteOn('OverridePolicy', 'team-b', 'silver')}`,
      'policies/team-c.yaml': byNameIn('team-c'),
      'policies/zone.yaml': noteOn('ClusterOverridePolicy', undefined, 'east'),
    },
    'three namespaces, an override of their own for two, one for all',
  );
  await sync(r);
  const relabel = async (labels: Record<string, string>) => {
    r.commit({ 'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod', ...labels } }) }, 'relabel');
    const [report] = (await sync(r)).reports;
    await assertVerifies(r);
    return [...(report?.explanations.keys() ?? [])].sort();
  };
  assert.equal(await relabel({ gold: 'set' }), ['v1/ConfigMap/team-a/settings']);
  assert.equal(await relabel({ gold: 'set', silver: 'set' }), ['v1/ConfigMap/team-b/settings']);
  assert.equal(await relabel({ gold: 'set', silver: 'set', east: 'set' }), [
    'v1/ConfigMap/team-a/settings',
    'v1/ConfigMap/team-b/settings',
    'v1/ConfigMap/team-c/settings',
  ]);
  const annotations = (ns: string) =>
    (
      parse(r.show('flotilla/rendered', `clusters/member1/${ns}/configmap_settings.yaml`)) as {
        metadata: { annotations: Record<string, string> };
      }
    ).metadata.annotations;
  assert.equal(
    [annotations('team-a').gold, annotations('team-a').silver, annotations('team-a').east],
    ['set', undefined, 'set'],
  );
  assert.equal([annotations('team-c').gold, annotations('team-c').east], [undefined, 'set']);
});

test('a cluster file that also gains an InterpreterCustomization is no cluster-only change: every cluster renders with it', async () => {
  const r = fleet();
  await sync(r);
  const retain = `apiVersion: flotilla.io/v1alpha1
kind: InterpreterCustomization
metadata: {name: deployments}
spec:
  target: {apiVersion: apps/v1, kind: Deployment}
  customizations:
    replicaRevision: {replicasPath: spec.minReadySeconds}
`;
  r.commit(
    { 'clusters/member2.yaml': `${clusterYaml('member2', { labels: { env: 'prod' } })}---\n${retain}` },
    'member2 file: a customization too',
  );
  await sync(r);
  await assertVerifies(r);
});

// Karmada's scheduler leaves a Divided workload's result alone when a cluster's labels change (scheduler.go
// doScheduleBinding); the sync then neither reads nor renders it, and still writes what a whole render writes.
const dividedPolicy = (replicaScheduling: string, extra = '') => `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx-divided
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
    - apiVersion: v1
      kind: Service
      name: nginx
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          env: prod
${extra}    replicaScheduling:
${replicaScheduling}`;
const DYNAMIC = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        dynamicWeight: AvailableReplicas
`;
const STATIC = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - targetCluster:
              clusterNames: [member1, member2, member3]
            weight: 1
`;
const SPREAD = `    spreadConstraints:
      - spreadByField: cluster
        minGroups: 1
        maxGroups: 3
`;
const DUPLICATED = `      replicaSchedulingType: Duplicated
`;
const NGINX = 'apps/v1/Deployment/default/nginx';
const SERVICE = 'v1/Service/default/nginx';
const service = `apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  selector: {app: nginx}
  ports: [{port: 80}]
`;

function dividedFleet(policy: string, replicas = 6): ConfigRepo {
  return makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', `replicas: ${replicas}`),
      'templates/service.yaml': service,
      'policies/nginx.yaml': policy,
    },
    'three members, two of them prod',
  );
}

const renderedKeys = (report: { explanations: Map<string, unknown> } | undefined) =>
  [...(report?.explanations.keys() ?? [])].sort();

test('a cluster relabeled into a placement gets the templates it places, found from their index lines (a label named policy too)', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace(
        '  labels:\n    app: nginx\n',
        '  labels:\n    app: nginx\n    policy: elsewhere\n',
      ),
      'templates/service.yaml': service,
      'policies/nginx.yaml': dividedPolicy(DUPLICATED),
    },
    'three members, two of them prod; nginx labelled policy',
  );
  await sync(r);
  const on = () => r.git('ls-tree', '--name-only', 'flotilla/rendered', 'clusters/').split('\n').filter(Boolean);
  assert.equal(on(), ['clusters/member1', 'clusters/member2']);
  r.commit({ 'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }) }, 'member3 is prod');
  const [report] = (await sync(r)).reports;
  assert.equal(renderedKeys(report), [NGINX, SERVICE]);
  assert.equal(on(), ['clusters/member1', 'clusters/member2', 'clusters/member3']);
  assert.equal(
    r.git('ls-tree', '--name-only', 'flotilla/rendered', 'clusters/member3/default/').split('\n').filter(Boolean),
    ['clusters/member3/default/deployment.apps_nginx.yaml', 'clusters/member3/default/service_nginx.yaml'],
  );
  await assertVerifies(r);
});

for (const [name, policy] of [
  ['dynamic weights', dividedPolicy(DYNAMIC)],
  ['static weights', dividedPolicy(STATIC)],
  ['spread constraints', dividedPolicy(DYNAMIC, SPREAD)],
] as const) {
  test(`a Divided workload (${name}) keeps its result, unread, when a cluster joins or leaves its affinity; the Service moves with the affinity`, async () => {
    const r = dividedFleet(policy);
    await sync(r);
    const before = r.git('rev-parse', 'flotilla/rendered');
    r.commit({ 'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }) }, 'member3 is prod');
    const [joined] = (await sync(r)).reports;
    assert.equal(renderedKeys(joined), [SERVICE], 'the Deployment is not rendered again');
    assert.ok(r.ls('flotilla/rendered').includes('clusters/member3/default/service_nginx.yaml'));
    assert.not.ok(r.ls('flotilla/rendered').includes(manifest('member3')), 'no replicas move to member3');
    assert.is(
      blob(r, 'flotilla/rendered', 'bindings/default/nginx-deployment.yaml'),
      blob(r, before, 'bindings/default/nginx-deployment.yaml'),
    );
    await assertVerifies(r);

    r.commit({ 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }) }, 'member2 leaves prod');
    const [left] = (await sync(r)).reports;
    // The Service (no replicas: placed on every cluster the affinity takes) only loses member2: not rendered either,
    // unless spread constraints make the scheduler choose.
    assert.equal(renderedKeys(left), name === 'spread constraints' ? [SERVICE] : []);
    assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member2/default/service_nginx.yaml'));
    assert.ok(r.ls('flotilla/rendered').includes(manifest('member2')), 'Karmada keeps its replicas there');
    await assertVerifies(r);
  });
}

test('a Duplicated workload, replicas changed with the relabel, or a workload that found no cluster: rendered again', async () => {
  const duplicated = dividedFleet(dividedPolicy(DUPLICATED));
  await sync(duplicated);
  duplicated.commit(
    { 'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }) },
    'member3 is prod',
  );
  assert.equal(renderedKeys((await sync(duplicated)).reports[0]), [NGINX, SERVICE]);
  assert.ok(duplicated.ls('flotilla/rendered').includes(manifest('member3')));
  await assertVerifies(duplicated);

  const scaled = dividedFleet(dividedPolicy(DYNAMIC));
  await sync(scaled);
  scaled.commit(
    {
      'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }),
      'templates/nginx.yaml': sample('nginx/deployment.yaml').replace('replicas: 2', 'replicas: 9'),
    },
    'member3 is prod, nine replicas',
  );
  assert.equal(renderedKeys((await sync(scaled)).reports[0]), [NGINX, SERVICE]);
  assert.equal(
    ['member1', 'member2', 'member3']
      .filter((c) => scaled.ls('flotilla/rendered').includes(manifest(c)))
      .reduce((sum, c) => sum + replicas(scaled, c), 0),
    9,
  );
  await assertVerifies(scaled);

  const nowhere = makeConfigRepoWith(
    repos,
    {
      'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'dev' } }),
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': dividedPolicy(DYNAMIC),
    },
    'no prod member yet',
  );
  await sync(nowhere);
  nowhere.commit({ 'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod' } }) }, 'member1 is prod');
  assert.equal(renderedKeys((await sync(nowhere)).reports[0]), [NGINX]);
  assert.ok(nowhere.ls('flotilla/rendered').includes(manifest('member1')));
  await assertVerifies(nowhere);
});

test('a NoExecute taint in the same commit as the relabel is no labels-only change: the Divided workload is evicted from it', async () => {
  const r = dividedFleet(dividedPolicy(DYNAMIC));
  await sync(r);
  r.commit(
    {
      'clusters/member3.yaml': clusterYaml('member3', { labels: { env: 'prod' } }),
      'clusters/member1.yaml': clusterYaml('member1', {
        labels: { env: 'prod' },
        taints: '\n  taints:\n    - key: maintenance\n      effect: NoExecute',
      }),
    },
    'member3 is prod, member1 goes into maintenance',
  );
  const [report] = (await sync(r)).reports;
  assert.ok(renderedKeys(report).includes(NGINX), 'the Deployment is rendered');
  assert.ok(
    report?.failover.some((e) => e.type === 'evicted' && e.ref.name === 'nginx' && e.ref.kind === 'Deployment'),
    'and evicted from member1',
  );
  await assertVerifies(r);
});

// A Duplicated placement selects every cluster its affinity takes (Karmada's scheduler runs for it on any cluster
// change): a relabel that only takes a cluster out leaves the previous result without it, written from the previous
// binding; the dependency it drags along follows it, rendered.
const withConfig = sample('nginx/deployment.yaml').replace(
  '      containers:\n',
  '      volumes:\n        - name: conf\n          configMap:\n            name: nginx-conf\n      containers:\n',
);
const nginxConf = `apiVersion: v1
kind: ConfigMap
metadata:
  name: nginx-conf
data:
  a: "1"
`;
const CONF = 'v1/ConfigMap/default/nginx-conf';
const DUPLICATED_WITH_DEPS = dividedPolicy(DUPLICATED).replace(
  'spec:\n  resourceSelectors',
  'spec:\n  propagateDeps: true\n  resourceSelectors',
);
const confOn = (c: string) => `clusters/${c}/default/configmap_nginx-conf.yaml`;

test('a Duplicated workload whose affinity loses a relabeled cluster loses it unrendered, and so does its dependency', async () => {
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': withConfig,
      'templates/conf.yaml': nginxConf,
      'templates/service.yaml': service,
      'policies/nginx.yaml': DUPLICATED_WITH_DEPS,
    },
    'nginx with its ConfigMap, Duplicated on prod',
  );
  await sync(r);
  const before = r.git('rev-parse', 'flotilla/rendered');
  assert.ok(r.ls('flotilla/rendered').includes(confOn('member2')));
  r.commit({ 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }) }, 'member2 leaves prod');
  const [left] = (await sync(r)).reports;
  assert.equal(renderedKeys(left), [], 'nothing is rendered');
  const files = r.ls('flotilla/rendered');
  for (const path of [manifest('member2'), confOn('member2'), 'clusters/member2/default/service_nginx.yaml'])
    assert.not.ok(files.includes(path), `${path} is removed`);
  const binding = parse(r.show('flotilla/rendered', 'bindings/default/nginx-deployment.yaml')) as {
    spec: { clusters: { name: string; replicas: number }[] };
  };
  assert.equal(binding.spec.clusters, [{ name: 'member1', replicas: 2 }]);
  const conf = parse(r.show('flotilla/rendered', 'bindings/default/nginx-conf-configmap.yaml')) as {
    spec: { requiredBy: { clusters: { name: string }[] }[] };
  };
  assert.equal(
    conf.spec.requiredBy[0]!.clusters.map((c) => c.name),
    ['member1'],
  );
  assert.is(blob(r, 'flotilla/rendered', manifest('member1')), blob(r, before, manifest('member1')));
  await assertVerifies(r);

  // Back in: the scheduler decides who joins, so both are rendered.
  r.commit({ 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'prod' } }) }, 'member2 is prod again');
  const [joined] = (await sync(r)).reports;
  assert.equal(renderedKeys(joined), [NGINX, CONF, SERVICE]);
  assert.ok(r.ls('flotilla/rendered').includes(confOn('member2')));
  await assertVerifies(r);
});

test('a dependency another parent still holds on the relabeled cluster stays there; its snapshot of the shrunk parent follows', async () => {
  const other = withConfig.replaceAll('nginx', 'other').replaceAll('name: other-conf', 'name: nginx-conf');
  const pinned = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: other
spec:
  propagateDeps: true
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: other
  placement:
    clusterAffinity:
      clusterNames: [member2]
`;
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': withConfig,
      'templates/other.yaml': other,
      'templates/conf.yaml': nginxConf,
      'policies/nginx.yaml': DUPLICATED_WITH_DEPS,
      'policies/other.yaml': pinned,
    },
    'nginx on prod and other on member2, both with nginx-conf',
  );
  await sync(r);
  const before = r.git('rev-parse', 'flotilla/rendered');
  r.commit({ 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }) }, 'member2 leaves prod');
  const [left] = (await sync(r)).reports;
  assert.equal(renderedKeys(left), []);
  assert.not.ok(r.ls('flotilla/rendered').includes(manifest('member2')));
  assert.is(
    blob(r, 'flotilla/rendered', confOn('member2')),
    blob(r, before, confOn('member2')),
    'other still needs it',
  );
  const conf = parse(r.show('flotilla/rendered', 'bindings/default/nginx-conf-configmap.yaml')) as {
    spec: { requiredBy: { name: string; clusters: { name: string }[] }[] };
  };
  assert.equal(
    conf.spec.requiredBy.map((s) => [s.name, s.clusters.map((c) => c.name)]),
    [
      ['nginx-deployment', ['member1']],
      ['other-deployment', ['member2']],
    ],
  );
  await assertVerifies(r);
});

test('an override that reads the relabeled cluster matters no more once the Duplicated workload leaves it: not rendered', async () => {
  const prodNote = goldNote
    .replace('name: gold-note', 'name: prod-note')
    .replace('tier: gold', 'env: prod')
    .replace('tier: gold', 'env: prod');
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': sample('nginx/deployment.yaml'),
      'policies/nginx.yaml': dividedPolicy(DUPLICATED),
      'policies/note.yaml': prodNote,
    },
    'nginx Duplicated on prod, an override for prod clusters',
  );
  await sync(r);
  assert.match(r.show('flotilla/rendered', manifest('member2')), 'env: prod');
  r.commit({ 'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }) }, 'member2 leaves prod');
  const [left] = (await sync(r)).reports;
  assert.equal(renderedKeys(left), []);
  assert.not.ok(r.ls('flotilla/rendered').includes(manifest('member2')));
  await assertVerifies(r);
});

test('a dependency whose own override reads a cluster it stays on renders, though its shrunk parent is not', async () => {
  const goldConfigMaps = goldNote
    .replace('name: gold-note', 'name: gold-configmaps')
    .replace('    - apiVersion: apps/v1\n      kind: Deployment', '    - apiVersion: v1\n      kind: ConfigMap');
  const r = makeConfigRepoWith(
    repos,
    {
      ...PROD_AND_DEV_MEMBERS,
      'templates/nginx.yaml': withConfig,
      'templates/conf.yaml': nginxConf,
      'policies/nginx.yaml': DUPLICATED_WITH_DEPS,
      'policies/gold.yaml': goldConfigMaps,
    },
    'nginx Duplicated on prod with its ConfigMap; gold clusters annotate ConfigMaps',
  );
  await sync(r);
  r.commit(
    {
      'clusters/member1.yaml': clusterYaml('member1', { labels: { env: 'prod', tier: 'gold' } }),
      'clusters/member2.yaml': clusterYaml('member2', { labels: { env: 'dev' } }),
    },
    'member1 turns gold, member2 leaves prod',
  );
  const [report] = (await sync(r)).reports;
  assert.equal(renderedKeys(report), [CONF], 'nginx is cut unrendered; its ConfigMap renders for its override');
  const conf = parse(r.show('flotilla/rendered', 'clusters/member1/default/configmap_nginx-conf.yaml')) as {
    metadata: { annotations?: Record<string, string> };
  };
  assert.is(conf.metadata.annotations?.tier, 'gold');
  assert.not.ok(r.ls('flotilla/rendered').includes('clusters/member2/default/configmap_nginx-conf.yaml'));
  await assertVerifies(r);
});

test.run();
