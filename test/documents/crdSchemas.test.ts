import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileCrd, compileSchema, mayBacktrackExponentially } from '../../src/crdSchemas/compileCrdSchema.ts';
import { defaultCustomResource } from '../../src/crdSchemas/defaultCustomResource.ts';
import {
  unknownFieldPaths,
  validateCustomResource,
  validateCustomResourceStatusUpdate,
  validateCustomResourceUpdate,
} from '../../src/crdSchemas/checkCustomResource.ts';
import { goFloat } from '../../src/crdSchemas/goValues.ts';

// Cases from k8s.io/apiextensions-apiserver 1.32 (defaulting/algorithm_test.go, prunenulls_test.go,
// pruning/algorithm_test.go, listtype/validation_test.go) and kube-openapi's validate messages.

const widgetSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        mode: { type: 'string', enum: ['Fast', 'Safe'], default: 'Safe' },
        name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
        at: { type: 'string', format: 'date-time' },
        port: { type: 'integer', format: 'int32' },
        target: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 3 },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 } },
          },
        },
        nested: {
          type: 'object',
          properties: {
            inner: { type: 'object', default: {}, properties: { level: { type: 'integer', default: 3 } } },
          },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: {} } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        note: { type: 'string', nullable: true },
        limit: { type: 'number', maximum: 1000000 },
      },
    },
  },
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', plural: 'widgets' },
    scope: 'Namespaced',
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: widgetSchema } },
      { name: 'v0', served: false, storage: false, schema: { openAPIV3Schema: widgetSchema } },
    ],
  },
};
const schema = compileCrd(crd)!.versions.get('v1')!;
const widget = (spec: Record<string, unknown>) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const messages = (object: unknown) => validateCustomResource(object, schema).map((e) => e.message);

test('a CRD compiles its served versions only', () => {
  const compiled = compileCrd(crd)!;
  assert.equal([...compiled.versions.keys()], ['v1']);
  assert.is(compiled.kind, 'Widget');
  assert.is(compileCrd({ ...crd, apiVersion: 'apiextensions.k8s.io/v1beta1' }), undefined);
});

test('defaults apply where a property is absent, inside present objects and array items, and inside defaults', () => {
  const out = defaultCustomResource(
    widget({ size: 2, ports: [{ name: 'a' }, { name: 'b', port: 81 }], nested: {} }),
    schema,
  );
  assert.equal(out.spec, {
    size: 2,
    ports: [
      { name: 'a', port: 80 },
      { name: 'b', port: 81 },
    ],
    nested: { inner: { level: 3 } },
    mode: 'Safe',
  });
  // An absent object is not created to hold its properties' defaults.
  assert.equal(defaultCustomResource(widget({ size: 2, mode: 'Fast' }), schema).spec, { size: 2, mode: 'Fast' });
  const untouched = widget({ size: 2, mode: 'Fast' });
  assert.is(defaultCustomResource(untouched, schema), untouched);
});

test('a null is defaulted when its field has a default, dropped when it is neither nullable nor defaulted, kept when nullable', () => {
  const out = defaultCustomResource(widget({ size: 2, mode: null, name: null, note: null }), schema);
  assert.equal(out.spec, { size: 2, mode: 'Safe', note: null });
  // algorithm_test.go "null in array": an item's null takes the items' default.
  const list = compileSchema({ type: 'array', items: { type: 'string', default: 'x' } });
  assert.equal(defaultCustomResource(['a', null], list), ['a', 'x']);
});

test('unknown fields are those pruning removes, with the root and embedded metadata read as ObjectMeta', () => {
  const paths = unknownFieldPaths(
    {
      ...widget({ size: 1, bogus: 1, free: { anything: 1, known: { deep: 1 } }, labels: { a: 'b' } }),
      metadata: { name: 'w', labelz: {} },
      status: {},
      template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: {} },
    },
    schema,
  );
  assert.equal(paths, [
    ['metadata', 'labelz'],
    ['spec', 'bogus'],
    ['spec', 'free', 'known', 'deep'],
    ['status'],
    ['template'],
  ]);
  const embedded = unknownFieldPaths(
    widget({ size: 1, template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { nam: 'x' }, data: {} } }),
    schema,
  );
  assert.equal(embedded, [['spec', 'template', 'metadata', 'nam']]);
});

