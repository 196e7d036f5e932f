import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { Cluster, Condition, Taint } from '../../src/api/cluster.ts';
import type { ClusterTaintPolicy } from '../../src/api/policy.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { buildManagedTaints } from '../../src/taints/clusterTaints.ts';
import {
  clusterYaml,
  deployment,
  makeConfigRepoWith,
  manifestOf,
  RENDERED_REF,
  SOURCE_REF,
  type ConfigRepo,
} from '../helpers/fleet.ts';

// Karmada's scheduling end-to-end scenarios (test/e2e/suites/base/{scheduling,spread_by_region,rescheduling,
// tainttoleration,clustertaintpolicy}_test.go) replayed as renders of a small config repo: the
// fleet is Karmada's e2e fleet of three members, the templates and policies are the ones each scenario creates, and
// each assertion is what the scenario waits for on the ResourceBinding or on the members.

const repos: ConfigRepo[] = [];
test.after(() => {
  for (const r of repos) r.cleanup();
});

const MEMBERS = ['member1', 'member2', 'member3'] as const;
/** The e2e suite labels every member location=CHN before the tests run. */
const CHN_MEMBERS = Object.fromEntries(
  MEMBERS.map((m) => [`clusters/${m}.yaml`, clusterYaml(m, { labels: { location: 'CHN' } })]),
);

async function render(files: Record<string, string>): Promise<ConfigRepo> {
  const r = makeConfigRepoWith(repos, files, 'scenario');
  await sync(r);
  return r;
}

async function sync(r: ConfigRepo): Promise<void> {
  await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
}

async function change(r: ConfigRepo, files: Record<string, string | null>): Promise<void> {
  r.commit(files, 'change');
  await sync(r);
}

interface Binding {
  spec: { clusters?: { name: string; replicas?: number }[] };
  status?: { conditions?: { type: string; status: string }[] };
}

function hasFile(r: ConfigRepo, file: string): boolean {
  return r.ls('flotilla/rendered').includes(file);
}

function binding(r: ConfigRepo, file: string): Binding {
  return parse(r.show('flotilla/rendered', file)) as Binding;
}

const rb = (r: ConfigRepo, name: string, kind = 'deployment') => binding(r, `bindings/default/${name}-${kind}.yaml`);
const crb = (r: ConfigRepo, name: string, kind: string) => binding(r, `bindings/_cluster/${name}-${kind}.yaml`);
const targets = (b: Binding) => (b.spec.clusters ?? []).map((c) => c.name).sort();
const scheduled = (b: Binding) => b.status?.conditions?.find((c) => c.type === 'Scheduled')?.status;

/** The replicas (or a Job's parallelism) each member receives of `name`, by the manifests on the rendered branch. */
function memberField(r: ConfigRepo, kind: string, group: string, name: string, field: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of MEMBERS) {
    const file = manifestOf(m, kind, name, 'default', group);
    if (!hasFile(r, file)) continue;
    out[m] = (parse(r.show('flotilla/rendered', file)) as { spec: Record<string, number> }).spec[field] as number;
  }
  return out;
}
const deploymentReplicas = (r: ConfigRepo, name: string) => memberField(r, 'Deployment', 'apps', name, 'replicas');
const jobField = (r: ConfigRepo, name: string, field: string) => memberField(r, 'Job', 'batch', name, field);

function propagationPolicy(name: string, selector: string, placement: string): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: ${name}
  namespace: default
spec:
  resourceSelectors:
    - ${selector}
  placement:
${placement}`;
}

function clusterPropagationPolicy(name: string, selector: string, placement: string): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata:
  name: ${name}
spec:
  resourceSelectors:
    - ${selector}
  placement:
${placement}`;
}

const deploymentSelector = (name: string) => `{apiVersion: apps/v1, kind: Deployment, name: ${name}}`;

function job(name: string, spec: { completions?: number; parallelism?: number }): string {
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
  namespace: default
spec:${spec.completions === undefined ? '' : `\n  completions: ${spec.completions}`}${spec.parallelism === undefined ? '' : `\n  parallelism: ${spec.parallelism}`}
  backoffLimit: 4
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: pi
          image: perl:5.34.0
          command: [perl, -Mbignum=bpi, -wle, print bpi(2000)]
`;
}

const ALL_MEMBERS_AFFINITY = `    clusterAffinity:
      clusterNames: [member1, member2, member3]
`;
const STATIC_1_2_3 = `      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 2}
          - {targetCluster: {clusterNames: [member3]}, weight: 3}
