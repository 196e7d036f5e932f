// Karmada's federated_resource_quota_status_controller_test.go (TestAggregatedStatusFormWorks, TestCalculateUsed),
// its Works as the entries of the quota's ResourceQuota template status file. Its invalid-JSON and invalid-namespace
// cases have no counterpart: an entry's status is always an object, and its cluster is named.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AggregatedStatusItem } from '../../src/branches/status/statusFiles.ts';
import { federatedQuotaStatus, sumUsed } from '../../src/statuses/federatedQuotaStatus.ts';

const REF = { namespace: 'ns', name: 'q' };
const applied = (clusterName: string, used: Record<string, string>): AggregatedStatusItem => ({
  clusterName,
  applied: true,
  health: 'Healthy',
  status: { used },
});

test('a quota applied on one cluster reports its used', () => {
  const file = federatedQuotaStatus(REF, { cpu: '2' }, [applied('member-cluster-1', { cpu: '1' })]);
  assert.equal(file.status, {
    overall: { cpu: '2' },
    overallUsed: { cpu: '1' },
    aggregatedStatus: [{ clusterName: 'member-cluster-1', used: { cpu: '1' } }],
  });
});

test('a ResourceQuota not applied, or applied with no status yet, is left out of the aggregated status', () => {
  const failed: AggregatedStatusItem = {
    clusterName: 'member-cluster-1',
    applied: false,
    health: 'Unknown',
    message: 'x',
  };
  const noStatus: AggregatedStatusItem = { clusterName: 'member-cluster-2', applied: true, health: 'Unknown' };
  assert.equal(federatedQuotaStatus(REF, { cpu: '1' }, [failed, noStatus]).status, { overall: { cpu: '1' } });
});

test('clusters are listed by name whatever order their entries come in', () => {
  const file = federatedQuotaStatus(REF, {}, [
    applied('member-cluster-2', { memory: '1Gi' }),
    applied('member-cluster-1', { cpu: '1' }),
  ]);
  assert.equal(
    file.status.aggregatedStatus?.map((s) => s.clusterName),
    ['member-cluster-1', 'member-cluster-2'],
  );
  assert.equal(file.status.overallUsed, { cpu: '1', memory: '1Gi' });
  assert.not.ok('overall' in file.status, 'an empty overall is omitted');
});

test("overallUsed adds each resource's used over the clusters", () => {
  assert.equal(
    sumUsed([
      { clusterName: 'cluster1', used: { cpu: '1', memory: '1Gi' } },
      { clusterName: 'cluster2', used: { cpu: '2', memory: '2Gi' } },
    ]),
    { cpu: '3', memory: '3Gi' },
  );
  // Quantity.Add keeps the first term's format: 1Gi + 500M is bytes no binary suffix writes whole.
  assert.equal(
    sumUsed([
      { clusterName: 'a', used: { cpu: '500m', memory: '1Gi' } },
      { clusterName: 'b', used: { cpu: '1500m', memory: '500M' } },
    ]),
    { cpu: '2', memory: '1573741824' },
  );
});

test.run();
