import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';
import { malformedMetadata } from '../../src/api/metadataShapes.ts';
import { parse } from 'yaml';
import { parseUnitOutput } from '../../src/units/parseUnitOutput.ts';

const doc = (kind: string, meta: string, apiVersion = 'v1') => `apiVersion: ${apiVersion}
kind: ${kind}
metadata:
  name: x
  ${meta}
`;

test('metadata fields ObjectMeta cannot decode hold the template at their line, for built-in and custom kinds alike', () => {
  const cases = [
    'labels: [a, b]',
    'labels: j',
    'annotations: xyz',
    'namespace: 5',
    'generateName: 3',
    'finalizers: a',
    'ownerReferences: {a: b}',
    'ownerReferences: [x]',
    'ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: 1}]',
    'generation: x',
    'creationTimestamp: yesterday',
    'managedFields: x',
  ];
  const file = classifyText(
    'templates/app.yaml',
    [
      ...cases.map((m) => doc('ConfigMap', m)),
      doc('Widget', 'labels: [a]', 'example.com/v1'),
      doc('Widget', 'labels: {a: 1}', 'example.com/v1'),
    ].join('---\n'),
  );
  assert.equal(
    file.problems.map((p) => `${p.line}:${p.column} ${p.code} ${p.message.split(', not ')[0]}`),
    [
      '5:11 INVALID_VALUE metadata.labels is the list ["a","b"]',
      '11:11 INVALID_VALUE metadata.labels is the string "j"',
      '17:16 INVALID_VALUE metadata.annotations is the string "xyz"',
      '23:14 INVALID_VALUE metadata.namespace is the number 5',
      '29:17 INVALID_VALUE metadata.generateName is the number 3',
      '35:15 INVALID_VALUE metadata.finalizers is the string "a"',
      '41:20 INVALID_VALUE metadata.ownerReferences is the mapping {"a":"b"}',
      '47:21 INVALID_VALUE metadata.ownerReferences[0] is the string "x"',
      '53:61 INVALID_VALUE metadata.ownerReferences[0].uid is the number 1',
      '59:15 INVALID_VALUE metadata.generation is the string "x"',
      '65:22 INVALID_VALUE metadata.creationTimestamp is the string "yesterday"',
      '71:18 INVALID_VALUE metadata.managedFields is the string "x"',
      '77:11 INVALID_VALUE metadata.labels is the list ["a"]',
      '83:15 INVALID_VALUE metadata.labels.a is the number 1',
    ],
  );
  assert.equal(file.templates, []);
  assert.is(file.broken.length, cases.length + 2);
  // What decodes stays a template: no value is none, a time in RFC 3339, a label of a built-in kind is stringFields'.
  const fine = classifyText(
    'templates/ok.yaml',
    doc('ConfigMap', 'labels: null\n  creationTimestamp: "2024-01-31T12:00:00Z"\n  annotations: {a: null}'),
  );
  assert.equal(fine.problems, []);
  assert.is(fine.templates.length, 1);
});

test("a pod template's metadata is decoded as an ObjectMeta too, and a unit's output is checked as a file is", () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: web
    spec:
      containers: [{name: app, image: web}]
`;
  assert.equal(
    malformedMetadata(parse(deployment)).map((m) => m.path.join('.')),
    ['spec.template.metadata.labels'],
  );
  const unit = { dir: 'apps/web', tool: 'helm' as const, marker: 'apps/web/Chart.yaml', namespace: 'default' };
  const out = parseUnitOutput(
    unit,
    new TextEncoder().encode(`---\n# Source: web/templates/deploy.yaml\n${deployment}`),
  );
  assert.ok(out.unreadable);
  assert.equal(
    out.problems.map((p) => `${p.file}:${p.line} ${p.message.split(', not ')[0]}`),
    ['apps/web/templates/deploy.yaml:9 helm template output: spec.template.metadata.labels is the string "web"'],
  );
});

test.run();
