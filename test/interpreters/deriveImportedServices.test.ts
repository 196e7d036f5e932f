import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deriveImportedServices, isManagedByKarmada } from '../../src/interpreters/deriveImportedServices.ts';
import type { ExportedService } from '../../src/branches/status/exportedEndpoints.ts';

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

test('a ServiceImport gets the ClusterIP Service derived-<name> with the import ports', () => {
  const out = deriveImportedServices(
    new Map([['clusters/member2/shop/ServiceImport.multicluster.x-k8s.io_web.yaml', serviceImport('web')]]),
    new Map(),
  );
  assert.equal(
    out.map((o) => o.manifest),
    [
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'derived-web', namespace: 'shop', labels: { 'karmada.io/managed': 'true' } },
        spec: { type: 'ClusterIP', ports: [{ name: 'http', protocol: 'TCP', port: 80 }] },
      },
    ],
  );
});

test("each exporting cluster's slices of the same namespace and name become imported-<cluster>-<slice>, labelled for the derived Service", () => {
  const out = deriveImportedServices(new Map([['p', serviceImport('web')]]), exported);
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
        'karmada.io/managed': 'true',
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

test('a Headless ServiceImport, or one with no type, gets the slices but no derived Service, as the service-import controller skips it', () => {
  for (const spec of [{ type: 'Headless' }, { ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }]) {
    const out = deriveImportedServices(new Map([['p', serviceImport('web', spec)]]), exported);
    assert.equal(
      out.map((o) => o.manifest.kind),
      ['EndpointSlice', 'EndpointSlice'],
      JSON.stringify(spec),
    );
  }
});

test('no ServiceImport in the folder derives nothing, whatever is exported', () => {
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' } };
  assert.equal(deriveImportedServices(new Map([['p', svc]]), exported), []);
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
