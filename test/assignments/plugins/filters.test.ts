// Transcribed from Karmada's plugin tests (framework/plugins/*/..._test.go) with Karmada's reasons and Flotilla's details.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, Taint } from '../../../src/api/cluster.ts';
import type { Placement, Toleration } from '../../../src/api/policy.ts';
import type { FilterResult } from '../../../src/assignments/framework.ts';
import { apiEnablement } from '../../../src/assignments/plugins/apiEnablement.ts';
import { clusterAffinity } from '../../../src/assignments/plugins/clusterAffinity.ts';
import { clusterLocality } from '../../../src/assignments/plugins/clusterLocality.ts';
import { filterPlugins } from '../../../src/assignments/plugins/registry.ts';
import { spreadConstraint } from '../../../src/assignments/plugins/spreadConstraint.ts';
import { taintToleration, toleratesTaint } from '../../../src/assignments/plugins/taintToleration.ts';
import { cluster, request } from '../helpers.ts';

const ok: FilterResult = { code: 'Success' };
const no = (reason: string, detail?: string): FilterResult =>
  detail ? { code: 'Unschedulable', reason, detail } : { code: 'Unschedulable', reason };
// Karmada's reasons (its plugin tests check them); Flotilla names the failing part beside them.
const NO_API = 'cluster(s) did not have the API resource';
const NO_MATCH = 'cluster(s) did not match the placement cluster affinity constraint';

// TaintToleration
const taint1: Taint = { key: 'key1', value: 'value1', effect: 'NoSchedule' };
const taintCases: {
  name: string;
  taints: Taint[];
  tolerations?: Toleration[];
  previous?: string[];
  expected: FilterResult;
}[] = [
  { name: 'a cluster already targeted skips the check', taints: [taint1], previous: ['c'], expected: ok },
  { name: 'no taints', taints: [], expected: ok },
  {
    name: 'tolerated taint',
    taints: [taint1],
    tolerations: [{ key: 'key1', operator: 'Equal', value: 'value1', effect: 'NoSchedule' }],
    expected: ok,
  },
  {
    name: 'untolerated taint',
    taints: [taint1],
    expected: no('cluster(s) had untolerated taint {key1=value1:NoSchedule}'),
  },
  { name: 'PreferNoSchedule never blocks', taints: [{ key: 'k', effect: 'PreferNoSchedule' }], expected: ok },
  {
    name: 'NoExecute blocks too; a taint without value prints key:effect',
    taints: [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }],
    expected: no('cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoExecute}'),
  },
  {
    name: 'Exists with an empty key tolerates everything',
    taints: [taint1, { key: 'x', effect: 'NoExecute' }],
    tolerations: [{ operator: 'Exists' }],
    expected: ok,
  },
  {
    name: 'a toleration for another effect does not help',
    taints: [taint1],
    tolerations: [{ key: 'key1', operator: 'Exists', effect: 'NoExecute' }],
    expected: no('cluster(s) had untolerated taint {key1=value1:NoSchedule}'),
  },
  {
    name: 'the first untolerated taint is reported',
    taints: [taint1, { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    tolerations: [{ key: 'key1', operator: 'Exists' }],
    expected: no('cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}'),
  },
];
for (const c of taintCases) {
  test(`TaintToleration: ${c.name}`, () => {
    const req = request(
      { ...(c.tolerations ? { clusterTolerations: c.tolerations } : {}) },
      1,
      (c.previous ?? []).map((name) => ({ name, replicas: 1 })),
    );
    assert.equal(taintToleration.filter({ request: req, cluster: cluster('c', { taints: c.taints }) }), c.expected);
  });
}

test('toleratesTaint: Equal compares values, a missing operator means Equal', () => {
  assert.ok(toleratesTaint({ key: 'k', value: 'v' }, { key: 'k', value: 'v', effect: 'NoSchedule' }));
  assert.not.ok(toleratesTaint({ key: 'k', value: 'w' }, { key: 'k', value: 'v', effect: 'NoSchedule' }));
  assert.ok(toleratesTaint({ key: 'k', operator: 'Exists' }, { key: 'k', value: 'v', effect: 'NoSchedule' }));
});

// APIEnablement
const apps = { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] };
const complete = [{ type: 'CompleteAPIEnablements', status: 'True' as const }];
const apiCases: { name: string; cluster: Cluster; kind?: string; previous?: boolean; expected: FilterResult }[] = [
  { name: 'API enabled in the cluster', cluster: cluster('c', {}, { apiEnablements: [apps] }), expected: ok },
  {
    name: 'API not enabled (complete list)',
    cluster: cluster('c', {}, { apiEnablements: [apps], conditions: complete }),
    kind: 'CustomResource',
    expected: no(NO_API, 'API apps/v1 CustomResource is not enabled'),
  },
  {
    name: 'API not listed (list not known complete)',
    cluster: cluster('c', {}, { apiEnablements: [apps] }),
    kind: 'CustomResource',
    expected: no(NO_API, 'API apps/v1 CustomResource is not listed in status.apiEnablements'),
  },
  {
    name: 'status without an apiEnablements field: unknown, so enabled',
    cluster: cluster('c', {}, { conditions: [{ type: 'Ready', status: 'True' as const }] }),
    kind: 'CustomResource',
    expected: ok,
  },
  {
    // Karmada's cluster_helper_test "API disabled - empty APIEnablements with complete condition": its empty list
    // is written as no field at all (omitempty).
    name: 'no apiEnablements field with CompleteAPIEnablements True: the list is empty, not enabled',
    cluster: cluster('c', {}, { conditions: complete }),
    kind: 'CustomResource',
    expected: no(NO_API, 'API apps/v1 CustomResource is not enabled'),
  },
  {
    // The status controller found no API at all (discovery failed): Karmada writes no list and reason Empty.
    name: 'no apiEnablements field with CompleteAPIEnablements False (Empty): collected, so not listed',
    cluster: cluster(
      'c',
      {},
      { conditions: [{ type: 'CompleteAPIEnablements', status: 'False' as const, reason: 'Empty' }] },
    ),
    expected: no(NO_API, 'API apps/v1 Deployment is not listed in status.apiEnablements'),
  },
  {
    name: 'an empty list keeps the strict rule (not listed)',
    cluster: cluster('c', {}, { apiEnablements: [] }),
    expected: no(NO_API, 'API apps/v1 Deployment is not listed in status.apiEnablements'),
  },
  {
    name: 'an empty list known complete: not enabled',
    cluster: cluster('c', {}, { apiEnablements: [], conditions: complete }),
    expected: no(NO_API, 'API apps/v1 Deployment is not enabled'),
  },
  {
    name: 'a cluster already targeted passes without the API',
    cluster: cluster('c', {}, { apiEnablements: [apps] }),
    kind: 'CustomResource',
    previous: true,
    expected: ok,
  },
  { name: 'a cluster without status serves every API', cluster: cluster('c'), kind: 'CustomResource', expected: ok },
];
for (const c of apiCases) {
  test(`APIEnablement: ${c.name}`, () => {
    const req = request({}, 1, c.previous ? [{ name: 'c', replicas: 1 }] : []);
    req.resource.kind = c.kind ?? 'Deployment';
    assert.equal(apiEnablement.filter({ request: req, cluster: c.cluster }), c.expected);
  });
}

