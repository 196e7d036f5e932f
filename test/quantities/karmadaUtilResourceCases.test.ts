// Karmada's util.Resource, case by case, where Flotilla has the same arithmetic (cases after pkg/util/resource_test.go
// at f8fdd02): what is left when more is used than there is (TestResource_SubResource, through the general
// estimator that subtracts a cluster's allocated resources from its allocatable ones) and how a resource list is
// printed (TestResource_ResourceList, the form the cluster status controller writes allocated and allocating in).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceList } from '../../src/api/cluster.ts';
import { availableReplicas } from '../../src/assignments/availableReplicas.ts';
import { parseQuantity, type Quantity } from '../../src/quantities/parseQuantity.ts';
import { formatResourceList } from '../../src/quantities/resourceLists.ts';
import { summarizeResources } from '../../src/statuses/summarizeCluster.ts';
import { clusterWithResources, request } from '../assignments/helpers.ts';

const NAMES = ['cpu', 'memory', 'ephemeral-storage', 'pods', 'test.karmada.io/foo', 'test.karmada.io/bar'] as const;
const each = (value: number): ResourceList =>
  Object.fromEntries(NAMES.map((name) => [name, name === 'cpu' ? `${value}m` : String(value)]));

test('a resource used beyond what is allocatable leaves none of it, and the others keep what is left', () => {
  // allocatable 10 of everything, 6 of everything used but one resource used 99999 times: that one is exhausted.
  for (const exhausted of NAMES) {
    const used = { ...each(6), [exhausted]: exhausted === 'cpu' ? '99999m' : '99999' };
    const member = clusterWithResources('member1', each(10), used);
    const everything = Object.fromEntries(NAMES.filter((n) => n !== 'pods').map((n) => [n, n === 'cpu' ? '1m' : '1']));
    assert.is(availableReplicas(member, request({}, 100, [], { resourceRequest: everything })), 0, exhausted);
    if (exhausted === 'pods') continue;
    const others = Object.fromEntries(Object.entries(everything).filter(([n]) => n !== exhausted));
    assert.is(availableReplicas(member, request({}, 100, [], { resourceRequest: others })), 4, `${exhausted}: others`);
  }
});

test('a resource list prints cpu in millicores and everything else, hugepages and extended resources too, as integers', () => {
  const list = new Map<string, Quantity>(
    ['cpu:10m', 'memory:10', 'ephemeral-storage:10', 'pods:10', 'hugepages-foo:10', 'test.karmada.io/bar:10'].map(
      (pair) => {
        const [name = '', value = ''] = pair.split(':');
        return [name, parseQuantity(value)!];
      },
    ),
  );
  assert.equal(formatResourceList(list), {
    cpu: '10m',
    'ephemeral-storage': '10',
    'hugepages-foo': '10',
    memory: '10',
    pods: '10',
    'test.karmada.io/bar': '10',
  });
});

// Resource.ResourceList: NewMilliQuantity(cpu, DecimalSI); memory, ephemeral-storage and hugepages NewQuantity(…,
// BinarySI); pods and extended resources DecimalSI. Quantity.String prints a DecimalSI amount with the largest
// power-of-1000 suffix that keeps it whole, and a BinarySI one under 1024 as DecimalSI (apimachinery
// CanonicalizeBytes), so a memory of 1000 is "1k" and 1024 of a GPU is "1024".
test('a resource list prints each resource in the format Karmada gives its Quantity', () => {
  const list = (pairs: Record<string, string>) =>
    formatResourceList(new Map(Object.entries(pairs).map(([name, value]) => [name, parseQuantity(value)!])));
  assert.equal(
    list({
      cpu: '2000',
      memory: '1000',
      'ephemeral-storage': '1500',
      pods: '11000',
      'hugepages-2Mi': '4Mi',
      'nvidia.com/gpu': '1024',
      'example.com/foo': '1k',
    }),
    {
      cpu: '2k',
      'ephemeral-storage': '1500',
      'example.com/foo': '1k',
      'hugepages-2Mi': '4Mi',
      memory: '1k',
      'nvidia.com/gpu': '1024',
      pods: '11k',
    },
  );
  assert.equal(list({ cpu: '1500m', memory: '3Gi', pods: '110', 'example.com/bar': '1500000' }), {
    cpu: '1500m',
    'example.com/bar': '1500k',
    memory: '3Gi',
    pods: '110',
  });
});

test('a cluster with no pods reports nothing allocated and nothing allocating', () => {
  // TestResource_ResourceList "resource is empty": an empty Resource prints as no list at all, and the cluster status
  // controller's allocated and allocating (omitempty) are then left out of the summary.
  const summary = summarizeResources(
    [{ status: { allocatable: { cpu: '2', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } }],
    [],
  ).resourceSummary;
  assert.ok(summary);
  assert.is('allocated' in summary, false, JSON.stringify(summary));
  assert.is('allocating' in summary, false, JSON.stringify(summary));
});

test.run();