`;

// --- scheduling_test.go: propagation with label and group constraints ---

const chnSpread = (groups: number) => `    clusterAffinity:
      labelSelector:
        matchLabels: {location: CHN}
    spreadConstraints:
      - {spreadByField: cluster, maxGroups: ${groups}, minGroups: ${groups}}
`;

// "Deployment propagation with label and group constraints testing" (minGroups = maxGroups, 1 or 2 at random there).
test('a label selector with a cluster spread of exactly N places the Deployment on N members, and a scale-up reaches each', async () => {
  for (const groups of [1, 2]) {
    const r = await render({
      ...CHN_MEMBERS,
      'templates/web.yaml': deployment('web', 3),
      'policies/web.yaml': propagationPolicy('web', deploymentSelector('web'), chnSpread(groups)),
    });
    const b = rb(r, 'web');
    assert.is(targets(b).length, groups, `${groups} group(s)`);
    assert.is(scheduled(b), 'True');
    assert.equal(Object.keys(deploymentReplicas(r, 'web')).sort(), targets(b));
    await change(r, { 'templates/web.yaml': deployment('web', 2) });
    assert.equal(
      Object.values(deploymentReplicas(r, 'web')),
      Array(groups).fill(2),
      'updated replicas on every target',
    );
    assert.equal(targets(rb(r, 'web')), targets(b), 'the same members keep it');
  }
});

// "CRD with specified label and group constraints propagation testing".
test('a ClusterPropagationPolicy with a label selector and a cluster spread of N places a CRD on N members', async () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example-e2e.karmada.io
spec:
  group: example-e2e.karmada.io
  scope: Namespaced
  names: {kind: Foo, listKind: FooList, plural: foos, singular: foo}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
  for (const groups of [1, 2]) {
    const r = await render({
      ...CHN_MEMBERS,
      'templates/crd.yaml': crd,
      'policies/crd.yaml': clusterPropagationPolicy(
        'crd',
        '{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: foos.example-e2e.karmada.io}',
        chnSpread(groups),
      ),
    });
    const b = crb(r, 'foos.example-e2e.karmada.io', 'customresourcedefinition');
    assert.is(targets(b).length, groups);
    assert.is(scheduled(b), 'True');
    for (const m of targets(b))
      assert.ok(
        hasFile(
          r,
          manifestOf(m, 'CustomResourceDefinition', 'foos.example-e2e.karmada.io', '_cluster', 'apiextensions.k8s.io'),
        ),
        `the CRD on ${m}`,
      );
  }
});

// "Job propagation with label and group constraints testing": completions 3, parallelism left to the API default.
test('a Job with a label selector and a cluster spread of N goes whole to N members, and a parallelism change reaches each', async () => {
  for (const groups of [1, 2]) {
    const r = await render({
      ...CHN_MEMBERS,
      'templates/pi.yaml': job('pi', { completions: 3 }),
      'policies/pi.yaml': propagationPolicy('pi', '{apiVersion: batch/v1, kind: Job, name: pi}', chnSpread(groups)),
    });
    const b = rb(r, 'pi', 'job');
    assert.is(targets(b).length, groups);
    assert.is(scheduled(b), 'True');
    assert.equal(Object.keys(jobField(r, 'pi', 'parallelism')).sort(), targets(b));
    await change(r, { 'templates/pi.yaml': job('pi', { completions: 3, parallelism: 3 }) });
    assert.equal(Object.values(jobField(r, 'pi', 'parallelism')), Array(groups).fill(3));
  }
});

// --- scheduling_test.go: [ReplicaScheduling] ReplicaSchedulingStrategy testing ---

const replicaPolicy = (replicaScheduling: string) =>
  propagationPolicy(
    'web',
    deploymentSelector('web'),
    `${ALL_MEMBERS_AFFINITY}    replicaScheduling:
${replicaScheduling}`,
  );
const DUPLICATED = '      replicaSchedulingType: Duplicated\n';
const DIVIDED_WEIGHTED = '      replicaSchedulingType: Divided\n      replicaDivisionPreference: Weighted\n';

// Cases 1 and 2: "replicas duplicated testing" and "... when rescheduling".
test('Duplicated gives every member the template replicas, and again after the template is scaled', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/web.yaml': deployment('web', 3),
    'policies/web.yaml': replicaPolicy(DUPLICATED),
  });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 3, member2: 3, member3: 3 });
  await change(r, { 'templates/web.yaml': deployment('web', 2) });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 2, member2: 2, member3: 2 });
});

// Case 3: "replicas divided and weighted testing" with no weightPreference.
test('Divided and Weighted without a weight preference splits 6 replicas 2 per member', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/web.yaml': deployment('web', 6),
    'policies/web.yaml': replicaPolicy(DIVIDED_WEIGHTED),
  });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 2, member2: 2, member3: 2 });
});

// Case 4: "... WeightPreference is nil, trigger rescheduling when replicas have changed".
test('Divided and Weighted without a weight preference re-splits a scale from 3 to 9 replicas as 3 per member', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/web.yaml': deployment('web', 3),
    'policies/web.yaml': replicaPolicy(DIVIDED_WEIGHTED),
  });
  assert.equal(Object.keys(deploymentReplicas(r, 'web')).length, 3);
  await change(r, { 'templates/web.yaml': deployment('web', 9) });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 3, member2: 3, member3: 3 });
});

// Cases 5 and 6: static weights 1:2:3, replicas equal to the weight sum, then twice it.
test('static weights 1:2:3 split 6 replicas 1/2/3, and 12 replicas 2/4/6 after a scale-up', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/web.yaml': deployment('web', 6),
    'policies/web.yaml': replicaPolicy(DIVIDED_WEIGHTED + STATIC_1_2_3),
  });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 1, member2: 2, member3: 3 });
  await change(r, { 'templates/web.yaml': deployment('web', 12) });
  assert.equal(deploymentReplicas(r, 'web'), { member1: 2, member2: 4, member3: 6 });
});

// [JobReplicaScheduling] "Job replicas divided and weighted testing".
test('a Job with parallelism and completions 6 over static weights 1:2:3 gets parallelism 1/2/3 per member', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/pi.yaml': job('pi', { completions: 6, parallelism: 6 }),
    'policies/pi.yaml': propagationPolicy(
      'pi',
      '{apiVersion: batch/v1, kind: Job, name: pi}',
      `${ALL_MEMBERS_AFFINITY}    replicaScheduling:
${DIVIDED_WEIGHTED}${STATIC_1_2_3}`,
    ),
  });
  assert.equal(jobField(r, 'pi', 'parallelism'), { member1: 1, member2: 2, member3: 3 });
  assert.equal(jobField(r, 'pi', 'completions'), { member1: 1, member2: 2, member3: 3 }, 'completions split alike');
});

// --- spread_by_region_test.go: "multiple region deployment testing" ---

test('a Duplicated spread over exactly 2 regions takes one member of each; narrowing to 1 region leaves one member', async () => {
  const regionSpread = (regions: number) => `    replicaScheduling:
      replicaSchedulingType: Duplicated
    spreadConstraints:
      - {spreadByField: cluster, maxGroups: 1, minGroups: 1}
      - {spreadByField: region, maxGroups: ${regions}, minGroups: ${regions}}
