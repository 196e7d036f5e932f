import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PropagationPolicy, ResourceSelector } from '../../src/api/policy.ts';
import { applyPolicyDefaults } from '../../src/documents/applyPolicyDefaults.ts';

const policy = (spec: Partial<PropagationPolicy['spec']>, kind = 'PropagationPolicy'): PropagationPolicy =>
  ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind,
    metadata: { name: 'p', ...(kind === 'PropagationPolicy' ? { namespace: 'shop' } : {}) },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], ...spec },
  }) as PropagationPolicy;

const serviceImport = (apiVersion: string): ResourceSelector => ({ apiVersion, kind: 'ServiceImport', name: 'web' });

test('what the mutating webhook fills in: selector namespaces, spread constraints, Divided Weighted, grace period', () => {
  const out = applyPolicyDefaults(
    policy({
      placement: {
        spreadConstraints: [{ maxGroups: 2 }],
        replicaScheduling: { replicaSchedulingType: 'Divided' },
      },
      failover: { application: { decisionConditions: {}, purgeMode: 'Gracefully' } },
    } as Partial<PropagationPolicy['spec']>),
  );
  assert.is(out.spec.resourceSelectors[0]!.namespace, 'shop');
  assert.equal(out.spec.placement?.spreadConstraints, [{ maxGroups: 2, spreadByField: 'cluster', minGroups: 1 }]);
  assert.is(out.spec.placement?.replicaScheduling?.replicaDivisionPreference, 'Weighted');
  assert.equal(
    [out.spec.priority, out.spec.preemption, out.spec.conflictResolution, out.spec.schedulerName],
    [0, 'Never', 'Abort', 'default-scheduler'],
  );
  assert.is(
    (out.spec.failover as { application: { gracePeriodSeconds?: number } }).application.gracePeriodSeconds,
    600,
  );
});

test("selecting the MCS API's ServiceImport turns propagateDeps on; a ServiceImport of another API does not", () => {
  for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy']) {
    const selectors = (apiVersion: string) => [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      serviceImport(apiVersion),
    ];
    assert.is(
      applyPolicyDefaults(policy({ resourceSelectors: selectors('multicluster.x-k8s.io/v1alpha1') }, kind)).spec
        .propagateDeps,
      true,
    );
    assert.is(
      applyPolicyDefaults(policy({ resourceSelectors: selectors('multicluster.x-k8s.io/v1beta1') }, kind)).spec
        .propagateDeps === true,
      false,
    );
  }
});

test('the deprecated association field propagates no dependencies: no Karmada controller reads it', () => {
  assert.is(applyPolicyDefaults(policy({ association: true })).spec.propagateDeps === true, false);
  assert.is(applyPolicyDefaults(policy({ association: true, propagateDeps: true })).spec.propagateDeps, true);
});

test.run();
