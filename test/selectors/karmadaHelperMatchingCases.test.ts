// Resource and cluster matching, case by case, as Karmada's util.ResourceSelectorPriority, ClusterMatches,
// ResourceMatchSelectors(Priority), extractClusterFields and matchZones decide them (cases after
// pkg/util/selector_test.go at f8fdd02), plus lifted.NodeSelectorRequirementsAsSelector (pkg/util/lifted/nodeaffinity_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster } from '../../src/api/cluster.ts';
import type { ClusterAffinity, FieldSelectorRequirement, ResourceSelector } from '../../src/api/policy.ts';
import { matchClusterAffinity } from '../../src/selectors/matchClusterAffinity.ts';
import {
  bestSelectorMatch,
  ImplicitPriority,
  matchResourceSelector,
  type SelectableObject,
} from '../../src/selectors/matchResourceSelector.ts';

const pod: SelectableObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'default',
  name: 'test',
  labels: { foo: 'bar' },
};

test('a resource selector matches by name first, then by label selector, else everything of its kind', () => {
  // TestResourceSelectorPriority and TestResourceMatches.
  const cases: [string, ResourceSelector, ImplicitPriority][] = [
    [
      'another apiVersion',
      { apiVersion: 'unmatched', kind: 'Pod', name: 'foo', namespace: 'default' },
      ImplicitPriority.NotMatched,
    ],
    [
      'another kind',
      { apiVersion: 'v1', kind: 'Unmatched', name: 'foo', namespace: 'default' },
      ImplicitPriority.NotMatched,
    ],
    [
      'another namespace',
      { apiVersion: 'v1', kind: 'Pod', name: 'foo', namespace: 'Unmatched' },
      ImplicitPriority.NotMatched,
    ],
    ['no namespace, the name', { apiVersion: 'v1', kind: 'Pod', name: 'test' }, ImplicitPriority.Name],
    [
      'another name: its label selector is not consulted',
      { apiVersion: 'v1', kind: 'Pod', name: 'unmatched', labelSelector: { matchLabels: { foo: 'bar' } } },
      ImplicitPriority.NotMatched,
    ],
    [
      'the name: a label selector that would not match is ignored',
      { apiVersion: 'v1', kind: 'Pod', name: 'test', labelSelector: { matchLabels: { foo: 'unmatched' } } },
      ImplicitPriority.Name,
    ],
    ['another name, no labels', { apiVersion: 'v1', kind: 'Pod', name: 'unmatched' }, ImplicitPriority.NotMatched],
    [
      'no name, labels not matched',
      { apiVersion: 'v1', kind: 'Pod', labelSelector: { matchLabels: { foo: 'unmatched' } } },
      ImplicitPriority.NotMatched,
    ],
    [
      'no name, labels matched',
      { apiVersion: 'v1', kind: 'Pod', labelSelector: { matchLabels: { foo: 'bar' } } },
      ImplicitPriority.LabelSelector,
    ],
    ['neither name nor labels', { apiVersion: 'v1', kind: 'Pod' }, ImplicitPriority.MatchAll],
    [
      'a label selector Kubernetes refuses',
      { apiVersion: 'v1', kind: 'Pod', labelSelector: { matchLabels: { '': 'bar' } } },
      ImplicitPriority.NotMatched,
    ],
  ];
  for (const [name, selector, want] of cases) assert.is(matchResourceSelector(selector, pod), want, name);
});

test('a list of resource selectors matches when any does, with the best of their priorities', () => {
  // TestResourceMatchSelectors and TestResourceMatchSelectorsPriority.
  const matched: ResourceSelector = { apiVersion: 'v1', kind: 'Pod' };
  const unmatched: ResourceSelector = { apiVersion: 'v1', kind: 'Unmatched' };
  const byName: ResourceSelector = { apiVersion: 'v1', kind: 'Pod', name: 'test' };
  const cases: [string, ResourceSelector[] | undefined, ImplicitPriority][] = [
    ['none', undefined, ImplicitPriority.NotMatched],
    ['[matched, unmatched]', [matched, unmatched], ImplicitPriority.MatchAll],
    ['[unmatched, matched]', [unmatched, matched], ImplicitPriority.MatchAll],
    ['[unmatched, unmatched]', [unmatched, unmatched], ImplicitPriority.NotMatched],
    ['[matched, matched]', [matched, matched], ImplicitPriority.MatchAll],
    ['priorities [1, 3]', [matched, byName], ImplicitPriority.Name],
    ['priorities [3, 1]', [byName, matched], ImplicitPriority.Name],
  ];
  for (const [name, selectors, want] of cases) assert.is(bestSelectorMatch(selectors, pod), want, name);
});

