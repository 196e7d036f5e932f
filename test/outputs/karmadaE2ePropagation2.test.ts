// Karmada's end-to-end scenarios for ClusterPropagationPolicies, field selectors, cluster affinities and namespace
// auto-provision (test/e2e/suites/base/clusterpropagationpolicy_test.go, clusterresourcebinding_test.go,
// fieldselector_test.go, clusteraffinities_test.go, namespace_test.go), replayed as commits to
// a config repo: each Karmada step (create, update, delete of a template, policy or Cluster) is one commit, rendered by
// syncRepo, and the rendered branch is read back where Karmada's e2e reads the member clusters and the bindings.
// Events, informer waits and the live members' state are not part of these.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { at, notReadyCluster } from '../helpers/failoverState.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { clusterYaml, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';
import {
  ALL,
  cpp,
  deployment,
  DEPLOY,
  deployOn,
  MEMBERS,
  meta,
  names,
  out,
  pp,
  renderedRepos,
  spec,
  step,
  where,
  yaml,
  type Obj,
} from '../helpers/karmadaE2eRepo.ts';

const rendered = renderedRepos(test);

const clusterRole = (name: string) =>
  yaml({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  });
const CLUSTER_ROLE = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' };
const roleOn = (cluster: string, name: string) =>
  `clusters/${cluster}/_cluster/clusterrole.rbac.authorization.k8s.io_${name}.yaml`;
const CPP_NAME = 'clusterpropagationpolicy.karmada.io/name';

// clusterpropagationpolicy_test.go [BasicCase] ClusterRole / ClusterRoleBinding / Deployment propagation testing and
// [CornerCase] Deployment, clusterresourcebinding_test.go "creates work with permanent ID label" / "propagates resource
// with permanent ID label".
test('a ClusterPropagationPolicy places cluster-scoped and namespaced templates, tied to their bindings by permanent id', async () => {
  const crb = yaml({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'system:test.tt:crb' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:test.tt:crb' },
    subjects: [],
  });
  const r = await rendered({
    ...MEMBERS,
    'templates/cr.yaml': clusterRole('system:test-cr'),
    'templates/crb.yaml': crb,
    'templates/web.yaml': deployment('web', 3),
    'policies/roles.yaml': cpp(
      'roles',
      [
        { ...CLUSTER_ROLE, name: 'system:test-cr' },
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', name: 'system:test.tt:crb' },
      ],
      names(ALL),
    ),
    'policies/web.yaml': cpp('web', [{ ...DEPLOY, name: 'web' }], names(['member1'])),
  });
  assert.equal(where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-cr.yaml'), ALL);
  assert.equal(where(r, 'clusterrolebinding.rbac.authorization.k8s.io_system:test.tt:crb.yaml'), ALL);
  assert.equal(where(r, 'deployment.apps_web.yaml'), ['member1']);
  assert.is(spec(out(r, deployOn('member1', 'web'))).replicas, 3);
  const binding = out(r, 'bindings/_cluster/system.test-cr-clusterrole.yaml');
  const id = meta(binding).labels?.['clusterresourcebinding.karmada.io/permanent-id'];
  assert.ok(id, 'the ClusterResourceBinding has a permanent id');
  for (const c of ALL)
    assert.is(meta(out(r, roleOn(c, 'system:test-cr'))).labels?.['clusterresourcebinding.karmada.io/permanent-id'], id);
  await step(r, { 'templates/web.yaml': deployment('web', 4) });
  assert.is(spec(out(r, deployOn('member1', 'web'))).replicas, 4);
});

// clusterpropagationpolicy_test.go [AdvancedCase] "Edit ClusterPropagationPolicy ResourceSelectors", namespaced and
// cluster-scoped: an added selector places its template on the policy's cluster, a replaced one places the new one.
test('a ClusterPropagationPolicy that gains or swaps a selector places the newly selected templates', async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/d01.yaml': deployment('d01'),
    'templates/d02.yaml': deployment('d02'),
    'templates/cr01.yaml': clusterRole('system:test-01'),
    'templates/cr02.yaml': clusterRole('system:test-02'),
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-01' }], names(['member1'])),
  });
  assert.equal(
    [where(r, 'deployment.apps_d02.yaml'), where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-02.yaml')],
    [[], []],
  );
  await step(r, {
    'policies/d.yaml': cpp(
      'd',
      [
        { ...DEPLOY, name: 'd01' },
        { ...DEPLOY, name: 'd02' },
      ],
      names(['member1']),
    ),
    'policies/cr.yaml': cpp(
      'cr',
      [
        { ...CLUSTER_ROLE, name: 'system:test-01' },
        { ...CLUSTER_ROLE, name: 'system:test-02' },
      ],
      names(['member1']),
    ),
  });
  assert.equal(where(r, 'deployment.apps_d02.yaml'), ['member1']);
  assert.equal(where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-02.yaml'), ['member1']);

  const s = await rendered({
    ...MEMBERS,
    'templates/d01.yaml': deployment('d01'),
    'templates/d02.yaml': deployment('d02'),
    'templates/cr01.yaml': clusterRole('system:test-01'),
    'templates/cr02.yaml': clusterRole('system:test-02'),
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-01' }], names(['member1'])),
  });
  await step(s, {
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd02' }], names(['member1'])),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-02' }], names(['member1'])),
  });
  assert.equal(where(s, 'deployment.apps_d02.yaml'), ['member1']);
  assert.equal(where(s, 'clusterrole.rbac.authorization.k8s.io_system:test-02.yaml'), ['member1']);
});