test("type, format, enum, pattern, length, bounds and required are refused in kube-apiserver's words", () => {
  assert.equal(messages(widget({ size: 'three' })), [
    'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
  ]);
  assert.equal(messages(widget({ size: 0 })), [
    'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
  ]);
  assert.equal(messages(widget({ size: 11 })), [
    'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10',
  ]);
  assert.equal(messages(widget({ size: 1, mode: 'Slow' })), [
    'spec.mode: Unsupported value: "Slow": supported values: "Fast", "Safe"',
  ]);
  assert.equal(messages(widget({ size: 1, name: 'abcdef' })), ['spec.name: Too long: may not be more than 5 bytes']);
  assert.equal(messages(widget({ size: 1, name: 'AB' })), [
    'spec.name: Invalid value: "AB": spec.name in body should match \'^[a-z]+$\'',
  ]);
  assert.equal(messages(widget({ size: 1, at: 'yesterday' })), [
    'spec.at: Invalid value: "yesterday": spec.at in body must be of type date-time: "yesterday"',
  ]);
  assert.equal(messages(widget({ size: 1, at: '2024-02-30T10:00:00Z' })).length, 1);
  assert.equal(messages(widget({ size: 1, at: '2024-02-29T10:00:00.5+01:00' })), []);
  assert.equal(messages(widget({})), ['spec.size: Required value']);
  assert.equal(messages(widget({ size: 1, limit: 2000000.5 })), [
    'spec.limit: Invalid value: 2.0000005e+06: spec.limit in body should be less than or equal to 1e+06',
  ]);
  assert.equal(messages(widget({ size: 1, tags: ['a', 'b', 'c', 'd'] })), [
    'spec.tags: Too many: 4: must have at most 3 items',
  ]);
  assert.equal(messages(widget({ size: 1, labels: { a: 1 } })), [
    'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
  ]);
});

test('int32 and int64 formats are not checked, as apiextensions drops every format kube-openapi does not know', () => {
  assert.equal(messages(widget({ size: 1, port: 2 ** 40 })), []);
});

test('x-kubernetes-int-or-string takes a whole number or a string, and a nullable field takes null', () => {
  assert.equal(messages(widget({ size: 1, target: 3, note: null })), []);
  assert.equal(messages(widget({ size: 1, target: '50%' })), []);
  assert.equal(messages(widget({ size: 1, target: 1.5 })), [
    'spec.target: Invalid value: "number": spec.target in body must be of type integer,string: "number"',
  ]);
});

test('list-type set and map refuse the second equal item or key', () => {
  assert.equal(messages(widget({ size: 1, tags: ['a', 'b', 'a'] })), ['spec.tags[2]: Duplicate value: "a"']);
  assert.equal(messages(widget({ size: 1, ports: [{ name: 'a' }, { name: 'a', port: 2 }] })), [
    'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"a"}',
  ]);
  assert.equal(
    messages(widget({ size: 1, ports: ['a'] })).includes(
      'spec.ports[0]: Invalid value: "a": must be an object for an array of list-type map',
    ),
    true,
  );
});

test('an embedded resource needs apiVersion and kind, and its metadata is held to ObjectMeta rules', () => {
  assert.equal(messages(widget({ size: 1, template: { metadata: { name: 'x' } } })), [
    'spec.template.apiVersion: Required value: must not be empty',
    'spec.template.kind: Required value: must not be empty',
  ]);
  assert.equal(messages(widget({ size: 1, template: { apiVersion: 'v1', kind: 'Config_Map' } })).length, 1);
});

