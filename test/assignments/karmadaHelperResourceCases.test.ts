// Karmada's util.Resource arithmetic, case by case (cases after pkg/util/resource_test.go at f8fdd02): a pod
// template's requests (TestResource_AddPodTemplateRequest) and how many replicas' requests fit in a node's resources
// (TestResource_MaxDivided, reached through the estimator's resource-model nodes, where Karmada uses it).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableReplicas } from '../../src/assignments/availableReplicas.ts';
import { isScalarResourceName, podTemplateRequests } from '../../src/interpreters/podRequests.ts';
import { cluster, request } from './helpers.ts';

test("a pod template's requests: limits stand in for missing requests, init containers raise the sum, overhead adds", () => {
  const spec = {
    containers: [
      {
        resources: {
          requests: { cpu: '10m', memory: 10, 'test.karmada.io/foo': 10, 'test.karmada.io/bar': 10 },
          limits: { memory: 99999, pods: 10, 'test.karmada.io/bar': 99999, 'test.karmada.io/baz': 10 },
        },
      },
    ],
    initContainers: [
      {
        resources: {
          requests: { cpu: '5m', memory: 10, 'test.karmada.io/foo': 5, 'test.karmada.io/bar': 10 },
          limits: { memory: 99999, pods: 20, 'test.karmada.io/bar': 99999, 'test.karmada.io/baz': 20 },
        },
      },
    ],
    overhead: {
      cpu: '5m',
      memory: 5,
      'ephemeral-storage': 5,
      pods: 5,
      'test.karmada.io/foo': 5,
      'test.karmada.io/bar': 5,
      'test.karmada.io/baz': 5,
    },
  };
  assert.equal(podTemplateRequests(spec), {
    cpu: '15m',
    'ephemeral-storage': '5',
    memory: '15',
    pods: '25',
    'test.karmada.io/bar': '15',
    'test.karmada.io/baz': '25',
    'test.karmada.io/foo': '15',
  });
});

test('replicas on a node: the scarcest of cpu, memory, ephemeral storage and extended resources decides; a pods request does not', () => {
  // One model node holding 100m cpu, 100 memory, 100 ephemeral storage and 100 test.karmada.io/foo; a replica asks
  // 10m (10 fit), 5 (20), 15 (6), 18 (5) and pods 20 (not a divisor): 5.
  const c = cluster(
    'member1',
    {
      resourceModels: [
        {
          grade: 0,
          ranges: [
            { name: 'cpu', min: '100m', max: '1' },
            { name: 'memory', min: 100, max: 1000 },
            { name: 'ephemeral-storage', min: 100, max: 1000 },
            { name: 'test.karmada.io/foo', min: 100, max: 1000 },
          ],
        },
      ],
    },
    {
      resourceSummary: {
        allocatable: {
          cpu: '100m',
          memory: '100',
          'ephemeral-storage': '100',
          pods: '100',
          'test.karmada.io/foo': '100',
        },
        allocatableModelings: [{ grade: 0, count: 1 }],
      },
    },
  );
  const resourceRequest = {
    cpu: '10m',
    memory: '5',
    pods: '20',
    'ephemeral-storage': '15',
    'test.karmada.io/foo': '18',
  };
  const divided = { replicaScheduling: { replicaSchedulingType: 'Divided' as const } };
  assert.is(availableReplicas(c, request(divided, 50, [], { resourceRequest })), 5);
});

test('a resource name without a slash, or under kubernetes.io/, is native: only prefixed native and extended names count as scalar', () => {
  // pkg/util/lifted/corev1helpers_test.go TestIsNativeResource, through IsScalarResourceName (native names are never
  // extended resources; prefixed native ones are scalar all the same).
  const cases: [string, boolean][] = [
    ['pod.alpha.kubernetes.io/opaque-int-resource-foo', true],
    ['kubernetes.io/resource-foo', true],
    ['foo', false],
    ['a/b', true],
    ['', false],
  ];
  for (const [name, scalar] of cases) assert.is(isScalarResourceName(name), scalar, JSON.stringify(name));
});

test.run();
