// Which PropagationPolicies and OverridePolicies Karmada's validating webhooks admit, case by case (cases after
// pkg/util/validation/validation_test.go at f8fdd02: TestValidatePropagationSpec, TestValidateOverrideSpec,
// TestValidateClusterTolerations, TestValidateApplicationFailover, TestValidateClusterFailover,
// TestValidateWorkloadAffinity, TestValidatePlacement, TestValidateOverflowAffinities). Each case is one policy and
// whether it is admitted; the webhook's rules are read on the policy as written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PropagationPolicy } from '../../src/api/policy.ts';
import { applyPolicyDefaults } from '../../src/documents/applyPolicyDefaults.ts';
import { formatPath } from '../../src/documents/schema/formatPath.ts';
import { validateKarmadaRules } from '../../src/documents/schema/validateKarmadaRules.ts';

type Obj = Record<string, unknown>;

const selectors = [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }];
const pp = (spec: Obj): Obj => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec: { resourceSelectors: selectors, ...spec },
});
const op = (spec: Obj): Obj => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'OverridePolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec,
});
/** What refuses the policy; warnings leave it valid, as Karmada's webhook admits what they point at. */
const issuesOf = (kind: 'PropagationPolicy' | 'OverridePolicy', value: Obj): string[] =>
  validateKarmadaRules(kind, value)
    .filter((i) => !i.warning)
    .map((i) => `${formatPath(i.path)}: ${i.message}`);

function check(kind: 'PropagationPolicy' | 'OverridePolicy', cases: [string, Obj, boolean][]): void {
  for (const [name, value, admitted] of cases) {
    const issues = issuesOf(kind, value);
    assert.is(issues.length === 0, admitted, `${name}: ${issues.join('; ') || 'no issue'}`);
  }
}

const fields = (...matchExpressions: Obj[]) => ({ fieldSelector: { matchExpressions } });
const placement = (p: Obj) => pp({ placement: p });

test('placement rules: field selector keys and operators, one kind of affinity, unique names, sound spread constraints', () => {
  check('PropagationPolicy', [
    [
      'provider In, region and zone NotIn, a region constraint beside a cluster one',
      placement({
        clusterAffinity: fields(
          { key: 'provider', operator: 'In', values: ['fooCloud'] },
          { key: 'region', operator: 'NotIn', values: ['fooCloud'] },
          { key: 'zone', operator: 'NotIn', values: ['fooCloud'] },
        ),
        spreadConstraints: [{ maxGroups: 2, minGroups: 1, spreadByField: 'region' }, { spreadByField: 'cluster' }],
      }),
      true,
    ],
    [
      'a field selector key that is no cluster field',
      placement({ clusterAffinity: fields({ key: 'foo', operator: 'In', values: ['fooCloud'] }) }),
      false,
    ],
    [
      'a field selector operator other than In and NotIn',
      placement({ clusterAffinity: fields({ key: 'provider', operator: 'Exists', values: ['fooCloud'] }) }),
      false,
    ],
    [
      'clusterAffinity beside clusterAffinities',
      placement({
        clusterAffinity: { clusterNames: ['m1'] },
        clusterAffinities: [{ affinityName: 'group1', clusterNames: ['m1'] }],
      }),
      false,
    ],
    [
      'two affinity terms with one name',
      placement({
        clusterAffinities: [
          { affinityName: 'group1', clusterNames: ['m1'] },
          { affinityName: 'group1', clusterNames: ['m2'] },
        ],
      }),
      false,
    ],
    [
      'an affinity term with a field selector key that is no cluster field',
      placement({
        clusterAffinities: [{ affinityName: 'group1', ...fields({ key: 'foo', operator: 'In', values: ['x'] }) }],
      }),
      false,
    ],
    [
      'an affinity term with an Exists field requirement',
      placement({
        clusterAffinities: [
          { affinityName: 'group1', ...fields({ key: 'provider', operator: 'Exists', values: ['x'] }) },
        ],
      }),
      false,
    ],
    [
      'spreadByLabel beside spreadByField',
      placement({ spreadConstraints: [{ spreadByField: 'cluster', spreadByLabel: 'foo' }] }),
      false,
    ],
    ['maxGroups below minGroups', placement({ spreadConstraints: [{ maxGroups: 1, minGroups: 2 }] }), false],
    ['a negative maxGroups', placement({ spreadConstraints: [{ maxGroups: -1, minGroups: 1 }] }), false],
    ['a negative minGroups', placement({ spreadConstraints: [{ maxGroups: 2, minGroups: -2 }] }), false],
    [
      'two cluster spread constraints',
      placement({
        spreadConstraints: [
          { spreadByField: 'cluster', maxGroups: 2, minGroups: -2 },
          { spreadByField: 'cluster', maxGroups: 5, minGroups: 3 },
          { spreadByLabel: 'grouped-by-net', maxGroups: 5, minGroups: 3 },
        ],
      }),
      false,
    ],
    [
      'three region spread constraints',
      placement({
        spreadConstraints: [
          { spreadByField: 'region', maxGroups: 1, minGroups: 3 },
          { spreadByField: 'region', maxGroups: 4, minGroups: 2 },
          { spreadByField: 'region', maxGroups: 6, minGroups: 5 },
          { spreadByField: 'cluster', maxGroups: 10, minGroups: 5 },
        ],
      }),
      false,
    ],
    [
      'a region spread constraint without a cluster one',
      placement({ spreadConstraints: [{ spreadByField: 'region' }] }),
      false,
    ],
  ]);
});

