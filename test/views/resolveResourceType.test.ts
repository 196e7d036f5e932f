import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveResourceType } from '../../src/views/resolveResourceType.ts';

const kinds = [
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'FederatedHPA' },
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'CronFederatedHPA' },
  { apiVersion: 'networking.karmada.io/v1alpha1', kind: 'MultiClusterService' },
];

test("Karmada's short names resolve to its kinds the repo holds, as kubectl get fhpa does on Karmada", () => {
  const fhpa = resolveResourceType('fhpa', kinds);
  assert.equal(fhpa, {
    type: 'templates',
    kind: 'FederatedHPA',
    group: 'autoscaling.karmada.io',
    plural: 'federatedhpas',
  });
  assert.is((resolveResourceType('cronfhpa', kinds) as { kind?: string } | undefined)?.kind, 'CronFederatedHPA');
  assert.equal(resolveResourceType('fhpa.autoscaling.karmada.io', kinds), fhpa);
  assert.is((resolveResourceType('mcs', kinds) as { kind?: string } | undefined)?.kind, 'MultiClusterService');
  assert.equal(resolveResourceType('wk', kinds), { type: 'works' });
});

test('a short name of a kind the repo does not hold resolves to nothing', () => {
  assert.is(resolveResourceType('fhpa', []), undefined);
  assert.is(resolveResourceType('mci', kinds), undefined);
  assert.is(resolveResourceType('fhpa.apps', kinds), undefined);
});

test.run();
