// Karmada's resource detector, case by case (pkg/detector/{compare,claim,detector,policy}_test.go at f8fdd02): which
// policy wins a template, what a claim looks like and when it lets go, and which objects the detector never looks at.
// Each test names the Karmada test it comes from; the expectations are Karmada's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Located } from '../../src/api/model.ts';
import type { PropagationPolicy, ResourceSelector } from '../../src/api/policy.ts';
import { claimTemplate, orphanedByPolicy } from '../../src/bindings/claimTemplate.ts';
import { matchPolicy, policyKey, skipReason, type MatchableTemplate } from '../../src/bindings/matchPolicy.ts';
import { modelOf, templateOf } from '../helpers/inMemoryModel.ts';

type Kind = 'PropagationPolicy' | 'ClusterPropagationPolicy';

function policy(
  kind: Kind,
  name: string,
  selectors: ResourceSelector[],
  extra: Partial<PropagationPolicy['spec']> = {},
  namespace = 'test',
): Located<PropagationPolicy> {
  return {
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind,
      // Karmada's compare tests give their ClusterPropagationPolicies a namespace too; it means nothing for them.
      metadata: kind === 'PropagationPolicy' ? { name, namespace } : { name },
      spec: { resourceSelectors: selectors, ...extra },
    },
    source: { file: `policies/${name}.yaml`, line: 1, column: 1 },
  };
}

/** The nginx Deployment of compare_test.go: namespace test, label app=nginx. */
const nginx = (namespace = 'test'): MatchableTemplate => ({
  ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: 'nginx' },
  labels: { app: 'nginx' },
});
const byName: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'test', name: 'nginx' };
const byLabel: ResourceSelector = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'test',
  labelSelector: { matchLabels: { app: 'nginx' } },
};
const all: ResourceSelector = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'test' };

const winner = (t: MatchableTemplate, policies: Located<PropagationPolicy>[]): string | undefined => {
  const m = matchPolicy(t, policies);
  return m.status === 'matched' ? m.policy.object.metadata.name : undefined;
};

for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy'] as const) {
  // compare_test.go Test_GetHigherPriority{,Cluster}PropagationPolicy: equal priorities and equal selectors, the
  // name that sorts first wins ("same length of name", "different length of name", "someone policy name is empty").
  test(`${kind}: on a full tie the name that sorts first wins, byte by byte`, () => {
    const tie = (a: string, b: string) => winner(nginx(), [policy(kind, a, [all]), policy(kind, b, [all])]);
    assert.is(tie('A', 'B'), 'A');
    assert.is(tie('B', 'A'), 'A');
    assert.is(tie('abc', 'ab'), 'ab', 'a prefix sorts before the longer name');
    assert.is(tie('', 'ab'), '', 'an empty name sorts first');
  });

  // compare_test.go Test_getHighestPriority{,Cluster}PropagationPolicies, "empty policies" and "mo policy match".
  test(`${kind}: no policy, or none whose selectors reach the template's namespace, leaves it unmatched`, () => {
    assert.is(matchPolicy(nginx(), []).status, 'unmatched');
    const policies = [policy(kind, 'match-with-name', [byName]), policy(kind, 'match-with-label', [byLabel])];
    assert.is(matchPolicy(nginx('test01'), policies).status, 'unmatched');
  });

  // "different implicit priority policy": name beats labelSelector beats match-all, whatever the list order.
  test(`${kind}: at equal priority a name selector beats a labelSelector, which beats a match-all one`, () => {
    const policies = [
      policy(kind, 'match-with-name', [byName]),
      policy(kind, 'match-with-label', [byLabel]),
      policy(kind, 'match-all', [all]),
    ];
    assert.is(winner(nginx(), policies), 'match-with-name');
    assert.is(winner(nginx(), [...policies].reverse()), 'match-with-name');
    assert.is(winner(nginx(), policies.slice(1)), 'match-with-label');
  });

  // "same implicit priority policy" and "two policies with explicit priority 1(name match)".
  test(`${kind}: equal explicit and implicit priority, the alphabetically smaller policy wins`, () => {
    assert.is(winner(nginx(), [policy(kind, 'b-pp', [byName]), policy(kind, 'a-pp', [byName])]), 'a-pp');
    assert.is(
      winner(nginx(), [
        policy(kind, 'b-pp', [byName], { priority: 1 }),
        policy(kind, 'a-pp', [byName], { priority: 1 }),
      ]),
      'a-pp',
    );
  });

  // "one policy with implicit priority, one policy with explicit priority 1" and
  // "explicit priority 1(name match), explicit priority 2(label selector match)".
  test(`${kind}: a higher explicit priority wins over a more specific selector`, () => {
    assert.is(
      winner(nginx(), [policy(kind, 'a-pp', [byName]), policy(kind, 'b-pp', [byName], { priority: 1 })]),
      'b-pp',
    );
    assert.is(
      winner(nginx(), [
        policy(kind, 'a-pp', [byName], { priority: 1 }),
        policy(kind, 'b-pp', [byLabel], { priority: 2 }),
      ]),
      'b-pp',
    );
  });

  // "explicit priority 1(label selector match), explicit priority 1(name match)": the name match wins though its policy
  // sorts after; "explicit priority -1(name match), implicit priority(label selector match)": an unset priority is 0.
  test(`${kind}: the implicit priority decides only between equal explicit priorities, an unset one counting as 0`, () => {
    assert.is(
      winner(nginx(), [
        policy(kind, 'a-pp', [byLabel], { priority: 1 }),
        policy(kind, 'b-pp', [byName], { priority: 1 }),
      ]),
      'b-pp',
    );
    assert.is(
      winner(nginx(), [policy(kind, 'a-pp', [byLabel]), policy(kind, 'b-pp', [byName], { priority: -1 })]),
      'a-pp',
    );
  });
}

