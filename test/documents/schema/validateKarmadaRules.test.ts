import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateKarmadaRules } from '../../../src/documents/schema/validateKarmadaRules.ts';
import type { KarmadaKind } from '../../../src/documents/schema/karmadaSchemas.ts';
import { formatPath } from '../../../src/documents/schema/formatPath.ts';
import { storedPolicy } from '../../../src/documents/storedPolicy.ts';
import { validateKarmadaDocument } from '../../../src/documents/schema/validateKarmadaDocument.ts';

type Obj = Record<string, unknown>;

function pp(spec: Obj, metadata: Obj = { name: 'web', namespace: 'shop' }): Obj {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata,
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], ...spec },
  };
}

function op(spec: Obj, metadata: Obj = { name: 'web-op', namespace: 'shop' }): Obj {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', metadata, spec };
}

function cluster(spec: Obj, name = 'member1'): Obj {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push', ...spec },
  };
}

/** `path -> message` of every issue, for compact assertions. */
// The rules read a policy as Karmada stores it, after its webhooks, as classifyDocuments gives it to them.
function run(kind: KarmadaKind, value: Obj): string[] {
  return validateKarmadaRules(kind, storedPolicy(kind, value)).map((i) => `${formatPath(i.path)}: ${i.message}`);
}

function errorPaths(kind: KarmadaKind, value: Obj): string[] {
  return validateKarmadaRules(kind, storedPolicy(kind, value))
    .filter((i) => !i.warning)
    .map((i) => formatPath(i.path));
}

function paths(kind: KarmadaKind, value: Obj): string[] {
  return validateKarmadaRules(kind, storedPolicy(kind, value)).map((i) => formatPath(i.path));
}

// ---- placement: clusterAffinity vs clusterAffinities

test('clusterAffinity and clusterAffinities cannot both be set', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ placement: { clusterAffinity: {}, clusterAffinities: [{ affinityName: 'a' }] } }),
  );
  assert.is(issues.length, 1);
  assert.is(formatPath(issues[0]!.path), 'spec.placement.clusterAffinities');
  assert.is(issues[0]!.code, 'INVALID_VALUE');
  assert.match(issues[0]!.fix, 'keep only one');
  assert.equal(run('PropagationPolicy', pp({ placement: { clusterAffinity: { clusterNames: ['a'] } } })), []);
  assert.equal(
    run('PropagationPolicy', pp({ placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['a'] }] } })),
    [],
  );
});

// ---- affinityName

test('affinityName must be 1 to 32 characters', () => {
  const long = 'a'.repeat(33);
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ placement: { clusterAffinities: [{ affinityName: long }, { affinityName: '' }] } }),
    ),
    ['spec.placement.clusterAffinities[0].affinityName', 'spec.placement.clusterAffinities[1].affinityName'],
  );
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ placement: { clusterAffinities: [{ affinityName: 'a'.repeat(32) }, { affinityName: 'b' }] } }),
    ),
    [],
  );
});

test('affinityName must be a valid name', () => {
  const [message] = run('PropagationPolicy', pp({ placement: { clusterAffinities: [{ affinityName: 'has space' }] } }));
  assert.match(
    message!,
    'spec.placement.clusterAffinities[0].affinityName: spec.placement.clusterAffinities[0].affinityName is "has space", which is not a valid name',
  );
});

test('affinityName must be unique', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ placement: { clusterAffinities: [{ affinityName: 'a' }, { affinityName: 'b' }, { affinityName: 'a' }] } }),
  );
  assert.is(issues.length, 1);
  assert.is(
    issues[0]!.message,
    'spec.placement.clusterAffinities[2].affinityName is "a", the same as spec.placement.clusterAffinities[0].affinityName; each term needs a unique name',
  );
  assert.equal(
    run('PropagationPolicy', pp({ placement: { clusterAffinities: [{ affinityName: 'a' }, { affinityName: 'b' }] } })),
    [],
  );
});

// ---- fieldSelector

test('fieldSelector keys must be provider, region or zone', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({
      placement: {
        clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } },
      },
    }),
  );
  assert.is(issues.length, 1);
  assert.is(formatPath(issues[0]!.path), 'spec.placement.clusterAffinity.fieldSelector.matchExpressions[0].key');
  assert.match(issues[0]!.fix, 'use one of: provider, region, zone');
  for (const key of ['provider', 'region', 'zone']) {
    assert.equal(
      run(
        'PropagationPolicy',
        pp({
          placement: {
            clusterAffinity: { fieldSelector: { matchExpressions: [{ key, operator: 'NotIn', values: ['x'] }] } },
          },
        }),
      ),
      [],
    );
  }
});

