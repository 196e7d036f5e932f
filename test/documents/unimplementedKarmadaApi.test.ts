// A Karmada field Flotilla knows of but does not implement says so where it is written and what the user would miss:
// a warning, the object still read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

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
