import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  formatGoQuantity,
  parseGoQuantity,
  repairEmptyTables,
  toDependencies,
  toInt32,
  toReplicaRequirements,
  toUnstructured,
} from '../../../src/interpreters/lua/luaConvert.ts';
import { luaReflectStatus, luaRetain } from '../../../src/interpreters/lua/luaHooks.ts';
import { loadLuaRuntime } from '../../../src/interpreters/lua/luaRuntime.ts';

await loadLuaRuntime();

const echo = 'function ReflectStatus(o) return o.v end';
const roundTrip = (v: unknown) => luaReflectStatus(echo, { v: { v } })?.v;

test('arguments: strings, booleans, integers and floats arrive with their values', () => {
  assert.equal(roundTrip('foo'), 'foo');
  assert.equal(roundTrip(true), true);
  assert.equal(roundTrip(1), 1);
  assert.equal(roundTrip(1.5), 1.5);
  assert.equal(roundTrip(['foo', 'bar']), ['foo', 'bar']);
  assert.equal(roundTrip({ foo: 'foo1' }), { foo: 'foo1' });
});

test('arguments: null array elements close the gap and null fields are absent, as gopher-json decodes them', () => {
  const script = 'function ReflectStatus(o) return { n = #o.list, second = o.list[2], hasGone = o.gone ~= nil } end';
  assert.equal(luaReflectStatus(script, { list: ['a', null, 'c'], gone: null }), { n: 2, second: 'c', hasGone: false });
});

test('results: an empty table repaired to {} or [] from the references, removed when neither has it', () => {
  const desired = { kind: 'K', spec: { obj: {}, list: [], nested: { deep: {} } } };
  const script = `function Retain(d, o)
    d.spec.added = {}
    return d
  end`;
  assert.equal(luaRetain(script, desired, { kind: 'K' }), {
    kind: 'K',
    spec: { obj: {}, list: [], nested: { deep: {} } },
  });
});

test('repair: paths skip array positions, and a root [] becomes {} for a struct and stays [] for a slice', () => {
  const refs = [{ rules: [{ ruleName: {} }], items: [] }];
  assert.equal(repairEmptyTables({ rules: [{ ruleName: [] }, { ruleName: [] }], items: [] }, 'struct', refs), {
    rules: [{ ruleName: {} }, { ruleName: {} }],
    items: [],
  });
  assert.equal(repairEmptyTables([], 'struct'), {});
  assert.equal(repairEmptyTables([], 'slice'), []);
  assert.equal(repairEmptyTables({ a: { b: [] }, 'x.y': [] }, 'struct', [{ 'x.y': {} }]), { a: {}, 'x.y': {} });
});

test('encoding: sparse arrays, mixed keys, shared tables and functions fail as gopher-json fails', () => {
  const fail = (body: string, message: RegExp) =>
    assert.throws(() => luaReflectStatus(`function ReflectStatus(o) ${body} end`, {}), message);
  fail('return { a = { [1] = 1, [3] = 3 } }', /cannot encode sparse array/);
  fail('return { a = { 1, x = 2 } }', /cannot encode mixed or invalid key types/);
  fail('local t = { 1 } return { a = t, b = t }', /cannot encode recursively nested tables/);
  fail('return { a = function() end }', /cannot encode function to JSON/);
  fail('return { a = 0/0 }', /unsupported value: NaN/);
});

test('ConvertLuaResultToInt: numbers truncate to int32, other types fail', () => {
  assert.is(toInt32({ type: 'number', value: 2.9 }), 2);
  assert.is(toInt32({ type: 'number', value: -2.9 }), -2);
  assert.throws(() => toInt32({ type: 'string', value: '2' }), /result type string is not number/);
});

test('Unstructured: the object needs a kind', () => {
  assert.equal(toUnstructured({ kind: 'K', a: 1 }), { kind: 'K', a: 1 });
  assert.throws(() => toUnstructured({ a: 1 }), /Object 'Kind' is missing/);
  assert.throws(() => toUnstructured([1]), /cannot unmarshal array/);
});

test('ReplicaRequirements: known fields only, matched case-insensitively, quantities in canonical form', () => {
  assert.equal(
    toReplicaRequirements({
      ResourceRequest: { cpu: '1300m', memory: '1300000000', gpu: 2 },
      nodeClaim: { nodeSelector: { a: 'b' }, tolerations: [] },
      namespace: '',
      extra: 1,
    }),
    { nodeClaim: { nodeSelector: { a: 'b' } }, resourceRequest: { cpu: '1300m', gpu: '2', memory: '1300M' } },
  );
  assert.throws(
    () => toReplicaRequirements({ namespace: 5 }),
    /cannot unmarshal number into Go struct field ReplicaRequirements.namespace of type string/,
  );
  assert.throws(() => toReplicaRequirements({ resourceRequest: { cpu: 'lots' } }), /quantities must match/);
});

test('DependentObjectReference: apiVersion and kind always, the rest when set', () => {
  assert.equal(toDependencies([{ apiVersion: 'v1', kind: 'Secret', name: 's', namespace: '', other: 1 }]), [
    { apiVersion: 'v1', kind: 'Secret', name: 's' },
  ]);
  assert.throws(() => toDependencies({ a: 1 }), /cannot unmarshal object/);
});

test('resource.Quantity: canonical forms Go prints', () => {
  const canonical = (s: string) => formatGoQuantity(parseGoQuantity(s));
  assert.is(canonical('1000m'), '1');
  assert.is(canonical('0.5'), '500m');
  assert.is(canonical('1000000'), '1M');
  assert.is(canonical('1.5Gi'), '1536Mi');
  assert.is(canonical('0.5Ki'), '512');
  assert.is(canonical('1e3'), '1e3');
  assert.is(canonical('1.2G'), '1200M');
  assert.is(canonical('0'), '0');
});

test.run();
