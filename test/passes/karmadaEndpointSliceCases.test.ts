// A CrossCluster MultiClusterService as Karmada's multiclusterservice, endpointslice collect and endpointslice dispatch
// controllers run it (cases after pkg/controllers/multiclusterservice/mcs_controller_test.go,
// endpointslice_collect_controller_test.go and endpointslice_dispatch_controller_test.go): which providers collect,
// which consumers get which slices, the Service's binding and the EndpointSliceDispatched condition.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterStatus } from '../../src/api/cluster.ts';
import type { MultiClusterService } from '../../src/api/multiClusterService.ts';
import type { ExportedService } from '../../src/branches/status/exportedEndpoints.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import {
  activeProviders,
  dispatchEndpointSlices,
  servicesProvidedBy,
} from '../../src/interpreters/dispatchEndpointSlices.ts';
import { renderSnapshot } from '../../src/outputs/renderSnapshot.ts';
import { serviceExportsOf } from '../../src/statuses/collectExportedEndpoints.ts';
import { multiClusterServiceStatusEdits } from '../../src/statuses/multiClusterServiceConditions.ts';
import { clusterYaml, makeConfigRepo } from '../helpers/fleet.ts';

const mcs = (providers: string[], consumers: string[], name = 'test-mcs', namespace = 'default') =>
  ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name, namespace },
    spec: {
      types: ['CrossCluster'],
      providerClusters: providers.map((n) => ({ name: n })),
      consumerClusters: consumers.map((n) => ({ name: n })),
    },
  }) as MultiClusterService;
const endpointSliceApi = [
  { groupVersion: 'discovery.k8s.io/v1', resources: [{ name: 'endpointslices', kind: 'EndpointSlice' }] },
];
const podApiOnly = [{ groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod' }] }];
const ready = (apiEnablements = endpointSliceApi, complete = true): ClusterStatus => ({
  conditions: [
    { type: 'Ready', status: 'True' },
    ...(complete ? [{ type: 'CompleteAPIEnablements', status: 'True' as const }] : []),
  ],
  apiEnablements,
});
const notReady: ClusterStatus = { conditions: [{ type: 'Ready', status: 'False' }] };
const slice = (name: string, ip: string) => ({
  name,
  addressType: 'IPv4',
  endpoints: [{ addresses: [ip] }],
  ports: [{ port: 80 }],
});
const record = (namespace: string, name: string, ...slices: ReturnType<typeof slice>[]): ExportedService => ({
  namespace,
  name,
  endpointSlices: slices,
});
const dispatched = (
  consumer: string,
  m: MultiClusterService,
  registered: ReadonlyMap<string, ClusterStatus | undefined>,
  exported: ReadonlyMap<string, readonly ExportedService[]>,
) =>
  dispatchEndpointSlices(consumer, [{ path: 'p', mcs: m }], registered, exported).map(
    (d) =>
      `${(d.manifest.metadata as { namespace: string }).namespace}/${(d.manifest.metadata as { name: string }).name}`,
  );

// mcs_controller_test.go, TestPropagateMultiClusterService ("Propagate to multiple ready clusters", "Mixed cluster
// readiness and API support"); mcs_controller.go#propagateMultiClusterService skips a provider only when it is not
// Ready or its EndpointSlice API is APIDisabled (not listed while CompleteAPIEnablements is True).
test('every Ready provider serving EndpointSlices collects; one not Ready or with a complete API list lacking them does not', () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', ready()],
  ]);
  assert.equal(activeProviders(mcs(['cluster1', 'cluster2'], []), registered), ['cluster1', 'cluster2']);
  const mixed = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', notReady],
    ['cluster3', ready(podApiOnly)],
  ]);
  assert.equal(activeProviders(mcs(['cluster1', 'cluster2', 'cluster3'], []), mixed), ['cluster1']);
  // A list not known to be complete leaves the API Unknown, which is not Disabled: the provider still collects.
  const incomplete = new Map<string, ClusterStatus | undefined>([['cluster4', ready(podApiOnly, false)]]);
  assert.equal(activeProviders(mcs(['cluster4'], []), incomplete), ['cluster4']);
});

