// Karmada's policy helpers, case by case (pkg/util/helper/policy_test.go at f8fdd02): the webhook defaults for replica
// division and failover grace, which placements divide replicas dynamically, and how the applied-placement
// annotation is read back. The expectations are Karmada's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Placement, PropagationPolicy } from '../../src/api/policy.ts';
import { placementChanged } from '../../src/assignments/needsReschedule.ts';
import { assignStrategyOf } from '../../src/assignments/replicaStrategy.ts';
import { applyPolicyDefaults } from '../../src/documents/applyPolicyDefaults.ts';

const withSpec = (spec: Partial<PropagationPolicy['spec']>): PropagationPolicy =>
  applyPolicyDefaults({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'p', namespace: 'shop' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], ...spec },
  } as PropagationPolicy);

// TestIsReplicaDynamicDivided: only Divided with dynamicWeight, or Divided Aggregated, divides by capacity.
test('replicas are divided dynamically only by a dynamic weight or the Aggregated preference', () => {
  const dynamic = (p: Placement) => ['DynamicWeight', 'Aggregated'].includes(assignStrategyOf(p) ?? '');
  assert.is(dynamic({}), false, 'strategy empty');
  assert.is(dynamic({ replicaScheduling: { replicaSchedulingType: 'Duplicated' } }), false, 'strategy duplicated');
  assert.is(
    dynamic({
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: { dynamicWeight: 'AvailableReplicas' },
      },
    }),
    true,
    'strategy division preference weighted',
  );
  assert.is(
    dynamic({ replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } }),
    true,
    'strategy division preference aggregated',
  );
});

// TestGetAppliedPlacement: the annotation is the placement as JSON; without it there is no applied placement, so the
// scheduler sees a changed placement (scheduler/helper.go placementChanged).
test('the applied-placement annotation reads back as the placement it recorded; without it the placement counts as changed', () => {
  const placement: Placement = { clusterAffinity: { clusterNames: ['member1', 'member2'] } };
  assert.is(
    placementChanged(placement, '{"clusterAffinity":{"clusterNames":["member1","member2"]}}', undefined),
    false,
  );
  assert.is(placementChanged(placement, undefined, undefined), true);
});

// TestSetReplicaDivisionPreferenceWeighted, "no replica scheduling strategy declared" and "specified aggregated
// division preference" (the third, Weighted by default, is in test/documents/applyPolicyDefaults.test.ts).
test('the webhook adds no replicaScheduling where there is none, and keeps an Aggregated preference', () => {
  assert.is(withSpec({ placement: {} }).spec.placement?.replicaScheduling, undefined);
  assert.is(
    withSpec({
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
    }).spec.placement?.replicaScheduling?.replicaDivisionPreference,
    'Aggregated',
  );
});

// TestSetDefaultGracePeriodSeconds, "purgeMode is not gracefully" and "purgeMode is gracefully and gracePeriodSeconds
// is set" (the 600 s default is in test/documents/applyPolicyDefaults.test.ts).
test('the 600 s grace period is given only to a Gracefully purge without one', () => {
  const grace = (application: Record<string, unknown>) =>
    (
      withSpec({ failover: { application } } as Partial<PropagationPolicy['spec']>).spec.failover as {
        application: { gracePeriodSeconds?: number };
      }
    ).application.gracePeriodSeconds;
  assert.is(grace({ decisionConditions: {}, purgeMode: 'Never' }), undefined);
  assert.is(grace({ decisionConditions: {}, purgeMode: 'Gracefully', gracePeriodSeconds: 200 }), 200);
});

test.run();
