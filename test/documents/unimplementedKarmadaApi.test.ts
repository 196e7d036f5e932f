// A Karmada kind or field Flotilla knows of but does not implement says so where it is written and what the user
// would miss: a kind is an error (rather than an unknown kind or a template propagated as is), a field a warning.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

test('a FederatedResourceQuota is refused as not implemented, at its kind, with what to do instead', () => {
  const file = 'policies/quota.yaml';
  const yaml = `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team, namespace: shop}
spec:
  overall: {cpu: 10}
  staticAssignments:
    - clusterName: member1
      hard: {cpu: 5}
`;
  const { documents, problems } = parseDocuments(file, new TextEncoder().encode(yaml));
  const out = classifyDocuments(file, documents, problems);
  assert.equal(
    out.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}`),
    ['2:7 error INVALID_VALUE'],
  );
  assert.match(out.problems[0]!.message, /^FederatedResourceQuota is Karmada's, but Flotilla does not implement it/);
  assert.match(out.problems[0]!.fix ?? '', /ResourceQuota template/);
  assert.equal(out.templates, [], 'not propagated as a template');
});

test("a PropagationPolicy's activationPreference Lazy is a warning at the field, the policy still read", () => {
  const file = 'policies/lazy.yaml';
  const yaml = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  activationPreference: Lazy
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
`;
  const { documents, problems } = parseDocuments(file, new TextEncoder().encode(yaml));
  const out = classifyDocuments(file, documents, problems);
  assert.equal(
    out.problems.map((p) => `${p.line}:${p.column} ${p.severity} ${p.code}`),
    ['5:25 warning INVALID_VALUE'],
  );
  assert.match(out.problems[0]!.message, /Lazy is not honoured/);
  assert.is(out.propagationPolicies.length, 1);
});

test.run();
