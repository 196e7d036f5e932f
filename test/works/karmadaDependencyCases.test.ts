// Karmada's dependencies distributor, case by case (pkg/dependenciesdistributor/dependencies_distributor_test.go and
// the code it tests, dependencies_distributor.go / policy_utils.go): what a propagateDeps workload's dependency gets
// as its attached ResourceBinding (name, labels, requiredBy snapshots), where it goes, and the conflictResolution and
// preserveResourcesOnDeletion it takes from its parents.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { InterpreterCustomization } from '../../src/api/interpreterCustomization.ts';
import type { Located } from '../../src/api/model.ts';
import { refKey } from '../../src/api/kinds.ts';
import { emptyIndex, viewOfWhole, type IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { distributeDependencies, type PlacedDependency } from '../../src/works/distributeDependencies.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import {
  coldRenderInput,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
  templateOf,
} from '../helpers/inMemoryModel.ts';

// A Deployment that reads the ConfigMap `settings`, divided 1 + 1 over member1 and member2, with propagateDeps.
const web = deployment('web', 2, {
  template: {
    spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: 'settings' } }] }] },
  },
});
const settings = configMap('settings');
const model = modelOf({
  templates: [web, settings],
  policies: [
    propagationPolicy('web', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      propagateDeps: true,
      placement: {
        clusterAffinity: { clusterNames: ['member1', 'member2'] },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
      },
    }),
  ],
  clusters: [memberCluster('member1'), memberCluster('member2')],
});
const rendered = await renderTemplates(coldRenderInput(model));
const bindingAt = (path: string) => parse(String(rendered.edits.get(path))) as ResourceBinding;
const parentBinding = () => bindingAt('bindings/default/web-deployment.yaml');
const attached = () => bindingAt('bindings/default/settings-configmap.yaml');