// ClusterAffinity
const affinityCases: {
  name: string;
  placement: Placement;
  affinityName?: string;
  replicas?: number;
  requirements?: boolean;
  cluster: Cluster;
  expected: FilterResult;
}[] = [
  {
    name: 'matching affinity',
    placement: { clusterAffinity: { clusterNames: ['cluster1'] } },
    cluster: cluster('cluster1'),
    expected: ok,
  },
  {
    name: 'non-matching affinity',
    placement: { clusterAffinity: { clusterNames: ['cluster2'] } },
    cluster: cluster('cluster1'),
    expected: no(NO_MATCH, 'not in clusterNames'),
  },
  {
    name: 'matching term of clusterAffinities',
    placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['cluster1'] }] },
    affinityName: 'a',
    cluster: cluster('cluster1'),
    expected: ok,
  },
  { name: 'no affinity specified', placement: {}, cluster: cluster('cluster1'), expected: ok },
  {
    name: 'excluded cluster',
    placement: { clusterAffinity: { exclude: ['cluster1'] } },
    cluster: cluster('cluster1'),
    expected: no(NO_MATCH, 'listed in exclude'),
  },
  {
    name: 'labels do not match',
    placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } },
    cluster: cluster('cluster1', {}, undefined, { env: 'dev' }),
    expected: no(NO_MATCH, 'labels do not match labelSelector'),
  },
  {
    name: 'fields do not match',
    placement: {
      clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] } },
    },
    cluster: cluster('cluster1', { region: 'us' }),
    expected: no(NO_MATCH, 'fields do not match fieldSelector'),
  },
  {
    name: 'an overflow affinity admits a workload',
    placement: {
      clusterAffinities: [
        { affinityName: 'a', clusterNames: ['x'], overflowAffinities: [{ clusterNames: ['cluster1'] }] },
      ],
    },
    affinityName: 'a',
    cluster: cluster('cluster1'),
    expected: ok,
  },
  {
    name: 'overflow affinities do not apply to non-workloads',
    placement: {
      clusterAffinities: [
        { affinityName: 'a', clusterNames: ['x'], overflowAffinities: [{ clusterNames: ['cluster1'] }] },
      ],
    },
    affinityName: 'a',
    replicas: 0,
    cluster: cluster('cluster1'),
    expected: no(NO_MATCH, 'not in clusterNames of affinity term a'),
  },
  {
    name: 'a workload at 0 replicas that requests resources still overflows (a workload by its requirements)',
    placement: {
      clusterAffinities: [
        { affinityName: 'a', clusterNames: ['x'], overflowAffinities: [{ clusterNames: ['cluster1'] }] },
      ],
    },
    affinityName: 'a',
    replicas: 0,
    requirements: true,
    cluster: cluster('cluster1'),
    expected: ok,
  },
  {
    name: 'a term other than the one tried does not count',
    placement: {
      clusterAffinities: [
        { affinityName: 'a', clusterNames: ['x'] },
        { affinityName: 'b', clusterNames: ['cluster1'] },
      ],
    },
    affinityName: 'a',
    cluster: cluster('cluster1'),
    expected: no(NO_MATCH, 'not in clusterNames of affinity term a'),
  },
];
for (const c of affinityCases) {
  test(`ClusterAffinity: ${c.name}`, () => {
    const ctx = {
      request: request(c.placement, c.replicas ?? 1, [], c.requirements ? { replicaRequirements: true } : {}),
      cluster: c.cluster,
      ...(c.affinityName ? { affinityName: c.affinityName } : {}),
    };
    assert.equal(clusterAffinity.filter(ctx), c.expected);
  });
}

