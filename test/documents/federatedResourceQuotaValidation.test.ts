// A FederatedResourceQuota is checked as Karmada's CRD and validating webhook check it
// (pkg/webhook/federatedresourcequota/validating.go): each refusal at its field, and the quota is held.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

const FILE = 'policies/quota.yaml';
const classify = (yaml: string) => {
  const { documents, problems } = parseDocuments(FILE, new TextEncoder().encode(yaml));
  return classifyDocuments(FILE, documents, problems);
};
const quota = (spec: string, name = 'team') =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: FederatedResourceQuota\nmetadata: {name: ${name}, namespace: shop}\nspec:\n${spec}`;
const at = (out: ReturnType<typeof classify>) => out.problems.map((p) => `${p.line}:${p.column} ${p.code}`);

test('overall less than the sum of the static assignments is refused at that resource of overall', () => {
  const out = classify(
    quota(`  overall: {cpu: 10, memory: 10Gi}
  staticAssignments:
    - clusterName: m1
      hard: {cpu: 1, memory: 1Gi}
    - clusterName: m2
      hard: {cpu: "1.5", memory: 10Gi}
`),
  );
  assert.equal(at(out), ['5:30 INVALID_VALUE']);
  assert.match(
    out.problems[0]!.message,
    /spec\.overall\.memory is 10Gi: overall is less than assignments \(the static assignments give 11Gi\)/,
  );
  assert.match(out.problems[0]!.fix ?? '', /at least 11Gi/);
  assert.equal(out.templates, []);
  assert.equal(out.broken, [{ apiVersion: 'v1', kind: 'ResourceQuota', namespace: 'shop', name: 'team' }]);
});

test('an assigned resource that overall does not name is refused at the assignment', () => {
  const out = classify(
    quota(`  overall: {cpu: 10}
  staticAssignments:
    - clusterName: m1
      hard: {cpu: 1, requests.memory: 1Gi}
`),
  );
  assert.equal(at(out), ['8:39 INVALID_VALUE']);
  assert.match(out.problems[0]!.message, /assignment resourceName is not exist in overall/);
});

test('resource names and quantities are checked as a ResourceQuota of Kubernetes checks them', () => {
  const out = classify(
    quota(`  overall: {cpux: 1, storage: 1Gi, pods: "1.5", memory: "-1", example.com/gpu: 2, count/deployments.apps: 3}
`),
  );
  assert.equal(
    out.problems.map((p) => p.message.replace(/^spec\.overall\./, '')),
    [
      'cpux: "cpux" must be a standard resource type or fully qualified',
      'storage: "storage" must be a standard resource for quota',
      'pods is 1500m: must be an integer (pods is counted in whole units)',
      'memory is -1: must be greater than or equal to 0',
      // Karmada compares -1 with the assignments' sum, 0, too.
      'memory is -1: overall is less than assignments (the static assignments give 0)',
    ],
  );
});

test("quantities are the CRD's: a whole number or a string of its pattern, a fraction written as a number refused", () => {
  const out = classify(quota(`  overall: {cpu: 0.5, memory: 1GB}\n`));
  assert.equal(
    out.problems.map((p) => p.message),
    [
      'spec.overall.cpu is 0.5: must be of type integer or string (its CRD)',
      'spec.overall.memory is "1GB", which does not match the quantity pattern of its CRD',
    ],
  );
});

test("spec.overall, and each assignment's clusterName and hard, are required; a cluster name is a cluster's", () => {
  const missing = classify(quota(`  staticAssignments:\n    - clusterName: m1\n`));
  assert.equal(
    missing.problems.map((p) => `${p.line} ${p.code} ${p.message.split(':')[0]}`),
    [
      '5 MISSING_FIELD spec.overall is required (its CRD)',
      '6 MISSING_FIELD spec.staticAssignments[0].hard is required (its CRD)',
    ],
  );
  const named = classify(
    quota(`  overall: {cpu: 10}
  staticAssignments:
    - clusterName: Member_1
      hard: {cpu: 1}
    - hard: {cpu: 1}
`),
  );
  assert.equal(at(named), ['7:20 INVALID_VALUE', '9:7 MISSING_FIELD']);
  assert.match(named.problems[0]!.message, /RFC 1123 label/);
});

test('a name longer than 63 characters, and an unknown field, are refused', () => {
  const out = classify(quota(`  overall: {cpu: 10}\n  staticAsignments: []\n`, 'q'.repeat(64)));
  assert.equal(
    out.problems.map((p) => p.code),
    ['UNKNOWN_FIELD', 'INVALID_VALUE'],
  );
  assert.match(out.problems[0]!.message, /did you mean staticAssignments\?/);
  assert.match(out.problems[1]!.message, /must be no more than 63 characters/);
});

test('a FederatedResourceQuota written at another version is told the served one', () => {
  const out = classify(quota(`  overall: {cpu: 10}\n`).replace('v1alpha1', 'v1beta1'));
  assert.equal(
    out.problems.map((p) => p.message),
    ['FederatedResourceQuota is served as policy.karmada.io/v1alpha1, not policy.karmada.io/v1beta1'],
  );
  assert.equal(out.broken, [{ apiVersion: 'v1', kind: 'ResourceQuota', namespace: 'shop', name: 'team' }]);
});

test.run();