// mcs_controller_test.go, TestRetrieveMultiClusterService ("Remove work for non-provider cluster", "Keep work for
// provider cluster").
test('a cluster no longer named as provider stops collecting the Service; one still named keeps collecting it', () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', ready()],
  ]);
  assert.equal(servicesProvidedBy('cluster1', [mcs(['cluster2'], [])], registered), []);
  assert.equal(servicesProvidedBy('cluster1', [mcs(['cluster1'], [])], registered), [
    { namespace: 'default', name: 'test-mcs' },
  ]);
});

// endpointslice_collect_controller_test.go, TestCleanProviderClustersEndpointSliceWork ("Work managed by multiple
// controllers", "Work managed only by MultiClusterService").
test('a Service both exported and provided is collected once, and through its ServiceExport alone once the MultiClusterService lets go', () => {
  const exportRef = {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceExport',
    namespace: 'default',
    name: 'test-mcs',
  };
  const registered = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', ready()],
  ]);
  const context = (m: MultiClusterService) => ({ services: [{ path: 'p', mcs: m }], registered });
  const key = (refs: { namespace: string; name: string }[]) => refs.map((r) => `${r.namespace}/${r.name}`);
  assert.equal(key(serviceExportsOf([exportRef], 'cluster1', context(mcs(['cluster1'], [])))), ['default/test-mcs']);
  assert.equal(key(serviceExportsOf([exportRef], 'cluster1', context(mcs(['cluster2'], [])))), ['default/test-mcs']);
  assert.equal(key(serviceExportsOf([], 'cluster1', context(mcs(['cluster1'], [])))), ['default/test-mcs']);
  assert.equal(key(serviceExportsOf([], 'cluster1', context(mcs(['cluster2'], [])))), []);
});

// endpointslice_dispatch_controller_test.go, TestGetClusterEndpointSliceWorks ("find matching works", "works in
// different namespace"): the slices dispatched are those collected for the MultiClusterService's namespace and name.
test("a consumer gets only the slices collected for the MultiClusterService's own namespace and name", () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', ready()],
    ['consumer', ready()],
  ]);
  const exported = new Map<string, ExportedService[]>([
    [
      'cluster1',
      [
        record('default', 'test-mcs', slice('eps-1', '10.0.0.1')),
        record('default', 'other-mcs', slice('eps-x', '10.0.0.9')),
      ],
    ],
    [
      'cluster2',
      [
        record('default', 'test-mcs', slice('eps-2', '10.0.0.2')),
        record('test-namespace', 'test-mcs', slice('eps-y', '10.0.0.8')),
      ],
    ],
  ]);
  assert.equal(dispatched('consumer', mcs(['cluster1', 'cluster2'], ['consumer']), registered, exported), [
    'default/cluster1-eps-1',
    'default/cluster2-eps-2',
  ]);
  assert.equal(
    dispatched(
      'consumer',
      mcs(['cluster1', 'cluster2'], ['consumer'], 'test-mcs', 'test-namespace'),
      registered,
      exported,
    ),
    ['test-namespace/cluster2-eps-y'],
  );
});

// endpointslice_dispatch_controller_test.go, TestCleanOrphanDispatchedEndpointSlice ("clean orphan works", "no orphan
// works", "work without provision cluster annotation").
test('a cluster that is no longer a consumer gets no dispatched slices, the remaining consumer keeps them, and the provider still collects', () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['provider', ready()],
    ['cluster1', ready()],
    ['cluster2', ready()],
  ]);
  const exported = new Map([['provider', [record('default', 'test-mcs', slice('test-eps', '10.0.0.1'))]]]);
  const m = mcs(['provider'], ['cluster1']);
  assert.equal(dispatched('cluster2', m, registered, exported), []);
  assert.equal(dispatched('cluster1', m, registered, exported), ['default/provider-test-eps']);
  assert.equal(servicesProvidedBy('provider', [m], registered), [{ namespace: 'default', name: 'test-mcs' }]);
});

