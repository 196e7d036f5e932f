import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, MemberHarness } from './helpers/memberHarness.ts';
import type { Member } from '../../src/members/index.ts';

// The member stores custom resources as kube-apiserver's apiextensions does, against the CRD version's structural
// schema: fields it lacks pruned, warned about or refused as fieldValidation says, its defaults applied on every
// write and on read, its validation refusing the object with a 422, the status subresource validating status only.
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let member: Member;

const crd = (specProperties: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
${specProperties}
          status:
            type: object
            properties:
              phase: {type: string, enum: [Ready, Pending]}
`;

const SPEC = `              size: {type: integer, minimum: 1}
              color: {type: string, enum: [red, blue], default: red}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const widget = (name: string, spec: string) => `apiVersion: example.com/v1
kind: Widget
metadata: {name: ${name}, namespace: default}
spec: ${spec}
`;

const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
  await ok(['apply', '-f', '-'], crd(SPEC));
  await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com']);
});

test.after(async () => {
  await harness.cleanup();
});

const ok = async (args: string[], stdin?: string) => {
  const out = await kubectl(args, stdin);
  assert.is(out.code, 0, out.stderr);
  return out;
};
const spec = async (name: string) => JSON.parse((await ok(['get', `widget/${name}`, '-o', 'json'])).stdout).spec;

test("kubectl's strict field validation refuses a custom resource's unknown fields; warn and false prune them", async () => {
  const body = widget('unknown', '{size: 2, zeta: 1, bogus: 1, extra: {kept: 1}}');
  const strict = await kubectl(['create', '-f', '-'], body);
  assert.is(strict.code, 1);
  assert.match(
    strict.stderr,
    'Error from server (BadRequest): error when creating "STDIN": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus", unknown field "spec.zeta"',
  );
  const warned = await ok(['create', '--validate=warn', '-f', '-'], body);
  assert.match(warned.stderr, 'Warning: unknown field "spec.bogus"\nWarning: unknown field "spec.zeta"');
  assert.equal(await spec('unknown'), { size: 2, extra: { kept: 1 }, color: 'red' });
  await ok(['delete', 'widget/unknown']);
  const ignored = await ok(['create', '--validate=false', '-f', '-'], body);
  assert.not.match(ignored.stderr, 'Warning');
  assert.equal(await spec('unknown'), { size: 2, extra: { kept: 1 }, color: 'red' });
});

test("a custom resource its schema refuses is a 422 naming each field; one it admits gets the schema's defaults", async () => {
  const refused = await kubectl(['apply', '-f', '-'], widget('bad', '{color: pink, size: 0}'));
  assert.is(refused.code, 1);
  assert.match(
    refused.stderr,
    'The Widget "bad" is invalid: \n* spec.color: Unsupported value: "pink": supported values: "red", "blue"\n* spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
  );
  const missing = await api(member, 'POST', WIDGETS, {
    body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'bad' }, spec: {} },
  });
  assert.is(missing.status, 422);
  assert.is(missing.body.reason, 'Invalid');
  assert.is(missing.body.message, 'Widget.example.com "bad" is invalid: spec.size: Required value');
  assert.equal(missing.body.details, {
    name: 'bad',
    group: 'example.com',
    kind: 'Widget',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.size' }],
  });
  await ok(['apply', '--server-side', '-f', '-'], widget('applied', '{size: 3}'));
  assert.equal(await spec('applied'), { size: 3, color: 'red' });
});

test("server-side apply of a field a custom resource's schema lacks fails typing the patch, whatever fieldValidation", async () => {
  const applied = await kubectl(
    ['apply', '--server-side', '--validate=false', '-f', '-'],
    widget('typed', '{size: 2, bogus: 1}'),
  );
  assert.is(applied.code, 1);
  assert.match(
    applied.stderr,
    'failed to create typed patch object (default/typed; example.com/v1, Kind=Widget): .spec.bogus: field not declared in schema',
  );
  await ok(['apply', '--server-side', '-f', '-'], widget('typed', '{size: 2, extra: {free: {form: 1}}}'));
  assert.equal(await spec('typed'), { size: 2, extra: { free: { form: 1 } }, color: 'red' });
});

