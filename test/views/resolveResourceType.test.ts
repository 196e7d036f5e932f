import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveResourceType } from '../../src/views/resolveResourceType.ts';

const kinds = [
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'FederatedHPA' },
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'CronFederatedHPA' },
  { apiVersion: 'networking.karmada.io/v1alpha1', kind: 'MultiClusterService' },
];

test("Karmada's short names resolve to its kinds the repo holds, as kubectl get fhpa does on Karmada", () => {
  // A FederatedHPA has its own view (its decision and conditions from the status branch), whatever the repo holds.
  assert.equal(resolveResourceType('fhpa', kinds), { type: 'federatedhpas' });
  assert.is((resolveResourceType('cronfhpa', kinds) as { kind?: string } | undefined)?.kind, 'CronFederatedHPA');
  assert.equal(resolveResourceType('cronfhpa.autoscaling.karmada.io', kinds), resolveResourceType('cronfhpa', kinds));
  assert.is((resolveResourceType('mcs', kinds) as { kind?: string } | undefined)?.kind, 'MultiClusterService');
  assert.equal(resolveResourceType('wk', kinds), { type: 'works' });
});

test('a short name of a kind the repo does not hold resolves to nothing', () => {
  assert.is(resolveResourceType('cronfhpa', []), undefined);
  assert.is(resolveResourceType('mci', kinds), undefined);
  assert.is(resolveResourceType('cronfhpa.apps', kinds), undefined);
});

test.run();