test('fieldSelector operators must be In or NotIn, in every affinity term and overflow term', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({
      placement: {
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
        clusterAffinities: [
          {
            affinityName: 'a',
            fieldSelector: { matchExpressions: [{ key: 'region', operator: 'Exists' }] },
            overflowAffinities: [
              {
                affinityName: 'b',
                fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['1'] }] },
              },
            ],
          },
        ],
      },
    }),
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    [
      'spec.placement.clusterAffinities[0].fieldSelector.matchExpressions[0].operator',
      'spec.placement.clusterAffinities[0].overflowAffinities[0].fieldSelector.matchExpressions[0].operator',
    ],
  );
  assert.is(issues[0]!.fix, 'use one of: In, NotIn');
});

// ---- spreadConstraints

test('spreadByField and spreadByLabel are mutually exclusive', () => {
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', spreadByLabel: 'team' }] } }),
    ),
    ['spec.placement.spreadConstraints[0]'],
  );
  assert.equal(run('PropagationPolicy', pp({ placement: { spreadConstraints: [{ spreadByLabel: 'team' }] } })), []);
});

test('maxGroups must be at least minGroups (minGroups 0 counts as the default 1)', () => {
  const [issue] = validateKarmadaRules(
    'PropagationPolicy',
    pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 3, maxGroups: 2 }] } }),
  );
  assert.is(issue!.message, 'spec.placement.spreadConstraints[0].maxGroups is 2, less than minGroups 3');
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 2, maxGroups: 2 }] } }),
    ),
    [],
  );
  assert.equal(
    run('PropagationPolicy', pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 2 }] } })),
    [],
    'maxGroups 0/unset means no upper bound',
  );
  assert.equal(
    run('PropagationPolicy', pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1 }] } })),
    [],
  );
});

test('minGroups and maxGroups cannot be negative', () => {
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster', minGroups: -1, maxGroups: -2 }] } }),
    ),
    ['spec.placement.spreadConstraints[0].minGroups', 'spec.placement.spreadConstraints[0].maxGroups'],
  );
});

test('at most one spread constraint per field', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({
      placement: {
        spreadConstraints: [
          { spreadByField: 'cluster' },
          { spreadByField: 'region' },
          { spreadByField: 'region' },
          { spreadByField: 'region' },
        ],
      },
    }),
  );
  assert.is(issues.length, 1, 'a field repeated several times is reported once');
  assert.match(issues[0]!.message, 'spreads by region again (already spec.placement.spreadConstraints[1])');
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ placement: { spreadConstraints: [{ spreadByField: 'cluster' }, { spreadByField: 'region' }] } }),
    ),
    [],
  );
});

test('a cluster spread constraint is required whenever a field constraint is used', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ placement: { spreadConstraints: [{ spreadByField: 'region', minGroups: 2 }] } }),
  );
  assert.is(issues.length, 1);
  assert.is(formatPath(issues[0]!.path), 'spec.placement.spreadConstraints');
  assert.match(issues[0]!.fix, 'spreadByField: cluster');
  // An empty constraint is defaulted to spreadByField: cluster by Karmada's webhook.
  assert.equal(
    run('PropagationPolicy', pp({ placement: { spreadConstraints: [{ spreadByField: 'zone' }, { maxGroups: 3 }] } })),
    [],
  );
  assert.equal(
    run('PropagationPolicy', pp({ placement: { spreadConstraints: [{ spreadByLabel: 'team' }] } })),
    [],
    'label constraints need no cluster constraint',
  );
});

// ---- tolerations

test('clusterTolerations reject the Lt and Gt operators', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({
      placement: {
        clusterTolerations: [
          { key: 'a', operator: 'Lt', value: '3' },
          { key: 'b', operator: 'Gt', value: '1' },
        ],
      },
    }),
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.placement.clusterTolerations[0].operator', 'spec.placement.clusterTolerations[1].operator'],
  );
  assert.is(issues[0]!.fix, 'use one of: Exists, Equal');
  assert.equal(
    run(
      'PropagationPolicy',
      pp({
        placement: {
          clusterTolerations: [
            { key: 'a', operator: 'Exists' },
            { key: 'b', operator: 'Equal', value: 'x' },
            { key: 'c' },
          ],
        },
      }),
    ),
    [],
  );
});