test("a merge patch's unknown field is a 422 under Strict and pruned with a warning otherwise; its result validated", async () => {
  await ok(['apply', '-f', '-'], widget('patched', '{size: 2}'));
  const path = `${WIDGETS}/patched`;
  const merge = { contentType: 'application/merge-patch+json' };
  const strict = await api(member, 'PATCH', `${path}?fieldValidation=Strict`, {
    ...merge,
    body: { spec: { nope: 1 } },
  });
  assert.is(strict.status, 422);
  assert.match(
    strict.body.message,
    /^ "" is invalid: patch: Invalid value: ".*\\"nope\\":1.*": strict decoding error: unknown field "spec.nope"$/,
  );
  const warned = await kubectl(['patch', 'widget/patched', '--type=merge', '-p', '{"spec":{"nope":1,"size":4}}']);
  assert.is(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, 'Warning: unknown field "spec.nope"');
  assert.equal(await spec('patched'), { size: 4, color: 'red' });
  const invalid = await kubectl([
    'patch',
    'widget/patched',
    '--type=merge',
    '-p',
    '{"spec":{"color":"green","size":null}}',
  ]);
  assert.is(invalid.code, 1);
  assert.match(
    invalid.stderr,
    'The Widget "patched" is invalid: \n* spec.color: Unsupported value: "green": supported values: "red", "blue"\n* spec.size: Required value',
  );
});

test('the status subresource validates status alone and ignores spec; the main resource keeps the stored status', async () => {
  await ok(['apply', '-f', '-'], widget('status', '{size: 2}'));
  const bad = await kubectl([
    'patch',
    'widget/status',
    '--subresource=status',
    '--type=merge',
    '-p',
    '{"status":{"phase":"Bogus"}}',
  ]);
  assert.is(bad.code, 1);
  assert.match(
    bad.stderr,
    'The Widget "status" is invalid: status.phase: Unsupported value: "Bogus": supported values: "Ready", "Pending"',
  );
  // An invalid spec on a status write is not the status strategy's to validate: it is dropped.
  await ok([
    'patch',
    'widget/status',
    '--subresource=status',
    '--type=merge',
    '-p',
    '{"status":{"phase":"Ready"},"spec":{"size":-5}}',
  ]);
  // A main-resource write's status is not the strategy's to keep, so it is neither validated nor stored.
  await ok(['patch', 'widget/status', '--type=merge', '-p', '{"status":{"phase":"Bogus"}}']);
  const stored = JSON.parse((await ok(['get', 'widget/status', '-o', 'json'])).stdout);
  assert.equal(stored.spec, { size: 2, color: 'red' });
  assert.equal(stored.status, { phase: 'Ready' });
});

test("an object stored before its CRD's schema changed reads with the new defaults and without removed fields", async () => {
  await ok(['apply', '-f', '-'], widget('old', '{size: 3, extra: {kept: 1}}'));
  const before = JSON.parse((await ok(['get', 'widget/old', '-o', 'json'])).stdout).metadata.resourceVersion;
  await ok(
    ['apply', '-f', '-'],
    crd(
      '              size: {type: integer}\n              color: {type: string, default: round}\n              shape: {type: string, default: square}\n',
    ),
  );
  const read = JSON.parse((await ok(['get', 'widget/old', '-o', 'json'])).stdout);
  assert.equal(read.spec, { size: 3, color: 'red', shape: 'square' });
  assert.is(read.metadata.resourceVersion, before);
  const listed = JSON.parse((await ok(['get', 'widgets', '-o', 'json'])).stdout).items;
  assert.equal(listed.find((w: any) => w.metadata.name === 'old').spec, { size: 3, color: 'red', shape: 'square' });
  await ok(['apply', '-f', '-'], crd(SPEC));
});

test('a write that only fills in a default added since the object was stored leaves its generation', async () => {
  const generation = async (name: string) =>
    JSON.parse((await ok(['get', `widget/${name}`, '-o', 'json'])).stdout).metadata.generation;
  await ok(['apply', '-f', '-'], widget('labelled', '{size: 1}'));
  await ok(['apply', '-f', '-'], widget('replaced', '{size: 1}'));
  await ok(['apply', '-f', '-'], crd(`${SPEC}              shape: {type: string, default: square}\n`));
  await ok(['label', 'widget/labelled', 'tier=one']);
  assert.is(await generation('labelled'), 1);
  const read = JSON.parse((await ok(['get', 'widget/replaced', '-o', 'json'])).stdout);
  assert.equal(read.spec, { size: 1, color: 'red', shape: 'square' });
  await ok(
    ['replace', '-f', '-'],
    JSON.stringify({ ...read, metadata: { ...read.metadata, labels: { tier: 'one' } } }),
  );
  assert.is(await generation('replaced'), 1);
  await ok(['patch', 'widget/replaced', '--type=merge', '-p', '{"spec":{"size":2}}']);
  assert.is(await generation('replaced'), 2);
  await ok(['apply', '-f', '-'], crd(SPEC));
});

test.run();