// Test_buildAttachedBinding "build attached binding": named <name>-<kind> of the dependency, in the parent's namespace.
test("an attached binding takes the dependency's name, the parent's namespace, and lists the parent by binding name", () => {
  assert.equal(rendered.problems, []);
  const b = attached();
  assert.is(b.kind, 'ResourceBinding');
  assert.equal([b.metadata.name, b.metadata.namespace], ['settings-configmap', 'default']);
  assert.equal(b.spec.resource, { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' });
  assert.equal(
    b.spec.requiredBy?.map((r) => [r.namespace, r.name]),
    [['default', 'web-deployment']],
  );
  assert.is(b.spec.placement, undefined, 'no policy claims it');
});

// Test_buildAttachedBinding: RequiredBy[0].Clusters is the independent binding's Spec.Clusters as it is, replicas
// included ({member1, 2} there): buildAttachedBinding copies independentBinding.Spec.Clusters.
test("requiredBy snapshots the parent's scheduled clusters with the replicas the parent has on each", () => {
  assert.equal(parentBinding().spec.clusters, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ]);
  assert.equal(attached().spec.requiredBy?.[0]?.clusters, [
    { name: 'member1', replicas: 1 },
    { name: 'member2', replicas: 1 },
  ]);
});

// Test_buildAttachedBinding builds no Spec.Clusters, and the scheduler skips a binding without placement
// (scheduler.go: `if rb.Spec.Placement == nil`): the binding controller takes the Work clusters from requiredBy
// (mergeTargetClusters).
test('an attached binding has no scheduling result of its own: its Works follow requiredBy', () => {
  assert.is(attached().spec.clusters, undefined);
  for (const cluster of ['member1', 'member2'])
    assert.ok(rendered.edits.get(`clusters/${cluster}/default/configmap_settings.yaml`), cluster);
});

// Test_buildAttachedBinding: Labels {"resourcebinding.karmada.io/depended-by-<GenerateBindingReferenceKey(ns, name)>":
// <the parent's resourcebinding.karmada.io/permanent-id>} (generateBindingDependedLabels). The key's suffix is the
// safe encoding of the decimal FNV-1a of "default/web-deployment".
test("an attached binding is labelled depended-by-<hash of the parent's namespace/name> with the parent's permanent id", () => {
  const parentId = parentBinding().metadata.labels?.['resourcebinding.karmada.io/permanent-id'];
  assert.ok(parentId);
  assert.is(attached().metadata.labels?.['resourcebinding.karmada.io/depended-by-69c6c647cc'], parentId);
});

// Test_recordDependencies "record updated dependencies": the independent binding carries the JSON of its dependencies
// in resourcebinding.karmada.io/dependencies (recordDependencies).
test('the parent binding records the dependencies it drags along in resourcebinding.karmada.io/dependencies', () => {
  assert.is(
    parentBinding().metadata.annotations?.['resourcebinding.karmada.io/dependencies'],
    '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"default","name":"settings"}]',
  );
});

// The annotation is the JSON of what GetDependencies returned, in its order: GetDependenciesFromPodTemplate's kinds
// (ConfigMap, Secret, ServiceAccount, PersistentVolumeClaim), an Ingress's spec.tls as written, a Secret named twice
// twice (getIngressDependencies); each dependency still gets one attached binding.
test('the dependencies annotation lists them in the order Karmada finds them', async () => {
  const secret = (name: string) =>
    templateOf(
      { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' } },
      `templates/${name}.yaml`,
    );
  const worker = deployment('worker', 1, {
    template: {
      spec: {
        serviceAccountName: 'runner',
        containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'token' } }] }],
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
          { name: 'conf', configMap: { name: 'settings' } },
        ],
      },
    },
  });
  const ingress = templateOf(
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'front', namespace: 'default' },
      spec: { tls: [{ secretName: 'tls-b' }, { secretName: 'tls-a' }, { secretName: 'tls-b' }] },
    },
    'templates/front.yaml',
  );
  const out = await renderTemplates(
    coldRenderInput(
      modelOf({
        templates: [worker, ingress, settings, secret('token'), secret('tls-a'), secret('tls-b')],
        policies: [
          propagationPolicy('all', {
            resourceSelectors: [
              { apiVersion: 'apps/v1', kind: 'Deployment', name: 'worker' },
              { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'front' },
            ],
            propagateDeps: true,
            placement: { clusterAffinity: { clusterNames: ['member1'] } },
          }),
        ],
        clusters: [memberCluster('member1')],
      }),
    ),
  );
  const recorded = (path: string) =>
    JSON.parse(
      (parse(String(out.edits.get(path))) as ResourceBinding).metadata.annotations?.[
        'resourcebinding.karmada.io/dependencies'
      ] ?? 'null',
    ) as { kind: string; name: string }[];
  assert.equal(
    recorded('bindings/default/worker-deployment.yaml').map((d) => `${d.kind}/${d.name}`),
    ['ConfigMap/settings', 'Secret/token', 'ServiceAccount/runner', 'PersistentVolumeClaim/data'],
  );
  assert.equal(
    recorded('bindings/default/front-ingress.yaml').map((d) => d.name),
    ['tls-b', 'tls-a', 'tls-b'],
  );
  const tlsB = parse(String(out.edits.get('bindings/default/tls-b-secret.yaml'))) as ResourceBinding;
  assert.equal(
    tlsB.spec.requiredBy?.map((r) => r.name),
    ['front-ingress'],
  );
});

// The pure distributor, on index entries.
const WEB = refKey(web.ref);
const api = deployment('api', 1);
const API = refKey(api.ref);
const SETTINGS = refKey(settings.ref);
const parent = (clusters: string[], extra: Partial<IndexEntry> = {}): IndexEntry => ({
  file: 'templates/x.yaml',
  policy: 'p',
  clusters,
  deps: [SETTINGS],
  ...extra,
});
const noPrevious = viewOfWhole(emptyIndex());
const unclaimed = new Map<string, PlacedDependency>([[SETTINGS, { template: settings, clusters: [] }]]);

