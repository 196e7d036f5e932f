// Karmada's end-to-end propagation scenarios (test/e2e/suites/base/propagationpolicy_test.go,
// clusterpropagationpolicy_test.go, clusterresourcebinding_test.go, fieldselector_test.go), replayed as commits to
// a config repo: each Karmada step (create, update, delete of a template, policy or Cluster) is one commit, rendered by
// syncRepo, and the rendered branch is read back where Karmada's e2e reads the member clusters and the bindings.
// Events, informer waits and the live members' state are not part of these.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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
} from '../helpers/karmadaE2eRepo.ts';

const rendered = renderedRepos(test);

const configMapYaml = (name: string) =>
  yaml({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', labels: { a: 'b' } },
    data: { a: 'b' },
  });

const PP_NAME = 'propagationpolicy.karmada.io/name';
// propagationpolicy_test.go [BasicCase] Deployment / Service / Pod / Job / Role / RoleBinding propagation testing:
// each kind, named by a policy whose clusterAffinity lists every cluster, is on every cluster (Duplicated: the
// Deployment keeps all its replicas on each), and a change to the template reaches every cluster.
test('namespaced workloads a policy sends to every cluster reach each one whole, and template updates follow', async () => {
  const service = (port: number) =>
    yaml({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc', namespace: 'default' },
      spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ port, targetPort: 80 }] },
    });
  const pod = (image: string) =>
    yaml({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pod', namespace: 'default' },
      spec: { containers: [{ name: 'nginx', image }] },
    });
  const job = (backoffLimit: number) =>
    yaml({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'job', namespace: 'default' },
      spec: {
        backoffLimit,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } },
      },
    });
  const role = yaml({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'system:test:role', namespace: 'default' },
    rules: [],
  });
  const roleBinding = yaml({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'system:test.rb', namespace: 'default' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'system:test.rb' },
    subjects: [],
  });
  const selectors = [
    { ...DEPLOY, name: 'web' },
    { apiVersion: 'v1', kind: 'Service', name: 'svc' },
    { apiVersion: 'v1', kind: 'Pod', name: 'pod' },
    { apiVersion: 'batch/v1', kind: 'Job', name: 'job' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', name: 'system:test:role' },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', name: 'system:test.rb' },
  ];
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3),
    'templates/svc.yaml': service(80),
    'templates/pod.yaml': pod('nginx:1.19.0'),
    'templates/job.yaml': job(6),
    'templates/role.yaml': role,
    'templates/rb.yaml': roleBinding,
    'policies/all.yaml': pp('all', selectors, names(ALL)),
  });
  for (const file of [
    'deployment.apps_web.yaml',
    'service_svc.yaml',
    'pod_pod.yaml',
    'job.batch_job.yaml',
    'role.rbac.authorization.k8s.io_system:test:role.yaml',
    'rolebinding.rbac.authorization.k8s.io_system:test.rb.yaml',
  ])
    assert.equal(where(r, file), ALL, file);
  for (const c of ALL) assert.is(spec(out(r, deployOn(c, 'web'))).replicas, 3, 'Duplicated: every replica on each');

  await step(r, {
    'templates/web.yaml': deployment('web', 4),
    'templates/svc.yaml': service(8080),
    'templates/pod.yaml': pod('nginx:latest'),
    'templates/job.yaml': job(3),
  });
  for (const c of ALL) {
    assert.is(spec(out(r, deployOn(c, 'web'))).replicas, 4);
    assert.is(spec(out(r, `clusters/${c}/default/service_svc.yaml`)).ports[0].port, 8080);
    assert.is(spec(out(r, `clusters/${c}/default/pod_pod.yaml`)).containers[0].image, 'nginx:latest');
    assert.is(spec(out(r, `clusters/${c}/default/job.batch_job.yaml`)).backoffLimit, 3);
  }
});