// Karmada's CRD gives a toleration's operator and effect no enum and its webhook refuses only Lt and Gt: any other
// value is admitted and tolerates nothing (Toleration.ToleratesTaint), so it is a warning, not a refusal.
test('clusterTolerations with an operator or effect no taint matches are admitted with a warning', () => {
  const issues = validateKarmadaDocument(
    'PropagationPolicy',
    pp({
      placement: {
        clusterTolerations: [
          { key: 'a', operator: 'Foo' },
          { key: 'b', operator: 'Exists', effect: 'SometimesNoSchedule' },
          { key: 'c', operator: 'Equal', value: 'x', effect: 'PreferNoSchedule' },
          { operator: 'Exists', effect: '' },
        ],
      },
    }),
  );
  assert.equal(
    issues.map((i) => `${i.warning ? 'warning' : 'error'} ${formatPath(i.path)}`),
    ['warning spec.placement.clusterTolerations[0].operator', 'warning spec.placement.clusterTolerations[1].effect'],
  );
  assert.match(issues[0]!.message, 'tolerates no taint');
});

// ---- resourceSelectors namespace

test('a PropagationPolicy only selects resources in its own namespace', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }),
  );
  assert.is(issues.length, 1);
  assert.is(formatPath(issues[0]!.path), 'spec.resourceSelectors[0].namespace');
  assert.match(issues[0]!.message, 'the policy is in namespace "shop"');
  assert.equal(
    run(
      'PropagationPolicy',
      pp({
        resourceSelectors: [
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop' },
          { apiVersion: 'v1', kind: 'Secret' },
        ],
      }),
    ),
    [],
  );
});

test('a policy without metadata.namespace lives in the default namespace (or the one given)', () => {
  const value = pp(
    { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' }] },
    { name: 'x' },
  );
  assert.equal(validateKarmadaRules('PropagationPolicy', value), []);
  assert.equal(validateKarmadaRules('PropagationPolicy', value, { defaultNamespace: 'shop' }).length, 1);
});

test('a ClusterPropagationPolicy may select any namespace', () => {
  const value = {
    ...pp({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }, { name: 'x' }),
    kind: 'ClusterPropagationPolicy',
  };
  assert.equal(run('ClusterPropagationPolicy', value), []);
});

// ---- staticWeightList

test('staticWeightList weights must be at least 1', () => {
  const weights = (weight: number) =>
    pp({
      placement: {
        replicaScheduling: {
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['a'] }, weight }] },
        },
      },
    });
  const issues = validateKarmadaRules('PropagationPolicy', weights(0));
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight'],
  );
  assert.is(
    issues[0]!.message,
    'spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight is 0; a weight must be at least 1',
  );
  assert.equal(run('PropagationPolicy', weights(1)), []);
});

// ---- failover

const application = (extra: Obj) => ({ decisionConditions: { tolerationSeconds: 60 }, ...extra });

test('application failover requires propagateDeps', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ failover: { application: application({ purgeMode: 'Directly' }) } }),
  );
  assert.equal(
    issues.map((i) => [formatPath(i.path), i.fix]),
    [['spec.propagateDeps', 'set spec.propagateDeps: true, or remove spec.failover.application']],
  );
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: application({ purgeMode: 'Directly' }) } }),
    ),
    [],
  );
});

test('application failover on a ServiceImport needs no propagateDeps (the webhook forces it on)', () => {
  const value = pp({
    resourceSelectors: [{ apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport', name: 'web' }],
    failover: { application: application({ purgeMode: 'Never' }) },
  });
  assert.equal(run('PropagationPolicy', value), []);
});

test('gracePeriodSeconds is only allowed when purgeMode is Gracefully', () => {
  for (const purgeMode of ['Directly', 'Never']) {
    const issues = validateKarmadaRules(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: application({ purgeMode, gracePeriodSeconds: 60 }) } }),
    );
    assert.equal(
      issues.map((i) => formatPath(i.path)),
      ['spec.failover.application.gracePeriodSeconds'],
    );
    assert.match(issues[0]!.fix, 'remove spec.failover.application.gracePeriodSeconds');
  }
  assert.equal(
    run(
      'PropagationPolicy',
      pp({
        propagateDeps: true,
        failover: { application: application({ purgeMode: 'Gracefully', gracePeriodSeconds: 60 }) },
      }),
    ),
    [],
  );
  // purgeMode defaults to Gracefully.
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: application({ gracePeriodSeconds: 60 }) } }),
    ),
    [],
  );
});