// detector_test.go TestEventFilter: the reserved namespaces, the default --skipped-propagating-namespaces (kube-.*),
// the kube-apiserver's own ConfigMap; an ordinary namespace and a cluster-scoped object go through.
test("the detector ignores Karmada's reserved namespaces, kube-* and extension-apiserver-authentication only", () => {
  const pod = (namespace: string): MatchableTemplate => ({
    ref: { apiVersion: 'v1', kind: 'Pod', namespace, name: 'test-obj' },
    labels: {},
  });
  for (const ns of ['karmada-system', 'karmada-cluster', 'karmada-es-test', 'kube-system'])
    assert.ok(skipReason(pod(ns)), `${ns} is skipped`);
  assert.is(skipReason(pod('default')), undefined);
  assert.ok(
    skipReason({
      ref: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'kube-system',
        name: 'extension-apiserver-authentication',
      },
      labels: {},
    }),
  );
  assert.is(
    skipReason({ ref: { apiVersion: 'v1', kind: 'Node', namespace: '', name: 'test-node' }, labels: {} }),
    undefined,
  );
});

// detector_test.go TestGVRDisabled, "GVR not disabled" and "SkippedResourceConfig is nil": apps/v1 is watched.
test('apps/v1 Deployments are not among the APIs the detector skips', () => {
  const d = { ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, labels: {} };
  assert.is(skipReason(d), undefined);
});

// pkg/util/apigroup.go NewSkippedResourceConfig: Karmada's own groups, events.k8s.io, core Events and
// coordination.k8s.io/v1 are skipped by default; search.karmada.io (karmada-search's ResourceRegistry) is not.
test("the detector skips Karmada's control-plane groups, Events and Leases by default, and nothing else", () => {
  const of = (apiVersion: string, kind: string) =>
    skipReason({ ref: { apiVersion, kind, namespace: 'default', name: 'x' }, labels: {} });
  for (const [apiVersion, kind] of [
    ['cluster.karmada.io/v1alpha1', 'Cluster'],
    ['policy.karmada.io/v1alpha1', 'PropagationPolicy'],
    ['work.karmada.io/v1alpha2', 'ResourceBinding'],
    ['config.karmada.io/v1alpha1', 'ResourceInterpreterCustomization'],
    ['networking.karmada.io/v1alpha1', 'MultiClusterIngress'],
    ['autoscaling.karmada.io/v1alpha1', 'FederatedHPA'],
    ['remedy.karmada.io/v1alpha1', 'Remedy'],
    ['apps.karmada.io/v1alpha1', 'WorkloadRebalancer'],
    ['events.k8s.io/v1', 'Event'],
    ['v1', 'Event'],
    ['coordination.k8s.io/v1', 'Lease'],
  ])
    assert.ok(of(apiVersion!, kind!), `${apiVersion} ${kind} is skipped`);
  assert.is(of('search.karmada.io/v1alpha1', 'ResourceRegistry'), undefined);
  assert.is(of('coordination.k8s.io/v1beta1', 'Lease'), undefined);
});