// Test_handleDependentResource "nil label selector, non-empty name": a template that does not exist is skipped
// ("do nothing if resource template not exist").
test('a dependency whose template does not exist gets no attached binding', async () => {
  const placed = new Map<string, PlacedDependency>([
    [WEB, { template: web, clusters: [{ name: 'member1', replicas: 2 }] }],
  ]);
  const changes = new Map<string, IndexEntry | null>([[WEB, parent(['member1'])]]);
  assert.equal((await distributeDependencies(placed, changes, noPrevious)).size, 0);
});

// Test_createOrUpdateAttachedBinding "update attached binding with ConflictResolution": one referencing binding with
// Overwrite among default ones gives Overwrite, and PreserveResourcesOnDeletion false (none preserves).
test('one Overwrite parent among default ones attaches with Overwrite, and nothing preserved', async () => {
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parent(['member1'])],
    [API, parent(['member2'], { overwrite: true })],
    [SETTINGS, { file: 'templates/settings.yaml', clusters: [] }],
  ]);
  const b = (await distributeDependencies(unclaimed, changes, noPrevious)).get(SETTINGS)!.binding;
  assert.is(b.spec.conflictResolution, 'Overwrite');
  assert.is(b.spec.preserveResourcesOnDeletion, false);
});

// Test_createOrUpdateAttachedBinding "update attached binding": parents with the default strategy give the attached
// binding ConflictResolution Abort and PreserveResourcesOnDeletion new(false), both written out.
test('an attached binding of default parents writes conflictResolution Abort and preserveResourcesOnDeletion false', () => {
  const b = attached();
  assert.is(b.spec.conflictResolution, 'Abort');
  assert.is(b.spec.preserveResourcesOnDeletion, false);
  const text = String(rendered.edits.get('bindings/default/settings-configmap.yaml'));
  assert.match(text, /\n {2}conflictResolution: Abort\n/);
  assert.match(text, /\n {2}preserveResourcesOnDeletion: false\n/);
});

// Test_handleIndependentBindingDeletion, Test_removeScheduleResultFromAttachedBindings, Test_deleteBindingFromSnapshot
// "delete matching binding from snapshot": the deleted parent's snapshot leaves requiredBy, the others stay, and the
// strategy is recomputed from the remaining parents (removeScheduleResultFromAttachedBindings).
test('a deleted parent leaves requiredBy; the remaining parents decide the conflict resolution again', async () => {
  const previous = viewOfWhole({
    files: {},
    templates: {
      [WEB]: parent(['member1'], { overwrite: true, preserve: true }),
      [API]: parent(['member2']),
    },
  });
  const changes = new Map<string, IndexEntry | null>([
    [WEB, null],
    [SETTINGS, { file: 'templates/settings.yaml', clusters: [] }],
  ]);
  const a = (await distributeDependencies(unclaimed, changes, previous)).get(SETTINGS)!;
  assert.equal(a.requiredBy, [API]);
  assert.equal(
    a.binding.spec.requiredBy?.map((r) => r.name),
    ['api-deployment'],
  );
  assert.equal(
    a.clusters.map((c) => c.name),
    ['member2'],
  );
  assert.is(a.binding.spec.conflictResolution, 'Abort');
  assert.is(a.binding.spec.preserveResourcesOnDeletion, false);
});

// createOrUpdateAttachedBinding: only a binding with no placement (made by the distributor) takes the parents'
// strategy; a dependency claimed by its own policy keeps its own and only gains requiredBy.
test('a dependency claimed by its own policy keeps its own conflict resolution and preservation', async () => {
  const own: ResourceBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'settings-configmap', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' },
      placement: { clusterAffinity: { clusterNames: ['member2'] } },
      clusters: [{ name: 'member2', replicas: 0 }],
      conflictResolution: 'Abort',
    },
  };
  const placed = new Map<string, PlacedDependency>([
    [SETTINGS, { template: settings, clusters: [{ name: 'member2', replicas: 0 }], binding: own }],
  ]);
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parent(['member1'], { overwrite: true, preserve: true })],
    [SETTINGS, { file: 'templates/settings.yaml', clusters: ['member2'] }],
  ]);
  const b = (await distributeDependencies(placed, changes, noPrevious)).get(SETTINGS)!.binding;
  assert.is(b.spec.conflictResolution, 'Abort');
  assert.is(b.spec.preserveResourcesOnDeletion, undefined);
  assert.equal(
    b.spec.requiredBy?.map((r) => r.name),
    ['web-deployment'],
  );
});