// clusterpropagationpolicy_test.go [AdvancedCase] "update policy propagateDeps" and "update policy placement"
// (namespace scope and cluster scope).
test("a ClusterPropagationPolicy's new propagateDeps reaches the binding and its new placement moves both scopes", async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/d01.yaml': deployment('d01'),
    'templates/cr01.yaml': clusterRole('system:test-01'),
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-01' }], names(['member1'])),
  });
  await step(r, {
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member1']), { propagateDeps: true }),
  });
  assert.is(spec(out(r, 'bindings/default/d01-deployment.yaml')).propagateDeps, true);
  await step(r, {
    'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member2'])),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-01' }], names(['member2'])),
  });
  assert.equal(where(r, 'deployment.apps_d01.yaml'), ['member2']);
  assert.equal(where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-01.yaml'), ['member2']);
});

// clusterpropagationpolicy_test.go [ImplicitPriority], [ExplicitPriority] "high explicit/low priority/implicit
// priority" and "same explicit priority".
test('ClusterPropagationPolicies rank as PropagationPolicies do: explicit priority, then name > labelSelector > match-all', async () => {
  const labels = { priority: 'implicit-priority' };
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3, labels),
    'policies/n.yaml': cpp('zz-match-name', [{ ...DEPLOY, name: 'web', namespace: 'default' }], names(ALL)),
    'policies/l.yaml': cpp(
      'mm-match-label',
      [{ ...DEPLOY, namespace: 'default', labelSelector: { matchLabels: labels } }],
      names(ALL),
    ),
    'policies/a.yaml': cpp('aa-match-all', [{ ...DEPLOY, namespace: 'default' }], names(ALL)),
  });
  const claimedBy = () => ALL.map((c) => meta(out(r, deployOn(c, 'web'))).annotations?.[CPP_NAME]);
  assert.equal(claimedBy(), Array(3).fill('zz-match-name'));
  await step(r, { 'policies/n.yaml': null });
  assert.equal(claimedBy(), Array(3).fill('mm-match-label'));
  await step(r, { 'policies/l.yaml': null });
  assert.equal(claimedBy(), Array(3).fill('aa-match-all'));

  const e = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3, labels),
    'policies/a.yaml': cpp('a-higher-label', [{ ...DEPLOY, labelSelector: { matchLabels: labels } }], names(ALL), {
      priority: 2,
    }),
    'policies/b.yaml': cpp('b-lower-name', [{ ...DEPLOY, name: 'web' }], names(ALL), { priority: 1 }),
    'policies/c.yaml': cpp('c-implicit-name', [{ ...DEPLOY, name: 'web' }], names(ALL)),
    'templates/api.yaml': deployment('api', 3, { tier: 'x' }),
    'policies/d.yaml': cpp('d-label', [{ ...DEPLOY, labelSelector: { matchLabels: { tier: 'x' } } }], names(ALL), {
      priority: 1,
    }),
    'policies/e.yaml': cpp('e-name', [{ ...DEPLOY, name: 'api' }], names(ALL), { priority: 1 }),
  });
  for (const c of ALL) {
    assert.is(meta(out(e, deployOn(c, 'web'))).annotations?.[CPP_NAME], 'a-higher-label');
    assert.is(meta(out(e, deployOn(c, 'api'))).annotations?.[CPP_NAME], 'e-name');
  }
});

