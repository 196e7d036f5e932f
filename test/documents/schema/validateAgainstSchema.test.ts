import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateAgainstSchema } from '../../../src/documents/schema/validateAgainstSchema.ts';
import type { Schema } from '../../../src/documents/schema/types.ts';
import { formatPath } from '../../../src/documents/schema/formatPath.ts';

const schema: Schema = {
  type: 'object',
  required: ['spec'],
  fields: {
    metadata: {
      type: 'object',
      fields: { name: { type: 'string' }, labels: { type: 'object', fields: {}, additional: { type: 'string' } } },
    },
    spec: {
      type: 'object',
      required: ['selectors', 'mode'],
      fields: {
        selectors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['kind'],
            fields: { kind: { type: 'string' }, name: { type: 'string', maxLength: 5 } },
          },
        },
        mode: { type: 'string', enum: ['Duplicated', 'Divided'] },
        weight: { type: 'integer', minimum: 1, maximum: 10 },
        ratio: { type: 'number' },
        enabled: { type: 'boolean' },
        port: { type: 'intOrString' },
        cpu: { type: 'quantity' },
        code: { type: 'string', pattern: /^[a-z]+$/ },
        extra: { type: 'object', fields: {}, open: true },
        payload: { type: 'any' },
        placement: {
          type: 'object',
          fields: {
            clusterAffinity: { type: 'object', fields: { clusterNames: { type: 'array', items: { type: 'string' } } } },
          },
        },
      },
    },
  },
};

const valid = {
  metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: { selectors: [{ kind: 'Deployment' }], mode: 'Divided' },
};

test('a conforming value has no issues', () => {
  assert.equal(validateAgainstSchema(valid, schema), []);
  assert.equal(
    validateAgainstSchema(
      {
        ...valid,
        spec: {
          ...valid.spec,
          weight: 3,
          ratio: 0.5,
          enabled: false,
          port: 'http',
          cpu: '500m',
          code: 'abc',
          extra: { anything: [1] },
          payload: { x: null },
        },
      },
      schema,
    ),
    [],
  );
});

test('an unknown field names the nearest valid field and says to rename it', () => {
  const issues = validateAgainstSchema(
    { ...valid, spec: { ...valid.spec, placement: { clusterAfinity: {} } } },
    schema,
  );
  assert.is(issues.length, 1);
  assert.equal(issues[0]!.path, ['spec', 'placement', 'clusterAfinity']);
  assert.is(issues[0]!.code, 'UNKNOWN_FIELD');
  assert.is(issues[0]!.message, 'unknown field spec.placement.clusterAfinity; did you mean clusterAffinity?');
  assert.is(issues[0]!.fix, 'rename it to clusterAffinity');
});

test('an unknown field with no close match lists the valid fields', () => {
  const [issue] = validateAgainstSchema({ ...valid, metadata: { name: 'a', zzz: 1 } }, schema);
  assert.is(issue!.code, 'UNKNOWN_FIELD');
  assert.match(issue!.message, 'unknown field metadata.zzz; valid fields under metadata are: name, labels');
  assert.is(issue!.fix, 'remove zzz, or rename it to one of: name, labels');
});

test('an unknown field that is valid at another level says where it belongs', () => {
  const [issue] = validateAgainstSchema({ ...valid, spec: { ...valid.spec, clusterAffinity: {} } }, schema);
  assert.is(issue!.code, 'UNKNOWN_FIELD');
  assert.match(issue!.message, 'it belongs at spec.placement.clusterAffinity');
  assert.is(issue!.fix, 'move it to spec.placement.clusterAffinity');
});

test('missing required fields are each reported with an add instruction', () => {
  const issues = validateAgainstSchema({ spec: {} }, schema);
  assert.equal(
    issues.map((i) => [i.code, formatPath(i.path), i.fix]),
    [
      ['MISSING_FIELD', 'spec.selectors', 'add spec.selectors with at least one entry'],
      ['MISSING_FIELD', 'spec.mode', 'add spec.mode: one of Duplicated, Divided'],
    ],
  );
  assert.is(issues[0]!.message, 'spec.selectors is required');
});

test('a required field that is null counts as missing; an optional null counts as absent', () => {
  const issues = validateAgainstSchema({ metadata: null, spec: { selectors: [{ kind: 'X' }], mode: null } }, schema);
  assert.is(issues.length, 1);
  assert.is(issues[0]!.code, 'MISSING_FIELD');
  assert.is(issues[0]!.message, 'spec.mode is required but is empty');
});

