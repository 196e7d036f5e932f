import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';

test('a label selector Karmada admits but Kubernetes cannot read is a warning at its line; the policy still loads', () => {
  const out = classifyText(
    'policies/web.yaml',
    `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: shop
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      labelSelector:
        matchExpressions:
          - key: app
            operator: Exists
            values: [web]
  placement:
    clusterAffinity:
      labelSelector:
        matchLabels:
          tier: gold
`,
  );
  assert.is(out.propagationPolicies.length, 1);
  assert.equal(
    out.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['policies/web.yaml', 12, 'INVALID_VALUE', 'warning']],
  );
  assert.match(out.problems[0]!.message, 'spec.resourceSelectors[0].labelSelector');
  assert.match(out.problems[0]!.message, 'Exists takes no values');
  assert.match(out.problems[0]!.message, 'Karmada matches nothing with it');
});

// Karmada's CRDs give matchExpressions[].operator no enum and no webhook reads it: "Equals" is stored, and
// LabelSelectorAsSelector's error makes every matcher take it as no match.
test('a label selector operator Kubernetes does not know is admitted as Karmada admits it, with the same warning', () => {
  const out = classifyText(
    'policies/web.yaml',
    `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: shop
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: web
  placement:
    clusterAffinity:
      labelSelector:
        matchExpressions:
          - key: tier
            operator: Equals
            values: [gold]
`,
  );
  assert.is(out.propagationPolicies.length, 1);
  assert.equal(
    out.problems.map((p) => [p.file, p.line, p.code, p.severity]),
    [['policies/web.yaml', 15, 'INVALID_VALUE', 'warning']],
  );
  assert.match(out.problems[0]!.message, '"Equals" is not a valid label selector operator');
});

test('the label selectors of an OverridePolicy and a ClusterTaintPolicy are checked the same way', () => {
  const out = classifyText(
    'policies/targets.yaml',
    `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata:
  name: registry
spec:
  overrideRules:
    - targetCluster:
        labelSelector:
          matchExpressions:
            - key: region
              operator: In
      overriders:
        labelsOverrider:
          - operator: add
            value: {team: a}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata:
  name: drain
spec:
  targetClusters:
    labelSelector:
      matchLabels:
        "": x
  addOnConditions:
    - conditionType: Ready
      operator: In
      statusValues: ["False"]
  taints:
    - key: down
      effect: NoSchedule
`,
  );
  assert.equal(
    out.problems.map((p) => [p.line, p.severity, /labelSelector/.test(p.message)]),
    [
      [10, 'warning', true],
      [25, 'warning', true],
    ],
  );
});

test("an override's value holding a pod's labelSelector is the member's to judge, not a selector of Karmada's", () => {
  const out = classifyText(
    'policies/spread.yaml',
    `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: spread, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
    - overriders:
        plaintext:
          - path: /spec/template/spec/topologySpreadConstraints
            operator: add
            value:
              - maxSkew: 1
                topologyKey: zone
                whenUnsatisfiable: DoNotSchedule
                labelSelector: {matchExpressions: [{key: app, operator: Exists, values: [x]}]}
`,
  );
  assert.equal(out.problems, []);
  assert.is(out.overridePolicies.length, 1);
});

test.run();