test('preemption and suspension rules', () => {
  check('PropagationPolicy', [
    [
      'preemption Always with a selector that names nothing',
      pp({ resourceSelectors: [{ apiVersion: 'v1', kind: 'Pod', namespace: 'default' }], preemption: 'Always' }),
      false,
    ],
    [
      'dispatching beside dispatchingOnClusters',
      pp({ suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['cluster-name'] } } }),
      false,
    ],
    ['dispatching alone', pp({ suspension: { dispatching: true } }), true],
    [
      'dispatching with an empty cluster list',
      pp({ suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: [] } } }),
      true,
    ],
    [
      'dispatchingOnClusters alone',
      pp({ suspension: { dispatchingOnClusters: { clusterNames: ['cluster-name'] } } }),
      true,
    ],
    [
      'dispatching false beside dispatchingOnClusters',
      pp({ suspension: { dispatching: false, dispatchingOnClusters: { clusterNames: ['cluster-name'] } } }),
      true,
    ],
  ]);
});

test('workload affinity keys must be label keys, and affinity and anti-affinity must group by different keys', () => {
  const wa = (workloadAffinity: Obj) => placement({ workloadAffinity });
  check('PropagationPolicy', [
    ['no workload affinity', placement({}), true],
    ['affinity only', wa({ affinity: { groupByLabelKey: 'app.group' } }), true],
    ['anti-affinity only', wa({ antiAffinity: { groupByLabelKey: 'app.group' } }), true],
    [
      'different keys',
      wa({ affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'app.region' } }),
      true,
    ],
    [
      'the same key',
      wa({ affinity: { groupByLabelKey: 'app.group' }, antiAffinity: { groupByLabelKey: 'app.group' } }),
      false,
    ],
    ['an affinity key that is no label key', wa({ affinity: { groupByLabelKey: 'INVALID KEY!' } }), false],
    ['an anti-affinity key that is no label key', wa({ antiAffinity: { groupByLabelKey: 'INVALID KEY!' } }), false],
  ]);
});