// endpointslice_dispatch_controller_test.go, TestCleanupEndpointSliceFromConsumerClusters: the provider's collected
// slices gone, every consumer's copies go too.
test('a provider whose collected slices are gone has none dispatched to any consumer', () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['cluster1', ready()],
    ['cluster2', ready()],
    ['cluster3', ready()],
  ]);
  const m = mcs(['cluster1'], ['cluster2', 'cluster3']);
  const before = new Map([['cluster1', [record('default', 'test-mcs', slice('eps', '10.0.0.1'))]]]);
  assert.equal(dispatched('cluster2', m, registered, before), ['default/cluster1-eps']);
  assert.equal(dispatched('cluster3', m, registered, before), ['default/cluster1-eps']);
  const after = new Map<string, ExportedService[]>();
  assert.equal(dispatched('cluster2', m, registered, after), []);
  assert.equal(dispatched('cluster3', m, registered, after), []);
});

// endpointslice_dispatch_controller_test.go, TestEnsureEndpointSliceWork ("create new work", "empty manifest").
test("a consumer's copy is named <provider>-<slice>, relabelled for the Service and the dispatch controller, with the provider's endpoints and ports; no slice, no copy", () => {
  const registered = new Map<string, ClusterStatus | undefined>([
    ['provider', ready()],
    ['consumer', ready()],
  ]);
  const exported = new Map([['provider', [record('default', 'test-mcs', slice('test-eps', '10.0.0.1'))]]]);
  const [copy, ...rest] = dispatchEndpointSlices(
    'consumer',
    [{ path: 'p', mcs: mcs(['provider'], ['consumer']) }],
    registered,
    exported,
  );
  assert.equal(rest, []);
  const { labels, annotations } = copy!.manifest.metadata as {
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  assert.equal(
    { ...labels, 'work.karmada.io/permanent-id': undefined },
    {
      'kubernetes.io/service-name': 'test-mcs',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-dispatch-controller.karmada.io',
      'karmada.io/managed': 'true',
      'work.karmada.io/permanent-id': undefined,
    },
  );
  assert.is(annotations['endpointslice.karmada.io/provision-cluster'], 'provider');
  assert.is(annotations['work.karmada.io/namespace'], 'karmada-es-consumer');
  assert.equal(copy!.manifest, {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'provider-test-eps', namespace: 'default', labels, annotations },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.1'] }],
    ports: [{ port: 80 }],
  });
  const empty = new Map([['provider', [record('default', 'test-mcs')]]]);
  assert.equal(dispatched('consumer', mcs(['provider'], ['consumer']), registered, empty), []);
});

// endpointslice_dispatch_controller_test.go, TestNewClusterFunc ("new cluster, matching MCS", "new cluster, no
// matching MCS"): a cluster joining the consumers gets the slices, one the consumers do not name gets none.
test('a consumer named before it registers gets the slices once it is registered; a cluster not named never does', () => {
  const exported = new Map([['provider', [record('default', 'test-mcs', slice('eps', '10.0.0.1'))]]]);
  const m = mcs(['provider'], ['cluster1']);
  const without = new Map<string, ClusterStatus | undefined>([['provider', ready()]]);
  assert.equal(dispatched('cluster1', m, without, exported), []);
  const joined = new Map<string, ClusterStatus | undefined>([
    ['provider', ready()],
    ['cluster1', undefined],
  ]);
  assert.equal(dispatched('cluster1', m, joined, exported), ['default/provider-eps']);
  const other = new Map<string, ClusterStatus | undefined>([
    ['provider', ready()],
    ['cluster1', ready()],
  ]);
  assert.equal(dispatched('cluster1', mcs(['provider'], ['cluster2']), other, exported), []);
});

