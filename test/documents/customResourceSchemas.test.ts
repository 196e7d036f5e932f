import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifyText } from './helpers/classifyText.ts';
import { assembleModel } from '../../src/documents/assembleModel.ts';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [size]
              properties:
                size: {type: integer, minimum: 1}
                mode: {type: string, enum: [Fast, Safe], default: Safe}
                ports:
                  type: array
                  items:
                    type: object
                    properties:
                      name: {type: string}
                      port: {type: integer, default: 80}
`;

const model = (widget: string, crd = CRD) =>
  assembleModel([classifyText('crds/widget.yaml', crd), classifyText('apps/widget.yaml', widget)]);

const KEY = 'example.com/v1/Widget/default/w';

test('a custom resource is rendered as the API server stores it: the defaults its CRD declares applied', async () => {
  const m = await model(`apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: 2
  ports:
    - name: http
`);
  assert.equal(m.problems, []);
  assert.equal(m.templates.get(KEY)?.manifest.spec, { size: 2, ports: [{ name: 'http', port: 80 }], mode: 'Safe' });
});

test("a custom resource's field its CRD does not declare is refused at its key, as kubectl's strict validation makes the API server refuse it", async () => {
  const m = await model(`apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: 2
  colour: red
`);
  assert.equal(
    m.problems.map((p) => [p.file, p.line, p.code, p.message.split(' (')[0]]),
    [['apps/widget.yaml', 6, 'UNKNOWN_FIELD', 'strict decoding error: unknown field "spec.colour"']],
  );
  assert.ok(m.problems[0]!.fix.includes('remove spec.colour'));
  assert.is(m.templates.has(KEY), false);
  assert.ok(m.held.has(KEY));
});

test("a custom resource its CRD's schema refuses is an error at the field, in kube-apiserver's words, and keeps its last output", async () => {
  const m = await model(`apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  size: "2"
  mode: Slow
`);
  assert.equal(
    m.problems.map((p) => [p.line, p.code, p.message.split(' (the')[0]]),
    [
      [5, 'INVALID_VALUE', 'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"'],
      [6, 'INVALID_VALUE', 'spec.mode: Unsupported value: "Slow": supported values: "Fast", "Safe"'],
    ],
  );
  assert.equal(
    m.problems.map((p) => p.fix),
    ['remove the quotes: spec.size: 2', 'use one of: Fast, Safe'],
  );
  assert.ok(m.held.has(KEY));
  const missing = await model(`apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {}
`);
  assert.equal(
    missing.problems.map((p) => [p.code, p.message.split(' (the')[0]]),
    [['MISSING_FIELD', 'spec.size: Required value']],
  );
});

test('a custom resource without its CRD in the commit is rendered as written', async () => {
  const m = await assembleModel([
    classifyText(
      'apps/widget.yaml',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {colour: red}\n',
    ),
  ]);
  assert.equal(m.problems, []);
  assert.equal(m.templates.get(KEY)?.manifest.spec, { colour: 'red' });
});

test.run();