// propagationpolicy_test.go "NamespaceScoped CustomResource propagation testing" and clusterpropagationpolicy_test.go
// "CustomResourceDefinition propagation testing": a CPP sends the CRD everywhere, a PP its namespaced custom resource;
// an update of the CR reaches every cluster and deleting it removes it from every cluster.
test('a CRD sent by a ClusterPropagationPolicy and its namespaced custom resource sent by a PropagationPolicy', async () => {
  const crd = yaml({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.karmada.io' },
    spec: {
      group: 'example.karmada.io',
      scope: 'Namespaced',
      names: { kind: 'Foo', listKind: 'FooList', plural: 'foos', singular: 'foo' },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  const cr = (ns: string) =>
    yaml({
      apiVersion: 'example.karmada.io/v1alpha1',
      kind: 'Foo',
      metadata: { name: 'cr', namespace: 'default' },
      spec: { resource: { namespace: ns } },
    });
  const r = await rendered({
    ...MEMBERS,
    'templates/crd.yaml': crd,
    'templates/cr.yaml': cr('default'),
    'policies/crd.yaml': cpp(
      'crd',
      [{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'foos.example.karmada.io' }],
      names(ALL),
    ),
    'policies/cr.yaml': pp('cr', [{ apiVersion: 'example.karmada.io/v1alpha1', kind: 'Foo', name: 'cr' }], names(ALL)),
  });
  assert.equal(where(r, 'customresourcedefinition.apiextensions.k8s.io_foos.example.karmada.io.yaml'), ALL);
  assert.ok(
    out(r, 'bindings/_cluster/foos.example.karmada.io-customresourcedefinition.yaml'),
    'a ClusterResourceBinding',
  );
  assert.equal(where(r, 'foo.example.karmada.io_cr.yaml'), ALL);
  await step(r, { 'templates/cr.yaml': cr('karmadatest-updated') });
  for (const c of ALL)
    assert.is(
      spec(out(r, `clusters/${c}/default/foo.example.karmada.io_cr.yaml`)).resource.namespace,
      'karmadatest-updated',
    );
  await step(r, { 'templates/cr.yaml': null });
  assert.equal(where(r, 'foo.example.karmada.io_cr.yaml'), [], 'a deleted template leaves every cluster');
});

// propagationpolicy_test.go [CornerCase] "Propagate Deployment with long pp name (exceed 63 character)".
test('a policy whose name is longer than a label value may be still places its template', async () => {
  const long = `deploy-longname-longname-longname-longname-longname-longname-${'x'.repeat(5)}`;
  assert.ok(long.length > 63);
  // The pod label stays a label value (at most 63 characters), as Karmada's helper.NewDeployment labels it app: nginx.
  const web = (replicas: number) => deployment(long, replicas).replaceAll(`app: ${long}`, 'app: nginx');
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': web(3),
    'policies/long.yaml': pp(long, [{ ...DEPLOY, name: long }], names(ALL)),
  });
  assert.equal(where(r, `deployment.apps_${long}.yaml`), ALL);
  await step(r, { 'templates/web.yaml': web(4) });
  for (const c of ALL) assert.is(spec(out(r, deployOn(c, long))).replicas, 4);
});

// propagationpolicy_test.go [ImplicitPriority] "priorityMatchName/priorityMatchLabel/priorityMatchAll testing": with
// three policies of equal (default) priority, the one naming the Deployment wins; deleting it hands the Deployment to
// the label-selector one, and deleting that to the match-all one. Members carry the claiming policy's name.
test('among equal priorities name beats labelSelector beats match-all, and a deleted winner hands over to the next', async () => {
  const labels = { priority: 'implicit-priority' };
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3, labels),
    'policies/match-name.yaml': pp('zz-match-name', [{ ...DEPLOY, name: 'web' }], names(ALL)),
    'policies/match-label.yaml': pp(
      'mm-match-label',
      [{ ...DEPLOY, labelSelector: { matchLabels: labels } }],
      names(ALL),
    ),
    'policies/match-all.yaml': pp('aa-match-all', [{ ...DEPLOY }], names(ALL)),
  });
  const claimedBy = () => ALL.map((c) => meta(out(r, deployOn(c, 'web'))).annotations?.[PP_NAME]);
  assert.equal(claimedBy(), ['zz-match-name', 'zz-match-name', 'zz-match-name']);
  await step(r, { 'policies/match-name.yaml': null });
  assert.equal(claimedBy(), ['mm-match-label', 'mm-match-label', 'mm-match-label']);
  await step(r, { 'policies/match-label.yaml': null });
  assert.equal(claimedBy(), ['aa-match-all', 'aa-match-all', 'aa-match-all']);
});

// propagationpolicy_test.go [ExplicitPriority] "high explicit/low priority/implicit priority" and "same explicit
// priority": an explicit priority 2 label selector beats a priority 1 name match and a priority 0 name match; with
// both at priority 1 the name match wins.
test('a higher explicit priority wins over a name match; on equal explicit priority the name match wins', async () => {
  const labels = { priority: 'priority-x' };
  const byLabel = (p: number) => ({ priority: p });
  const r = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3, labels),
    'policies/a.yaml': pp(
      'a-higher-label',
      [{ ...DEPLOY, labelSelector: { matchLabels: labels } }],
      names(ALL),
      byLabel(2),
    ),
    'policies/b.yaml': pp('b-lower-name', [{ ...DEPLOY, name: 'web' }], names(ALL), byLabel(1)),
    'policies/c.yaml': pp('c-implicit-name', [{ ...DEPLOY, name: 'web' }], names(ALL)),
  });
  for (const c of ALL) assert.is(meta(out(r, deployOn(c, 'web'))).annotations?.[PP_NAME], 'a-higher-label');

  const s = await rendered({
    ...MEMBERS,
    'templates/web.yaml': deployment('web', 3, labels),
    'policies/a.yaml': pp('a-label', [{ ...DEPLOY, labelSelector: { matchLabels: labels } }], names(ALL), byLabel(1)),
    'policies/b.yaml': pp('b-name', [{ ...DEPLOY, name: 'web' }], names(ALL), byLabel(1)),
  });
  for (const c of ALL) assert.is(meta(out(s, deployOn(c, 'web'))).annotations?.[PP_NAME], 'b-name');
});

