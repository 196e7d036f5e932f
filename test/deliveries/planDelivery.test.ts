import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyBody, isManaged, isSubset, planDelivery, storedForm } from '../../src/deliveries/planDelivery.ts';

const obj = (
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
  annotations?: Record<string, string>,
) => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}), ...(annotations ? { annotations } : {}) },
});

test('planDelivery puts Namespaces and CRDs in their own phases ahead of everything else', () => {
  const plan = planDelivery({
    manifests: new Map<string, unknown>([
      ['c/demo/deployment.apps_web.yaml', obj('apps/v1', 'Deployment', 'web', 'demo')],
      ['c/_cluster/namespace_demo.yaml', obj('v1', 'Namespace', 'demo')],
      [
        'c/_cluster/customresourcedefinition.apiextensions.k8s.io_w.yaml',
        obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
      ],
    ]),
    inventory: [],
    prune: true,
  });
  assert.equal(
    plan.namespaces.map((o) => o.ref.name),
    ['demo'],
  );
  assert.equal(
    plan.crds.map((o) => o.ref.name),
    ['widgets.example.com'],
  );
  assert.equal(
    plan.rest.map((o) => o.ref.name),
    ['web'],
  );
});

test('conflict resolution comes from the annotation, else the default, else abort', () => {
  const manifests = new Map<string, unknown>([
    ['a', obj('v1', 'ConfigMap', 'a', 'd', { 'work.karmada.io/conflict-resolution': 'overwrite' })],
    ['b', obj('v1', 'ConfigMap', 'b', 'd')],
  ]);
  assert.equal(
    planDelivery({ manifests, inventory: [], prune: true }).rest.map((o) => o.conflictResolution),
    ['overwrite', 'abort'],
  );
  assert.equal(
    planDelivery({ manifests, inventory: [], prune: true, defaultConflictResolution: 'overwrite' }).rest.map(
      (o) => o.conflictResolution,
    ),
    ['overwrite', 'overwrite'],
  );
});

test('prune lists inventory entries the folder lost, contents before Namespaces and CRDs', () => {
  const plan = planDelivery({
    manifests: new Map<string, unknown>([['a', obj('v1', 'ConfigMap', 'kept', 'd')]]),
    inventory: [
      { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'd2' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'kept' },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', namespace: '', name: 'x.example.com' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'gone' },
    ],
    prune: true,
  });
  assert.equal(
    plan.prune.map((r) => r.name),
    ['gone', 'x.example.com', 'd2'],
  );
});

test('an apiVersion change is the same object, not a removal', () => {
  const plan = planDelivery({
    manifests: new Map<string, unknown>([['a', obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'h', 'd')]]),
    inventory: [{ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', namespace: 'd', name: 'h' }],
    prune: true,
  });
  assert.equal(plan.prune, []);
});

test('prune: false plans no deletion at all', () => {
  const plan = planDelivery({
    manifests: new Map(),
    inventory: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'x' }],
    prune: false,
  });
  assert.equal(plan.prune, []);
});

test('a manifest without kind or name is reported failed, not sent', () => {
  const plan = planDelivery({
    manifests: new Map<string, unknown>([
      ['bad.yaml', { apiVersion: 'v1', metadata: {} }],
      ['null.yaml', null],
    ]),
    inventory: [],
    prune: true,
  });
  assert.equal(
    plan.invalid.map((r) => [r.path, r.action]),
    [
      ['bad.yaml', 'failed'],
      ['null.yaml', 'failed'],
    ],
  );
});

test('isSubset: the live object may add fields, never differ on ours', () => {
  const desired = { metadata: { name: 'a', labels: { x: '1' } }, spec: { replicas: 2, ports: [{ port: 80 }] } };
  const live = {
    metadata: { name: 'a', uid: 'u', labels: { x: '1', y: '2' } },
    spec: { replicas: 2, ports: [{ port: 80, protocol: 'TCP' }], extra: true },
    status: {},
  };
  assert.ok(isSubset(desired, live));
  assert.not.ok(isSubset({ ...desired, spec: { replicas: 3 } }, live));
  assert.not.ok(isSubset({ spec: { ports: [{ port: 80 }, { port: 81 }] } }, live), 'list length differs');
  assert.not.ok(isSubset({ metadata: { labels: { z: '1' } } }, live), 'missing label');
  assert.ok(isSubset({ spec: { gone: null } }, live), 'null means unset');
});

test('isSubset: a quantity the API server wrote in canonical form, or a null it wrote back as {}, is no difference', () => {
  const live = { resources: { limits: { cpu: '2', memory: '4Gi' }, requests: { cpu: '500m' } }, probe: {} };
  assert.ok(isSubset({ resources: { limits: { cpu: '2000m', memory: '4096Mi' }, requests: { cpu: 0.5 } } }, live));
  assert.ok(isSubset({ probe: null }, live));
  assert.not.ok(isSubset({ resources: { limits: { cpu: '2001m' } } }, live));
  assert.not.ok(isSubset({ resources: null }, live), 'a struct with fields set is not unset');
  assert.not.ok(isSubset({ image: 'nginx:1.27' }, { image: 'nginx:1.270' }), 'only quantities compare by value');
});

test("isSubset: an omitempty field at its zero is absent from the member's copy, not changed; set otherwise there, it differs", () => {
  const body = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', annotations: {} },
    spec: {
      paused: false,
      minReadySeconds: 0,
      replicas: 0,
      template: { spec: { hostNetwork: false, containers: [{ name: 'web', args: [] }] } },
    },
  };
  const stored = storedForm(body);
  const live = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 0, template: { spec: { containers: [{ name: 'web' }] } } },
  };
  assert.ok(isSubset(body, live, stored));
  assert.not.ok(isSubset(body, live), 'without the stored form every zero looks missing');
  assert.not.ok(isSubset(body, { ...live, spec: { ...live.spec, paused: true } }, stored), 'paused by someone else');
  // replicas is a pointer: 0 is written back, so a member without it differs.
  assert.not.ok(isSubset(body, { ...live, spec: { template: live.spec.template } }, stored));
  // A PriorityClass's globalDefault: false, as longhorn's chart writes it.
  const pc = {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'c' },
    value: 10,
    globalDefault: false,
  };
  const { globalDefault: _, ...livePc } = pc;
  assert.ok(isSubset(pc, livePc, storedForm(pc)));
  assert.not.ok(isSubset(pc, livePc));
});

test('isManaged needs karmada.io/managed=true exactly', () => {
  assert.ok(isManaged({ metadata: { labels: { 'karmada.io/managed': 'true' } } }));
  assert.not.ok(isManaged({ metadata: { labels: { 'karmada.io/managed': 'false' } } }));
  assert.not.ok(isManaged({ metadata: {} }));
});

test('applyBody drops status and server-owned metadata', () => {
  const body = applyBody({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'a', uid: 'u', resourceVersion: '3', managedFields: [] },
    status: { x: 1 },
    data: { k: 'v' },
  });
  assert.equal(body, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
});

test.run();