test('gracePeriodSeconds may be omitted with Gracefully (defaulted to 600) but must be positive when set', () => {
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: application({ purgeMode: 'Gracefully' }) } }),
    ),
    [],
  );
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: application({ gracePeriodSeconds: 0 }) } }),
    ),
    ['spec.failover.application.gracePeriodSeconds'],
  );
});

test('decisionConditions.tolerationSeconds cannot be negative', () => {
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: { decisionConditions: { tolerationSeconds: -1 } } } }),
    ),
    ['spec.failover.application.decisionConditions.tolerationSeconds'],
  );
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ propagateDeps: true, failover: { application: { decisionConditions: { tolerationSeconds: 0 } } } }),
    ),
    [],
  );
});

test('statePreservation aliasLabelName must be a valid label key', () => {
  const rules = (aliasLabelName: string) => ({ rules: [{ aliasLabelName, jsonPath: '{ .replicas }' }] });
  assert.equal(paths('PropagationPolicy', pp({ failover: { cluster: { statePreservation: rules('bad key!') } } })), [
    'spec.failover.cluster.statePreservation.rules[0].aliasLabelName',
  ]);
  assert.equal(
    run('PropagationPolicy', pp({ failover: { cluster: { statePreservation: rules('example.com/replicas') } } })),
    [],
  );
});

// ---- suspension

test('suspension.dispatching cannot be combined with dispatchingOnClusters', () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    pp({ suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['member1'] } } }),
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.suspension'],
  );
  assert.equal(run('PropagationPolicy', pp({ suspension: { dispatching: true } })), []);
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ suspension: { dispatching: false, dispatchingOnClusters: { clusterNames: ['member1'] } } }),
    ),
    [],
  );
  assert.equal(
    run('PropagationPolicy', pp({ suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: [] } } })),
    [],
  );
});

// ---- preemption

test('preemption Always requires every resource selector to have a name', () => {
  const value = pp({
    preemption: 'Always',
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      { apiVersion: 'v1', kind: 'Service' },
    ],
  });
  assert.equal(errorPaths('PropagationPolicy', value), ['spec.resourceSelectors[1].name']);
  assert.equal(errorPaths('PropagationPolicy', pp({ preemption: 'Always' })), []);
  assert.equal(
    run('PropagationPolicy', pp({ preemption: 'Never', resourceSelectors: [{ apiVersion: 'v1', kind: 'Service' }] })),
    [],
  );
});

test("preemption Always is a warning at the field: Karmada's preemption feature is off by default, so claims stay", () => {
  const issues = validateKarmadaRules(
    'PropagationPolicy',
    storedPolicy('PropagationPolicy', pp({ preemption: 'Always' })),
  );
  assert.equal(
    issues.map((i) => [formatPath(i.path), i.warning === true]),
    [['spec.preemption', true]],
  );
  assert.match(issues[0]!.message, /not honoured/);
  assert.equal(
    run('ClusterPropagationPolicy', { ...pp({ preemption: 'Never' }), kind: 'ClusterPropagationPolicy' }),
    [],
  );
});

// ---- overflowAffinities

test('overflowAffinities need Divided with Aggregated or dynamic weight, and a non-empty inline affinity', () => {
  const term = {
    affinityName: 'primary',
    clusterNames: ['m1'],
    overflowAffinities: [{ affinityName: 'burst', clusterNames: ['m2'] }],
  };
  assert.equal(paths('PropagationPolicy', pp({ placement: { clusterAffinities: [term] } })), [
    'spec.placement.clusterAffinities[0].overflowAffinities',
  ]);
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({ placement: { clusterAffinities: [term], replicaScheduling: { replicaSchedulingType: 'Divided' } } }),
    ),
    ['spec.placement.clusterAffinities[0].overflowAffinities'],
    'Divided defaults to Weighted, which needs dynamicWeight',
  );
  assert.equal(
    run(
      'PropagationPolicy',
      pp({ placement: { clusterAffinities: [term], replicaScheduling: { replicaDivisionPreference: 'Aggregated' } } }),
    ),
    [],
  );
  assert.equal(
    run(
      'PropagationPolicy',
      pp({
        placement: {
          clusterAffinities: [term],
          replicaScheduling: { weightPreference: { dynamicWeight: 'AvailableReplicas' } },
        },
      }),
    ),
    [],
  );
  const bare = { affinityName: 'primary', overflowAffinities: [{ affinityName: 'primary', clusterNames: ['m2'] }] };
  const issues = run(
    'PropagationPolicy',
    pp({ placement: { clusterAffinities: [bare], replicaScheduling: { replicaDivisionPreference: 'Aggregated' } } }),
  );
  assert.is(issues.length, 2);
  assert.match(issues[0]!, 'selects no primary clusters of its own');
  assert.match(issues[1]!, 'already used by this term');
});

