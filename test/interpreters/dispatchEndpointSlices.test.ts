import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClusterStatus } from '../../src/api/cluster.ts';
import type { MultiClusterService } from '../../src/api/multiClusterService.ts';
import type { ExportedService } from '../../src/branches/status/exportedEndpoints.ts';
import {
  activeProviders,
  dispatchEndpointSlices,
  serviceClusters,
  servicesProvidedBy,
  skippedProviderNotes,
  unknownClusters,
} from '../../src/interpreters/dispatchEndpointSlices.ts';
import { workName } from '../../src/names/workName.ts';

const mcs = (
  providers: string[],
  consumers: string[],
  types: MultiClusterService['spec']['types'] = ['CrossCluster'],
) =>
  ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      types,
      providerClusters: providers.map((name) => ({ name })),
      consumerClusters: consumers.map((name) => ({ name })),
    },
  }) as MultiClusterService;
const ready: ClusterStatus = { conditions: [{ type: 'Ready', status: 'True' }] };
const three = new Map<string, ClusterStatus | undefined>([
  ['member1', ready],
  ['member2', ready],
  ['member3', undefined],
]);
const slice = (name: string, ip: string) => ({
  name,
  addressType: 'IPv4',
  endpoints: [{ addresses: [ip], conditions: { ready: true } }],
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
});
const exported = new Map<string, ExportedService[]>([
  ['member1', [{ namespace: 'shop', name: 'web', endpointSlices: [slice('web-a1', '10.1.0.5')] }]],
  ['member2', [{ namespace: 'shop', name: 'web', endpointSlices: [slice('web-b2', '10.2.0.5')] }]],
  ['member3', [{ namespace: 'shop', name: 'web', endpointSlices: [slice('web-c3', '10.3.0.5')] }]],
]);
const names = (consumer: string, m: MultiClusterService, registered = three) =>
  dispatchEndpointSlices(consumer, [{ path: 'p', mcs: m }], registered, exported).map(
    (d) => (d.manifest.metadata as { name: string }).name,
  );

test("a consumer gets each provider's slices as <provider>-<slice>, labelled and annotated as Karmada's dispatch controller's Work holds them", () => {
  const [out] = dispatchEndpointSlices('member2', [{ path: 'p', mcs: mcs(['member1'], ['member2']) }], three, exported);
  const { 'work.karmada.io/permanent-id': id, ...labels } = (
    out!.manifest.metadata as { labels: Record<string, string> }
  ).labels;
  assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-5/, "the Work webhook's permanent id");
  // endpointslice_dispatch_controller_test.go TestEnsureEndpointSliceWork: ensureEndpointSliceWork's labels and
  // annotations, then CreateOrUpdateWork's (the Work is the provider's collected one's name, in the consumer's space).
  assert.equal(labels, {
    'kubernetes.io/service-name': 'web',
    'endpointslice.kubernetes.io/managed-by': 'endpointslice-dispatch-controller.karmada.io',
    'karmada.io/managed': 'true',
  });
  assert.equal(out!.manifest, {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'member1-web-a1',
      namespace: 'shop',
      labels: { ...labels, 'work.karmada.io/permanent-id': id },
      annotations: {
        'endpointslice.karmada.io/provision-cluster': 'member1',
        'resourcetemplate.karmada.io/uid': '',
        'work.karmada.io/name': workName('EndpointSlice', 'web-a1', 'shop'),
        'work.karmada.io/namespace': 'karmada-es-member2',
        'resourcetemplate.karmada.io/managed-annotations':
          'endpointslice.karmada.io/provision-cluster,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,resourcetemplate.karmada.io/uid,work.karmada.io/name,work.karmada.io/namespace',
        'resourcetemplate.karmada.io/managed-labels':
          'endpointslice.kubernetes.io/managed-by,karmada.io/managed,kubernetes.io/service-name,work.karmada.io/permanent-id',
      },
    },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.0.5'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  });
  assert.is(out!.path, 'endpoints/member1.yaml#shop/member1-web-a1');
  assert.equal(names('member1', mcs(['member1'], ['member2'])), [], 'a provider that does not consume gets nothing');
});

test('a provider that also consumes never gets its own slices back ([m1,m2]/[m2])', () => {
  assert.equal(names('member2', mcs(['member1', 'member2'], ['member2'])), ['member1-web-a1']);
});

test('empty providers mean every registered cluster, empty consumers too', () => {
  assert.equal(names('member2', mcs([], ['member2'])), ['member1-web-a1', 'member3-web-c3']);
  assert.equal(names('member3', mcs(['member1'], [])), ['member1-web-a1']);
  assert.equal(names('member2', mcs(['member1'], [])), ['member1-web-a1']);
  assert.equal(names('member1', mcs([], [])), ['member2-web-b2', 'member3-web-c3']);
  assert.equal(serviceClusters(mcs(['member1'], ['member2']), three.keys()), ['member1', 'member2']);
  assert.equal(serviceClusters(mcs(['member1'], []), three.keys()), ['member1', 'member2', 'member3']);
});

test('a provider that is not Ready or lacks the EndpointSlice API is skipped, and an unknown one is reported', () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['member1', { conditions: [{ type: 'Ready', status: 'False' }] }],
    [
      'member2',
      {
        apiEnablements: [{ groupVersion: 'v1', resources: [{ name: 'services', kind: 'Service' }] }],
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'CompleteAPIEnablements', status: 'True' },
        ],
      },
    ],
    ['member3', ready],
  ]);
  const m = mcs(['member1', 'member2', 'member-not-found'], ['member3']);
  assert.equal(activeProviders(m, registered), []);
  assert.equal(names('member3', m, registered), []);
  assert.equal(unknownClusters(m, new Set(registered.keys())), [
    { field: 'providerClusters', index: 2, name: 'member-not-found' },
  ]);
  assert.equal(skippedProviderNotes('member3', m, registered), [
    'MultiClusterService shop/web: provider member1 is not Ready (Ready=False): its EndpointSlices are not dispatched',
    'MultiClusterService shop/web: provider member2 does not serve discovery.k8s.io/v1 EndpointSlice: its EndpointSlices are not dispatched',
  ]);
  assert.equal(skippedProviderNotes('member1', m, registered), [], 'member1 does not consume');
  assert.equal(skippedProviderNotes('member2', mcs(['member3'], ['member2']), registered), [
    'MultiClusterService shop/web: consumer member2 does not serve discovery.k8s.io/v1 EndpointSlice: no EndpointSlice dispatched to it',
  ]);
  // A consumer that cannot serve EndpointSlices gets none either.
  assert.equal(names('member2', mcs(['member3'], ['member2']), registered), []);
  // The unknown name still joins the Service's placement, as in Karmada (the scheduler keeps registered clusters only).
  assert.equal(serviceClusters(m, registered.keys()), ['member-not-found', 'member1', 'member2', 'member3']);
});

test('only CrossCluster services dispatch and collect; a provider collects the Services it provides', () => {
  assert.equal(names('member2', mcs(['member1'], ['member2'], ['LoadBalancer'])), []);
  assert.equal(servicesProvidedBy('member1', [mcs(['member1'], ['member2'])], three), [
    { namespace: 'shop', name: 'web' },
  ]);
  assert.equal(servicesProvidedBy('member2', [mcs(['member1'], ['member2'])], three), []);
});

test.run();
