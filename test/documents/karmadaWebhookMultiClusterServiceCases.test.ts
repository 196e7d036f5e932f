// A MultiClusterService read from Git is held to Karmada's validating webhook (pkg/webhook/multiclusterservice/
// validating.go validateMCS): refused, it is an error on that object and is held. Cases from
// pkg/webhook/multiclusterservice/validating_test.go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';
import { formatPath } from '../../src/documents/schema/formatPath.ts';
import { validateMultiClusterService } from '../../src/documents/schema/validateMultiClusterService.ts';

type Obj = Record<string, unknown>;

const mcs = (spec: Obj, metadata: Obj = { name: 'test-mcs', namespace: 'test-namespace' }): Obj => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata,
  spec,
});

const members = [{ name: 'member1' }, { name: 'member2' }];

/** The webhook cases' spec: two ports, one type, member1 and member2 both providing and consuming. */
const spec = (extra: Obj = {}): Obj => ({
  ports: [
    { name: 'foo', port: 16312 },
    { name: 'bar', port: 16313 },
  ],
  types: ['LoadBalancer'],
  providerClusters: members,
  consumerClusters: members,
  ...extra,
});

const problemPaths = (value: Obj) => validateMultiClusterService(value).map((i) => formatPath(i.path));

function classify(value: Obj) {
  const { documents, problems } = parseDocuments('services/mcs.yaml', new TextEncoder().encode(JSON.stringify(value)));
  return classifyDocuments('services/mcs.yaml', documents, problems);
}

test('a MultiClusterService with two named ports, one type and valid clusters is admitted and read', () => {
  // validating_test.go "Handle_ValidationSucceeds_AllowsAdmission", TestValidateMultiClusterServiceSpec "normal mcs",
  // TestValidatingSpec_validateMCSUpdate "validateMCSUpdate_ValidMetadataUpdate_NoError".
  const out = classify(mcs(spec(), { name: 'test-mcs', namespace: 'test-namespace', labels: { key: 'newValue' } }));
  assert.equal(out.problems, []);
  assert.is(out.templates.length, 1);
});

test('a port name with a dot is refused at that port, and the MultiClusterService is held', () => {
  // validating_test.go "Handle_CreateMCSWithInvalidSpec_DeniesAdmission" and "Handle_UpdateMCSWithInvalidSpec_DeniesAdmission".
  const value = mcs(
    spec({
      ports: [
        { name: 'foo.withdot', port: 16312 },
        { name: 'bar', port: 16313 },
      ],
    }),
  );
  assert.equal(problemPaths(value), ['spec.ports[0].name']);
  const out = classify(value);
  assert.is(out.templates.length, 0);
  assert.equal(
    out.broken.map((r) => `${r.kind} ${r.namespace}/${r.name}`),
    ['MultiClusterService test-namespace/test-mcs'],
  );
});

test('two exposure types are refused at types', () => {
  // TestValidateMultiClusterServiceSpec "multiple exposure type mcs".
  assert.equal(problemPaths(mcs(spec({ types: ['LoadBalancer', 'CrossCluster'] }))), ['spec.types']);
});

test('a port name used twice is refused at the second; one type written twice is one type', () => {
  // TestValidateMultiClusterServiceSpec "duplicated svc name": the only error is the duplicate port name.
  const value = mcs(
    spec({
      ports: [
        { name: 'foo', port: 16312 },
        { name: 'foo', port: 16313 },
      ],
      types: ['LoadBalancer', 'LoadBalancer'],
    }),
  );
  assert.equal(problemPaths(value), ['spec.ports[1].name']);
});

test('a port above 65535 is refused at that port', () => {
  // TestValidateMultiClusterServiceSpec "invalid svc port".
  assert.equal(problemPaths(mcs(spec({ ports: [{ name: 'foo', port: 163121 }] }))), ['spec.ports[0].port']);
});

test('an empty exposure type is refused at that type', () => {
  // TestValidateMultiClusterServiceSpec "invalid ExposureType".
  assert.equal(problemPaths(mcs(spec({ ports: [{ name: 'foo', port: 16312 }], types: [''] }))), ['spec.types[0]']);
});

test('a provider cluster name of 49 characters is refused', () => {
  // TestValidateMultiClusterServiceSpec "invalid cluster name".
  const value = mcs(
    spec({
      ports: [{ name: 'foo', port: 16312 }],
      types: ['CrossCluster'],
      providerClusters: [{ name: 'a'.repeat(49) }],
      consumerClusters: [],
    }),
  );
  assert.equal(problemPaths(value), ['spec.providerClusters[0].name']);
});

test.run();