// clusterpropagationpolicy_test.go [DeleteCase]: deleting the ClusterPropagationPolicy removes its claim from the
// ResourceBinding (and from the ClusterResourceBinding of a CRD) but keeps them.
const crd = yaml({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'foos.example.karmada.io' },
  spec: {
    group: 'example.karmada.io',
    scope: 'Cluster',
    names: { kind: 'Foo', listKind: 'FooList', plural: 'foos', singular: 'foo' },
    versions: [{ name: 'v1alpha1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
  },
});
const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: 'foos.example.karmada.io',
};
const files = {
  ...MEMBERS,
  'templates/d01.yaml': deployment('d01'),
  'templates/crd.yaml': crd,
  'policies/d.yaml': cpp('d', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
  'policies/crd.yaml': cpp('crd', [CRD], names(ALL)),
};
const rb = 'bindings/default/d01-deployment.yaml';
const crbPath = 'bindings/_cluster/foos.example.karmada.io-customresourcedefinition.yaml';

// clusterpropagationpolicy_test.go [DeleteCase] "delete the old ClusterPropagationPolicy to unbind and create a new
// one" (Deployment and CRD).
test('after its ClusterPropagationPolicy is deleted, a new one claims the template and moves it', async () => {
  const s = await rendered(files);
  await step(s, { 'policies/d.yaml': null, 'policies/crd.yaml': null });
  await step(s, {
    'policies/d01.yaml': cpp('d-new', [{ ...DEPLOY, name: 'd01' }], names(['member2'])),
    'policies/crd02.yaml': cpp('crd02', [CRD], names(ALL)),
  });
  assert.is(meta(out(s, rb)).annotations?.[CPP_NAME], 'd-new');
  assert.is(meta(out(s, crbPath)).annotations?.[CPP_NAME], 'crd02');
  assert.ok(where(s, 'deployment.apps_d01.yaml').includes('member2'));
});

// clusterpropagationpolicy_test.go [Suspension] "suspend the CPP dispatching".
test("a ClusterPropagationPolicy's dispatching suspension is recorded on its ClusterResourceBinding", async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/cr.yaml': clusterRole('system:test-s'),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-s' }], names(['member1'])),
  });
  await step(r, {
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-s' }], names(['member1']), {
      suspension: { dispatching: true },
    }),
  });
  assert.equal(spec(out(r, 'bindings/_cluster/system.test-s-clusterrole.yaml')).suspension, { dispatching: true });
  assert.equal(
    where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-s.yaml'),
    ['member1'],
    'what was there stays',
  );
});

// fieldselector_test.go "propagation with fieldSelector testing": provider In [huaweicloud] and region NotIn
// [cn-north-1] over (huaweicloud, cn-south-1), (huaweicloud, cn-north-1), (kind, cn-east-1): the first cluster only.
test('a fieldSelector on provider and region keeps the clusters that satisfy every expression', async () => {
  const withProvider = (name: string, provider: string, region: string) =>
    clusterYaml(name, { region }).replace('  syncMode: Push\n', `  syncMode: Push\n  provider: ${provider}\n`);
  const r = await rendered({
    'clusters/member1.yaml': withProvider('member1', 'huaweicloud', 'cn-south-1'),
    'clusters/member2.yaml': withProvider('member2', 'huaweicloud', 'cn-north-1'),
    'clusters/member3.yaml': withProvider('member3', 'kind', 'cn-east-1'),
    'templates/web.yaml': deployment('web'),
    'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], {
      clusterAffinity: {
        clusterNames: ALL,
        fieldSelector: {
          matchExpressions: [
            { key: 'provider', operator: 'In', values: ['huaweicloud'] },
            { key: 'region', operator: 'NotIn', values: ['cn-north-1'] },
          ],
        },
      },
    }),
  });
  assert.equal(
    (spec(out(r, 'bindings/default/web-deployment.yaml')).clusters as { name: string }[]).map((c) => c.name),
    ['member1'],
  );
});