test('an empty list below minItems is an invalid value', () => {
  const [issue] = validateAgainstSchema({ spec: { selectors: [], mode: 'Divided' } }, schema);
  assert.is(issue!.code, 'INVALID_VALUE');
  assert.is(issue!.message, 'spec.selectors must have at least 1 entry, but it is empty');
  assert.is(issue!.fix, 'add at least one entry to spec.selectors');
});

test('an enum value outside the set lists the allowed values and suggests the nearest', () => {
  const [issue] = validateAgainstSchema({ spec: { selectors: [{ kind: 'X' }], mode: 'Divide' } }, schema);
  assert.is(issue!.code, 'INVALID_VALUE');
  assert.is(issue!.message, 'spec.mode is "Divide", which is not allowed; did you mean Divided?');
  assert.is(issue!.fix, 'use one of: Duplicated, Divided');
});

test('wrong types name what was expected and what was found', () => {
  const issues = validateAgainstSchema(
    {
      spec: {
        selectors: { kind: 'X' },
        mode: 3,
        weight: '4',
        enabled: 'true',
        ratio: 'x',
        port: 1.5,
        cpu: 'lots',
        placement: [],
      },
    },
    schema,
  );
  const byPath = new Map(issues.map((i) => [formatPath(i.path), i]));
  assert.is(byPath.get('spec.selectors')!.message, 'spec.selectors must be a list, but it is a mapping');
  assert.is(byPath.get('spec.mode')!.fix, 'quote the value so YAML reads it as text: spec.mode: "3"');
  assert.is(byPath.get('spec.weight')!.fix, 'remove the quotes: spec.weight: 4');
  assert.is(byPath.get('spec.enabled')!.fix, 'write true without quotes');
  assert.ok(byPath.get('spec.ratio'));
  assert.ok(byPath.get('spec.port'));
  assert.match(byPath.get('spec.cpu')!.message, 'not a Kubernetes quantity');
  assert.is(
    byPath.get('spec.placement')!.message,
    'spec.placement must be a mapping (key: value pairs), but it is a list',
  );
  assert.ok(issues.every((i) => i.code === 'INVALID_VALUE'));
});

test('integer bounds, maxLength and pattern are enforced', () => {
  const issues = validateAgainstSchema(
    { spec: { selectors: [{ kind: 'X', name: 'toolong' }], mode: 'Divided', weight: 0, code: 'A1' } },
    schema,
  );
  assert.equal(
    issues.map((i) => formatPath(i.path)),
    ['spec.selectors[0].name', 'spec.weight', 'spec.code'],
  );
  assert.is(issues[1]!.message, 'spec.weight is 0; it must be at least 1');
  assert.is(issues[1]!.fix, 'set spec.weight to 1 or more');
  assert.is(
    validateAgainstSchema({ spec: { selectors: [{ kind: 'X' }], mode: 'Divided', weight: 11 } }, schema)[0]!.fix,
    'set spec.weight to 10 or less',
  );
});

test('every issue is reported, not only the first, with [i] indices in paths', () => {
  const issues = validateAgainstSchema(
    { spec: { selectors: [{ kind: 'A' }, { name: 'b' }, { kind: 'C', knd: 'x' }], mode: 'x', wieght: 2 }, metdata: {} },
    schema,
  );
  assert.equal(
    issues.map((i) => `${i.code} ${formatPath(i.path)}`),
    [
      'MISSING_FIELD spec.selectors[1].kind',
      'UNKNOWN_FIELD spec.selectors[2].knd',
      'INVALID_VALUE spec.mode',
      'UNKNOWN_FIELD spec.wieght',
      'UNKNOWN_FIELD metdata',
    ],
  );
});

test('map values are checked and odd keys are quoted in paths', () => {
  const [issue] = validateAgainstSchema(
    { ...valid, metadata: { labels: { 'app.kubernetes.io/version': 1.1 } } },
    schema,
  );
  assert.equal(issue!.path, ['metadata', 'labels', 'app.kubernetes.io/version']);
  assert.match(issue!.message, 'metadata.labels["app.kubernetes.io/version"] must be a string');
});

test('rootPath is prepended to every path', () => {
  const specSchema = (schema as Extract<Schema, { type: 'object' }>).fields.spec!;
  const [issue] = validateAgainstSchema({ selectors: [{ kind: 'X' }], mode: 'Divided', wieght: 1 }, specSchema, [
    'spec',
  ]);
  assert.is(issue!.message, 'unknown field spec.wieght; did you mean weight?');
});

test('a non-object document is one invalid-value issue at the root', () => {
  const issues = validateAgainstSchema('hello', schema);
  assert.is(issues.length, 1);
  assert.is(issues[0]!.message, '(document root) must be a mapping (key: value pairs), but it is the string "hello"');
});

test.run();