// ---- workloadAffinity

test('workloadAffinity keys must be valid and differ between affinity and antiAffinity', () => {
  assert.equal(
    paths(
      'PropagationPolicy',
      pp({
        placement: {
          workloadAffinity: { affinity: { groupByLabelKey: 'app' }, antiAffinity: { groupByLabelKey: 'app' } },
        },
      }),
    ),
    ['spec.placement.workloadAffinity'],
  );
  assert.equal(
    paths('PropagationPolicy', pp({ placement: { workloadAffinity: { affinity: { groupByLabelKey: '-bad-' } } } })),
    ['spec.placement.workloadAffinity.affinity.groupByLabelKey'],
  );
  const valid = validateKarmadaRules(
    'PropagationPolicy',
    pp({
      placement: {
        workloadAffinity: { affinity: { groupByLabelKey: 'app' }, antiAffinity: { groupByLabelKey: 'tier' } },
      },
    }),
  );
  // Valid, and only warned about: Karmada's feature gate is off, so nothing schedules by it.
  assert.equal(
    valid.map((i) => [formatPath(i.path), i.warning]),
    [['spec.placement.workloadAffinity', true]],
  );
  assert.match(valid[0]!.message, "Karmada's WorkloadAffinity feature is alpha and off by default");
});

// ---- OverridePolicy

const rule = (overriders: Obj, targetCluster?: Obj) => ({
  overrideRules: [{ ...(targetCluster ? { targetCluster } : {}), overriders }],
});

test('a plaintext remove may carry a value: the webhook reads no plaintext operator and the patch ignores it', () => {
  for (const value of [3, undefined])
    assert.equal(
      validateKarmadaRules(
        'OverridePolicy',
        op(rule({ plaintext: [{ path: '/spec/replicas', operator: 'remove', ...(value ? { value } : {}) }] })),
      ),
      [],
    );
});

test('plaintext add and replace need a value', () => {
  const issues = validateKarmadaRules(
    'OverridePolicy',
    op(
      rule({
        plaintext: [
          { path: '/a', operator: 'add' },
          { path: '/b', operator: 'replace', value: null },
        ],
      }),
    ),
  );
  assert.equal(
    issues.map((i) => [formatPath(i.path), i.code]),
    [
      ['spec.overrideRules[0].overriders.plaintext[0].value', 'MISSING_FIELD'],
      ['spec.overrideRules[0].overriders.plaintext[1].value', 'MISSING_FIELD'],
    ],
  );
  assert.equal(
    run(
      'OverridePolicy',
      op(
        rule({
          plaintext: [
            { path: '/a', operator: 'add', value: {} },
            { path: '/b', operator: 'replace', value: 0 },
          ],
        }),
      ),
    ),
    [],
  );
});

test('plaintext paths and image predicate paths must be JSON pointers', () => {
  const issues = validateKarmadaRules(
    'OverridePolicy',
    op(
      rule({
        plaintext: [{ path: 'spec.replicas', operator: 'replace', value: 1 }],
        imageOverrider: [{ predicate: { path: 'spec/image' }, component: 'Tag', operator: 'replace', value: 'v2' }],
      }),
    ),
  );
  assert.equal(
    issues.map((i) => i.fix),
    ['start it with "/", e.g. /spec/replicas', 'start it with "/", e.g. /spec/image'],
  );
});

test('a plaintext path without its leading / is warned about with where it patches instead', () => {
  const issues = validateKarmadaRules(
    'OverridePolicy',
    op(
      rule({
        plaintext: [
          { path: 'metadata/x', operator: 'add', value: 1 },
          { path: 'x/metadata/name', operator: 'replace', value: 'other' },
        ],
      }),
    ),
  );
  assert.equal(
    issues.map((i) => [formatPath(i.path), i.code, i.warning ?? false]),
    [
      ['spec.overrideRules[0].overriders.plaintext[0].path', 'INVALID_VALUE', true],
      ['spec.overrideRules[0].overriders.plaintext[1].path', 'INVALID_VALUE', true],
      ['spec.overrideRules[0].overriders.plaintext[1].path', 'INVALID_VALUE', false],
    ],
  );
  assert.match(issues[0]!.message, 'drops what comes before its first "/" and patches /x');
  assert.is(issues[0]!.fix, 'start it with "/", e.g. /metadata/x');
  assert.match(issues[2]!.message, 'which writes metadata.name');
});

