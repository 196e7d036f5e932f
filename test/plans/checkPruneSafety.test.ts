import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkPruneSafety } from '../../src/deliveries/checkPruneSafety.ts';

const objs = (n: number) => Array.from({ length: n }, (_, i) => `v1/ConfigMap/default/cm${i}`);
const NS = 'v1/Namespace//team-a';
const CRD = 'apiextensions.k8s.io/v1/CustomResourceDefinition//widgets.example.com';

test('deleting half or less of a cluster goes through', () => {
  const v = checkPruneSafety({
    current: new Map([['m1', 4]]),
    removals: new Map([['m1', objs(2)]]),
    source: 'ok',
  });
  assert.equal(v.held, []);
  assert.is(v.fix, '');
});

test('deleting more than the threshold is held, with the trailer as the fix', () => {
  const v = checkPruneSafety({
    current: new Map([['m1', 4]]),
    removals: new Map([['m1', objs(3)]]),
    source: 'ok',
  });
  assert.is(v.held.length, 1);
  assert.is(v.held[0]!.reason, 'OVER_THRESHOLD');
  assert.is(v.held[0]!.refs.length, 3);
  assert.match(v.fix, 'Flotilla-Allow-Prune: <reason>');
});

test('the threshold is configurable', () => {
  const v = checkPruneSafety({
    current: new Map([['m1', 10]]),
    removals: new Map([['m1', objs(2)]]),
    source: 'ok',
    threshold: 0.1,
  });
  assert.is(v.held[0]?.reason, 'OVER_THRESHOLD');
});

test('deleting everything on a cluster is held, even a single object', () => {
  const v = checkPruneSafety({
    current: new Map([
      ['m1', 1],
      ['m2', 3],
    ]),
    removals: new Map([['m1', objs(1)]]),
    source: 'ok',
  });
  assert.equal(
    v.held.map((h) => [h.cluster, h.reason]),
    [['m1', 'EVERYTHING']],
  );
});

test('any Namespace or CRD deletion is held, other deletions beside it are not', () => {
  const current = new Map([['m1', 12]]);
  const v = checkPruneSafety({
    current,
    removals: new Map([['m1', [NS, CRD, 'v1/ConfigMap/default/cm0']]]),
    source: 'ok',
  });
  assert.equal(
    v.held.map((h) => [h.reason, h.refs]),
    [
      ['NAMESPACE', [NS]],
      ['CRD', [CRD]],
    ],
  );
});

test('the trailer lets held deletions through and says what it allowed', () => {
  const v = checkPruneSafety({
    current: new Map([['m1', 2]]),
    removals: new Map([['m1', objs(2)]]),
    source: 'ok',
    allowReason: 'retiring the app',
  });
  assert.equal(v.held, []);
  assert.is(v.allowed.length, 1);
  assert.is(v.allowedBy, 'retiring the app');
});

test('an empty trailer value allows nothing', () => {
  const v = checkPruneSafety({
    current: new Map([['m1', 2]]),
    removals: new Map([['m1', objs(2)]]),
    source: 'ok',
    allowReason: '  ',
  });
  assert.is(v.held.length, 1);
});

test('a source that is empty, unreadable or missing never means delete, trailer or not', () => {
  for (const source of ['empty', 'unreadable', 'missing'] as const) {
    const v = checkPruneSafety({
      current: new Map([['m1', 10]]),
      removals: new Map([['m1', objs(1)]]),
      source,
      allowReason: 'yes please',
    });
    assert.is(v.held.length, 1, source);
    assert.is(v.held[0]!.reason, `SOURCE_${source.toUpperCase()}`);
    assert.is(v.allowedBy, undefined);
  }
});

test('no removals, nothing held', () => {
  const v = checkPruneSafety({ current: new Map([['m1', 2]]), removals: new Map([['m1', []]]), source: 'empty' });
  assert.equal(v.held, []);
});

test.run();
