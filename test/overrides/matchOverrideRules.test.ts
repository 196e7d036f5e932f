import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OverridePolicy, Overriders } from '../../src/api/policy.ts';
import { matchOverrideRules, overrideTargetOf, type OverrideTarget } from '../../src/overrides/matchOverrideRules.ts';
import { cluster, clusterOverridePolicy, overridePolicy } from './helpers/objects.ts';

const deployment: OverrideTarget = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'default',
  name: 'test',
  labels: { app: 'web' },
};
const cluster1 = cluster('cluster1');
const cluster2 = cluster('cluster2');

function annotate(text: string): Overriders {
  return { plaintext: [{ path: '/metadata/annotations', operator: 'add', value: text }] };
}
const overriders1 = annotate('foo: bar');
const overriders2 = annotate('aaa: bbb');
const overriders3 = annotate('hello: world');

function summary(target: OverrideTarget, c = cluster1, policies: OverridePolicy[]): [string, number, Overriders][] {
  // ClusterOverridePolicies apply first; these objects' labels are the same for both groups.
  return [
    ...matchOverrideRules(target, c, policies, 'ClusterOverridePolicy'),
    ...matchOverrideRules(target, c, policies, 'OverridePolicy'),
  ].map((m) => [m.policy.metadata.name, m.ruleIndex, m.overriders]);
}

// Policies and cases transcribed from karmada pkg/util/overridemanager/overridemanager_test.go
// (TestGetMatchingOverridePolicies).
const byName = overridePolicy('overridePolicy1', {
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' }],
  overrideRules: [
    { targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders1 },
    { targetCluster: { clusterNames: ['cluster2'] }, overriders: overriders2 },
  ],
});
const nilSelectors = overridePolicy('overridePolicy2', {
  overrideRules: [{ targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders3 }],
});
const emptySelectors = overridePolicy('overridePolicy3', {
  resourceSelectors: [],
  overrideRules: [{ targetCluster: { clusterNames: ['cluster1', 'cluster2'] }, overriders: overriders3 }],
});
const deprecatedPair = clusterOverridePolicy('oldOverridePolicy', {
  targetCluster: { clusterNames: ['cluster1'] },
  overriders: overriders3,
});

test('match-all policy comes before the name-matching one; rules for another cluster are skipped', () => {
  assert.equal(summary(deployment, cluster1, [byName, nilSelectors]), [
    ['overridePolicy2', 0, overriders3],
    ['overridePolicy1', 0, overriders1],
  ]);
});

test('every rule matching the cluster applies, in rule order', () => {
  assert.equal(summary(deployment, cluster2, [byName, nilSelectors]), [
    ['overridePolicy2', 0, overriders3],
    ['overridePolicy1', 0, overriders1],
    ['overridePolicy1', 1, overriders2],
  ]);
});

test('an empty resourceSelectors list matches every resource', () => {
  assert.equal(summary(deployment, cluster2, [emptySelectors]), [['overridePolicy3', 0, overriders3]]);
});

test('the deprecated spec-level targetCluster + overriders pair acts as one rule (index -1)', () => {
  assert.equal(summary(deployment, cluster1, [deprecatedPair]), [['oldOverridePolicy', -1, overriders3]]);
  assert.equal(summary(deployment, cluster2, [deprecatedPair]), []);
});

test('a rule without targetCluster applies to every cluster', () => {
  const policy = overridePolicy('p', { overrideRules: [{ overriders: overriders1 }] });
  assert.equal(
    summary(deployment, cluster2, [policy]).map(([n]) => n),
    ['p'],
  );
});

test('targetCluster uses cluster affinity (labels, exclude)', () => {
  const policy = overridePolicy('p', {
    overrideRules: [
      { targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, overriders: overriders1 },
      { targetCluster: { exclude: ['prod1'] }, overriders: overriders2 },
    ],
  });
  assert.equal(
    summary(deployment, cluster('prod1', { env: 'prod' }), [policy]).map(([, i]) => i),
    [0],
  );
  assert.equal(
    summary(deployment, cluster('dev1', { env: 'dev' }), [policy]).map(([, i]) => i),
    [1],
  );
});

