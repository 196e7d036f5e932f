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

test('fields written empty are stored as missing, as the mutating webhook marshals them with omitempty, then defaulted', () => {
  for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy']) {
    const metadata = kind === 'PropagationPolicy' ? { name: 'p', namespace: 'shop' } : { name: 'p' };
    const stored = admitted(
      policy(
        kind,
        {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
          preemption: '',
          conflictResolution: '',
          placement: {
            clusterAffinity: { clusterNames: ['member1'] },
            clusterAffinities: [],
            replicaScheduling: {
              replicaSchedulingType: 'Divided',
              replicaDivisionPreference: '',
              weightPreference: { dynamicWeight: '' },
            },
            spreadConstraints: [{ spreadByField: '', maxGroups: 2 }],
          },
          failover: { cluster: { purgeMode: '' } },
        },
        metadata,
      ),
    );
    assert.is(stored.spec.preemption, 'Never', kind);
    assert.is(stored.spec.conflictResolution, 'Abort', kind);
    assert.is(stored.spec.placement?.clusterAffinities, undefined, kind);
    assert.equal(
      stored.spec.placement?.replicaScheduling,
      { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: {} },
      kind,
    );
    assert.equal(stored.spec.placement?.spreadConstraints, [{ spreadByField: 'cluster', maxGroups: 2, minGroups: 1 }]);
    assert.equal(stored.spec.failover, { cluster: { purgeMode: 'Gracefully' } }, kind);
  }
  const overflow = admitted(
    policy(
      'PropagationPolicy',
      {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['member1'], overflowAffinities: [] }] },
      },
      { name: 'p', namespace: 'shop' },
    ),
  );
  assert.equal(overflow.spec.placement?.clusterAffinities, [{ affinityName: 'a', clusterNames: ['member1'] }]);
});

test('a missing decisionConditions is stored empty, its tolerationSeconds defaulted, as the struct always marshals', () => {
  const stored = admitted(
    policy(
      'PropagationPolicy',
      {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        propagateDeps: true,
        failover: { application: { purgeMode: 'Directly' } },
      },
      { name: 'p', namespace: 'shop' },
    ),
  );
  assert.equal(stored.spec.failover, {
    application: { purgeMode: 'Directly', decisionConditions: { tolerationSeconds: 300 } },
  });
});

test('an application purgeMode written "" gets no grace period from the webhook and is stored Gracefully: refused', () => {
  const out = admit(
    policy(
      'PropagationPolicy',
      {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        propagateDeps: true,
        failover: { application: { decisionConditions: {}, purgeMode: '' } },
      },
      { name: 'p', namespace: 'shop' },
    ),
  );
  assert.equal(
    out.problems.map((p) => `${p.severity} ${p.code}`),
    ['error INVALID_VALUE'],
  );
  assert.match(out.problems[0]!.message, /gracePeriodSeconds is not set, but purgeMode is Gracefully/);
  assert.is(out.propagationPolicies.length, 0);
});

test('a replicaSchedulingType written "" is stored Divided without a division preference', () => {
  // The webhook reads the type before the CRD defaults it, so it gives no Weighted preference.
  const stored = admitted(
    policy(
      'PropagationPolicy',
      {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        placement: { replicaScheduling: { replicaSchedulingType: '' } },
      },
      { name: 'p', namespace: 'shop' },
    ),
  );
  assert.equal(stored.spec.placement?.replicaScheduling, { replicaSchedulingType: 'Divided' });
});

test('overflow tiers under a replicaSchedulingType written "" are refused: stored without a preference, it is neither Aggregated nor Weighted', () => {
  // validation.go ValidatePlacement reads util.IsOverflowSchedulingAllowed on the stored placement, whose
  // replicaDivisionPreference the webhook left empty; a dynamic weight does not make it Weighted.
  const placement = (replicaSchedulingType: string) => ({
    clusterAffinities: [
      {
        affinityName: 'primary',
        clusterNames: ['member1'],
        overflowAffinities: [{ affinityName: 'burst', clusterNames: ['member2'] }],
      },
    ],
    replicaScheduling: { replicaSchedulingType, weightPreference: { dynamicWeight: 'AvailableReplicas' } },
  });
  const spec = (type: string) => ({
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    placement: placement(type),
  });
  const out = admit(policy('PropagationPolicy', spec(''), { name: 'p', namespace: 'shop' }));
  assert.equal(
    out.problems.map((p) => `${p.severity} ${p.code} ${p.message}`),
    [
      'error INVALID_VALUE spec.placement.clusterAffinities[0].overflowAffinities is set, but overflow needs Divided scheduling with Aggregated, or Weighted with dynamicWeight',
    ],
  );
  assert.is(out.propagationPolicies.length, 0);
  // Written Divided, or left out, the webhook makes it Weighted and the dynamic weight allows overflow.
  admitted(policy('PropagationPolicy', spec('Divided'), { name: 'p', namespace: 'shop' }));
  const { replicaSchedulingType: _, ...untyped } = placement('').replicaScheduling;
  admitted(
    policy(
      'ClusterPropagationPolicy',
      { ...spec(''), placement: { ...placement(''), replicaScheduling: untyped } },
      { name: 'p' },
    ),
  );
});

test('a spread constraint written as a bare list item is decoded as an empty one, which the webhook spreads by cluster', () => {
  // The decoder makes a null item of []SpreadConstraint a zero struct before SetDefaultSpreadConstraints runs.
  const text = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: p}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    spreadConstraints:
      -
`;
  const { documents, problems } = parseDocuments('policies/p.yaml', new TextEncoder().encode(text));
  const out = classifyDocuments('policies/p.yaml', documents, problems);
  assert.equal(out.problems, []);
  assert.equal(out.propagationPolicies[0]!.object.spec.placement?.spreadConstraints, [
    { spreadByField: 'cluster', minGroups: 1 },
  ]);
});

test.run();