// buildAttachedBinding snapshots independentBinding.Spec.Clusters, which a graceful eviction has already left: the
// evicted cluster is in the parent's gracefulEvictionTasks only, so it is not in the snapshot, and the attached
// binding's Work there is an orphan (ObtainBindingSpecExistingClusters counts requiredBy, not the parent's tasks).
test("a parent's cluster under graceful eviction is not in its dependencies' requiredBy snapshot, but the dependency stays there", async () => {
  const changes = new Map<string, IndexEntry | null>([
    [WEB, parent(['member1', 'member2'], { evicting: ['member2'] })],
    [SETTINGS, { file: 'templates/settings.yaml', clusters: [] }],
  ]);
  const a = (await distributeDependencies(unclaimed, changes, noPrevious)).get(SETTINGS)!;
  assert.equal(
    a.binding.spec.requiredBy?.[0]?.clusters?.map((c) => c.name),
    ['member1'],
  );
  // Flotilla keeps the dependency where the parent's evicted copy still runs, until the eviction ends (README,
  // Karmada semantics and differences); Karmada's binding controller removes it there at once.
  assert.equal(
    a.clusters.map((c) => c.name),
    ['member1', 'member2'],
  );
});

// buildAttachedBinding snapshots independentBinding.Spec.Clusters, the parent's own scheduling result: a parent that
// is itself a dependency of another workload (a Deployment a custom kind's GetDependencies names, claimed by its
// own propagateDeps policy) runs where its parent's snapshot takes it, but its ConfigMap follows only its own result.
test('a parent that is itself a dependency passes on its own result, not the clusters its parents add to it', async () => {
  const top = templateOf(
    { apiVersion: 'example.io/v1', kind: 'Foo', metadata: { name: 'top', namespace: 'default' }, spec: { dep: 'mid' } },
    'templates/top.yaml',
  );
  const mid = deployment('mid', 2, {
    template: {
      spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: 'settings' } }] }] },
    },
  });
  // Flotilla's declarative form of a GetDependencies hook, so no Lua runtime is needed.
  const fooDependencies: Located<InterpreterCustomization> = {
    object: {
      apiVersion: 'flotilla.io/v1alpha1',
      kind: 'InterpreterCustomization',
      metadata: { name: 'foo' },
      spec: {
        target: { apiVersion: 'example.io/v1', kind: 'Foo' },
        customizations: {
          dependencyInterpretation: {
            dependencies: [{ apiVersion: 'apps/v1', kind: 'Deployment', namePath: 'spec.dep' }],
          },
        },
      },
    },
    source: { file: 'policies/foo.yaml', line: 1, column: 1 },
  };
  const only = (name: string, kind: string, apiVersion: string, cluster: string) =>
    propagationPolicy(name, {
      resourceSelectors: [{ apiVersion, kind, name }],
      propagateDeps: true,
      placement: { clusterAffinity: { clusterNames: [cluster] } },
    });
  const chain = modelOf({
    templates: [top, mid, settings],
    policies: [only('top', 'Foo', 'example.io/v1', 'member1'), only('mid', 'Deployment', 'apps/v1', 'member2')],
    clusters: [memberCluster('member1'), memberCluster('member2')],
  });
  chain.interpreterCustomizations = [fooDependencies];
  const out = await renderTemplates(coldRenderInput(chain));
  assert.equal(out.problems, []);
  const read = (path: string) => parse(String(out.edits.get(path))) as ResourceBinding;
  assert.equal(
    read('bindings/default/mid-deployment.yaml').spec.requiredBy?.map((r) => r.name),
    ['top-foo'],
  );
  assert.ok(out.edits.get('clusters/member1/default/deployment.apps_mid.yaml'), "mid follows top's snapshot");
  assert.equal(read('bindings/default/settings-configmap.yaml').spec.requiredBy, [
    { namespace: 'default', name: 'mid-deployment', clusters: [{ name: 'member2', replicas: 2 }] },
  ]);
  assert.ok(out.edits.get('clusters/member2/default/configmap_settings.yaml'));
  assert.is(out.edits.get('clusters/member1/default/configmap_settings.yaml'), undefined);
  // A later render that leaves mid alone reads its own result from the index.
  assert.equal(out.indexChanges.get(refKey(mid.ref))?.own, ['member2']);
  const later = (
    await distributeDependencies(
      new Map<string, PlacedDependency>([[SETTINGS, { template: settings, clusters: [] }]]),
      new Map<string, IndexEntry | null>([[SETTINGS, { file: 'templates/settings.yaml', clusters: [] }]]),
      viewOfWhole({ files: {}, templates: { [refKey(mid.ref)]: out.indexChanges.get(refKey(mid.ref))! } }),
    )
  ).get(SETTINGS)!;
  assert.equal(
    later.clusters.map((c) => c.name),
    ['member2'],
  );
  assert.equal(later.binding.spec.requiredBy?.[0]?.clusters, [{ name: 'member2', replicas: 2 }]);
});

