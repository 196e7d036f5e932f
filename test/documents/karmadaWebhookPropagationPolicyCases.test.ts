// PropagationPolicies and ClusterPropagationPolicies read from Git pass through what Karmada's webhooks do to them
// (pkg/webhook/propagationpolicy, pkg/webhook/clusterpropagationpolicy): the mutating webhook's defaults, then
// ValidatePropagationSpec. Cases from those packages' mutating_test.go and validating_test.go, and from
// pkg/apis/policy/v1alpha1/propagation_helper_test.go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PropagationPolicy } from '../../src/api/policy.ts';
import { replicaSchedulingType } from '../../src/assignments/replicaStrategy.ts';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

type Obj = Record<string, unknown>;

const MCS_API = 'multicluster.x-k8s.io/v1alpha1';

/** JSON is YAML: the policy goes through the parse, validation and defaults a file in policies/ does. */
function admit(value: Obj) {
  const { documents, problems } = parseDocuments('policies/p.yaml', new TextEncoder().encode(JSON.stringify(value)));
  return classifyDocuments('policies/p.yaml', documents, problems);
}

function admitted(value: Obj): PropagationPolicy {
  const out = admit(value);
  assert.equal(
    out.problems.map((p) => `${p.code} ${p.message}`),
    [],
  );
  assert.is(out.propagationPolicies.length, 1);
  return out.propagationPolicies[0]!.object;
}

const policy = (kind: string, spec: Obj, metadata: Obj): Obj => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind,
  metadata,
  spec,
});

/** The spec both FullCoverage mutating cases start from. */
const fullCoverageSpec = (selectors: Obj[]): Obj => ({
  placement: {
    spreadConstraints: [{ minGroups: 0 }],
    replicaScheduling: { replicaSchedulingType: 'Divided' },
  },
  propagateDeps: false,
  resourceSelectors: selectors,
  failover: { application: { decisionConditions: {}, purgeMode: 'Gracefully' } },
});

test('a PropagationPolicy gets its namespace on every selector, cluster spread, Weighted division, dependencies for a ServiceImport and a 600 s grace period', () => {
  // propagationpolicy/mutating_test.go TestMutatingAdmission_Handle_FullCoverage. The permanent-id label and the
  // finalizer it also adds are Karmada's bookkeeping: Flotilla derives the id from the object's identity.
  const out = admitted(
    policy(
      'PropagationPolicy',
      fullCoverageSpec([
        { apiVersion: MCS_API, kind: 'ServiceImport' },
        { apiVersion: 'v1', kind: 'Service' },
      ]),
      { name: 'test-propagation-policy', namespace: 'test-namespace' },
    ),
  );
  assert.equal(out.spec.resourceSelectors, [
    { apiVersion: MCS_API, kind: 'ServiceImport', namespace: 'test-namespace' },
    { apiVersion: 'v1', kind: 'Service', namespace: 'test-namespace' },
  ]);
  assert.equal(out.spec.placement?.spreadConstraints, [{ spreadByField: 'cluster', minGroups: 1 }]);
  assert.equal(out.spec.placement?.replicaScheduling, {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
  });
  assert.is(out.spec.propagateDeps, true);
  const application = (out.spec.failover as { application: Obj }).application;
  assert.is(application.purgeMode, 'Gracefully');
  assert.is(application.gracePeriodSeconds, 600);
});

test('a ClusterPropagationPolicy gets the same defaults, and its selectors keep no namespace', () => {
  // clusterpropagationpolicy/mutating_test.go TestMutatingAdmission_Handle_FullCoverage.
  const out = admitted(
    policy('ClusterPropagationPolicy', fullCoverageSpec([{ apiVersion: MCS_API, kind: 'ServiceImport' }]), {
      name: 'test-cp-policy',
    }),
  );
  assert.equal(out.spec.resourceSelectors, [{ apiVersion: MCS_API, kind: 'ServiceImport' }]);
  assert.is(out.metadata.namespace, undefined);
  assert.equal(out.spec.placement?.spreadConstraints, [{ spreadByField: 'cluster', minGroups: 1 }]);
  assert.is(out.spec.placement?.replicaScheduling?.replicaDivisionPreference, 'Weighted');
  assert.is(out.spec.propagateDeps, true);
  assert.is((out.spec.failover as { application: Obj }).application.gracePeriodSeconds, 600);
});

test('a policy for the default scheduler is admitted as written, PropagationPolicy and ClusterPropagationPolicy alike', () => {
  // propagationpolicy and clusterpropagationpolicy validating_test.go "Handle_ValidationSucceeds_AllowsAdmission".
  const selectors = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }];
  const pp = admitted(
    policy(
      'PropagationPolicy',
      { resourceSelectors: selectors, schedulerName: 'default-scheduler' },
      { name: 'web', namespace: 'shop' },
    ),
  );
  assert.is(pp.spec.schedulerName, 'default-scheduler');
  const cpp = admitted(
    policy(
      'ClusterPropagationPolicy',
      { resourceSelectors: selectors, schedulerName: 'default-scheduler' },
      { name: 'web' },
    ),
  );
  assert.is(cpp.spec.schedulerName, 'default-scheduler');
});

test('a policy without a priority has explicit priority 0; a declared one keeps it', () => {
  // propagation_helper_test.go TestPropagationPolicy_ExplicitPriority, TestClusterPropagationPolicy_ExplicitPriority.
  for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy']) {
    const metadata = kind === 'PropagationPolicy' ? { name: 'p', namespace: 'shop' } : { name: 'p' };
    const selectors = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
    assert.is(admitted(policy(kind, { resourceSelectors: selectors }, metadata)).spec.priority, 0, kind);
    assert.is(admitted(policy(kind, { resourceSelectors: selectors, priority: 20 }, metadata)).spec.priority, 20, kind);
  }
});

test('a placement without replicaScheduling duplicates; a declared Divided divides', () => {
  // propagation_helper_test.go TestPlacement_ReplicaSchedulingType.
  assert.is(replicaSchedulingType({}), 'Duplicated');
  assert.is(replicaSchedulingType({ replicaScheduling: { replicaSchedulingType: 'Divided' } }), 'Divided');
  const admittedDivided = admitted(
    policy(
      'PropagationPolicy',
      {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
      },
      { name: 'p', namespace: 'shop' },
    ),
  );
  assert.is(replicaSchedulingType(admittedDivided.spec.placement ?? {}), 'Divided');
});

test.run();