// SpreadConstraint
const spreadCases: { name: string; placement: Placement; cluster: Cluster; expected: FilterResult }[] = [
  { name: 'no spread constraints', placement: {}, cluster: cluster('c'), expected: ok },
  {
    name: 'provider present',
    placement: { spreadConstraints: [{ spreadByField: 'provider' }] },
    cluster: cluster('c', { provider: 'aws' }),
    expected: ok,
  },
  {
    name: 'provider missing',
    placement: { spreadConstraints: [{ spreadByField: 'provider' }] },
    cluster: cluster('c'),
    expected: no('cluster(s) did not have provider property', 'spec.provider is empty'),
  },
  {
    name: 'region present',
    placement: { spreadConstraints: [{ spreadByField: 'region' }] },
    cluster: cluster('c', { region: 'us-west-2' }),
    expected: ok,
  },
  {
    name: 'region missing',
    placement: { spreadConstraints: [{ spreadByField: 'region' }] },
    cluster: cluster('c'),
    expected: no('cluster(s) did not have region property', 'spec.region is empty'),
  },
  {
    name: 'zones present',
    placement: { spreadConstraints: [{ spreadByField: 'zone' }] },
    cluster: cluster('c', { zones: ['us-west-2a'] }),
    expected: ok,
  },
  {
    name: 'zones missing',
    placement: { spreadConstraints: [{ spreadByField: 'zone' }] },
    cluster: cluster('c'),
    expected: no('cluster(s) did not have zones property', 'spec.zones is empty'),
  },
  {
    name: 'spreadByLabel is ignored',
    placement: { spreadConstraints: [{ spreadByLabel: 'team' }] },
    cluster: cluster('c'),
    expected: ok,
  },
];
for (const c of spreadCases) {
  test(`SpreadConstraint: ${c.name}`, () => {
    assert.equal(spreadConstraint.filter({ request: request(c.placement, 1), cluster: c.cluster }), c.expected);
  });
}

// ClusterLocality
test('ClusterLocality: 0 without a previous result, 100 for targeted clusters, 0 for others', () => {
  assert.is(clusterLocality.score(request({}, 1), cluster('a')), 0);
  assert.is(clusterLocality.score(request({}, 1, [{ name: 'a', replicas: 1 }]), cluster('a')), 100);
  assert.is(clusterLocality.score(request({}, 1, [{ name: 'a', replicas: 1 }]), cluster('b')), 0);
});

test('registry runs filters in a fixed order', () => {
  assert.equal(
    filterPlugins.map((p) => p.name),
    ['APIEnablement', 'TaintToleration', 'ClusterAffinity', 'SpreadConstraint', 'ClusterEviction'],
  );
});

test.run();
