import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { identityKey, parseInventory, serializeInventory } from '../../src/deliveries/inventory.ts';

test('inventory round-trips, sorted and deduplicated by identity', () => {
  const items = [
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b', name: 'x' },
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a', name: 'web' },
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b', name: 'x' },
  ];
  const text = serializeInventory(items);
  assert.is(serializeInventory([...items].reverse()), text, 'order does not change the bytes');
  assert.equal(parseInventory(text), [items[0]!, items[1]!].sort((a, b) => (identityKey(a) < identityKey(b) ? -1 : 1)));
  assert.equal(parseInventory(undefined), []);
});

test('identityKey ignores the version', () => {
  assert.is(identityKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a', name: 'w' }), identityKey({ apiVersion: 'apps/v1beta2', kind: 'Deployment', namespace: 'a', name: 'w' }));
});

test('an inventory of another version is refused', () => {
  assert.throws(() => parseInventory('{"version":2,"objects":[]}'), /version 2/);
});

test.run();
