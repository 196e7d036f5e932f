// Cluster and resource matching as Karmada's util.ClusterMatches / ResourceMatches read a selector
// (pkg/util/selector.go): label selectors through metav1.LabelSelectorAsSelector, zones through matchZones, the other
// fields through NodeSelectorRequirementsAsSelector; a selector any of them refuses matches nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster } from '../../src/api/cluster.ts';
import type { ClusterAffinity, FieldSelectorRequirement, LabelSelector } from '../../src/api/policy.ts';
import { labelSelectorProblem, matchLabelSelector } from '../../src/labels/matchLabelSelector.ts';
import { matchClusterAffinity } from '../../src/selectors/matchClusterAffinity.ts';
import { ImplicitPriority, matchResourceSelector } from '../../src/selectors/matchResourceSelector.ts';

const cluster = (spec: Partial<Cluster['spec']> = {}, labels: Record<string, string> = { foo: 'bar' }): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1', labels },
  spec: { syncMode: 'Push', provider: 'aws', region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'], ...spec },
});
const fields = (...matchExpressions: FieldSelectorRequirement[]): ClusterAffinity => ({
  fieldSelector: { matchExpressions },
});

test('a label selector Kubernetes cannot read matches nothing, wherever it is used', () => {
  const invalid: LabelSelector[] = [
    { matchLabels: { '': 'bar' } },
    { matchLabels: { foo: 'not a value!' } },
    { matchExpressions: [{ key: '', operator: 'DoesNotExist' }] },
    { matchExpressions: [{ key: 'foo', operator: 'NotIn', values: [] }] },
    { matchExpressions: [{ key: 'foo', operator: 'In' }] },
    { matchExpressions: [{ key: 'foo', operator: 'Exists', values: ['x'] }] },
    { matchExpressions: [{ key: 'bad key!', operator: 'DoesNotExist' }] },
    { matchExpressions: [{ key: 'foo', operator: 'Gt' as 'In', values: ['1'] }] },
  ];
  for (const selector of invalid) {
    const shown = JSON.stringify(selector);
    assert.ok(labelSelectorProblem(selector), `${shown} is refused`);
    // Each would match the labels foo=bar, or their absence, if it were read leniently.
    assert.not.ok(matchLabelSelector(selector, { foo: 'bar' }), shown);
    assert.not.ok(matchClusterAffinity({ labelSelector: selector }, cluster()), `cluster: ${shown}`);
    const template = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a', labels: { foo: 'bar' } };
    assert.is(
      matchResourceSelector({ apiVersion: 'v1', kind: 'ConfigMap', labelSelector: selector }, template),
      ImplicitPriority.NotMatched,
      `resource: ${shown}`,
    );
  }
  for (const selector of [
    {},
    { matchLabels: { foo: 'bar', 'example.com/tier': '' } },
    { matchExpressions: [{ key: 'foo', operator: 'In' as const, values: ['bar', 'baz'] }] },
    { matchExpressions: [{ key: 'gone', operator: 'DoesNotExist' as const }] },
  ]) {
    assert.is(labelSelectorProblem(selector), undefined, JSON.stringify(selector));
    assert.ok(matchLabelSelector(selector, { foo: 'bar', 'example.com/tier': '' }), JSON.stringify(selector));
  }
});

test('zones match as matchZones: In any overlap, NotIn none, Exists and DoesNotExist on the list, other operators never', () => {
  const zone = (operator: string, values: string[] | undefined, zones: string[]) =>
    matchClusterAffinity(fields({ key: 'zone', operator, ...(values ? { values } : {}) }), cluster({ zones }));
  assert.is(zone('In', ['foo'], []), false);
  assert.is(zone('In', ['foo'], ['foo', 'bar']), true);
  assert.is(zone('NotIn', ['foo'], []), true);
  assert.is(zone('NotIn', ['foo'], ['foo', 'bar']), false);
  assert.is(zone('Exists', undefined, []), false);
  assert.is(zone('Exists', undefined, ['foo']), true);
  assert.is(zone('DoesNotExist', undefined, []), true);
  assert.is(zone('DoesNotExist', undefined, ['z1']), false);
  assert.is(zone('Gt', undefined, ['foo']), false);
});

test('provider and region match as node labels; any other key is absent; a requirement Kubernetes refuses matches nothing', () => {
  const c = cluster();
  const match = (...reqs: FieldSelectorRequirement[]) => matchClusterAffinity(fields(...reqs), c);
  assert.is(match({ key: 'provider', operator: 'In', values: ['aws'] }), true);
  assert.is(match({ key: 'region', operator: 'NotIn', values: ['us-east-1'] }), false);
  assert.is(match({ key: 'region', operator: 'Exists' }), true);
  assert.is(matchClusterAffinity(fields({ key: 'region', operator: 'Exists' }), cluster({ region: '' })), false);
  assert.is(matchClusterAffinity(fields({ key: 'region', operator: 'DoesNotExist' }), cluster({ region: '' })), true);
  // A key that is no field of a cluster: absent, as a node label no node has.
  assert.is(match({ key: 'datacenter', operator: 'In', values: ['us-east-1'] }), false);
  assert.is(match({ key: 'datacenter', operator: 'NotIn', values: ['x'] }), true);
  // Refused: the whole selector matches nothing, the zone requirement that holds included.
  for (const bad of [
    { key: '', operator: '' },
    { key: 'region', operator: 'In', values: [] },
    { key: 'region', operator: 'Exists', values: ['us-east-1'] },
    { key: 'region', operator: 'Gt', values: ['high'] },
    { key: 'region', operator: 'Near', values: ['us'] },
  ])
    assert.is(match({ key: 'zone', operator: 'In', values: ['us-east-1a'] }, bad), false, JSON.stringify(bad));
});

test.run();
