import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyJsonPatchToText, stringifyJsonLikeGo } from '../../src/patches/patchJsonText.ts';

const patched = (text: string, ops: Parameters<typeof applyJsonPatchToText>[1]) => {
  const r = applyJsonPatchToText(text, ops);
  if (!r.ok) throw new Error(r.message);
  return r.text;
};

test('what the patch does not touch keeps its text, as evanphx/json-patch v5 keeps raw values: 64-bit ids, 1.0, escapes, key order', () => {
  assert.is(
    patched('{"b":1,"10":2,"c":1.0,"d":"\\u00e9","id":9007199254740993}', [{ op: 'replace', path: '/b', value: 3 }]),
    '{"b":3,"10":2,"c":1.0,"d":"\\u00e9","id":9007199254740993}',
  );
});

test('new keys go last, removed ones leave, nested objects keep what is theirs, and the result is compact', () => {
  const text = '{\n  "z": {"keep": 1.50, "n": 12345678901234567890},\n  "a": [1, 2.0, {"x": "<tag>"}]\n}';
  assert.is(
    patched(text, [
      { op: 'add', path: '/z/new', value: 'v' },
      { op: 'remove', path: '/a/0' },
      { op: 'add', path: '/1', value: true },
    ]),
    '{"z":{"keep":1.50,"n":12345678901234567890,"new":"v"},"a":[2.0,{"x":"\\u003ctag\\u003e"}],"1":true}',
  );
  assert.is(
    patched('[{"a":1.0,"b":1},{"c":2}]', [{ op: 'replace', path: '/0/b', value: 5 }]),
    '[{"a":1.0,"b":5},{"c":2}]',
  );
});

test("the patch's own rules and errors are applyJsonPatch's; an unreadable document says so", () => {
  const missing = applyJsonPatchToText('{"a":1}', [{ op: 'replace', path: '/b', value: 1 }]);
  assert.equal(missing, { ok: false, index: 0, message: 'replace operation does not apply: doc is missing key "/b"' });
  const broken = applyJsonPatchToText('{"a":', [{ op: 'add', path: '/b', value: 1 }]);
  assert.is(broken.ok, false);
  assert.match(!broken.ok ? broken.message : '', /^invalid JSON document/);
});

test("new values are written as Go's encoder writes them", () => {
  assert.is(stringifyJsonLikeGo({ s: 'a<b>&c\u2028' }), '{"s":"a\\u003cb\\u003e\\u0026c\\u2028"}');
});

test('a value an operation writes is its stored text: keys in byte order, nothing of the value it replaces', () => {
  // karmada-apiserver keeps an apiextensions JSON value with its keys sorted; evanphx writes the operation's text.
  assert.is(
    patched('{"old":{"b":1,"a":2},"keep":{"y":1,"x":2}}', [
      { op: 'replace', path: '/old', value: { a: 3, b: 4 } },
      { op: 'add', path: '/new', value: { name: 'x', image: 'y', '9': 2, '10': 1 } },
      { op: 'add', path: '/keep/w', value: [{ b: 1, a: 1.5 }] },
    ]),
    '{"old":{"a":3,"b":4},"keep":{"y":1,"x":2,"w":[{"a":1.5,"b":1}]},"new":{"10":1,"9":2,"image":"y","name":"x"}}',
  );
  assert.is(patched('[{"b":1,"a":2},3]', [{ op: 'replace', path: '/0', value: { b: 1, a: 2 } }]), '[{"a":2,"b":1},3]');
});

test.run();