// Karmada's dependencies distributor reconciles ResourceBindings only (SetupWithManager: For(&ResourceBinding{})): a
// cluster-scoped template's ClusterResourceBinding says propagateDeps as its ClusterPropagationPolicy does, yet nothing
// reads its dependencies, so none is attached or propagated, and it records none.
test('a ClusterResourceBinding with propagateDeps drags no dependencies along', async () => {
  const gate = templateOf(
    { apiVersion: 'example.io/v1', kind: 'Gate', metadata: { name: 'edge' }, spec: { role: 'reader' } },
    'templates/gate.yaml',
    true,
  );
  const reader = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] },
    'templates/reader.yaml',
    true,
  );
  // Flotilla's declarative form of a GetDependencies hook, so no Lua runtime is needed.
  const gateDependencies: Located<InterpreterCustomization> = {
    object: {
      apiVersion: 'flotilla.io/v1alpha1',
      kind: 'InterpreterCustomization',
      metadata: { name: 'gate' },
      spec: {
        target: { apiVersion: 'example.io/v1', kind: 'Gate' },
        customizations: {
          dependencyInterpretation: {
            dependencies: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', namePath: 'spec.role' }],
          },
        },
      },
    },
    source: { file: 'policies/gate.yaml', line: 1, column: 1 },
  };
  const cpp = propagationPolicy('gate', {
    resourceSelectors: [{ apiVersion: 'example.io/v1', kind: 'Gate' }],
    propagateDeps: true,
    placement: { clusterAffinity: { clusterNames: ['member1'] } },
  });
  cpp.object = { ...cpp.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'gate' } };
  const m = modelOf({ templates: [gate, reader], policies: [cpp], clusters: [memberCluster('member1')] });
  m.interpreterCustomizations = [gateDependencies];
  const out = await renderTemplates(coldRenderInput(m));
  const crb = parse(String(out.edits.get('bindings/_cluster/edge-gate.yaml'))) as ResourceBinding;
  assert.is(crb.kind, 'ClusterResourceBinding');
  assert.is(crb.spec.propagateDeps, true);
  assert.is(crb.metadata.annotations?.['resourcebinding.karmada.io/dependencies'], undefined);
  assert.ok(out.edits.get('clusters/member1/_cluster/gate.example.io_edge.yaml'));
  assert.is(out.edits.get('bindings/_cluster/reader-clusterrole.yaml'), undefined, 'no binding is attached');
  assert.is(out.edits.get('clusters/member1/_cluster/clusterrole.rbac.authorization.k8s.io_reader.yaml'), undefined);
  assert.is(out.indexChanges.get(refKey(gate.ref))?.deps, undefined);
});

test.run();