test('cluster tolerations may use Exists, Equal or no operator, never Lt or Gt', () => {
  const tolerating = (clusterTolerations: Obj[]) => placement({ clusterTolerations });
  check('PropagationPolicy', [
    ['no tolerations', placement({}), true],
    ['Exists', tolerating([{ key: 'key1', operator: 'Exists' }]), true],
    ['Equal', tolerating([{ key: 'key1', operator: 'Equal', value: 'value1' }]), true],
    ['no operator (Equal)', tolerating([{ key: 'key1', value: 'value1' }]), true],
    ['Lt', tolerating([{ key: 'key1', operator: 'Lt', value: '100' }]), false],
    ['Gt', tolerating([{ key: 'key1', operator: 'Gt', value: '100' }]), false],
    [
      'Equal then Lt',
      tolerating([
        { key: 'key1', operator: 'Equal', value: 'value1' },
        { key: 'key2', operator: 'Lt', value: '100' },
      ]),
      false,
    ],
  ]);
});

test('application failover: toleration not negative, a grace period only for Gracefully and positive, label-key aliases', () => {
  const failover = (application: Obj) =>
    pp({
      propagateDeps: true,
      failover: { application: { decisionConditions: { tolerationSeconds: 100 }, ...application } },
    });
  const preserving = (...aliases: string[]) =>
    failover({
      statePreservation: {
        rules: aliases.map((aliasLabelName) => ({ aliasLabelName, jsonPath: '{.availableReplicas}' })),
      },
    });
  check('PropagationPolicy', [
    ['no failover', pp({}), true],
    ['a negative tolerationSeconds', failover({ decisionConditions: { tolerationSeconds: -100 } }), false],
    ['a grace period with Directly', failover({ purgeMode: 'Directly', gracePeriodSeconds: 100 }), false],
    ['a negative grace period with Gracefully', failover({ purgeMode: 'Gracefully', gracePeriodSeconds: -100 }), false],
    ['only a toleration', failover({}), true],
    ['statePreservation absent', failover({ statePreservation: null }), true],
    ['aliases that are label keys', preserving('valid-label-name', 'example.com/state-key'), true],
    ['an alias starting with a dash', preserving('-invalid-label'), false],
    ['an alias ending with a dash', preserving('invalid-label-'), false],
    ['an alias with "@"', preserving('invalid@label'), false],
    ['an alias of 64 characters', preserving('a'.repeat(64)), false],
    ['two bad aliases', preserving('-invalid1', 'invalid2@'), false],
    ['an alias with a DNS prefix', preserving('example.com/my-state'), true],
    ['an alias with an uppercase prefix', preserving('INVALID.COM/my-state'), false],
  ]);
  // Both bad aliases are reported, each at its own rule.
  const both = issuesOf('PropagationPolicy', preserving('-invalid1', 'invalid2@')).map((i) => i.split(':')[0]);
  assert.equal(both, [
    'spec.failover.application.statePreservation.rules[0].aliasLabelName',
    'spec.failover.application.statePreservation.rules[1].aliasLabelName',
  ]);
});

test('Gracefully without a grace period is admitted because the mutating webhook gives it 600 s first', () => {
  // ValidateApplicationFailover alone refuses it ("should not be empty when purgeMode is gracefully"); admission runs
  // the mutating webhook before it.
  const policy = pp({
    propagateDeps: true,
    failover: { application: { decisionConditions: { tolerationSeconds: 100 }, purgeMode: 'Gracefully' } },
  }) as unknown as PropagationPolicy;
  const defaulted = applyPolicyDefaults(policy);
  const failover = defaulted.spec.failover as { application?: { gracePeriodSeconds?: number } } | undefined;
  assert.is(failover?.application?.gracePeriodSeconds, 600);
  assert.equal(issuesOf('PropagationPolicy', defaulted as unknown as Obj), []);
});

test('cluster failover: state preservation aliases must be label keys', () => {
  const failover = (cluster: Obj) => pp({ failover: { cluster } });
  check('PropagationPolicy', [
    ['no cluster failover', pp({}), true],
    [
      'a valid alias with Gracefully',
      failover({
        purgeMode: 'Gracefully',
        statePreservation: { rules: [{ aliasLabelName: 'cluster-state', jsonPath: '{.status.nodeCount}' }] },
      }),
      true,
    ],
    [
      'an alias starting with a dash',
      failover({
        purgeMode: 'Directly',
        statePreservation: { rules: [{ aliasLabelName: '-invalid-cluster-label', jsonPath: '{.status.nodeCount}' }] },
      }),
      false,
    ],
    ['no state preservation', failover({ purgeMode: 'Gracefully' }), true],
  ]);
});