const status = (o: Obj | undefined) => (o?.status ?? {}) as Record<string, any>;
const placed = (o: Obj | undefined) => ((spec(o).clusters ?? []) as { name: string }[]).map((c) => c.name);
const labelled = (key1: string, key2: string) => ({
  'clusters/member1.yaml': clusterYaml('member1', { labels: { member1key: key1 } }),
  'clusters/member2.yaml': clusterYaml('member2', { labels: { member2key: key2 } }),
  'clusters/member3.yaml': clusterYaml('member3'),
});
const twoGroups = {
  clusterAffinities: [
    { affinityName: 'group1', labelSelector: { matchLabels: { member1key: 'ok' } } },
    { affinityName: 'group2', labelSelector: { matchLabels: { member2key: 'ok' } } },
  ],
};

// clusteraffinities_test.go "schedule with multi clusterAffinity" / "propagate deployment and then update the cluster
// label" and "propagate clusterRole and then update the cluster label": the first term's cluster, then the second's
// once the first no longer matches.
test('with clusterAffinities a template goes to the first term that fits and falls back to the next when it stops fitting', async () => {
  const r = await rendered({
    ...labelled('ok', 'ok'),
    'templates/web.yaml': deployment('web'),
    'templates/cr.yaml': clusterRole('system:test-aff'),
    'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], twoGroups),
    'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-aff' }], twoGroups),
  });
  assert.equal(where(r, 'deployment.apps_web.yaml'), ['member1']);
  assert.equal(where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-aff.yaml'), ['member1']);
  await step(r, labelled('not-ok', 'ok'));
  assert.equal(where(r, 'deployment.apps_web.yaml'), ['member2']);
  assert.equal(where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-aff.yaml'), ['member2']);
});

// clusteraffinities_test.go "reschedule from the first cluster affinity": on member2 by group2 after member1 stopped
// fitting, the binding stays on group2 when member1 fits again (the scheduler starts from the observed term), and a
// WorkloadRebalancer sends it back to group1's member1.
test('a binding stays on the fallback term when the first fits again, until a WorkloadRebalancer restarts from the first', async () => {
  const r = await rendered({
    ...labelled('ok', 'ok'),
    'templates/web.yaml': deployment('web'),
    'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], twoGroups),
  });
  const binding = () => out(r, 'bindings/default/web-deployment.yaml');
  assert.equal([placed(binding()), status(binding()).schedulerObservedAffinityName], [['member1'], 'group1']);
  await step(r, labelled('not-ok', 'ok'));
  assert.equal([placed(binding()), status(binding()).schedulerObservedAffinityName], [['member2'], 'group2']);
  await step(r, labelled('ok', 'ok'));
  assert.equal([placed(binding()), status(binding()).schedulerObservedAffinityName], [['member2'], 'group2']);
  await step(r, {
    'rebalancers/web.yaml': yaml({
      apiVersion: 'apps.karmada.io/v1alpha1',
      kind: 'WorkloadRebalancer',
      metadata: { name: 'web-again' },
      spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }] },
    }),
  });
  assert.equal([placed(binding()), status(binding()).schedulerObservedAffinityName], [['member1'], 'group1']);
  assert.equal(where(r, 'deployment.apps_web.yaml'), ['member1']);
});

// clusteraffinities_test.go "schedule change from clusterAffinity to clusterAffinities" and "from clusterAffinities to
// clusterAffinity", for a Deployment (PP) and a ClusterRole (CPP).
test('switching a policy between clusterAffinity and clusterAffinities moves its template to the new clusters', async () => {
  const one = (cluster: string) => names([cluster]);
  const terms = (cluster: string) => ({ clusterAffinities: [{ affinityName: 'group1', clusterNames: [cluster] }] });
  for (const [before, after] of [
    [one('member1'), terms('member2')],
    [terms('member1'), one('member2')],
  ]) {
    const r = await rendered({
      ...MEMBERS,
      'templates/web.yaml': deployment('web'),
      'templates/cr.yaml': clusterRole('system:test-sw'),
      'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], before),
      'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-sw' }], before),
    });
    assert.equal(where(r, 'deployment.apps_web.yaml'), ['member1']);
    await step(r, {
      'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], after),
      'policies/cr.yaml': cpp('cr', [{ ...CLUSTER_ROLE, name: 'system:test-sw' }], after),
    });
    assert.equal(where(r, 'deployment.apps_web.yaml'), ['member2'], JSON.stringify(after));
    assert.equal(
      where(r, 'clusterrole.rbac.authorization.k8s.io_system:test-sw.yaml'),
      ['member2'],
      JSON.stringify(after),
    );
  }
});

