// The ClusterAffinity and APIEnablement plugins beyond the cases plugins/filters.test.ts already carries:
// pkg/scheduler/framework/plugins/clusteraffinity/cluster_affinity_test.go (TestClusterAffinity_Score: the plugin
// scores every cluster MinClusterScore, so ClusterLocality alone orders them), the term lookup of cluster_affinity.go
// (a status naming no term leaves no affinity to match: Success), and
// apienablement/api_enablement_test.go (TestAPIEnablement_Filter) with its own inputs, inside whole scheduling cycles.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClusterStatus } from '../../src/api/cluster.ts';
import type { Placement } from '../../src/api/policy.ts';
import { apiEnablement } from '../../src/assignments/plugins/apiEnablement.ts';
import { clusterAffinity } from '../../src/assignments/plugins/clusterAffinity.ts';
import { schedule } from '../../src/assignments/schedule.ts';
import { cluster, request, show, targets } from './helpers.ts';

test('a clusterAffinities term name matching no term leaves every cluster fitting', () => {
  const placement: Placement = { clusterAffinities: [{ affinityName: 'affinity1', clusterNames: ['cluster2'] }] };
  const ctx = { request: request(placement, 1), cluster: cluster('cluster1'), affinityName: 'gone' };
  assert.is(clusterAffinity.filter(ctx).code, 'Success');
});

test('an empty clusterAffinity matches every cluster that is not excluded', () => {
  const placement: Placement = { clusterAffinity: {} };
  assert.is(clusterAffinity.filter({ request: request(placement, 1), cluster: cluster('cluster1') }).code, 'Success');
  const excluding: Placement = { clusterAffinity: { exclude: ['cluster1'] } };
  assert.is(
    clusterAffinity.filter({ request: request(excluding, 1), cluster: cluster('cluster1') }).code,
    'Unschedulable',
  );
});

test('affinity adds nothing to a score: a cluster scores 100 when the previous result targets it, 0 otherwise', () => {
  const placement: Placement = { clusterAffinity: { clusterNames: ['cluster1', 'cluster2'] } };
  const result = schedule(request(placement, 0, targets('cluster1=0')), [cluster('cluster1'), cluster('cluster2')]);
  const scores = result.explanation.map((e) => [e.cluster, e.outcome === 'filtered' ? undefined : e.score]);
  assert.equal(scores, [
    ['cluster1', 100],
    ['cluster2', 0],
  ]);
  const fresh = schedule(request(placement, 0), [cluster('cluster1'), cluster('cluster2')]);
  assert.equal(
    fresh.explanation.map((e) => (e.outcome === 'filtered' ? undefined : e.score)),
    [0, 0],
  );
});

// api_enablement_test.go's cluster: it serves apps/v1 Deployment only (its list not known to be complete).
const appsOnly: ClusterStatus = {
  apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
};

function customResource(previous: string[] = []) {
  const req = request(
    {},
    0,
    previous.map((name) => ({ name, replicas: 0 })),
  );
  req.resource = { ...req.resource, apiVersion: 'custom.io/v1', kind: 'CustomResource' };
  return req;
}

test('API enablement: a served Deployment fits, a custom resource of another group does not', () => {
  assert.is(
    apiEnablement.filter({ request: request({}, 1), cluster: cluster('cluster1', {}, appsOnly) }).code,
    'Success',
  );
  const result = apiEnablement.filter({ request: customResource(), cluster: cluster('cluster1', {}, appsOnly) });
  assert.is(result.code, 'Unschedulable');
  assert.ok(result.reason, 'an unschedulable result carries its reason');
});

test('API enablement: a cluster the binding already targets passes without serving the API', () => {
  const req = customResource(['cluster1']);
  assert.is(apiEnablement.filter({ request: req, cluster: cluster('cluster1', {}, appsOnly) }).code, 'Success');
});

test('a custom resource goes only to the clusters that serve it, and stays where it already is', () => {
  const serving: ClusterStatus = {
    apiEnablements: [
      { groupVersion: 'custom.io/v1', resources: [{ name: 'customresources', kind: 'CustomResource' }] },
    ],
  };
  const clusters = [
    cluster('cluster1', {}, appsOnly),
    cluster('cluster2', {}, serving),
    cluster('cluster3', {}, appsOnly),
  ];
  const fresh = schedule(customResource(), clusters);
  assert.is(show(fresh.clusters), 'cluster2=0');
  const kept = schedule(customResource(['cluster3']), clusters);
  assert.is(show(kept.clusters), 'cluster2=0 cluster3=0');
  const cluster1 = kept.explanation.find((e) => e.cluster === 'cluster1');
  assert.is(cluster1?.outcome === 'filtered' ? cluster1.plugin : undefined, 'APIEnablement');
});

test.run();