// propagationpolicy_test.go [AdvancedCase] "add resourceSelectors item" and "update resourceSelectors item" (the
// update's spec has no placement: every cluster): the added Deployment is placed, the one selected alone goes everywhere.
test('a policy that gains a selector places that template; one that drops a selector lets go of its template', async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/d01.yaml': deployment('d01'),
    'templates/d02.yaml': deployment('d02'),
    'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
  });
  assert.equal(where(r, 'deployment.apps_d02.yaml'), []);
  await step(r, {
    'policies/p.yaml': pp(
      'p',
      [
        { ...DEPLOY, name: 'd01' },
        { ...DEPLOY, name: 'd02' },
      ],
      names(['member1']),
    ),
  });
  assert.equal(where(r, 'deployment.apps_d02.yaml'), ['member1']);

  await step(r, { 'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd02' }], undefined) });
  assert.equal(where(r, 'deployment.apps_d02.yaml'), ALL, 'no placement: every cluster');
});

// propagationpolicy_test.go [AdvancedCase] "update policy propagateDeps" and "update policy placement".
test("a policy's new propagateDeps reaches its binding, and its new placement moves the template", async () => {
  const r = await rendered({
    ...MEMBERS,
    'templates/d01.yaml': deployment('d01'),
    'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
  });
  assert.not.ok(spec(out(r, 'bindings/default/d01-deployment.yaml')).propagateDeps);
  await step(r, {
    'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1']), { propagateDeps: true }),
  });
  assert.is(spec(out(r, 'bindings/default/d01-deployment.yaml')).propagateDeps, true);
  await step(r, { 'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member2'])) });
  assert.equal(where(r, 'deployment.apps_d01.yaml'), ['member2']);
});

// propagationpolicy_test.go [AdvancedCase] "modify the old propagationPolicy to unbind and create a new one" and
// "delete the old propagationPolicy to unbind and create a new one".
test('a template its policy let go of (narrowed or deleted) is taken by a new policy and goes where that one says', async () => {
  for (const unbind of ['narrow', 'delete'] as const) {
    const r = await rendered({
      ...MEMBERS,
      'templates/cm.yaml': configMapYaml('cm'),
      'policies/p01.yaml': pp('p01', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' }], names(['member1'])),
    });
    assert.equal(where(r, 'configmap_cm.yaml'), ['member1']);
    await step(r, {
      'policies/p01.yaml':
        unbind === 'delete'
          ? null
          : pp('p01', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cmfake' }], names(['member1'])),
    });
    await step(r, {
      'policies/p02.yaml': pp('p02', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' }], names(['member2'])),
    });
    assert.ok(where(r, 'configmap_cm.yaml').includes('member2'), unbind);
    assert.is(meta(out(r, 'bindings/default/cm-configmap.yaml')).annotations?.[PP_NAME], 'p02', unbind);
  }
});

// "Suspension: PropagationPolicy testing": dispatching suspended is recorded on the binding; the template's new
// replicas are dispatched once the suspension is lifted, whether by `suspension: {}` or by removing it.
test('a suspended policy holds the new replicas back until its suspension is emptied or removed', async () => {
  for (const resume of [{ suspension: {} }, {}]) {
    const r = await rendered({
      ...MEMBERS,
      'templates/d01.yaml': deployment('d01', 3),
      'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1'])),
    });
    await step(r, {
      'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1']), {
        suspension: { dispatching: true },
      }),
    });
    assert.equal(spec(out(r, 'bindings/default/d01-deployment.yaml')).suspension, { dispatching: true });
    await step(r, { 'templates/d01.yaml': deployment('d01', 4) });
    assert.is(spec(out(r, deployOn('member1', 'd01'))).replicas, 3, 'not dispatched while suspended');
    await step(r, { 'policies/p.yaml': pp('p', [{ ...DEPLOY, name: 'd01' }], names(['member1']), resume) });
    assert.is(spec(out(r, deployOn('member1', 'd01'))).replicas, 4, JSON.stringify(resume));
  }
});

test.run();
