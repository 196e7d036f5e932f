import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyJsonPatch,
  escapeJsonPointerToken,
  getByJsonPointer,
  parseJsonPointer,
  type JsonPatchOperation,
} from '../../src/patches/jsonPatch.ts';

function patched(document: unknown, operations: JsonPatchOperation[]): unknown {
  const result = applyJsonPatch(document, operations);
  if (!result.ok) throw new Error(`unexpected failure: ${result.message}`);
  return result.document;
}

test('parseJsonPointer unescapes ~1 to / and ~0 to ~, in that order', () => {
  assert.equal(parseJsonPointer(''), []);
  assert.equal(parseJsonPointer('/'), ['']);
  assert.equal(parseJsonPointer('/a~1b/m~0n/~01'), ['a/b', 'm~n', '~1']);
  assert.is(parseJsonPointer('a/b'), undefined);
});

test('escapeJsonPointerToken round-trips through parseJsonPointer', () => {
  const key = 'example.com/~weird';
  assert.is(escapeJsonPointerToken(key), 'example.com~1~0weird');
  assert.equal(parseJsonPointer(`/${escapeJsonPointerToken(key)}`), [key]);
});

test('getByJsonPointer walks objects and arrays and reports what is missing', () => {
  const doc = { data: { 'a/b': 'x', list: ['p', 'q'] } };
  assert.equal(getByJsonPointer(doc, '/data/a~1b'), { found: true, value: 'x' });
  assert.equal(getByJsonPointer(doc, '/data/list/1'), { found: true, value: 'q' });
  assert.is(getByJsonPointer(doc, '/data/list/2').found, false);
  assert.is(getByJsonPointer(doc, '/data/nope').found, false);
  assert.is(getByJsonPointer(doc, 'data').found, false);
});

test('add creates a member, and replaces an existing map whole instead of merging', () => {
  const doc = { metadata: { annotations: { keep: 'me' } } };
  assert.equal(patched(doc, [{ op: 'add', path: '/metadata/labels', value: { a: '1' } }]), {
    metadata: { annotations: { keep: 'me' }, labels: { a: '1' } },
  });
  assert.equal(patched(doc, [{ op: 'add', path: '/metadata/annotations', value: { only: 'this' } }]), {
    metadata: { annotations: { only: 'this' } },
  });
});

test('add fails when the parent path is missing (no parents are created)', () => {
  const result = applyJsonPatch({ metadata: {} }, [{ op: 'add', path: '/spec/replicas', value: 3 }]);
  assert.is(result.ok, false);
  if (!result.ok) {
    assert.is(result.index, 0);
    assert.match(result.message, /missing path/);
  }
});

test('replace and remove fail on a missing key; the failing operation index is reported', () => {
  const doc = { spec: { size: 2 } };
  const replace = applyJsonPatch(doc, [
    { op: 'replace', path: '/spec/size', value: 3 },
    { op: 'replace', path: '/spec/alias', value: 'x' },
  ]);
  assert.equal(replace.ok ? -1 : replace.index, 1);
  const remove = applyJsonPatch(doc, [{ op: 'remove', path: '/spec/alias' }]);
  assert.is(remove.ok, false);
});

test('arrays: insert at an index, append with -, replace and remove by index', () => {
  const doc = { list: ['a', 'b', 'c'] };
  assert.equal(patched(doc, [{ op: 'add', path: '/list/1', value: 'x' }]), { list: ['a', 'x', 'b', 'c'] });
  assert.equal(patched(doc, [{ op: 'add', path: '/list/-', value: 'z' }]), { list: ['a', 'b', 'c', 'z'] });
  assert.equal(patched(doc, [{ op: 'add', path: '/list/3', value: 'end' }]), { list: ['a', 'b', 'c', 'end'] });
  assert.equal(patched(doc, [{ op: 'replace', path: '/list/0', value: 'A' }]), { list: ['A', 'b', 'c'] });
  assert.equal(patched(doc, [{ op: 'remove', path: '/list/1' }]), { list: ['a', 'c'] });
});

test('arrays: out-of-range and non-numeric indices fail', () => {
  const doc = { list: ['a'] };
  assert.is(applyJsonPatch(doc, [{ op: 'add', path: '/list/2', value: 'x' }]).ok, false);
  assert.is(applyJsonPatch(doc, [{ op: 'replace', path: '/list/1', value: 'x' }]).ok, false);
  assert.is(applyJsonPatch(doc, [{ op: 'remove', path: '/list/-' }]).ok, false);
  assert.is(applyJsonPatch(doc, [{ op: 'replace', path: '/list/x', value: 'x' }]).ok, false);
  assert.is(applyJsonPatch(doc, [{ op: 'add', path: '/list/0/deeper', value: 'x' }]).ok, false);
});