const primary = { affinityName: 'primary', clusterNames: ['member1'] };
const overflow = (...names: [string, string][]) =>
  names.map(([affinityName, cluster]) => ({ affinityName, clusterNames: [cluster] }));

test('overflow tiers need dynamic weight or Aggregated, an inline affinity, and names unique within the term', () => {
  const count = (p: Obj) => issuesOf('PropagationPolicy', placement(p)).length;
  const withOverflow = { ...primary, overflowAffinities: overflow(['overflow-1', 'member2']) };
  const cases: [string, Obj, number][] = [
    [
      'clusterAffinity beside clusterAffinities',
      { clusterAffinity: { clusterNames: ['member1'] }, clusterAffinities: [{ affinityName: 'group1' }] },
      1,
    ],
    ['no replicaScheduling', { clusterAffinities: [withOverflow] }, 1],
    [
      'static weights',
      {
        clusterAffinities: [withOverflow],
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 1 }] },
        },
      },
      1,
    ],
    [
      'dynamic weights',
      {
        clusterAffinities: [withOverflow],
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { dynamicWeight: 'AvailableReplicas' },
        },
      },
      0,
    ],
    [
      'Aggregated',
      {
        clusterAffinities: [withOverflow],
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      },
      0,
    ],
    [
      'the second of two terms overflows without a fitting strategy',
      {
        clusterAffinities: [
          { affinityName: 'group1', clusterNames: ['member1'] },
          {
            affinityName: 'group2',
            clusterNames: ['member2'],
            overflowAffinities: overflow(['overflow-1', 'member3']),
          },
        ],
      },
      1,
    ],
    ['no overflow, no strategy', { clusterAffinities: [primary] }, 0],
  ];
  for (const [name, p, want] of cases) assert.is(count(p), want, name);

  const aggregated = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };
  const term = (t: Obj) => count({ clusterAffinities: [t], replicaScheduling: aggregated });
  const termCases: [string, Obj, number][] = [
    ['no overflow tiers', primary, 0],
    [
      'two tiers',
      { ...primary, overflowAffinities: overflow(['overflow-1', 'member2'], ['overflow-2', 'member3']) },
      0,
    ],
    [
      'tiers without an inline affinity',
      { affinityName: 'primary', overflowAffinities: overflow(['overflow-1', 'member2']) },
      1,
    ],
    [
      'two tiers with one name',
      { ...primary, overflowAffinities: overflow(['overflow-1', 'member2'], ['overflow-1', 'member3']) },
      1,
    ],
    [
      "a tier named as the term's primary group",
      { ...primary, overflowAffinities: overflow(['primary', 'member2']) },
      1,
    ],
    [
      'no inline affinity and two tiers with one name',
      { affinityName: 'primary', overflowAffinities: overflow(['overflow-1', 'member2'], ['overflow-1', 'member3']) },
      2,
    ],
  ];
  for (const [name, t, want] of termCases) assert.is(term(t), want, name);
});

const rule = (overriders: Obj, targetCluster: Obj = { clusterNames: ['cluster-name'] }) => ({
  targetCluster,
  overriders,
});

