// Karmada's cluster status controller grades each member node by its free resources against the Cluster's resource
// models (getAllocatableModelings, pkg/modeling); admission gives a Cluster without models the default nine grades.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, ResourceModel } from '../../src/api/cluster.ts';
import { DEFAULT_RESOURCE_MODELS } from '../../src/api/clusterResourceModels.ts';
import { withResourceModels } from '../../src/documents/clusterResourceModels.ts';
import { allocatableModelings } from '../../src/statuses/allocatableModelings.ts';
import { summarizeResources } from '../../src/statuses/summarizeCluster.ts';

type Obj = Record<string, unknown>;
const node = (name: string, allocatable: Record<string, string>): Obj => ({
  metadata: { name },
  status: { allocatable },
});
const pod = (nodeName: string, requests: Record<string, string>, phase = 'Running'): Obj => ({
  spec: { nodeName, containers: [{ name: 'c', resources: { requests } }] },
  status: { phase },
});
const TWO_GRADES: ResourceModel[] = [
  {
    grade: 0,
    ranges: [
      { name: 'cpu', min: '0', max: '1' },
      { name: 'memory', min: '0', max: '1024' },
    ],
  },
  {
    grade: 1,
    ranges: [
      { name: 'cpu', min: '1m', max: '2' },
      { name: 'memory', min: '1024m', max: '2048' },
    ],
  },
];

// cluster_status_controller_test.go TestGetAllocatableModelings.
test('nodes with no cpu or memory free fall in the lowest grade; every grade is listed, in order', () => {
  const nodes = [node('', { test: '0' }), node('', { test: '0' })];
  assert.equal(allocatableModelings(TWO_GRADES, nodes, [pod('node1', { test: '0' })]), [
    { grade: 0, count: 2 },
    { grade: 1, count: 0 },
  ]);
});

test('no resource models, or a first model whose names the others do not repeat, gives no modelings', () => {
  const nodes = [node('a', { cpu: '1' })];
  assert.is(allocatableModelings([], nodes, []), undefined);
  assert.is(allocatableModelings(undefined, nodes, []), undefined);
  const uneven: ResourceModel[] = [TWO_GRADES[0]!, { grade: 1, ranges: [{ name: 'cpu', min: '1m', max: '2' }] }];
  assert.is(allocatableModelings(uneven, nodes, []), undefined);
});

test("a node is graded by what its running pods leave free; finished pods and other nodes' pods take nothing", () => {
  const nodes = [node('n1', { cpu: '8', memory: '32Gi', pods: '110' })];
  assert.equal(allocatableModelings(DEFAULT_RESOURCE_MODELS, nodes, [])?.[3], { grade: 3, count: 1 });
  const busy = allocatableModelings(DEFAULT_RESOURCE_MODELS, nodes, [
    pod('n1', { cpu: '100m', memory: '128Mi' }),
    pod('n1', { cpu: '4' }, 'Succeeded'),
    pod('n2', { cpu: '7' }),
  ]);
  assert.equal(busy?.[2], { grade: 2, count: 1 }, 'cpu 7.9 reaches grade 3, memory just under 32Gi only grade 2');
  assert.is(
    busy?.reduce((n, m) => n + m.count, 0),
    1,
  );
});

test("a node's pods are summed into one Resource: an init container raises the sum so far, not its own pod's requests", () => {
  const initHeavy = {
    spec: {
      nodeName: 'n1',
      initContainers: [{ name: 'init', resources: { requests: { cpu: '2' } } }],
      containers: [{ name: 'c', resources: { requests: { cpu: '500m' } } }],
    },
    status: { phase: 'Running' },
  };
  const nodes = [node('n1', { cpu: '7', memory: '64Gi', pods: '110' })];
  const modelings = allocatableModelings(DEFAULT_RESOURCE_MODELS, nodes, [initHeavy, initHeavy]);
  assert.equal(modelings?.[3], { grade: 3, count: 1 }, 'Karmada takes 2500m of cpu, leaving 4.5 cores');
});

// TestGetNodeAvailable "resource isn't enough", and the loop's break: a full node ends the count.
test('a node with no pod left to schedule stops the count, as Karmada breaks out of its loop', () => {
  const nodes = [
    node('full', { cpu: '8', memory: '32Gi', pods: '1' }),
    node('free', { cpu: '8', memory: '32Gi', pods: '110' }),
  ];
  const modelings = allocatableModelings(DEFAULT_RESOURCE_MODELS, nodes, [pod('full', {})]);
  assert.is(
    modelings?.reduce((n, m) => n + m.count, 0),
    0,
  );
});

test('the status summary carries the modelings of the models it is given', () => {
  const summary = summarizeResources([node('n1', { cpu: '2', memory: '4Gi', pods: '110' })], [], TWO_GRADES);
  assert.equal(summary.resourceSummary?.allocatableModelings, [
    { grade: 0, count: 0 },
    { grade: 1, count: 1 },
  ]);
  assert.not.ok('allocatableModelings' in (summarizeResources([], []).resourceSummary ?? {}));
});

const cluster = (resourceModels?: ResourceModel[]): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1' },
  spec: { syncMode: 'Push', ...(resourceModels ? { resourceModels } : {}) },
});

// registry/cluster/strategy.go PrepareForCreate, mutation.SetDefaultClusterResourceModels / StandardizeClusterResourceModels.
test('a Cluster without resource models gets the nine default grades; its own are sorted and bounded', () => {
  const defaulted = withResourceModels(cluster()).spec.resourceModels!;
  assert.is(defaulted.length, 9);
  assert.equal(defaulted[1], {
    grade: 1,
    ranges: [
      { name: 'cpu', min: '1', max: '2' },
      { name: 'memory', min: '4Gi', max: '16Gi' },
    ],
  });
  assert.equal(defaulted[8]!.ranges[0], { name: 'cpu', min: '128', max: '9223372036854775807' });
  assert.is(withResourceModels(cluster([])).spec.resourceModels!.length, 9);
  const own = withResourceModels(
    cluster([
      { grade: 2, ranges: [{ name: 'cpu', min: '4', max: '8' }] },
      { grade: 1, ranges: [{ name: 'cpu', min: '2', max: '4' }] },
    ]),
  ).spec.resourceModels!;
  assert.equal(own, [
    { grade: 1, ranges: [{ name: 'cpu', min: '0', max: '4' }] },
    { grade: 2, ranges: [{ name: 'cpu', min: '4', max: '9223372036854775807' }] },
  ]);
});

test.run();
