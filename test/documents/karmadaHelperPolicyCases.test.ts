// Which replica scheduling strategies let an affinity term overflow into further tiers, case by case, as Karmada's
// util.IsOverflowSchedulingAllowed decides it for the validating webhook (cases after pkg/util/policy_test.go at
// f8fdd02, TestIsOverflowSupport; the webhook sees the placement after the mutating webhook's defaults).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateKarmadaRules } from '../../src/documents/schema/validateKarmadaRules.ts';

const term = {
  affinityName: 'primary',
  clusterNames: ['member1'],
  overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member2'] }],
};
const overflowRefused = (replicaScheduling: Record<string, unknown> | undefined) =>
  validateKarmadaRules('PropagationPolicy', {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      placement: { clusterAffinities: [term], ...(replicaScheduling ? { replicaScheduling } : {}) },
    },
  }).some((issue) => issue.path.join('.').endsWith('overflowAffinities'));

test('overflow tiers are allowed only for Divided with Aggregated, or Weighted by a dynamic weight', () => {
  const cases: [string, Record<string, unknown> | undefined, boolean][] = [
    ['no strategy', undefined, false],
    ['Duplicated', { replicaSchedulingType: 'Duplicated' }, false],
    ['Divided, Aggregated', { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }, true],
    [
      'Divided, Weighted by available replicas',
      {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: { dynamicWeight: 'AvailableReplicas' },
      },
      true,
    ],
    [
      'Divided, Weighted without a weight preference',
      { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
      false,
    ],
    [
      'Divided, Weighted by a static list only',
      {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 1 }] },
      },
      false,
    ],
    ['Divided, no preference (the webhook makes it Weighted)', { replicaSchedulingType: 'Divided' }, false],
  ];
  for (const [name, replicaScheduling, allowed] of cases) assert.is(overflowRefused(replicaScheduling), !allowed, name);
});

test.run();
