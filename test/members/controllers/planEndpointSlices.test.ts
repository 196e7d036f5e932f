import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { desiredEndpoints, planEndpointSlices } from '../../../src/members/controllers/planEndpointSlices.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const service = (extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', labels: { tier: 'front' } },
  spec: {
    selector: { app: 'web' },
    clusterIP: '10.96.0.20',
    ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    ...extra,
  },
});

const pod = (
  name: string,
  ip: string | undefined,
  options: { ready?: boolean; deleting?: boolean; port?: number; app?: string } = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    uid: `uid-${name}`,
    labels: { app: options.app ?? 'web' },
    ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: {
    nodeName: 'node-1',
    containers: [{ name: 'c', ports: [{ name: 'http', containerPort: options.port ?? 8080, protocol: 'TCP' }] }],
  },
  status: {
    phase: 'Running',
    ...(ip ? { podIP: ip } : {}),
    conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
  },
});

test('endpoints resolve a named targetPort per pod and carry ready/serving/terminating, nodeName and targetRef', () => {
  const svc = service();
  const desired = desiredEndpoints(svc, [
    pod('a', '10.1.0.2'),
    pod('b', '10.1.0.3', { ready: false }),
    pod('c', '10.1.0.4', { deleting: true }),
    pod('d', undefined),
    pod('e', '10.1.0.6', { app: 'other' }),
  ]);
  assert.equal(
    desired.map((d) => d.endpoint.addresses[0]),
    ['10.1.0.2', '10.1.0.3', '10.1.0.4'],
  );
  assert.equal(desired[0]!.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
  assert.equal(desired[0]!.endpoint, {
    addresses: ['10.1.0.2'],
    conditions: { ready: true, serving: true, terminating: false },
    targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' },
    nodeName: 'node-1',
  });
  assert.equal(desired[1]!.endpoint.conditions, { ready: false, serving: false, terminating: false });
  assert.equal(desired[2]!.endpoint.conditions, { ready: false, serving: true, terminating: true });
  const published = desiredEndpoints(service({ publishNotReadyAddresses: true }), [
    pod('b', '10.1.0.3', { ready: false }),
  ]);
  assert.equal(published[0]!.endpoint.conditions, { ready: true, serving: true, terminating: false });
});

test('a new slice is named from generateName, labelled for the service and its controller, and owned by the service', () => {
  const svc = service();
  const plan = planEndpointSlices(svc, desiredEndpoints(svc, [pod('a', '10.1.0.2')]), []);
  assert.is(plan.create.length, 1);
  const slice = plan.create[0]!;
  assert.is(slice.metadata.generateName, 'web-');
  assert.equal(slice.metadata.labels, {
    tier: 'front',
    'kubernetes.io/service-name': 'web',
    'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
  });
  assert.equal(slice.metadata.ownerReferences, [
    { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
  ]);
  assert.is(slice.addressType, 'IPv4');
});

test('more than 100 endpoints split into slices of at most 100', () => {
  const svc = service();
  const pods = Array.from({ length: 250 }, (_, i) =>
    pod(`p${String(i).padStart(3, '0')}`, `10.1.${Math.floor(i / 200)}.${(i % 200) + 2}`),
  );
  const plan = planEndpointSlices(svc, desiredEndpoints(svc, pods), []);
  assert.equal(
    plan.create.map((s) => s.endpoints.length),
    [100, 100, 50],
  );
});

test('pods whose named port resolves differently land in separate slices', () => {
  const svc = service();
  const plan = planEndpointSlices(
    svc,
    desiredEndpoints(svc, [pod('a', '10.1.0.2', { port: 8080 }), pod('b', '10.1.0.3', { port: 9090 })]),
    [],
  );
  assert.equal(
    plan.create.map((s) => [s.ports[0].port, s.endpoints[0].addresses[0]]),
    [
      [8080, '10.1.0.2'],
      [9090, '10.1.0.3'],
    ],
  );
});

test('an existing slice is updated in place: gone pods leave, new ones fill its room, unchanged slices are not written', () => {
  const svc = service();
  const first = planEndpointSlices(svc, desiredEndpoints(svc, [pod('a', '10.1.0.2'), pod('b', '10.1.0.3')]), [])
    .create[0]!;
  const existing = { ...first, metadata: { ...first.metadata, name: 'web-abcde' } };
  const same = planEndpointSlices(svc, desiredEndpoints(svc, [pod('a', '10.1.0.2'), pod('b', '10.1.0.3')]), [existing]);
  assert.equal(same, { create: [], update: [], delete: [] });
  const next = planEndpointSlices(svc, desiredEndpoints(svc, [pod('b', '10.1.0.3'), pod('c', '10.1.0.4')]), [existing]);
  assert.is(next.create.length, 0);
  assert.is(next.update.length, 1);
  assert.is(next.update[0]!.metadata.name, 'web-abcde');
  assert.equal(
    next.update[0]!.endpoints.map((e: any) => e.addresses[0]),
    ['10.1.0.3', '10.1.0.4'],
  );
});

test('no endpoints leaves one placeholder slice with no ports or endpoints; endpoints replace it', () => {
  const svc = service();
  const empty = planEndpointSlices(svc, [], []);
  assert.is(empty.create.length, 1);
  assert.equal([empty.create[0]!.ports, empty.create[0]!.endpoints], [[], []]);
  const placeholder = { ...empty.create[0]!, metadata: { ...empty.create[0]!.metadata, name: 'web-zzzzz' } };
  assert.equal(planEndpointSlices(svc, [], [placeholder]), { create: [], update: [], delete: [] });
  const filled = planEndpointSlices(svc, desiredEndpoints(svc, [pod('a', '10.1.0.2')]), [placeholder]);
  assert.is(filled.create.length, 1);
  assert.equal(
    filled.delete.map((s) => s.metadata.name),
    ['web-zzzzz'],
  );
});

test.run();