// detector_test.go TestLookForMatchedPolicy / TestLookForMatchedClusterPolicy: a match-all selector with no
// namespace finds the Deployment, a PropagationPolicy in the object's namespace, a ClusterPropagationPolicy anywhere.
test('a match-all PropagationPolicy of the namespace, or a match-all ClusterPropagationPolicy, finds the Deployment', () => {
  const d: MatchableTemplate = {
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'test-deployment' },
    labels: {},
  };
  const selectors = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
  assert.is(winner(d, [policy('PropagationPolicy', 'policy-1', selectors, {}, 'default')]), 'policy-1');
  assert.is(winner(d, [policy('ClusterPropagationPolicy', 'cluster-policy-1', selectors)]), 'cluster-policy-1');
});

const testDeployment = templateOf({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'test-deployment', namespace: 'default', uid: 'test-uid' },
});
const selectsDeployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];

// detector_test.go TestApplyPolicy "basic apply policy": the binding is <name>-<kind>, in the template's namespace.
test("applying a PropagationPolicy builds the ResourceBinding <name>-<kind> in the template's namespace", () => {
  const pp = policy('PropagationPolicy', 'test-policy', selectsDeployments, {}, 'default');
  const claim = claimTemplate(testDeployment, modelOf({ templates: [testDeployment], policies: [pp] }), undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  assert.equal(
    [claim.binding.kind, claim.binding.metadata.namespace, claim.binding.metadata.name],
    ['ResourceBinding', 'default', 'test-deployment-deployment'],
  );
  assert.is(claim.binding.spec.resource.name, 'test-deployment');
  assert.is(claim.binding.spec.resource.uid, 'test-uid');
});

// detector_test.go TestApplyClusterPolicy "apply cluster policy for namespaced resource": a ClusterPropagationPolicy
// claiming a namespaced object makes a ResourceBinding (not a ClusterResourceBinding) carrying the CPP's claim
// (claim.go AddCPPClaimMetadata).
test('a ClusterPropagationPolicy claiming a namespaced template makes a namespaced ResourceBinding with its claim', () => {
  const cpp = policy('ClusterPropagationPolicy', 'test-cluster-policy', selectsDeployments);
  const claim = claimTemplate(testDeployment, modelOf({ templates: [testDeployment], policies: [cpp] }), undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const b = claim.binding;
  assert.equal(
    [b.kind, b.metadata.namespace, b.metadata.name],
    ['ResourceBinding', 'default', 'test-deployment-deployment'],
  );
  assert.equal(Object.keys(b.metadata.labels ?? {}).sort(), [
    'clusterpropagationpolicy.karmada.io/permanent-id',
    'resourcebinding.karmada.io/permanent-id',
  ]);
  assert.is(b.metadata.annotations?.['clusterpropagationpolicy.karmada.io/name'], 'test-cluster-policy');
  assert.not.ok(b.metadata.annotations?.['propagationpolicy.karmada.io/name']);
});

// detector_test.go TestApplyClusterPolicy "apply cluster policy for cluster-scoped resource".
test('a ClusterPropagationPolicy claiming a ClusterRole makes the ClusterResourceBinding <name>-clusterrole', () => {
  const role = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'test-cluster-role' } },
    'templates/role.yaml',
    true,
  );
  const cpp = policy('ClusterPropagationPolicy', 'test-cluster-policy', [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' },
  ]);
  const claim = claimTemplate(role, modelOf({ templates: [role], policies: [cpp] }), undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  assert.equal(
    [claim.binding.kind, claim.binding.metadata.namespace, claim.binding.metadata.name],
    ['ClusterResourceBinding', undefined, 'test-cluster-role-clusterrole'],
  );
});

const claimedBy = (p: Located<PropagationPolicy>, clusters = [{ name: 'member1' }]) =>
  ({
    metadata: { name: 'test-deployment-deployment', annotations: { 'flotilla.io/policy': policyKey(p.object) } },
    spec: { clusters },
  }) as unknown as ResourceBinding;