`;
  const r = await render({
    // The e2e gives the first two members regions "2" and "1" and leaves the third without one.
    'clusters/member1.yaml': clusterYaml('member1', { region: '"2"' }),
    'clusters/member2.yaml': clusterYaml('member2', { region: '"1"' }),
    'clusters/member3.yaml': clusterYaml('member3'),
    'templates/web.yaml': deployment('web', 3),
    'policies/web.yaml': propagationPolicy('web', deploymentSelector('web'), regionSpread(2)),
  });
  assert.equal(targets(rb(r, 'web')), ['member1', 'member2']);
  assert.equal(Object.keys(deploymentReplicas(r, 'web')).sort(), ['member1', 'member2']);
  await change(r, { 'policies/web.yaml': propagationPolicy('web', deploymentSelector('web'), regionSpread(1)) });
  const after = targets(rb(r, 'web'));
  assert.is(after.length, 1);
  assert.ok(after[0] === 'member1' || after[0] === 'member2');
});

// --- rescheduling_test.go ---

const NEW_MEMBER = 'member-e2e';

// "propagate Deployment and waiting for reschedule" (Duplicated, a cluster joins then unjoins).
test('a Duplicated Deployment reaches a member that joins and leaves it when the member unjoins', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/web.yaml': deployment('web', 1),
    'policies/web.yaml': propagationPolicy('web', deploymentSelector('web'), `    replicaScheduling:\n${DUPLICATED}`),
  });
  assert.equal(targets(rb(r, 'web')), [...MEMBERS]);
  await change(r, { [`clusters/${NEW_MEMBER}.yaml`]: clusterYaml(NEW_MEMBER) });
  assert.ok(targets(rb(r, 'web')).includes(NEW_MEMBER), 'rescheduled onto the joined member');
  assert.ok(hasFile(r, manifestOf(NEW_MEMBER, 'Deployment', 'web', 'default', 'apps')));
  await change(r, { [`clusters/${NEW_MEMBER}.yaml`]: null });
  assert.equal(targets(rb(r, 'web')), [...MEMBERS]);
  assert.not.ok(hasFile(r, manifestOf(NEW_MEMBER, 'Deployment', 'web', 'default', 'apps')));
});

// "propagate ClusterRole and waiting for reschedule".
test('a ClusterRole under a Duplicated ClusterPropagationPolicy follows a member joining and unjoining', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    'templates/role.yaml':
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules:\n  - {apiGroups: [""], resources: [pods], verbs: [get]}\n',
    'policies/role.yaml': clusterPropagationPolicy(
      'reader',
      '{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: reader}',
      `    replicaScheduling:\n${DUPLICATED}`,
    ),
  });
  await change(r, { [`clusters/${NEW_MEMBER}.yaml`]: clusterYaml(NEW_MEMBER) });
  assert.ok(targets(crb(r, 'reader', 'clusterrole')).includes(NEW_MEMBER));
  await change(r, { [`clusters/${NEW_MEMBER}.yaml`]: null });
  assert.equal(targets(crb(r, 'reader', 'clusterrole')), [...MEMBERS]);
});

// "For Divided ReplicaSchedulingType, resource should reschedule when unJoin cluster".
test('a Divided Deployment scheduled over a joined member is rescheduled onto the others, whole, when it unjoins', async () => {
  const r = await render({
    ...CHN_MEMBERS,
    [`clusters/${NEW_MEMBER}.yaml`]: clusterYaml(NEW_MEMBER),
    'templates/web.yaml': deployment('web', 10),
    'policies/web.yaml': propagationPolicy(
      'web',
      deploymentSelector('web'),
      `    replicaScheduling:\n${DIVIDED_WEIGHTED}`,
    ),
  });
  assert.ok(targets(rb(r, 'web')).includes(NEW_MEMBER));
  await change(r, { [`clusters/${NEW_MEMBER}.yaml`]: null });
  const b = rb(r, 'web');
  assert.not.ok(targets(b).includes(NEW_MEMBER));
  assert.is(
    (b.spec.clusters ?? []).reduce((s, c) => s + (c.replicas ?? 0), 0),
    10,
    'all 10 replicas on the remaining members',
  );
});

// "change labels to testing deployment reschedule(PropagationPolicy)" and "(ClusterPropagationPolicy)".
test('a member whose label stops matching loses the Deployment, and gets it back when the label matches again', async () => {
  const labelAffinity = `    clusterAffinity:
      labelSelector:
        matchLabels: {cluster-e2e: ok}
`;
  for (const policy of [
    propagationPolicy('web', deploymentSelector('web'), labelAffinity),
    clusterPropagationPolicy(
      'web',
      '{apiVersion: apps/v1, kind: Deployment, namespace: default, name: web}',
      labelAffinity,
    ),
  ]) {
    const labelled = (value: string) => clusterYaml('member1', { labels: { location: 'CHN', 'cluster-e2e': value } });
    const file = manifestOf('member1', 'Deployment', 'web', 'default', 'apps');
    const r = await render({
      ...CHN_MEMBERS,
      'clusters/member1.yaml': labelled('ok'),
      'templates/web.yaml': deployment('web', 3),
      'policies/web.yaml': policy,
    });
    assert.equal(targets(rb(r, 'web')), ['member1']);
    assert.ok(hasFile(r, file));
    await change(r, { 'clusters/member1.yaml': labelled('not_ok') });
    assert.not.ok(hasFile(r, file), 'gone from member1');
    assert.equal(targets(rb(r, 'web')), []);
    await change(r, { 'clusters/member1.yaml': labelled('ok') });
    assert.ok(hasFile(r, file), 'back on member1');
  }
});

// --- tainttoleration_test.go: "deployment with cluster tolerations testing" ---

test('with every member tainted by its own name, a toleration of one taint schedules to that member only', async () => {
  const tainted = Object.fromEntries(
    MEMBERS.map((m) => [
      `clusters/${m}.yaml`,
      clusterYaml(m, {
        labels: { location: 'CHN' },
        taints: `\n  taints:\n    - {key: cluster-toleration.karmada.io, value: ${m}, effect: NoSchedule}`,
      }),
    ]),
  );
  const r = await render({
    ...tainted,
    'templates/web.yaml': deployment('web', 3),
    'policies/web.yaml': propagationPolicy(
      'web',
      deploymentSelector('web'),
      `${ALL_MEMBERS_AFFINITY}    clusterTolerations:
      - {key: cluster-toleration.karmada.io, operator: Equal, value: member1, effect: NoSchedule}