test('fieldOverrider needs exactly one of json or yaml', () => {
  const both = validateKarmadaRules(
    'OverridePolicy',
    op(
      rule({
        fieldOverrider: [
          {
            fieldPath: '/data/a',
            json: [{ subPath: '/x', operator: 'remove' }],
            yaml: [{ subPath: '/x', operator: 'remove' }],
          },
        ],
      }),
    ),
  );
  assert.equal(
    both.map((i) => [formatPath(i.path), i.code]),
    [['spec.overrideRules[0].overriders.fieldOverrider[0]', 'INVALID_VALUE']],
  );
  const neither = validateKarmadaRules('OverridePolicy', op(rule({ fieldOverrider: [{ fieldPath: '/data/a' }] })));
  assert.equal(
    neither.map((i) => [formatPath(i.path), i.code]),
    [['spec.overrideRules[0].overriders.fieldOverrider[0]', 'MISSING_FIELD']],
  );
  assert.equal(
    run(
      'OverridePolicy',
      op(rule({ fieldOverrider: [{ fieldPath: '/data/a', yaml: [{ subPath: '/x', operator: 'add', value: 1 }] }] })),
    ),
    [],
  );
});

test('fieldOverrider operations follow the same value rules and need JSON pointers', () => {
  const issues = validateKarmadaRules(
    'OverridePolicy',
    op(
      rule({
        fieldOverrider: [
          {
            fieldPath: 'data',
            json: [
              { subPath: '/x', operator: 'add' },
              { subPath: 'y', operator: 'remove', value: 1 },
            ],
          },
        ],
      }),
    ),
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    [
      'spec.overrideRules[0].overriders.fieldOverrider[0].fieldPath',
      'spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value',
      'spec.overrideRules[0].overriders.fieldOverrider[0].json[1].subPath',
      'spec.overrideRules[0].overriders.fieldOverrider[0].json[1].value',
    ],
  );
});

test('overrideRules cannot be combined with the deprecated targetCluster or overriders', () => {
  const labels = { labelsOverrider: [{ operator: 'add', value: { a: 'b' } }] };
  const issues = validateKarmadaRules(
    'OverridePolicy',
    op({ ...rule(labels), targetCluster: { clusterNames: ['m1'] }, overriders: labels }),
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.targetCluster', 'spec.overriders'],
  );
  assert.equal(run('OverridePolicy', op({ targetCluster: { clusterNames: ['m1'] }, overriders: labels })), []);
  assert.equal(run('OverridePolicy', op(rule(labels, { clusterNames: ['m1'] }))), []);
  assert.equal(
    run('OverridePolicy', op({ ...rule(labels), overriders: {} })),
    [],
    'an empty deprecated overriders block is ignored',
  );
});

test('override targetCluster fieldSelectors follow the same key and operator rules', () => {
  const fs = { fieldSelector: { matchExpressions: [{ key: 'cloud', operator: 'In', values: ['x'] }] } };
  assert.equal(paths('OverridePolicy', op({ ...rule({}, fs) })), [
    'spec.overrideRules[0].targetCluster.fieldSelector.matchExpressions[0].key',
  ]);
  assert.equal(paths('OverridePolicy', op({ targetCluster: fs, overriders: {} })), [
    'spec.targetCluster.fieldSelector.matchExpressions[0].key',
  ]);
});

test('labelsOverrider values must be valid labels; annotations may hold free text', () => {
  const bad = validateKarmadaRules(
    'OverridePolicy',
    op(rule({ labelsOverrider: [{ operator: 'add', value: { env: 'has spaces', 'bad key!': 'x' } }] })),
  );
  assert.equal(
    bad.map((i) => formatPath(i.path)),
    [
      'spec.overrideRules[0].overriders.labelsOverrider[0].value.env',
      'spec.overrideRules[0].overriders.labelsOverrider[0].value["bad key!"]',
    ],
  );
  assert.equal(
    run(
      'OverridePolicy',
      op(rule({ annotationsOverrider: [{ operator: 'add', value: { 'example.com/Note': 'has spaces!' } }] })),
    ),
    [],
  );
  assert.equal(
    paths('OverridePolicy', op(rule({ annotationsOverrider: [{ operator: 'add', value: { 'a b': 'x' } }] }))),
    ['spec.overrideRules[0].overriders.annotationsOverrider[0].value["a b"]'],
  );
});