// endpointslice_dispatch_controller_test.go, TestUpdateEndpointSliceDispatched ("update status to true").
test('EndpointSliceDispatched turns True with reason EndpointSliceDispatchedSucceed and Karmada message once every slice is held', () => {
  const out = multiClusterServiceStatusEdits(
    [
      {
        mcs: mcs(['provider'], ['consumer']),
        serviceClaimed: true,
        dispatch: [{ consumer: 'consumer', expected: ['provider-eps'], held: new Set(['provider-eps']) }],
      },
    ],
    new Map(),
    new Date('2026-12-01T10:00:00Z'),
  );
  const file = parse(out.edits.get('multiclusterservices/default/test-mcs.yaml')!) as {
    status: { conditions: { type: string; status: string; reason: string; message: string }[] };
  };
  const condition = file.status.conditions.find((c) => c.type === 'EndpointSliceDispatched')!;
  assert.equal(
    { status: condition.status, reason: condition.reason, message: condition.message },
    {
      status: 'True',
      reason: 'EndpointSliceDispatchedSucceed',
      message: 'EndpointSlice are dispatched successfully',
    },
  );
});

// mcs_controller_test.go, TestBuildResourceBinding ("non-overlapping clusters", "empty consumer clusters").
const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: test-service, namespace: default}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}]
`;
const MCS = (consumers: string) => `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: test-service, namespace: default}
spec:
  types: [CrossCluster]
  providerClusters: [{name: cluster1}, {name: cluster2}]
  consumerClusters: ${consumers}
`;

async function serviceBinding(clusters: string[], consumers: string) {
  const r = makeConfigRepo();
  try {
    r.commit({
      ...Object.fromEntries(clusters.map((c) => [`clusters/${c}.yaml`, clusterYaml(c)])),
      'templates/service.yaml': SERVICE,
      'templates/mcs.yaml': MCS(consumers),
    });
    const { output } = await renderSnapshot(await openRepo(r.dir), 'HEAD');
    return parse(output.edits.get('bindings/default/test-service-service.yaml')!);
  } finally {
    r.cleanup();
  }
}

test("the claimed Service's binding names the MultiClusterService, is placed on providers and consumers, and resolves conflicts by Overwrite", async () => {
  const b = await serviceBinding(
    ['cluster1', 'cluster2', 'cluster3', 'cluster4'],
    '[{name: cluster3}, {name: cluster4}]',
  );
  assert.is(b.kind, 'ResourceBinding');
  assert.is(b.metadata.name, 'test-service-service');
  assert.is(b.metadata.namespace, 'default');
  assert.is(b.metadata.labels['binding.karmada.io/managed-by'], 'MultiClusterService');
  assert.ok(b.metadata.labels['multiclusterservice.karmada.io/permanent-id']);
  assert.is(b.metadata.annotations['multiclusterservice.karmada.io/name'], 'test-service');
  assert.is(b.metadata.annotations['multiclusterservice.karmada.io/namespace'], 'default');
  assert.equal([...b.spec.placement.clusterAffinity.clusterNames].sort(), [
    'cluster1',
    'cluster2',
    'cluster3',
    'cluster4',
  ]);
  assert.is(b.spec.conflictResolution, 'Overwrite');
  assert.equal(
    {
      apiVersion: b.spec.resource.apiVersion,
      kind: b.spec.resource.kind,
      namespace: b.spec.resource.namespace,
      name: b.spec.resource.name,
    },
    { apiVersion: 'v1', kind: 'Service', namespace: 'default', name: 'test-service' },
  );
  // Empty consumers are every registered cluster: with only the providers registered, the placement is theirs.
  const onlyProviders = await serviceBinding(['cluster1', 'cluster2'], '[]');
  assert.equal([...onlyProviders.spec.placement.clusterAffinity.clusterNames].sort(), ['cluster1', 'cluster2']);
});

test.run();
