import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deriveImportedServices, isManagedByKarmada } from '../../src/interpreters/deriveImportedServices.ts';
import type { ExportedService } from '../../src/branches/status/exportedEndpoints.ts';
import { permanentId } from '../../src/names/bindingName.ts';
import { workName } from '../../src/names/workName.ts';

const serviceImport = (
  name: string,
  spec: Record<string, unknown> = { type: 'ClusterSetIP', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
) => ({
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceImport',
  metadata: { name, namespace: 'shop' },
  spec,
});
const slice = (name: string, ip: string) => ({
  name,
  addressType: 'IPv4',
  endpoints: [{ addresses: [ip], conditions: { ready: true } }],
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
});
const exported = new Map<string, ExportedService[]>([
  ['member1', [{ namespace: 'shop', name: 'web', endpointSlices: [slice('web-abc12', '10.1.0.5')] }]],
  [
    'member3',
    [
      { namespace: 'shop', name: 'web', endpointSlices: [slice('web-zz', '10.3.0.7')] },
      { namespace: 'other', name: 'web', endpointSlices: [slice('web-q', '10.3.0.9')] },
    ],
  ],
]);

/** The derived Service's metadata on member2, as its attached binding's Work gives it. */
const serviceMetadata = (conflictResolution: string) => ({
  labels: {
    'resourcebinding.karmada.io/permanent-id': permanentId('binding/v1/Service/shop/derived-web'),
    'karmada.io/managed': 'true',
    'work.karmada.io/permanent-id': permanentId('work/member2/v1/Service/shop/derived-web'),
  },
  annotations: {
    'resourcebinding.karmada.io/namespace': 'shop',
    'resourcebinding.karmada.io/name': 'derived-web-service',
    'work.karmada.io/name': workName('Service', 'derived-web', 'shop'),
    'work.karmada.io/namespace': 'karmada-es-member2',
    'work.karmada.io/conflict-resolution': conflictResolution,
    'resourcetemplate.karmada.io/managed-annotations':
      'resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace',
    'resourcetemplate.karmada.io/managed-labels':
      'karmada.io/managed,resourcebinding.karmada.io/permanent-id,work.karmada.io/permanent-id',
  },
});

test('a ServiceImport gets the ClusterIP Service derived-<name> with the import ports', () => {
  const out = deriveImportedServices(
    'member2',
    new Map([['clusters/member2/shop/ServiceImport.multicluster.x-k8s.io_web.yaml', serviceImport('web')]]),
    new Map(),
  );
  assert.equal(
    out.map((o) => o.manifest),
    [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'derived-web', namespace: 'shop', ...serviceMetadata('abort') },
        spec: { type: 'ClusterIP', ports: [{ name: 'http', protocol: 'TCP', port: 80 }] },
      },
    ],
  );
});

test("each exporting cluster's slices of the same namespace and name become imported-<cluster>-<slice>, labelled for the derived Service", () => {
  const out = deriveImportedServices('member2', new Map([['p', serviceImport('web')]]), exported);
  const slices = out.filter((o) => o.manifest.kind === 'EndpointSlice').map((o) => o.manifest);
  assert.equal(
    slices.map((s) => (s.metadata as { name: string }).name),
    ['imported-member1-web-abc12', 'imported-member3-web-zz'],
  );
  assert.equal(slices[0], {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'imported-member1-web-abc12',
      namespace: 'shop',
      labels: {
        'kubernetes.io/service-name': 'derived-web',
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.karmada.io',
        'resourcebinding.karmada.io/permanent-id': permanentId(
          'binding/discovery.k8s.io/v1/EndpointSlice/shop/imported-member1-web-abc12',
        ),
        'karmada.io/managed': 'true',
        'work.karmada.io/permanent-id': permanentId(
          'work/member2/discovery.k8s.io/v1/EndpointSlice/shop/imported-member1-web-abc12',
        ),
      },
      annotations: {
        'resourcebinding.karmada.io/namespace': 'shop',
        'resourcebinding.karmada.io/name': 'imported-member1-web-abc12-endpointslice',
        'work.karmada.io/name': workName('EndpointSlice', 'imported-member1-web-abc12', 'shop'),
        'work.karmada.io/namespace': 'karmada-es-member2',
        'work.karmada.io/conflict-resolution': 'abort',
        'resourcetemplate.karmada.io/managed-annotations':
          'resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace',
        'resourcetemplate.karmada.io/managed-labels':
          'endpointslice.kubernetes.io/managed-by,karmada.io/managed,kubernetes.io/service-name,resourcebinding.karmada.io/permanent-id,work.karmada.io/permanent-id',
      },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.0.5'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  });
  assert.equal(
    out.filter((o) => o.manifest.kind === 'EndpointSlice').map((o) => o.path),
    ['endpoints/member1.yaml#shop/imported-member1-web-abc12', 'endpoints/member3.yaml#shop/imported-member3-web-zz'],
  );
});

test("the derived Service and imported slices take the conflict resolution of the ServiceImport's binding, as their attached bindings copy it", () => {
  const path = 'clusters/member2/shop/ServiceImport.multicluster.x-k8s.io_web.yaml';
  const out = deriveImportedServices(
    'member2',
    new Map([[path, serviceImport('web')]]),
    exported,
    new Map([[path, { conflictResolution: 'Overwrite' }]]),
  );
  assert.equal(out[0]!.manifest.metadata, { name: 'derived-web', namespace: 'shop', ...serviceMetadata('overwrite') });
  assert.equal(
    out.map(
      (o) =>
        (o.manifest.metadata as { annotations: Record<string, string> }).annotations[
          'work.karmada.io/conflict-resolution'
        ],
    ),
    ['overwrite', 'overwrite', 'overwrite'],
  );
});

test('a Headless ServiceImport, or one with no type, gets the slices but no derived Service, as the service-import controller skips it', () => {
  for (const spec of [{ type: 'Headless' }, { ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }]) {
    const out = deriveImportedServices('member2', new Map([['p', serviceImport('web', spec)]]), exported);
    assert.equal(
      out.map((o) => o.manifest.kind),
      ['EndpointSlice', 'EndpointSlice'],
      JSON.stringify(spec),
    );
  }
});

test('no ServiceImport in the folder derives nothing, whatever is exported', () => {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' } };
  assert.equal(deriveImportedServices('member2', new Map([['p', svc]]), exported), []);
});

test("slices written by Karmada-style controllers are recognised by their managed-by label, the native controller's are not", () => {
  assert.ok(isManagedByKarmada({ 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.karmada.io' }));
  assert.ok(
    isManagedByKarmada({ 'endpointslice.kubernetes.io/managed-by': 'endpointslice-dispatch-controller.karmada.io' }),
  );
  assert.not.ok(isManagedByKarmada({ 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' }));
  assert.not.ok(isManagedByKarmada(undefined));
});

test.run();