// TestClusterMatches: one cluster with three zones, a region, a provider and the label foo=bar.
const cluster1: Cluster = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'cluster1', labels: { foo: 'bar' } },
  spec: { syncMode: 'Push', zones: ['zone1', 'zone2', 'zone3'], region: 'region1', provider: 'provider1' },
};
const zonesIn = { key: 'zone', operator: 'In', values: ['zone1', 'zone2', 'zone3'] };
const zonesNotIn = { key: 'zone', operator: 'NotIn', values: ['zone1', 'zone2', 'zone3'] };
const fields = (...matchExpressions: FieldSelectorRequirement[]) => ({ fieldSelector: { matchExpressions } });
const labelled = (value: string) => ({ labelSelector: { matchLabels: { foo: value } } });
const named = (name = 'cluster1') => ({ clusterNames: [name] });

test('a cluster affinity ANDs exclusion, labels, fields and names', () => {
  const cases: [string, ClusterAffinity, boolean][] = [
    ['excluded, though named', { exclude: ['cluster1'], ...named() }, false],
    ['excluded, though its labels match', { exclude: ['cluster1'], ...labelled('bar') }, false],
    ['excluded, though its zones match', { exclude: ['cluster1'], ...fields(zonesIn) }, false],
    ['named', named(), true],
    ['another cluster named', named('cluster2'), false],
    ['named, labels match', { ...named(), ...labelled('bar') }, true],
    ['named, labels do not match', { ...named(), ...labelled('unmatched') }, false],
    [
      'named, zones and region match',
      { ...named(), ...fields(zonesIn, { key: 'region', operator: 'In', values: ['region1'] }) },
      true,
    ],
    [
      'named, provider matches',
      { ...named(), ...fields({ key: 'provider', operator: 'In', values: ['provider1'] }) },
      true,
    ],
    ['named, region matches', { ...named(), ...fields({ key: 'region', operator: 'In', values: ['region1'] }) }, true],
    ['named, zones NotIn its zones', { ...named(), ...fields(zonesNotIn) }, false],
    [
      'named, provider NotIn its provider',
      { ...named(), ...fields({ key: 'provider', operator: 'NotIn', values: ['provider1'] }) },
      false,
    ],
    [
      'named, region NotIn its region',
      { ...named(), ...fields({ key: 'region', operator: 'NotIn', values: ['region1'] }) },
      false,
    ],
    ['labels and zones match', { ...labelled('bar'), ...fields(zonesIn) }, true],
    [
      'labels and provider match',
      { ...labelled('bar'), ...fields({ key: 'provider', operator: 'In', values: ['provider1'] }) },
      true,
    ],
    [
      'labels and region match',
      { ...labelled('bar'), ...fields({ key: 'region', operator: 'In', values: ['region1'] }) },
      true,
    ],
    ['labels match, zones NotIn', { ...labelled('bar'), ...fields(zonesNotIn) }, false],
    [
      'labels match, provider NotIn',
      { ...labelled('bar'), ...fields({ key: 'provider', operator: 'NotIn', values: ['provider1'] }) },
      false,
    ],
    [
      'labels match, region NotIn',
      { ...labelled('bar'), ...fields({ key: 'region', operator: 'NotIn', values: ['region1'] }) },
      false,
    ],
    ['labels match', labelled('bar'), true],
    ['labels do not match', labelled('unmatched'), false],
    ['empty affinity', {}, true],
    ['a label selector Kubernetes refuses', { labelSelector: { matchLabels: { '': 'bar' } } }, false],
    ['a field requirement without key or operator', fields({ key: '', operator: '' }), false],
    ['zones In', fields(zonesIn), true],
    ['named, every zone NotIn', { ...named(), ...fields(zonesNotIn) }, false],
    ['named, one of its zones In', { ...named(), ...fields({ key: 'zone', operator: 'In', values: ['zone2'] }) }, true],
    ['region In', fields({ key: 'region', operator: 'In', values: ['region1'] }), true],
    [
      'named, region NotIn',
      { ...named(), ...fields({ key: 'region', operator: 'NotIn', values: ['region1'] }) },
      false,
    ],
    [
      'named, another region In',
      { ...named(), ...fields({ key: 'region', operator: 'In', values: ['region2'] }) },
      false,
    ],
    ['provider In', fields({ key: 'provider', operator: 'In', values: ['provider1'] }), true],
    ['provider NotIn', fields({ key: 'provider', operator: 'NotIn', values: ['provider1'] }), false],
    ['another provider In', fields({ key: 'provider', operator: 'In', values: ['provider2'] }), false],
    ['a key that is no cluster field', fields({ key: 'metadata.name', operator: 'In', values: ['cluster1'] }), false],
    ['zones, labels and name match', { ...fields(zonesIn), ...labelled('bar'), ...named() }, true],
    ['zones and labels match, another name', { ...fields(zonesIn), ...labelled('bar'), ...named('cluster2') }, false],
    ['labels and name match, zones NotIn', { ...fields(zonesNotIn), ...labelled('bar'), ...named() }, false],
    ['zones and name match, labels do not', { ...fields(zonesIn), ...labelled('Unmatched'), ...named() }, false],
  ];
  for (const [name, affinity, want] of cases) assert.is(matchClusterAffinity(affinity, cluster1), want, name);
});