test("Go prints a float64 bound as fmt's %v does", () => {
  assert.is(goFloat(1000000), '1e+06');
  assert.is(goFloat(123456), '123456');
  assert.is(goFloat(0.5), '0.5');
  assert.is(goFloat(0.00001), '1e-05');
});

// Cases from apiextensions-apiserver 1.32's pkg/apiserver/validation/ratcheting_test.go and
// test/integration/ratcheting_test.go, which validate update(new, old).
const numbers = compileSchema({
  type: 'object',
  properties: {
    small: { type: 'number', maximum: 50 },
    medium: { type: 'number', minimum: 50, maximum: 10000 },
    nested: { type: 'object', properties: { small: { type: 'number', maximum: 50 } } },
  },
});
const updateErrors = (schema: typeof numbers, next: unknown, old: unknown) =>
  validateCustomResourceUpdate(next, old, schema).map((e) => e.message);

test('an update reports no schema error in a field it leaves as it was, at any depth, and every one in a field it changes', () => {
  assert.equal(updateErrors(numbers, { small: 500 }, { small: 500 }), []);
  assert.equal(updateErrors(numbers, { small: 501 }, { small: 501, medium: 500 }), []);
  assert.equal(updateErrors(numbers, { nested: { small: 501 } }, { nested: { small: 501, medium: 1 } }), []);
  assert.equal(updateErrors(numbers, { small: 500 }, { small: 501 }), [
    'small: Invalid value: 500: small in body should be less than or equal to 50',
  ]);
  assert.equal(updateErrors(numbers, { nested: { small: 500 } }, { nested: { small: 501 } }), [
    'nested.small: Invalid value: 500: nested.small in body should be less than or equal to 50',
  ]);
  // A value put back after a valid one is new to the update that writes it.
  assert.equal(validateCustomResource({ small: 500 }, numbers).length, 1);
});

test("an object's own checks are ratcheted only when the whole object is unchanged", () => {
  const restricted = compileSchema({
    type: 'object',
    properties: {
      restricted: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
      other: { type: 'string' },
    },
  });
  const old = { restricted: { key1: 'hi', key2: 'there' } };
  assert.equal(updateErrors(restricted, { ...old, other: 'yo' }, old), []);
  assert.equal(updateErrors(restricted, { restricted: { key1: 'changed', key2: 'there' } }, old), [
    'restricted: Too many: 2: must have at most 1 items',
  ]);
  const required = compileSchema({
    type: 'object',
    properties: { spec: { type: 'object', required: ['size'], properties: { size: {}, color: {} } } },
  });
  assert.equal(updateErrors(required, { spec: { color: 'red' } }, { spec: { color: 'blue' } }), [
    'spec.size: Required value',
  ]);
  // A field the schema does not declare cannot be matched, so its object never counts as unchanged.
  const open = compileSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { size: { type: 'integer', minimum: 1 } },
      },
    },
  });
  assert.equal(updateErrors(open, { spec: { free: 1 } }, { spec: { free: 1 } }), ['spec.size: Required value']);
  assert.equal(updateErrors(open, { spec: { size: 0, free: 2 } }, { spec: { size: 0, free: 1 } }), []);
});

