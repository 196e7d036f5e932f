import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildApiEnablements, summarizeResources } from '../../src/statuses/summarizeCluster.ts';

const node = (ready: boolean, cpu: string, memory: string) => ({
  status: {
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    allocatable: { cpu, memory, pods: '110' },
  },
});
const pod = (nodeName: string | undefined, phase: string, cpu: string, memory: string) => ({
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', resources: { requests: { cpu, memory } } }] },
  status: { phase },
});

test('nodes give totals, ready count and allocatable; bound live pods are allocated, unbound ones allocating', () => {
  const s = summarizeResources(
    [node(true, '8', '32Gi'), node(false, '3500m', '16Gi')],
    [
      pod('n1', 'Running', '250m', '64Mi'),
      pod('n1', 'Running', '750m', '64Mi'),
      pod('n2', 'Succeeded', '4', '1Gi'),
      pod(undefined, 'Pending', '100m', '1Mi'),
    ],
  );
  assert.equal(s.nodeSummary, { totalNum: 2, readyNum: 1 });
  assert.equal(s.resourceSummary!.allocatable, { cpu: '11500m', memory: '48Gi', pods: '220' });
  assert.equal(s.resourceSummary!.allocated, { cpu: '1', memory: '128Mi', pods: '2' });
  assert.equal(s.resourceSummary!.allocating, { cpu: '100m', memory: '1Mi', pods: '1' });
});

test('an unbound pod is allocating whatever its phase; a bound one stops counting once it has terminated', () => {
  const s = summarizeResources(
    [],
    [
      pod(undefined, 'Failed', '300m', '1Mi'),
      pod(undefined, 'Succeeded', '200m', '1Mi'),
      pod('n1', 'Failed', '4', '1Gi'),
      pod('n1', 'Succeeded', '4', '1Gi'),
    ],
  );
  assert.equal(s.resourceSummary!.allocating, { cpu: '500m', memory: '2Mi', pods: '2' });
  assert.is(s.resourceSummary!.allocated, undefined);
});

test('zero counts and an empty allocatable are left out, as the Cluster API omits them; a node is ready by its first Ready condition', () => {
  assert.equal(summarizeResources([], []), { nodeSummary: {}, resourceSummary: {} });
  const flapping = {
    status: {
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
      allocatable: { pods: '110' },
    },
  };
  assert.equal(summarizeResources([node(false, '1', '1Gi'), flapping], []).nodeSummary, { totalNum: 2 });
});

test("allocatable adds the nodes' quantities as Quantity.Add does, keeping the first node's format", () => {
  const withAllocatable = (allocatable: Record<string, string>) => ({ status: { allocatable } });
  const s = summarizeResources(
    [
      withAllocatable({ memory: '64G', 'ephemeral-storage': '1000', cpu: '4', 'example.com/gpu': '2' }),
      withAllocatable({ memory: '64G', 'ephemeral-storage': '1000', cpu: '3500m' }),
    ],
    [],
  );
  assert.equal(s.resourceSummary!.allocatable, {
    cpu: '7500m',
    'ephemeral-storage': '2k',
    'example.com/gpu': '2',
    memory: '128G',
  });
  const binaryFirst = summarizeResources([withAllocatable({ memory: '1Gi' }), withAllocatable({ memory: '1G' })], []);
  assert.equal(binaryFirst.resourceSummary!.allocatable, { memory: '2073741824' });
});

test("pods are summed into one Resource in list order, as Karmada's AddPodRequest on a shared sum adds them", () => {
  const withInit = (nodeName: string | undefined, init: string, app: string) => ({
    spec: {
      ...(nodeName ? { nodeName } : {}),
      initContainers: [{ name: 'init', resources: { requests: { cpu: init } } }],
      containers: [{ name: 'c', resources: { requests: { cpu: app } } }],
      overhead: { cpu: '10m' },
    },
    status: { phase: 'Running' },
  });
  // Bound: 500m, raised to 2 by the init container, +10m; then 2010m + 500m stays above 2, +10m.
  const s = summarizeResources(
    [],
    [
      withInit('n1', '2', '500m'),
      withInit('n1', '2', '500m'),
      pod(undefined, 'Pending', '1', '1Mi'),
      withInit(undefined, '2', '500m'),
    ],
  );
  assert.equal(s.resourceSummary!.allocated, { cpu: '2520m', pods: '2' });
  // Allocating: 1 core first, then 1500m raised to the init container's 2, +10m.
  assert.equal(s.resourceSummary!.allocating, { cpu: '2010m', memory: '1Mi', pods: '2' });
});

test('apiEnablements are sorted and leave subresources out', () => {
  const e = buildApiEnablements(
    new Map([
      [
        'v1',
        [
          { name: 'pods', kind: 'Pod' },
          { name: 'pods/status', kind: 'Pod' },
          { name: 'configmaps', kind: 'ConfigMap' },
        ],
      ],
      ['apps/v1', [{ name: 'deployments', kind: 'Deployment' }]],
    ]),
  );
  assert.equal(e, [
    { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
    {
      groupVersion: 'v1',
      resources: [
        { name: 'configmaps', kind: 'ConfigMap' },
        { name: 'pods', kind: 'Pod' },
      ],
    },
  ]);
});

test.run();
