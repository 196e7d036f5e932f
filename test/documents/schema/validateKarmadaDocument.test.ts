import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isKarmadaKind, validateKarmadaDocument } from '../../../src/documents/schema/validateKarmadaDocument.ts';
import { formatPath } from '../../../src/documents/schema/formatPath.ts';

test('isKarmadaKind recognises the six kinds only', () => {
  for (const kind of [
    'PropagationPolicy',
    'ClusterPropagationPolicy',
    'OverridePolicy',
    'ClusterOverridePolicy',
    'ClusterTaintPolicy',
    'Cluster',
  ])
    assert.ok(isKarmadaKind(kind));
  for (const kind of ['Deployment', 'ResourceInterpreterCustomization', '', undefined, 3])
    assert.not.ok(isKarmadaKind(kind));
});

test('structure, webhook rules and credentials are reported together', () => {
  const issues = validateKarmadaDocument('Cluster', {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'Member1' },
    spec: { syncMod: 'Push', token: 'abc', zone: 'a', zones: ['b'] },
  });
  assert.equal(
    issues.map((i) => `${i.code} ${formatPath(i.path)}`),
    [
      'MISSING_FIELD spec.syncMode',
      'UNKNOWN_FIELD spec.syncMod',
      'INVALID_VALUE metadata.name',
      'INVALID_VALUE spec.zone',
      'INLINE_CREDENTIALS spec.token',
    ],
  );
  assert.is(issues[1]!.fix, 'rename it to syncMode');
});

test('a PropagationPolicy with several mistakes lists every one', () => {
  const issues = validateKarmadaDocument('PropagationPolicy', {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'other' }],
      placement: {
        clusterAffinity: { clusterNames: ['m1'] },
        clusterAffinities: [{ affinityName: 'a' }],
        replicaScheduling: { replicaSchedulingType: 'Divide' },
        spreadConstraints: [{ spreadByField: 'region' }],
      },
    },
  });
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    [
      'spec.placement.replicaScheduling.replicaSchedulingType',
      'spec.placement.clusterAffinities',
      'spec.placement.spreadConstraints',
      'spec.resourceSelectors[0].namespace',
    ],
  );
});

// Karmada's pkg/util/lifted/validateclustertaints_test.go: a Cluster's taints are NoSchedule or NoExecute.
test('a Cluster takes NoSchedule and NoExecute taints, not PreferNoSchedule', () => {
  const issues = (effect: string) =>
    validateKarmadaDocument('Cluster', {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'member1' },
      spec: { syncMode: 'Push', apiEndpoint: 'https://1.2.3.4:6443', taints: [{ key: 'key1', value: 'v', effect }] },
    }).map((i) => `${i.code} ${formatPath(i.path)}`);
  assert.equal(issues('PreferNoSchedule'), ['INVALID_VALUE spec.taints[0].effect']);
  assert.equal(issues('NoSchedule'), []);
  assert.equal(issues('NoExecute'), []);
});

test.run();