test('an OverridePolicy only selects resources in its own namespace; a ClusterOverridePolicy any', () => {
  const spec = { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] };
  assert.equal(paths('OverridePolicy', op(spec)), ['spec.resourceSelectors[0].namespace']);
  assert.equal(
    run('OverridePolicy', op({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop' }] })),
    [],
  );
  assert.equal(run('ClusterOverridePolicy', { ...op(spec, { name: 'all' }), kind: 'ClusterOverridePolicy' }), []);
});

// ---- Cluster

test('a cluster name must be a DNS label of at most 48 characters', () => {
  assert.equal(paths('Cluster', cluster({}, 'Member_1')), ['metadata.name']);
  assert.equal(paths('Cluster', cluster({}, 'm'.repeat(49))), ['metadata.name']);
  assert.equal(run('Cluster', cluster({}, 'm'.repeat(48))), []);
});

test('apiEndpoint must be a URL with a host and no user info, query or fragment', () => {
  for (const apiEndpoint of ['10.0.0.1:6443', 'https://u:p@host:6443', 'https://host:6443?x=1', 'https://host#a']) {
    assert.equal(paths('Cluster', cluster({ apiEndpoint })), ['spec.apiEndpoint'], apiEndpoint);
  }
  const [withPassword] = validateKarmadaRules('Cluster', cluster({ apiEndpoint: 'https://u:secret@host' }));
  assert.not.match(withPassword!.message, 'secret');
  assert.equal(run('Cluster', cluster({ apiEndpoint: 'https://10.0.0.1:6443' })), []);
});

// Go's url.Parse refuses what the WHATWG parser trims or drops: a stray space or line break pasted with the URL.
test('apiEndpoint and proxyURL are refused with the whitespace Go cannot parse, as Karmada refuses them', () => {
  for (const apiEndpoint of ['https://host:6443 ', ' https://host:6443', 'https://host:6443\n', 'https://ho\tst:6443'])
    assert.equal(paths('Cluster', cluster({ apiEndpoint })), ['spec.apiEndpoint'], JSON.stringify(apiEndpoint));
  for (const proxyURL of ['http://proxy:3128 ', ' http://proxy:3128', 'http://proxy:3128\r\n'])
    assert.equal(paths('Cluster', cluster({ proxyURL })), ['spec.proxyURL'], JSON.stringify(proxyURL));
  // A space in the path is no host: url.Parse keeps it, and so does Karmada.
  assert.equal(run('Cluster', cluster({ apiEndpoint: 'https://host:6443/a b', proxyURL: 'http://proxy:3128' })), []);
});

test('proxyURL must use http, https or socks5', () => {
  assert.equal(paths('Cluster', cluster({ proxyURL: 'ftp://proxy:21' })), ['spec.proxyURL']);
  assert.equal(run('Cluster', cluster({ proxyURL: 'socks5://proxy:1080' })), []);
});

test('zone and zones cannot both be set; topology values must be label values', () => {
  assert.equal(paths('Cluster', cluster({ zone: 'a', zones: ['b'] })), ['spec.zone']);
  assert.equal(paths('Cluster', cluster({ region: 'us east' })), ['spec.region']);
  assert.equal(run('Cluster', cluster({ provider: 'aws', region: 'us-east-1', zones: ['us-east-1a'] })), []);
  assert.equal(run('Cluster', cluster({ zone: 'us-east-1a' })), []);
});

test('taints must not repeat the same key and effect', () => {
  const taints = [
    { key: 'a', effect: 'NoSchedule' },
    { key: 'a', effect: 'NoExecute' },
    { key: 'a', effect: 'NoSchedule' },
  ];
  assert.equal(paths('Cluster', cluster({ taints })), ['spec.taints[2]']);
  assert.equal(run('Cluster', cluster({ taints: taints.slice(0, 2) })), []);
});

// Karmada's pkg/webhook/clustertaintpolicy/validating_test.go: duplicate key-value pairs.
test('a ClusterTaintPolicy names each taint key and effect once; the first of a pair is reported', () => {
  const ctp = (taints: Obj[]) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterTaintPolicy',
    metadata: { name: 'tp' },
    spec: { taints },
  });
  assert.equal(
    run(
      'ClusterTaintPolicy',
      ctp([
        { key: 'key1', effect: 'NoSchedule' },
        { key: 'key1', effect: 'NoSchedule', value: 'value1' },
      ]),
    ),
    [
      'spec.taints[0]: spec.taints[0] and spec.taints[1] are both taint "key1" with effect "NoSchedule"; a key and effect may be given once',
    ],
  );
  assert.equal(
    paths(
      'ClusterTaintPolicy',
      ctp([
        { key: 'key1', effect: 'NoSchedule' },
        { key: 'key2', effect: 'NoSchedule' },
        { key: 'key1', effect: 'NoSchedule' },
        { key: 'key2', effect: 'NoSchedule' },
      ]),
    ),
    ['spec.taints[0]', 'spec.taints[1]'],
  );
  // NoExecute is Flotilla's opt-in to failover, not refused as Karmada's default webhook flag refuses it.
  assert.equal(
    run(
      'ClusterTaintPolicy',
      ctp([
        { key: 'key1', effect: 'NoSchedule' },
        { key: 'key1', effect: 'NoExecute' },
      ]),
    ),
    [],
  );
});