`,
    ),
  });
  assert.equal(targets(rb(r, 'web')), ['member1']);
});

// --- clustertaintpolicy_test.go (pure: the taints the ClusterTaintPolicy controller keeps on one cluster) ---

const member = (name: string): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  spec: { syncMode: 'Push' },
});
const conditions = (extra: Record<string, Condition['status']>): Condition[] => [
  { type: 'Ready', status: 'True' },
  ...Object.entries(extra).map(([type, status]) => ({ type, status })),
];
const taintPolicy = (
  target: string,
  types: string[],
  taints: ClusterTaintPolicy['spec']['taints'],
): ClusterTaintPolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'ClusterTaintPolicy',
  metadata: { name: 'ctp' },
  spec: {
    targetClusters: { clusterNames: [target] },
    addOnConditions: types.map((t) => ({ conditionType: t, operator: 'In', statusValues: ['False', 'Unknown'] })),
    removeOnConditions: types.map((t) => ({ conditionType: t, operator: 'In', statusValues: ['True'] })),
    taints,
  },
});
const NOW = '2026-12-03T12:00:00Z';
const keyEffects = (ts: Taint[]) => ts.map((t) => `${t.key}:${t.effect}`).sort();

// "taint should be added and removed upon multi conditions match".
test('a ClusterTaintPolicy with two conditions taints only when both fail and lifts it only when both recover', () => {
  const c = member('member1');
  const p = taintPolicy(
    'member1',
    ['NetworkReady', 'StorageReady'],
    [{ key: 'testing/all-not-ready', effect: 'NoSchedule' }],
  );
  const step = (prev: Taint[], extra: Record<string, Condition['status']>) =>
    buildManagedTaints(prev, conditions(extra), [p], c, NOW);
  const networkDown = step([], { NetworkReady: 'False' });
  assert.equal(networkDown, [], 'one failing condition is not enough');
  const bothDown = step(networkDown, { NetworkReady: 'False', StorageReady: 'False' });
  assert.equal(keyEffects(bothDown), ['testing/all-not-ready:NoSchedule']);
  const networkBack = step(bothDown, { NetworkReady: 'True', StorageReady: 'False' });
  assert.equal(keyEffects(networkBack), ['testing/all-not-ready:NoSchedule'], 'kept until both recover');
  assert.equal(step(networkBack, { NetworkReady: 'True', StorageReady: 'True' }), []);
  assert.equal(
    buildManagedTaints([], conditions({ NetworkReady: 'False', StorageReady: 'False' }), [p], member('member2'), NOW),
    [],
    'another member is not a target',
  );
});

// "multiple taints should be added and removed upon conditions match".
test('a ClusterTaintPolicy with a NoSchedule and a NoExecute taint of one key adds and removes both', () => {
  const c = member('member2');
  const p = taintPolicy(
    'member2',
    ['NetworkReady'],
    [
      { key: 'testing/network-not-ready', effect: 'NoSchedule' },
      { key: 'testing/network-not-ready', effect: 'NoExecute' },
    ],
  );
  const down = buildManagedTaints([], conditions({ NetworkReady: 'False' }), [p], c, NOW);
  assert.equal(keyEffects(down), ['testing/network-not-ready:NoExecute', 'testing/network-not-ready:NoSchedule']);
  assert.equal(buildManagedTaints(down, conditions({ NetworkReady: 'True' }), [p], c, NOW), []);
});

test.run();
