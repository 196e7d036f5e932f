import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { cloneParsedValue } from '../../src/patches/cloneParsedValue.ts';

test('a parsed value is copied as structuredClone copies it: deep, aliases shared once, holes and odd keys kept', () => {
  const parsed = parse(`
a: &shared {x: [1, 2, {y: null}], "__proto__": data, "0": first}
b: *shared
c: [*shared, -0, 1.5, true, ~, "", [[]], {}]
`) as Record<string, unknown>;
  const sparse = [1, 2, 3];
  delete sparse[1];
  const value = { ...parsed, sparse, when: new Date(5), nested: { list: sparse } };
  const copy = cloneParsedValue(value) as Record<string, any>;
  const reference = structuredClone(value) as Record<string, any>;
  assert.equal(copy, reference);
  assert.equal(Object.keys(copy.a), Object.keys(reference.a));
  assert.is(Object.getPrototypeOf(copy.a), Object.prototype);
  assert.is(copy.a, copy.b, 'one copy for an alias');
  assert.is(copy.c[0], copy.a);
  assert.is(copy.sparse, copy.nested.list);
  assert.is(1 in copy.sparse, false);
  assert.ok(Object.is(copy.c[1], -0));
  assert.is.not(copy.a, parsed.a);
  assert.is.not(copy.a.x[2], (parsed.a as { x: unknown[] }).x[2]);
  assert.is.not(copy.when, value.when);
  assert.equal(copy.when, new Date(5));
});

test.run();
