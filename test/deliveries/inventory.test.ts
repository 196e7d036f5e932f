import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  growInventoryFile,
  identityKey,
  parseInventory,
  parseInventoryFile,
  serializeInventory,
} from '../../src/branches/status/inventory.ts';

test('inventory round-trips, sorted and deduplicated by identity', () => {
  const items = [
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b', name: 'x' },
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a', name: 'web' },
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'b', name: 'x' },
  ];
  const text = serializeInventory(items);
  assert.is(serializeInventory([...items].reverse()), text, 'order does not change the bytes');
  assert.equal(
    parseInventory(text),
    [items[0]!, items[1]!].sort((a, b) => (identityKey(a) < identityKey(b) ? -1 : 1)),
  );
  assert.equal(parseInventory(undefined), []);
});

test('identityKey ignores the version', () => {
  assert.is(
    identityKey({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'a', name: 'w' }),
    identityKey({ apiVersion: 'apps/v1beta2', kind: 'Deployment', namespace: 'a', name: 'w' }),
  );
});

test('an inventory of another version is refused', () => {
  assert.throws(() => parseInventory('{"version":2,"objects":[]}'), /version 2/);
});

test('growInventoryFile adds what is planned and missing, keeps the record, and is null when nothing grows', () => {
  const a = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'a' };
  const b = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'd', name: 'b' };
  const held = [{ cluster: 'm1', reason: 'NAMESPACE' as const, refs: ['v1/Namespace//x'], message: 'm' }];
  const before = serializeInventory([a], { sourceCommit: 'c'.repeat(40), held: held as never });
  const grown = growInventoryFile(before, [a, b])!;
  assert.equal(
    parseInventoryFile(grown),
    { ...parseInventoryFile(before), pending: [b] },
    'planned entries are pending, not ours',
  );
  assert.is(growInventoryFile(grown, [b, { ...a, apiVersion: 'v1beta1' }]), null, 'nothing new by identity: no write');
  assert.is(growInventoryFile(before, []), null);
  assert.equal(
    parseInventoryFile(growInventoryFile(undefined, [b])!),
    { objects: [], pending: [b] },
    'a first pass starts the file',
  );
  assert.equal(
    parseInventoryFile(serializeInventory([a, b], { pending: [b] })),
    { objects: parseInventory(serializeInventory([a, b])) },
    'confirmed beats pending',
  );
});

test.run();