test('only a set provider and region are cluster fields: an empty one is absent', () => {
  // Test_extractClusterFields: nothing set, provider only, region only, both.
  const bare = (spec: Partial<Cluster['spec']>): Cluster => ({ ...cluster1, spec: { syncMode: 'Push', ...spec } });
  const present = (c: Cluster, key: string) => matchClusterAffinity(fields({ key, operator: 'Exists' }), c);
  const absent = (c: Cluster, key: string) => matchClusterAffinity(fields({ key, operator: 'DoesNotExist' }), c);
  const cases: [string, Cluster, boolean, boolean][] = [
    ['empty', bare({}), false, false],
    ['provider is set', bare({ provider: 'foo' }), true, false],
    ['region is set', bare({ region: 'foo' }), false, true],
    ['both are set', bare({ provider: 'foo', region: 'bar' }), true, true],
    ['both empty strings', bare({ provider: '', region: '' }), false, false],
  ];
  for (const [name, c, provider, region] of cases) {
    assert.is(present(c, 'provider'), provider, `${name}: provider`);
    assert.is(absent(c, 'provider'), !provider, `${name}: no provider`);
    assert.is(present(c, 'region'), region, `${name}: region`);
    assert.is(absent(c, 'region'), !region, `${name}: no region`);
  }
  const both = bare({ provider: 'foo', region: 'bar' });
  assert.ok(matchClusterAffinity(fields({ key: 'provider', operator: 'In', values: ['foo'] }), both));
  assert.ok(matchClusterAffinity(fields({ key: 'region', operator: 'In', values: ['bar'] }), both));
});

test('the zone requirement reads the zone list: In overlaps, NotIn avoids, Exists and DoesNotExist test emptiness', () => {
  // Test_matchZones.
  const zone = (operator: string, values: string[] | undefined, zones: string[] | undefined) =>
    matchClusterAffinity(fields({ key: 'zone', operator, ...(values ? { values } : {}) }), {
      ...cluster1,
      spec: { syncMode: 'Push', ...(zones ? { zones } : {}) },
    });
  const cases: [string, boolean, boolean][] = [
    ['no zones, In', zone('In', ['foo'], undefined), false],
    ['overlapping zones, In', zone('In', ['foo'], ['foo', 'bar']), true],
    ['all zones, In', zone('In', ['foo', 'bar'], ['foo', 'bar']), true],
    ['no zones, NotIn', zone('NotIn', ['foo'], undefined), true],
    ['some zones listed, NotIn', zone('NotIn', ['foo'], ['foo', 'bar']), false],
    ['no zones, Exists', zone('Exists', undefined, undefined), false],
    ['no zones, DoesNotExist', zone('DoesNotExist', undefined, undefined), true],
    ['an operator zones do not know', zone('Gt', undefined, ['foo']), false],
  ];
  for (const [name, got, want] of cases) assert.is(got, want, name);
});

test('the other field requirements read as node selector requirements, Gt and Lt compared as integers', () => {
  // TestNodeSelectorRequirementsAsSelector: In with values; Exists with values refused; Gt and Lt with one integer.
  const numbered: Cluster = { ...cluster1, spec: { syncMode: 'Push', provider: '5', region: '3' } };
  const match = (...reqs: FieldSelectorRequirement[]) => matchClusterAffinity(fields(...reqs), numbered);
  assert.is(match({ key: 'provider', operator: 'In', values: ['5', 'baz'] }), true);
  assert.is(match({ key: 'provider', operator: 'In', values: ['bar', 'baz'] }), false);
  assert.is(match({ key: 'provider', operator: 'Exists', values: ['bar', 'baz'] }), false, 'Exists with values');
  assert.is(match({ key: 'provider', operator: 'Exists' }), true);
  assert.is(match({ key: 'provider', operator: 'Gt', values: ['1'] }), true);
  assert.is(match({ key: 'provider', operator: 'Gt', values: ['5'] }), false);
  assert.is(match({ key: 'region', operator: 'Lt', values: ['7'] }), true);
  assert.is(match({ key: 'region', operator: 'Lt', values: ['3'] }), false);
  // A field that is no integer never compares; Gt with two values is refused.
  assert.is(matchClusterAffinity(fields({ key: 'region', operator: 'Gt', values: ['1'] }), cluster1), false);
  assert.is(match({ key: 'provider', operator: 'Gt', values: ['1', '2'] }), false);
});

test.run();