// namespace_test.go "namespace should be removed from member clusters" and "namespace should be propagated to new
// created clusters": a Namespace template needs no policy; deleting it removes it everywhere, and a cluster that joins
// gets every namespace.
test('a namespace leaves every member when deleted and reaches a member that joins later', async () => {
  const ns = (name: string) => yaml({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const r = await rendered({
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'templates/ns-a.yaml': ns('karmada-e2e-ns-a'),
    'templates/ns-b.yaml': ns('karmada-e2e-ns-b'),
  });
  assert.equal(where(r, 'namespace_karmada-e2e-ns-a.yaml'), ['member1', 'member2']);
  await step(r, { 'templates/ns-a.yaml': null });
  assert.equal(where(r, 'namespace_karmada-e2e-ns-a.yaml'), []);
  await step(r, { 'clusters/member-e2e.yaml': clusterYaml('member-e2e') });
  assert.equal(where(r, 'namespace_karmada-e2e-ns-b.yaml'), ['member-e2e', 'member1', 'member2']);
});

// clusteraffinities_test.go "[Failover] failover testing with propagate deployment by clusterAffinities": member1 (the
// first term) tainted not-ready:NoExecute, tolerated 2 s: the Deployment moves to member2, the second term's cluster.
test("a template placed by clusterAffinities fails over to the next term's cluster when its cluster turns NotReady", async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web'),
    'policies/web.yaml': pp('web', [{ ...DEPLOY, name: 'web' }], {
      clusterTolerations: [
        { key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 },
      ],
      clusterAffinities: [
        { affinityName: 'group1', clusterNames: ['member1'] },
        { affinityName: 'group2', clusterNames: ['member2'] },
      ],
    }),
  });
  assert.equal(where(r, 'deployment.apps_web.yaml'), ['member1']);
  const repo = await openRepo(r.dir);
  const down = new Map([['member1', notReadyCluster('2026-11-29T15:00:00Z')]]);
  await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF, now: at(30), clusterStatus: down });
  const binding = out(r, 'bindings/default/web-deployment.yaml');
  assert.equal(placed(binding), ['member2']);
  assert.ok(where(r, 'deployment.apps_web.yaml').includes('member2'));
});

// A built-in kind kube-apiserver serves cluster-scoped (here ValidatingAdmissionPolicy, GA in 1.30) has no namespace
// in Karmada: LookForMatchedPolicy skips PropagationPolicies for it, and a ClusterPropagationPolicy binds it with a
// ClusterResourceBinding.
test('a ValidatingAdmissionPolicy is cluster-scoped: a PropagationPolicy cannot select it, a ClusterPropagationPolicy can', async () => {
  const VAP = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy' };
  const policyFile = yaml({
    ...VAP,
    metadata: { name: 'max-replicas' },
    spec: {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] },
        ],
      },
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    },
  });
  const file = 'validatingadmissionpolicy.admissionregistration.k8s.io_max-replicas.yaml';
  const r = await rendered({
    ...MEMBERS,
    'templates/vap.yaml': policyFile,
    'policies/vap.yaml': pp('vap', [{ ...VAP, name: 'max-replicas' }], names(['member1'])),
  });
  assert.equal(where(r, file), []);
  assert.equal(
    r.ls('flotilla/rendered').filter((p) => p.startsWith('bindings/')),
    [],
  );
  await step(r, { 'policies/vap.yaml': cpp('vap', [{ ...VAP, name: 'max-replicas' }], names(['member1'])) });
  assert.ok(r.ls('flotilla/rendered').includes(`clusters/member1/_cluster/${file}`));
  const binding = out(r, 'bindings/_cluster/max-replicas-validatingadmissionpolicy.yaml');
  assert.is(binding?.kind, 'ClusterResourceBinding');
  const manifest = out(r, `clusters/member1/_cluster/${file}`);
  assert.ok(manifest);
  assert.is((manifest.metadata as Obj).namespace, undefined);
});

test.run();
