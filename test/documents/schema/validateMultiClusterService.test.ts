// A MultiClusterService is checked as Karmada's CRD and webhook check it, each problem at its file:line:column with a
// fix; an invalid one keeps its last good output (it is held, like any broken object).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../../src/documents/parseDocuments.ts';

function classify(yaml: string) {
  const { documents, problems } = parseDocuments('services/mcs.yaml', new TextEncoder().encode(yaml));
  return classifyDocuments('services/mcs.yaml', documents, problems);
}
const brief = (out: ReturnType<typeof classify>) =>
  out.problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.message} | ${p.fix}`);

test('a valid MultiClusterService is read, with where its types and each provider and consumer name are written', () => {
  const out = classify(`apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: shop}
spec:
  types: [CrossCluster]
  providerClusters:
    - name: member1
  consumerClusters: [{name: member2}]
`);
  assert.equal(out.problems, []);
  assert.equal(out.broken, []);
  assert.equal(
    out.templates.map((t) => t.ref),
    [{ apiVersion: 'networking.karmada.io/v1alpha1', kind: 'MultiClusterService', name: 'web', namespace: 'shop' }],
  );
  assert.equal(out.templates[0]!.fieldSources, {
    'spec.types': { file: 'services/mcs.yaml', line: 5, column: 10 },
    'spec.providerClusters[0].name': { file: 'services/mcs.yaml', line: 7, column: 13 },
    'spec.consumerClusters[0].name': { file: 'services/mcs.yaml', line: 8, column: 29 },
  });
});

test("Karmada's webhook rules: one type of CrossCluster or LoadBalancer, valid ports and cluster names", () => {
  const out = classify(`apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web}
spec:
  types: [CrossCluster, Crosscluster]
  ports: [{name: http, port: 80}, {name: http, port: 70000}]
  providerClusters: [{name: Member_1}]
`);
  assert.equal(brief(out), [
    '5:25 INVALID_VALUE spec.types[1] is "Crosscluster": ExposureType Error | use CrossCluster (or LoadBalancer)',
    '5:10 INVALID_VALUE MultiClusterService types should not contain more than one type | keep one of the types, e.g. types: [CrossCluster]',
    '6:42 INVALID_VALUE spec.ports[1].name http is listed twice | give each port a name of its own, or drop the duplicate',
    '6:54 INVALID_VALUE spec.ports[1].port is 70000; a port is 1-65535 | use the Service port to expose, e.g. 80',
    '7:29 INVALID_VALUE spec.providerClusters[0].name is "Member_1", not a valid cluster name (a DNS-1123 label of at most 48 characters) | name a registered cluster, as in clusters/<name>.yaml',
  ]);
  assert.equal(out.templates, []);
  assert.equal(out.broken, [
    { apiVersion: 'networking.karmada.io/v1alpha1', kind: 'MultiClusterService', name: 'web', namespace: 'default' },
  ]);
});

test('structure: a misspelt field and a missing types are reported where they are', () => {
  const out = classify(`apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web}
spec:
  providerCluster: [{name: member1}]
`);
  assert.ok(out.problems.some((p) => p.code === 'UNKNOWN_FIELD' && p.line === 5 && /providerClusters/.test(p.message)));
  assert.ok(out.problems.some((p) => p.code === 'MISSING_FIELD' && /types/.test(p.message)));
});

test.run();