test("a map list's items are matched with the old ones by their keys, an atomic list's not at all", () => {
  const lists = compileSchema({
    type: 'object',
    properties: {
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name', 'port'],
        items: {
          type: 'object',
          required: ['name', 'port'],
          properties: { name: { type: 'string' }, port: { type: 'number', multipleOf: 2 }, field: { type: 'string' } },
        },
      },
      values: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string', minLength: 6 } } },
    },
  });
  const port = (name: string, p: number, field = 'value') => ({ name, port: p, field });
  const old = { ports: [port('nginx', 443), port('etcd', 2379), port('kube-apiserver', 6443)] };
  const reordered = { ports: [port('kube-apiserver', 6443, 'changed'), port('nginx', 443), port('etcd', 2379)] };
  assert.equal(updateErrors(lists, reordered, old), []);
  assert.equal(updateErrors(lists, { ports: [...reordered.ports, port('dev', 8081)] }, old), [
    'ports[3].port: Invalid value: 8081: ports[3].port in body should be a multiple of 2',
  ]);
  const values = { values: [{ name: '1', key: 'value' }] };
  assert.equal(updateErrors(lists, values, values), []);
  assert.equal(updateErrors(lists, { values: [{ name: '1', key: 'value', key2: 'valid value' }] }, values), [
    'values[0].name: Invalid value: "1": values[0].name in body should be at least 6 chars long',
    'values[0].key: Invalid value: "value": values[0].key in body should be at least 6 chars long',
  ]);
});

test("an update's list-type duplicates are not checked when the old object already had some", () => {
  const sets = compileSchema({
    type: 'object',
    properties: {
      a: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
      b: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
    },
  });
  assert.equal(updateErrors(sets, { a: [1, 1], b: [2, 2] }, { a: [1, 1] }), []);
  assert.equal(updateErrors(sets, { a: [1], b: [2, 2] }, { a: [1] }), ['b[1]: Duplicate value: 2']);
});

test("a combinator's branch whose only errors are in unchanged fields passes", () => {
  const anyOf = compileSchema({
    type: 'object',
    properties: { size: { type: 'integer' }, color: { type: 'string' } },
    anyOf: [{ properties: { size: { minimum: 5 } } }, { properties: { size: { maximum: -5 } } }],
  });
  assert.equal(updateErrors(anyOf, { size: 0, color: 'red' }, { size: 0 }), []);
  assert.equal(updateErrors(anyOf, { size: 1 }, { size: 0 }), [
    '<nil>: Invalid value: "": "" must validate at least one schema (anyOf)',
    'size: Invalid value: 1: size in body should be greater than or equal to 5',
  ]);
});

test("the status subresource's update validates its status whole, without ratcheting", () => {
  const schema = compileSchema({
    type: 'object',
    properties: { status: { type: 'object', properties: { count: { type: 'integer', minimum: 1 } } } },
  });
  const old = { status: { count: 0 } };
  assert.equal(
    validateCustomResourceStatusUpdate(old, old, schema).map((e) => e.message),
    ['status.count: Invalid value: 0: status.count in body should be greater than or equal to 1'],
  );
  assert.equal(validateCustomResourceStatusUpdate({}, old, schema), []);
  // Nor does it check embedded resources, as the main resource's update does.
  const embedding = compileSchema({
    type: 'object',
    properties: {
      status: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    },
  });
  assert.equal(validateCustomResourceStatusUpdate({ status: { apiVersion: 'v1' } }, {}, embedding), []);
  assert.equal(
    validateCustomResourceUpdate({ status: { apiVersion: 'v1' } }, {}, embedding).map((e) => e.message),
    ['status.kind: Required value: must not be empty'],
  );
});

test("a pattern JavaScript's backtracking would take exponential time on is left unchecked, so a pull request's CRD cannot hold the render", () => {
  for (const p of ['^(a+)+$', '^(a|a)*$', '((ab)*)+', '^(x+y?){2,}$']) assert.ok(mayBacktrackExponentially(p), p);
  for (const p of [
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^([a-z]+)?$',
    '^[(a+)]+$',
    '^(\\+a)+$',
    '^(ab){2,}$',
    '^[a-z]+$',
  ])
    assert.not.ok(mayBacktrackExponentially(p), p);
  const schema = compileSchema({
    type: 'object',
    properties: { spec: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } } },
  });
  // Checked with JavaScript's engine these 41 characters would take hours: the test would not end.
  assert.equal(validateCustomResource({ spec: { name: `${'a'.repeat(40)}b` } }, schema), []);
});

test.run();
