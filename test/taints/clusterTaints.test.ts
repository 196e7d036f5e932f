import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, Condition, Taint } from '../../src/api/cluster.ts';
import type { ClusterTaintPolicy } from '../../src/api/policy.ts';
import { buildManagedTaints, conditionsMatch, effectiveTaints } from '../../src/taints/clusterTaints.ts';

const cluster = (name: string, extra: Partial<Cluster['spec']> = {}, labels?: Record<string, string>): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { syncMode: 'Push', ...extra },
});
const readyIs = (status: Condition['status']): Condition[] => [{ type: 'Ready', status }];
const policy = (name: string, spec: Partial<ClusterTaintPolicy['spec']> = {}): ClusterTaintPolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'ClusterTaintPolicy',
  metadata: { name },
  spec: {
    addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False', 'Unknown'] }],
    removeOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['True'] }],
    taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }],
    ...spec,
  },
});
const T1 = '2026-11-29T15:00:00Z';
const T2 = '2026-11-29T15:05:00Z';
const keys = (ts: Taint[]) => ts.map((t) => `${t.key}:${t.effect}@${t.timeAdded}`);

test('automatic taints follow Ready: False → not-ready, Unknown → unreachable, True → none', () => {
  const c = cluster('m2');
  const notReady = buildManagedTaints([], readyIs('False'), [], c, T1);
  assert.equal(keys(notReady), [`cluster.karmada.io/not-ready:NoSchedule@${T1}`]);
  const unknown = buildManagedTaints(notReady, readyIs('Unknown'), [], c, T2);
  assert.equal(keys(unknown), [`cluster.karmada.io/unreachable:NoSchedule@${T2}`]);
  assert.equal(buildManagedTaints(unknown, readyIs('True'), [], c, T2), []);
  assert.equal(
    keys(buildManagedTaints([], [], [], c, T1)),
    [`cluster.karmada.io/not-ready:NoSchedule@${T1}`],
    'no Ready condition at all counts as not ready',
  );
});

test('timeAdded is stamped once and kept while the taint stays', () => {
  const c = cluster('m2');
  const first = buildManagedTaints([], readyIs('False'), [policy('p')], c, T1);
  const later = buildManagedTaints(first, readyIs('False'), [policy('p')], c, T2);
  assert.equal(later, first);
  assert.ok(later.some((t) => t.effect === 'NoExecute' && t.timeAdded === T1));
});

test('a ClusterTaintPolicy adds on its addOnConditions, keeps the taint when neither list matches, removes on removeOnConditions', () => {
  const c = cluster('m2');
  const p = policy('p', { addOnConditions: [{ conditionType: 'Ready', operator: 'In', statusValues: ['False'] }] });
  const added = buildManagedTaints([], readyIs('False'), [p], c, T1);
  assert.ok(added.some((t) => t.key === 'cluster.karmada.io/not-ready' && t.effect === 'NoExecute'));
  const unknown = buildManagedTaints(added, readyIs('Unknown'), [p], c, T2);
  assert.ok(
    unknown.some((t) => t.effect === 'NoExecute' && t.timeAdded === T1),
    'Unknown matches neither list: kept',
  );
  const back = buildManagedTaints(unknown, readyIs('True'), [p], c, T2);
  assert.equal(back, []);
});

test('targetClusters limits a policy to the clusters it matches', () => {
  const p = policy('p', { targetClusters: { labelSelector: { matchLabels: { tier: 'edge' } } } });
  assert.not.ok(
    buildManagedTaints([], readyIs('False'), [p], cluster('core'), T1).some((t) => t.effect === 'NoExecute'),
  );
  assert.ok(
    buildManagedTaints([], readyIs('False'), [p], cluster('edge1', {}, { tier: 'edge' }), T1).some(
      (t) => t.effect === 'NoExecute',
    ),
  );
});

test('a taint the user already has in Git is not added twice; a managed taint no rule names any more is dropped', () => {
  const user = cluster('m2', { taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }] });
  assert.not.ok(
    buildManagedTaints([], readyIs('False'), [policy('p')], user, T1).some((t) => t.effect === 'NoExecute'),
  );
  const previous: Taint[] = [{ key: 'gone.example/policy', effect: 'NoExecute', timeAdded: T1 }];
  assert.equal(buildManagedTaints(previous, readyIs('True'), [], cluster('m2'), T2), []);
});

test('conditions match ANDed, with In and NotIn; a missing condition or an empty list never matches', () => {
  const conditions: Condition[] = [
    { type: 'Ready', status: 'True' },
    { type: 'CompleteAPIEnablements', status: 'False' },
  ];
  assert.ok(
    conditionsMatch(conditions, [
      { conditionType: 'Ready', operator: 'NotIn', statusValues: ['False'] },
      { conditionType: 'CompleteAPIEnablements', operator: 'In', statusValues: ['False'] },
    ]),
  );
  assert.not.ok(
    conditionsMatch(conditions, [
      { conditionType: 'Ready', operator: 'In', statusValues: ['True'] },
      { conditionType: 'CompleteAPIEnablements', operator: 'In', statusValues: ['True'] },
    ]),
  );
  assert.not.ok(
    conditionsMatch(conditions, [{ conditionType: 'DiskPressure', operator: 'NotIn', statusValues: ['True'] }]),
  );
  assert.not.ok(conditionsMatch(conditions, []));
});

test('a condition with another operator than In or NotIn, or with statusValues Karmada does not write, matches as Karmada does', () => {
  // The CRD admits any operator and any statusValues; conditionMatches fails an unsupported operator, and a
  // statusValues list is only searched.
  const conditions: Condition[] = [{ type: 'Ready', status: 'False' }];
  assert.not.ok(conditionsMatch(conditions, [{ conditionType: 'Ready', operator: 'Exists', statusValues: ['True'] }]));
  assert.not.ok(conditionsMatch(conditions, [{ conditionType: 'Ready', operator: 'In', statusValues: [] }]));
  assert.ok(conditionsMatch(conditions, [{ conditionType: 'Ready', operator: 'NotIn', statusValues: [] }]));
  assert.ok(conditionsMatch(conditions, [{ conditionType: 'Ready', operator: 'NotIn', statusValues: ['Maybe'] }]));
});

test("effective taints: Git's first, then managed ones not already there", () => {
  const git: Taint[] = [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }];
  const managed: Taint[] = [
    { key: 'dedicated', effect: 'NoSchedule', timeAdded: T1 },
    { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute', timeAdded: T1 },
  ];
  assert.equal(
    effectiveTaints(git, managed).map((t) => `${t.key}:${t.effect}`),
    ['dedicated:NoSchedule', 'cluster.karmada.io/not-ready:NoExecute'],
  );
});

test.run();