test('arrays: negative indices count from the end, as the patch library Karmada uses allows', () => {
  const doc = { list: ['a', 'b', 'c'] };
  assert.equal(patched(doc, [{ op: 'replace', path: '/list/-1', value: 'C' }]), { list: ['a', 'b', 'C'] });
  assert.equal(patched(doc, [{ op: 'remove', path: '/list/-3' }]), { list: ['b', 'c'] });
  assert.is(applyJsonPatch(doc, [{ op: 'remove', path: '/list/-4' }]).ok, false);
});

test('escaped tokens address keys holding / and ~', () => {
  const doc = { metadata: { annotations: { 'example.com/a': 'old', 'x~y': 'old' } } };
  assert.equal(
    patched(doc, [
      { op: 'replace', path: '/metadata/annotations/example.com~1a', value: 'new' },
      { op: 'remove', path: '/metadata/annotations/x~0y' },
    ]),
    { metadata: { annotations: { 'example.com/a': 'new' } } },
  );
});

test('an omitted value is written as null', () => {
  assert.equal(patched({ a: 1 }, [{ op: 'add', path: '/b' }]), { a: 1, b: null });
});

test('the empty path replaces the whole document', () => {
  assert.equal(patched({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }]), { b: 2 });
  assert.is(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: 3 }]).ok, false);
  assert.is(applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '' }]).ok, false);
});

test('a path without its leading / loses its first segment, as evanphx/json-patch reads it; one without any / names nothing', () => {
  const doc = { metadata: { name: 'n', labels: { a: '1' } }, spec: {} };
  assert.equal(patched(doc, [{ op: 'add', path: 'metadata/x', value: 1 }]), { ...doc, x: 1 });
  assert.equal(patched(doc, [{ op: 'add', path: 'zz/metadata/labels/b', value: '2' }]), {
    metadata: { name: 'n', labels: { a: '1', b: '2' } },
    spec: {},
  });
  assert.equal(patched(doc, [{ op: 'remove', path: 'q/spec' }]), { metadata: doc.metadata });
  assert.equal(patched(doc, [{ op: 'copy', from: 'x/metadata/name', path: 'x/copied' }]), { ...doc, copied: 'n' });
  assert.is(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: 'a', value: 2 }]).ok, false);
});

test('the input document and the patch values are never shared or mutated', () => {
  const value = { nested: ['v'] };
  const doc = { spec: { list: [1] } };
  const out = patched(doc, [
    { op: 'add', path: '/spec/value', value },
    { op: 'add', path: '/spec/list/-', value: 2 },
  ]) as { spec: { value: { nested: string[] } } };
  assert.equal(doc, { spec: { list: [1] } });
  out.spec.value.nested.push('changed');
  assert.equal(value, { nested: ['v'] });
});

test('move, copy and test (used by the member emulator for kubectl JSON patches)', () => {
  const doc = { a: { b: 1 }, list: [1, 2] };
  const moved = applyJsonPatch(doc, [
    { op: 'move', from: '/a/b', path: '/c' },
    { op: 'copy', from: '/list/0', path: '/list/-' },
    { op: 'test', path: '/c', value: 1 },
  ]);
  assert.equal(moved, { ok: true, document: { a: {}, c: 1, list: [1, 2, 1] } });
  assert.equal(doc, { a: { b: 1 }, list: [1, 2] }, 'input untouched');
  const failed = applyJsonPatch(doc, [{ op: 'test', path: '/a/b', value: 2 }]);
  assert.is(failed.ok, false);
  assert.is(applyJsonPatch(doc, [{ op: 'move', from: '/nope', path: '/x' }]).ok, false);
});

test('a key named __proto__ is data, as to kubectl and Karmada: added, replaced and kept, never the prototype', () => {
  const added = applyJsonPatch({ data: {} }, [{ op: 'add', path: '/data/__proto__', value: { polluted: 'yes' } }]);
  assert.ok(added.ok);
  const data = (added.document as { data: Record<string, unknown> }).data;
  assert.equal(Object.keys(data), ['__proto__']);
  assert.is(Object.getPrototypeOf(data), Object.prototype, 'the object keeps its prototype');
  assert.is((data as { polluted?: unknown }).polluted, undefined);
  const replaced = applyJsonPatch(added.document, [{ op: 'replace', path: '/data/__proto__', value: 'x' }]);
  assert.equal(JSON.stringify(replaced.ok && replaced.document), '{"data":{"__proto__":"x"}}');
  assert.is(applyJsonPatch({ data: {} }, [{ op: 'replace', path: '/data/__proto__', value: 'x' }]).ok, false);
  assert.is(applyJsonPatch({}, [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }]).ok, false);
  assert.is(({} as { polluted?: unknown }).polluted, undefined, 'nothing reached Object.prototype');
});

test.run();
