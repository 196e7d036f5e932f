import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sortKeysDeep } from '../../src/sorting/sortKeysDeep.ts';

test('every object of a JSON value gets its keys sorted, arrays keep their order', () => {
  const sorted = sortKeysDeep({ b: 1, a: [{ d: 1, c: 2 }, 3], c: { z: null, y: 'x' } });
  assert.is(JSON.stringify(sorted), '{"a":[{"c":2,"d":1},3],"b":1,"c":{"y":"x","z":null}}');
});

test('a key named __proto__ (a ConfigMap may hold one) stays a key of the object', () => {
  const data = JSON.parse('{"b":"y","__proto__":"x"}') as Record<string, unknown>;
  const sorted = sortKeysDeep({ data }) as { data: Record<string, unknown> };
  assert.is(JSON.stringify(sorted), '{"data":{"__proto__":"x","b":"y"}}');
  assert.is(Object.getPrototypeOf(sorted.data), Object.prototype);
});

test.run();
