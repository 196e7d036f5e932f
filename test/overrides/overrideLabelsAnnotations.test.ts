import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { LabelAnnotationOverrider } from '../../src/api/policy.ts';
import {
  applyLabelAnnotationOverriders,
  type LabelAnnotationField,
} from '../../src/overrides/overrideLabelsAnnotations.ts';
import { metadataOf, type Obj } from './helpers/objects.ts';

function deployment(field: LabelAnnotationField, map: Record<string, string> | undefined): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'test', namespace: 'default', ...(map ? { [field]: map } : {}) },
    spec: {},
  };
}

function mapAfter(
  field: LabelAnnotationField,
  start: Record<string, string> | undefined,
  overriders: LabelAnnotationOverrider[],
): unknown {
  const step = applyLabelAnnotationOverriders(deployment(field, start), field, overriders);
  if (!step.ok) throw new Error(`unexpected failure: ${step.message}`);
  return metadataOf(step.manifest)[field];
}

const FOO_BAR = { foo: 'foo', bar: 'bar' };

// Cases transcribed from karmada pkg/util/overridemanager/labelannotationoverrider_test.go
// (Test_applyLabelsOverriders, Test_applyAnnotationsOverriders): starting map, overrider, resulting map.
const cases: {
  name: string;
  fields: LabelAnnotationField[];
  start: Record<string, string> | undefined;
  overrider: LabelAnnotationOverrider;
  want: Record<string, string>;
}[] = [
  {
    name: 'add to an absent map creates it',
    fields: ['labels', 'annotations'],
    start: undefined,
    overrider: { operator: 'add', value: { test2: 'test2' } },
    want: { test2: 'test2' },
  },
  {
    name: 'replace changes existing keys and skips absent ones',
    fields: ['labels', 'annotations'],
    start: FOO_BAR,
    overrider: { operator: 'replace', value: { foo: 'exist', 'non-exist': 'non-exist' } },
    want: { foo: 'exist', bar: 'bar' },
  },
  {
    name: 'add adds a key',
    fields: ['labels', 'annotations'],
    start: FOO_BAR,
    overrider: { operator: 'add', value: { test: 'test' } },
    want: { test: 'test', foo: 'foo', bar: 'bar' },
  },
  {
    name: 'remove drops existing keys and skips absent ones',
    fields: ['labels', 'annotations'],
    start: FOO_BAR,
    overrider: { operator: 'remove', value: { foo: 'foo', 'non-exist': 'non-exist' } },
    want: { bar: 'bar' },
  },
  {
    name: 'remove with an empty value changes nothing',
    fields: ['annotations'],
    start: FOO_BAR,
    overrider: { operator: 'remove', value: {} },
    want: FOO_BAR,
  },
  {
    name: 'replace of an absent key changes nothing',
    fields: ['annotations'],
    start: FOO_BAR,
    overrider: { operator: 'replace', value: { test: 'test' } },
    want: FOO_BAR,
  },
  {
    name: 'remove of an absent key changes nothing',
    fields: ['annotations'],
    start: FOO_BAR,
    overrider: { operator: 'remove', value: { test: 'test' } },
    want: FOO_BAR,
  },
  {
    name: 'add of a key with / works',
    fields: ['annotations'],
    start: FOO_BAR,
    overrider: { operator: 'add', value: { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' } },
    want: { ...FOO_BAR, 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' },
  },
  {
    name: 'remove of a key with / works',
    fields: ['annotations'],
    start: { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf', foo: 'foo' },
    overrider: { operator: 'remove', value: { 'testannotation/projectId': 'c-m-lfx9lk92:p-v86cf' } },
    want: { foo: 'foo' },
  },
];

for (const c of cases) {
  for (const field of c.fields) {
    test(`${field}Overrider: ${c.name}`, () => {
      assert.equal(mapAfter(field, c.start, [c.overrider]), c.want);
    });
  }
}

test('add overwrites an existing key', () => {
  assert.equal(mapAfter('labels', { env: 'dev' }, [{ operator: 'add', value: { env: 'prod' } }]), { env: 'prod' });
});

test('remove and replace on an absent map leave the manifest without one', () => {
  const step = applyLabelAnnotationOverriders(deployment('labels', undefined), 'labels', [
    { operator: 'remove', value: { a: 'a' } },
    { operator: 'replace', value: { a: 'b' } },
  ]);
  assert.ok(step.ok);
  if (step.ok) assert.is('labels' in metadataOf(step.manifest), false);
});

test('overriders apply in list order: a later replace sees an earlier add', () => {
  assert.equal(
    mapAfter('annotations', undefined, [
      { operator: 'replace', value: { a: 'replaced-too-early' } },
      { operator: 'add', value: { a: '1' } },
      { operator: 'replace', value: { a: '2' } },
    ]),
    { a: '2' },
  );
});

test('labels and annotations are separate maps', () => {
  const manifest = { metadata: { name: 'x', labels: { a: '1' }, annotations: { a: '1' } } };
  const step = applyLabelAnnotationOverriders(manifest, 'annotations', [{ operator: 'remove', value: { a: '' } }]);
  assert.ok(step.ok);
  if (step.ok) assert.equal(step.manifest.metadata, { name: 'x', labels: { a: '1' }, annotations: {} });
  assert.equal(manifest.metadata.annotations, { a: '1' });
});

test.run();