// Karmada admits these (no enum in the CRD, the webhook checks duplicates), but its controller writes them to the
// Cluster, whose validation (pkg/util/lifted/validateclustertaints.go) refuses them: the policy can never taint one.
test('a ClusterTaintPolicy gives only taints a Cluster can hold: a qualified key, a label value, NoSchedule or NoExecute', () => {
  const ctp = (taints: Obj[]) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterTaintPolicy',
    metadata: { name: 'tp' },
    spec: { taints },
  });
  const issues = validateKarmadaDocument(
    'ClusterTaintPolicy',
    ctp([
      { key: 'key1', effect: 'PreferNoSchedule' },
      { key: 'key2', effect: 'SelectiveNoSchedule' },
      { key: 'bad key', effect: 'NoSchedule', value: '-v-' },
      { key: '', effect: '' },
    ]),
  );
  assert.equal(
    issues.map((i) => `${i.warning ? 'warning' : 'error'} ${formatPath(i.path)}`),
    [
      'error spec.taints[0].effect',
      'error spec.taints[1].effect',
      'error spec.taints[2].key',
      'error spec.taints[2].value',
      'error spec.taints[3].key',
      'error spec.taints[3].effect',
    ],
  );
  assert.match(issues[0]!.message, 'a Cluster takes NoSchedule and NoExecute taints only');
  assert.equal(
    validateKarmadaDocument(
      'ClusterTaintPolicy',
      ctp([
        { key: 'example.com/maintenance', effect: 'NoSchedule', value: 'planned' },
        { key: 'dedicated', effect: 'NoExecute' },
      ]),
    ),
    [],
  );
});

test("a ClusterTaintPolicy's match conditions are held to its CRD: any operator and statusValues are admitted", () => {
  // policy.karmada.io_clustertaintpolicies.yaml has no enum nor minItems there; the webhook checks the taints only.
  const ctp = (condition: Obj) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterTaintPolicy',
    metadata: { name: 'tp' },
    spec: {
      addOnConditions: [condition],
      removeOnConditions: [condition],
      taints: [{ key: 'k', effect: 'NoSchedule' }],
    },
  });
  for (const statusValues of [[], ['Maybe']]) {
    const value = ctp({ conditionType: 'Ready', operator: 'In', statusValues });
    assert.equal(validateKarmadaDocument('ClusterTaintPolicy', value), [], JSON.stringify(statusValues));
  }
  const exists = validateKarmadaDocument(
    'ClusterTaintPolicy',
    ctp({ conditionType: 'Ready', operator: 'Exists', statusValues: ['False'] }),
  );
  assert.equal(
    exists.map((i) => `${formatPath(i.path)} ${i.warning ? 'warning' : 'error'}`),
    ['spec.addOnConditions[0].operator warning', 'spec.removeOnConditions[0].operator warning'],
  );
});

// Karmada's pkg/util/validation/validation_test.go, TestEmptyOverrides: fieldOverrider is not counted.
test('a deprecated overriders block holding only a fieldOverrider may stand beside overrideRules (never read then)', () => {
  const field = { fieldOverrider: [{ fieldPath: '/data/config', json: [{ subPath: '/key', operator: 'remove' }] }] };
  assert.equal(run('OverridePolicy', op({ ...rule({}), overriders: field })), []);
});

test('malformed shapes are left to the schema and never crash the rules', () => {
  for (const value of [
    null,
    'x',
    [],
    { spec: 'x' },
    { spec: { placement: [], resourceSelectors: 'x', failover: { application: 'x' } } },
  ]) {
    for (const kind of ['PropagationPolicy', 'OverridePolicy', 'Cluster'] as const) {
      assert.equal(validateKarmadaRules(kind, value), []);
    }
  }
});

test.run();