test('ClusterOverridePolicies come first, then OverridePolicies, each ordered match-all < labelSelector < name, then by name', () => {
  const rule = { overrideRules: [{ overriders: overriders1 }] };
  const sel = (extra: object) => ({
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', ...extra }],
    ...rule,
  });
  const policies = [
    overridePolicy('op-b-name', sel({ name: 'test' })),
    overridePolicy('op-a-name', sel({ name: 'test' })),
    overridePolicy('op-z-label', sel({ labelSelector: { matchLabels: { app: 'web' } } })),
    overridePolicy('op-y-all', rule),
    clusterOverridePolicy('cop-name', sel({ name: 'test' })),
    clusterOverridePolicy('cop-kind', sel({})),
    clusterOverridePolicy('cop-label', sel({ labelSelector: { matchLabels: { app: 'web' } } })),
  ];
  assert.equal(
    summary(deployment, cluster1, policies).map(([n]) => n),
    ['cop-kind', 'cop-label', 'cop-name', 'op-y-all', 'op-z-label', 'op-a-name', 'op-b-name'],
  );
});

test('a policy ranks by its most specific matching selector', () => {
  const rule = { overrideRules: [{ overriders: overriders1 }] };
  const policies = [
    overridePolicy('a-two-selectors', {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment' },
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test' },
      ],
      ...rule,
    }),
    overridePolicy('b-label', {
      resourceSelectors: [
        { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'web' } } },
      ],
      ...rule,
    }),
  ];
  assert.equal(
    summary(deployment, cluster1, policies).map(([n]) => n),
    ['b-label', 'a-two-selectors'],
  );
});

test('policies whose selectors do not match are skipped', () => {
  const rule = { overrideRules: [{ overriders: overriders1 }] };
  const policies = [
    overridePolicy('other-name', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'other' }],
      ...rule,
    }),
    overridePolicy('other-kind', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'StatefulSet' }], ...rule }),
    overridePolicy('other-labels', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'db' } } }],
      ...rule,
    }),
    clusterOverridePolicy('other-namespace', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'prod' }],
      ...rule,
    }),
  ];
  assert.equal(summary(deployment, cluster1, policies), []);
});

test('OverridePolicies apply only to objects of their own namespace', () => {
  const rule = { overrideRules: [{ overriders: overriders1 }] };
  const policies = [overridePolicy('here', rule, 'default'), overridePolicy('there', rule, 'prod')];
  assert.equal(
    summary(deployment, cluster1, policies).map(([n]) => n),
    ['here'],
  );
  assert.equal(
    summary({ ...deployment, namespace: 'prod' }, cluster1, policies).map(([n]) => n),
    ['there'],
  );
});

test('cluster-scoped objects, Namespaces included, only get ClusterOverridePolicies', () => {
  const rule = { overrideRules: [{ overriders: overriders1 }] };
  const policies = [overridePolicy('op', rule, 'default'), clusterOverridePolicy('cop', rule)];
  const namespace: OverrideTarget = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'default' };
  assert.equal(
    summary(namespace, cluster1, policies).map(([n]) => n),
    ['cop'],
  );
});

test('overrideTargetOf defaults a namespaced object to default and leaves built-in cluster-scoped kinds without one', () => {
  assert.equal(
    overrideTargetOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n', labels: { a: 'b' } } }),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'n',
      labels: { a: 'b' },
    },
  );
  assert.is(
    overrideTargetOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'n', namespace: 'prod' } })
      .namespace,
    'prod',
  );
  assert.is(overrideTargetOf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod' } }).namespace, '');
  assert.is(
    overrideTargetOf({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } })
      .namespace,
    '',
  );
});

test.run();