// claim_test.go TestCleanupCPPClaimMetadata, and policy_test.go Test_excludeClusterPolicy "propagation policy was
// claimed": once the CPP's claim is gone and a PropagationPolicy claims the template, nothing of the CPP's claim stays.
test("a PropagationPolicy taking over from a deleted ClusterPropagationPolicy leaves none of the CPP's claim", () => {
  const cpp = policy('ClusterPropagationPolicy', 'cpp-example', selectsDeployments);
  const pp = policy('PropagationPolicy', 'pp-example', selectsDeployments, {}, 'default');
  const claim = claimTemplate(testDeployment, modelOf({ templates: [testDeployment], policies: [pp] }), claimedBy(cpp));
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const { labels = {}, annotations = {} } = claim.binding.metadata;
  assert.not.ok(Object.keys(labels).some((k) => k.startsWith('clusterpropagationpolicy.karmada.io/')));
  assert.not.ok(Object.keys(annotations).some((k) => k.startsWith('clusterpropagationpolicy.karmada.io/')));
  assert.is(annotations['propagationpolicy.karmada.io/name'], 'pp-example');
});

// claim_test.go TestCleanupPPClaimMetadata: the PropagationPolicy's claim goes entirely when a CPP claims next.
test("a ClusterPropagationPolicy taking over from a deleted PropagationPolicy leaves none of the PP's claim", () => {
  const cpp = policy('ClusterPropagationPolicy', 'cpp-example', selectsDeployments);
  const pp = policy('PropagationPolicy', 'pp-example', selectsDeployments, {}, 'default');
  const claim = claimTemplate(testDeployment, modelOf({ templates: [testDeployment], policies: [cpp] }), claimedBy(pp));
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const { labels = {}, annotations = {} } = claim.binding.metadata;
  assert.not.ok(Object.keys(labels).some((k) => k.startsWith('propagationpolicy.karmada.io/')));
  assert.not.ok(Object.keys(annotations).some((k) => k.startsWith('propagationpolicy.karmada.io/')));
  assert.is(annotations['clusterpropagationpolicy.karmada.io/name'], 'cpp-example');
});

// claim_test.go TestNeedCleanupClaimMetadata: a deleted policy's cleanup touches only what that policy claimed.
test("deleting a policy releases only the templates it claimed, never another policy's", () => {
  const gone = policy('ClusterPropagationPolicy', 'cpp-example', [{ apiVersion: 'apps/v1', kind: 'StatefulSet' }]);
  const other = policy('PropagationPolicy', 'pp-example', selectsDeployments, {}, 'default');
  const previous = (p: Located<PropagationPolicy>) => ({ policy: policyKey(p.object), clusters: ['member1'] });
  // "need cleanup": the claim is the deleted policy's.
  assert.ok(orphanedByPolicy(testDeployment, previous(gone), []));
  // "no need cleanup": the claim is another policy's, which stays.
  assert.is(orphanedByPolicy(testDeployment, previous(other), [other]), undefined);
});

// policy_test.go Test_removeRBsClaimMetadata / Test_removeCRBsClaimMetadata / Test_removeResourceClaimMetadataIfNotMatched,
// "cannot remove ... with matching selectors": a policy update that still selects the template keeps its claim.
for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy'] as const) {
  test(`${kind}: after an update whose selectors still match, the claim stays with it`, () => {
    const updated = policy(
      kind,
      'claimer',
      [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default' }],
      {},
      'default',
    );
    const better = policy(
      kind,
      'better',
      [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'test-deployment' }],
      { priority: 5 },
      'default',
    );
    const m = matchPolicy(testDeployment, [updated, better], policyKey(updated.object));
    assert.is(m.status === 'matched' && m.policy, updated);
  });
}

// policy_test.go Test_cleanUnmatchedCRBs "clean unmatched cluster binding resource" and Test_cleanUnmatchedRBs "clean
// unmatched binding resource": the same for a ClusterPropagationPolicy's ClusterResourceBinding and ResourceBinding,
// checked at the claim only: the narrowed policy no longer claims either template.
test('a ClusterPropagationPolicy narrowed away from a ClusterRole and a Deployment no longer claims them', () => {
  const role = {
    ref: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', namespace: '', name: 'r' },
    labels: {},
  };
  const narrowed = policy('ClusterPropagationPolicy', 'roles', [
    { apiVersion: 'v1', kind: 'Pod', namespace: 'default' },
  ]);
  assert.is(matchPolicy(role, [narrowed], policyKey(narrowed.object)).status, 'unmatched');
  assert.is(matchPolicy(testDeployment, [narrowed], policyKey(narrowed.object)).status, 'unmatched');
});

test.run();