test('override rules: no deprecated fields beside rules, valid labels and annotations, one of json or yaml', () => {
  const plaintext = [{ path: '/spec/image', operator: 'replace', value: 'nginx' }];
  const fieldOverrider = (extra: Obj) => ({ fieldOverrider: [{ fieldPath: '/data/config', ...extra }] });
  const remove = [{ subPath: '/key', operator: 'remove' }];
  check('OverridePolicy', [
    ['rules alone', op({ overrideRules: [{ targetCluster: { clusterNames: ['cluster-name'] } }] }), true],
    [
      'the deprecated targetCluster and overriders, without rules',
      op({ targetCluster: { clusterNames: ['cluster-name'] }, overriders: { plaintext } }),
      true,
    ],
    [
      'rules beside the deprecated targetCluster',
      op({
        overrideRules: [{ targetCluster: { clusterNames: ['cluster-name'] } }],
        targetCluster: { clusterNames: ['cluster-name'] },
      }),
      false,
    ],
    [
      'rules beside the deprecated overriders',
      op({ overrideRules: [{ targetCluster: { clusterNames: ['cluster-name'] } }], overriders: { plaintext } }),
      false,
    ],
    [
      'rules beside both',
      op({
        overrideRules: [{ targetCluster: { clusterNames: ['cluster-name'] } }],
        targetCluster: { clusterNames: ['cluster-name'] },
        overriders: { plaintext },
      }),
      false,
    ],
    [
      'an annotation key with "~"',
      op({
        overrideRules: [
          rule({
            annotationsOverrider: [{ operator: 'add', value: { 'testannotation~projectId': 'c-m-lfx9lk92p-v86cf' } }],
          }),
        ],
      }),
      false,
    ],
    [
      'a label key with "~"',
      op({
        overrideRules: [
          rule({
            labelsOverrider: [{ operator: 'add', value: { 'testannotation~projectId': 'c-m-lfx9lk92p-v86cf' } }],
          }),
        ],
      }),
      false,
    ],
    [
      'the deprecated targetCluster with a field key that is no cluster field',
      op({ targetCluster: fields({ key: 'foo', operator: 'In', values: ['fooCloud'] }) }),
      false,
    ],
    [
      'the deprecated targetCluster with a Gt field requirement',
      op({ targetCluster: fields({ key: 'provider', operator: 'Gt', values: ['fooCloud'] }) }),
      false,
    ],
    [
      "a rule's target with a field key that is no cluster field",
      op({ overrideRules: [{ targetCluster: fields({ key: 'foo', operator: 'In', values: ['fooCloud'] }) }] }),
      false,
    ],
    [
      "a rule's target with a Gt field requirement",
      op({ overrideRules: [{ targetCluster: fields({ key: 'provider', operator: 'Gt', values: ['fooCloud'] }) }] }),
      false,
    ],
    ['a fieldOverrider with neither json nor yaml', op({ overrideRules: [rule(fieldOverrider({}))] }), false],
    [
      'a fieldOverrider with both json and yaml',
      op({ overrideRules: [rule(fieldOverrider({ json: remove, yaml: remove }))] }),
      false,
    ],
    ['a fieldOverrider with yaml only', op({ overrideRules: [rule(fieldOverrider({ yaml: remove }))] }), true],
    ['a fieldOverrider with json only', op({ overrideRules: [rule(fieldOverrider({ json: remove }))] }), true],
  ]);
});

test("plaintext overriders are not checked at admission: a path that is no JSON pointer is admitted, as Karmada's webhook admits it", () => {
  // TestValidateOverrideSpec "overriders and targetCluster are set, overrideRules isn't set" uses plaintext path
  // "spec/image": ValidateOverrideSpec and ValidateOverrideRules never look at plaintext overriders.
  check('OverridePolicy', [
    [
      'the deprecated overriders with plaintext path spec/image',
      op({
        targetCluster: { clusterNames: ['cluster-name'] },
        overriders: { plaintext: [{ path: 'spec/image', operator: 'replace', value: 'nginx' }] },
      }),
      true,
    ],
    [
      'a rule with plaintext path spec/image',
      op({ overrideRules: [rule({ plaintext: [{ path: 'spec/image', operator: 'replace', value: 'nginx' }] })] }),
      true,
    ],
  ]);
  // Still said, where it is written: applying it fails on the clusters the rule targets.
  const warned = validateKarmadaRules(
    'OverridePolicy',
    op({ overrideRules: [rule({ plaintext: [{ path: 'spec/image', operator: 'replace', value: 'nginx' }] })] }),
  );
  assert.equal(
    warned.map((i) => [formatPath(i.path), i.warning]),
    [['spec.overrideRules[0].overriders.plaintext[0].path', true]],
  );
});

test.run();
