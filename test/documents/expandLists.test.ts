// List documents (kind: List, ConfigMapList, RoleList ...) are read as kubectl apply reads them: one object per item.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyDocuments } from '../../src/documents/classifyDocuments.ts';
import { parseDocuments } from '../../src/documents/parseDocuments.ts';

function classify(yaml: string) {
  const { documents, problems } = parseDocuments('apps/list.yaml', new TextEncoder().encode(yaml));
  return classifyDocuments('apps/list.yaml', documents, problems);
}

const brief = (out: ReturnType<typeof classify>) =>
  out.templates.map((t) => `${t.ref.apiVersion} ${t.ref.kind} ${t.ref.name} @${t.source.line}`);

test('a kind: List document is its items, each a template with its own line', () => {
  const out = classify(`apiVersion: v1
kind: List
items:
  - apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
    spec:
      selector: {matchLabels: {app: web}}
      template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: web}]}}
  - apiVersion: v1
    kind: Service
    metadata:
      name: web
    spec:
      ports: [{port: 80}]
`);
  assert.equal(out.problems, []);
  assert.equal(brief(out), ['apps/v1 Deployment web @4', 'v1 Service web @11']);
  assert.is(out.templates[0]!.source.column, 5);
});

test("a typed list's items that state neither kind nor apiVersion are of the list's kind and version (ConfigMapList, RoleList)", () => {
  const out = classify(`apiVersion: v1
kind: ConfigMapList
items:
  - metadata: {name: a}
    data: {k: v}
  - metadata: {name: b}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleList
items:
  - metadata: {name: reader, namespace: monitoring}
    rules: []
`);
  assert.equal(out.problems, []);
  assert.equal(brief(out), ['v1 ConfigMap a @4', 'v1 ConfigMap b @6', 'rbac.authorization.k8s.io/v1 Role reader @11']);
  assert.is(out.templates[2]!.ref.namespace, 'monitoring');
});

test('an item stating only one of kind and apiVersion is not completed (as kubectl): the missing field is reported at the item', () => {
  const out = classify(`apiVersion: v1
kind: ConfigMapList
items:
  - metadata: {name: a}
  - kind: ConfigMap
    metadata: {name: b}
`);
  assert.equal(brief(out), ['v1 ConfigMap a @4']);
  assert.is(out.problems.length, 1);
  assert.is(out.problems[0]!.code, 'MISSING_FIELD');
  assert.is(out.problems[0]!.line, 5);
  assert.match(out.problems[0]!.message, 'document 1 items[1] has no apiVersion');
});

test('a kind: List item without a kind is an error: a List does not say what its items are', () => {
  const out = classify(`apiVersion: v1
kind: List
items:
  - metadata: {name: a}
`);
  assert.equal(out.templates, []);
  assert.match(out.problems[0]!.message, 'document 1 items[0] has no kind');
});

test('a list inside a list is an error at its line, as kubectl 1.32 refuses it; the other items are read', () => {
  const out = classify(`apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: List
    items:
      - apiVersion: v1
        kind: ConfigMap
        metadata: {name: inner}
  - apiVersion: v1
    kind: Secret
    metadata: {name: outer}
`);
  assert.equal(
    out.problems.map((p) => [p.code, p.line, p.message]),
    [
      [
        'INVALID_VALUE',
        4,
        'document 1 items[0] has items of its own: a list inside a list, which kubectl apply refuses too',
      ],
    ],
  );
  assert.equal(brief(out), ['v1 Secret outer @10']);
});

test('any document with items is a list, whatever its kind (kubectl applies the items, not the object)', () => {
  const out = classify(`apiVersion: v1
kind: ConfigMap
metadata: {name: w}
items:
  - apiVersion: v1
    kind: Secret
    metadata: {name: x}
`);
  assert.equal(out.problems, []);
  assert.equal(brief(out), ['v1 Secret x @5']);
});

test('Karmada kinds inside a List are policies and clusters, not templates', () => {
  const out = classify(`apiVersion: v1
kind: List
items:
  - apiVersion: policy.karmada.io/v1alpha1
    kind: PropagationPolicy
    metadata: {name: web}
    spec:
      resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
      placement: {clusterAffinity: {clusterNames: [member1]}}
`);
  assert.equal(out.problems, []);
  assert.equal(out.templates, []);
  assert.equal(
    out.propagationPolicies.map((p) => [p.object.metadata.name, p.source.line]),
    [['web', 4]],
  );
});

test('items: null is an empty list; items that is not a list, and an item that is not an object, are errors at their line', () => {
  assert.equal(classify('apiVersion: v1\nkind: List\nitems:\n'), classify(''));
  const mapping = classify('apiVersion: v1\nkind: List\nitems:\n  a: b\n');
  assert.equal(
    mapping.problems.map((p) => [p.code, p.line]),
    [['INVALID_VALUE', 4]],
  );
  const scalar = classify(
    'apiVersion: v1\nkind: List\nitems:\n  - just text\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n',
  );
  assert.equal(
    scalar.problems.map((p) => [p.code, p.line, p.message]),
    [['NOT_AN_OBJECT', 4, 'document 1 items[0] is string, not a Kubernetes object']],
  );
  assert.equal(brief(scalar), ['v1 ConfigMap a @5']);
});

test('two items naming the same object are a duplicate, like two documents', async () => {
  const { assembleModel } = await import('../../src/documents/assembleModel.ts');
  const model = await assembleModel([
    classify(`apiVersion: v1
kind: ConfigMapList
items:
  - metadata: {name: a}
  - metadata: {name: a}
`),
  ]);
  assert.equal(
    model.problems.map((p) => [p.code, p.line]),
    [['DUPLICATE_OBJECT', 5]],
  );
});

test.run();
