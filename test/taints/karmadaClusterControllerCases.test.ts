// The cluster controller's taints, case by case, as Karmada's cluster controller sets them (cases after
// pkg/controllers/cluster/cluster_controller_test.go at f8fdd02, TestController_Reconcile). There the Cluster object
// holds one taint list and taintClusterByCondition edits it: a cluster registered with an automatic taint that its
// Ready condition does not call for loses it. In Flotilla the Cluster's spec.taints come from Git and the status
// branch keeps the managed ones; what the scheduler and the taint manager see is effectiveTaints of both.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster, Condition, Taint } from '../../src/api/cluster.ts';
import {
  buildManagedTaints,
  effectiveTaints,
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
} from '../../src/taints/clusterTaints.ts';

const NOW = '2026-11-29T15:00:00Z';
const registered = (taints: Taint[]): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'test-cluster' },
  spec: { syncMode: 'Push', taints },
});
const ready = (status: Condition['status']): Condition[] => [{ type: 'Ready', status }];
/** The taints the scheduler sees after a status pass with these conditions, key:effect, timeAdded left out. */
function seen(cluster: Cluster, conditions: Condition[]): string[] {
  const managed = buildManagedTaints([], conditions, [], cluster, NOW);
  return effectiveTaints(cluster.spec.taints, managed).map((t) => `${t.key}:${t.effect}`);
}

test('a cluster registered with an automatic taint its Ready condition does not call for loses it', () => {
  // "cluster with ready condition": spec.taints [not-ready:NoSchedule], Ready True → no taints.
  assert.equal(seen(registered([{ key: TAINT_NOT_READY, effect: 'NoSchedule' }]), ready('True')), [], 'Ready True');
  // "cluster with unknown condition": [not-ready:NoSchedule], Ready Unknown → [unreachable:NoSchedule].
  assert.equal(
    seen(registered([{ key: TAINT_NOT_READY, effect: 'NoSchedule' }]), ready('Unknown')),
    [`${TAINT_UNREACHABLE}:NoSchedule`],
    'Ready Unknown',
  );
  // "cluster with false condition": [unreachable:NoSchedule], Ready False → [not-ready:NoSchedule].
  assert.equal(
    seen(registered([{ key: TAINT_UNREACHABLE, effect: 'NoSchedule' }]), ready('False')),
    [`${TAINT_NOT_READY}:NoSchedule`],
    'Ready False',
  );
});

test.run();
