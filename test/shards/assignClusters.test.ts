import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assignClusters, loadsOf } from '../../src/shards/assignClusters.ts';

/** 100 clusters with skewed object counts: a few big ones, many small (a Pareto-like tail), deterministic. */
function skewedFleet(): Map<string, number> {
  const weights = new Map<string, number>();
  let seed = 42;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  for (let i = 0; i < 100; i++)
    weights.set(`cluster-${String(i).padStart(3, '0')}`, Math.ceil(5 / (random() ** 1.2 + 0.02)));
  return weights;
}

const spread = (loads: Map<string, number>) => Math.max(...loads.values()) / Math.min(...loads.values());

test('100 clusters with skewed object counts over 3 replicas: the heaviest shard is within 1.25× of the lightest', () => {
  const weights = skewedFleet();
  const counts = [...weights.values()];
  assert.ok(Math.max(...counts) / Math.min(...counts) > 20, 'the fleet is skewed');
  const replicas = ['flotilla-0', 'flotilla-1', 'flotilla-2'];
  const a = assignClusters({ replicas, weights });
  assert.is(a.size, 100);
  const loads = loadsOf(a, weights, replicas);
  assert.ok(spread(loads) <= 1.25, `loads ${[...loads.values()].join(', ')}`);
  // Deterministic: every replica computes the same assignment from the same inputs, in any order.
  assert.equal(assignClusters({ replicas: [...replicas].reverse(), weights }), a);
});

test('one replica leaving moves only its clusters, and the two left stay within the bound', () => {
  const weights = skewedFleet();
  const replicas = ['flotilla-0', 'flotilla-1', 'flotilla-2'];
  const before = assignClusters({ replicas, weights });
  const after = assignClusters({ replicas: ['flotilla-0', 'flotilla-2'], weights, current: before });
  const moved = [...after].filter(([c, r]) => before.get(c) !== r).map(([c]) => c);
  const hers = [...before].filter(([, r]) => r === 'flotilla-1').map(([c]) => c);
  assert.equal(moved.sort(), hers.sort());
  assert.ok(spread(loadsOf(after, weights, ['flotilla-0', 'flotilla-2'])) <= 1.25);
});

test('a replica joining takes only what brings the others under the bound, and the fleet is balanced again', () => {
  const weights = skewedFleet();
  const two = assignClusters({ replicas: ['flotilla-0', 'flotilla-1'], weights });
  const three = assignClusters({ replicas: ['flotilla-0', 'flotilla-1', 'flotilla-2'], weights, current: two });
  const moved = [...three].filter(([c, r]) => two.get(c) !== r);
  assert.ok(
    moved.every(([, r]) => r === 'flotilla-2'),
    'every moved cluster goes to the newcomer',
  );
  const loads = loadsOf(three, weights, ['flotilla-0', 'flotilla-1', 'flotilla-2']);
  assert.ok(spread(loads) <= 1.25, `loads ${[...loads.values()].join(', ')}`);
  assert.ok(moved.length < 50, `${moved.length} clusters moved`);
});

test('nothing changes when nothing changed: the current assignment is kept as it is', () => {
  const weights = skewedFleet();
  const replicas = ['a', 'b', 'c'];
  const first = assignClusters({ replicas, weights });
  assert.equal(assignClusters({ replicas, weights, current: first }), first);
});

test('a cluster heavier than a fair share still gets an owner; no replica means no owner', () => {
  const weights = new Map([
    ['huge', 1000],
    ['small-1', 1],
    ['small-2', 1],
  ]);
  const a = assignClusters({ replicas: ['a', 'b'], weights });
  assert.is(a.size, 3);
  assert.not.equal(a.get('huge'), a.get('small-1'));
  assert.is(assignClusters({ replicas: [], weights }).size, 0);
});

test.run();
