import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goSort } from '../../src/sorting/goSort.ts';

// Each order was printed by Go's sort.Sort (Go 1.22 and later) for a list of {index, value} sorted with
// Less = value greater, Karmada's TargetClustersList order: the indexes as Go leaves them, equal values included.
const fromGo: { name: string; values: string; order: string }[] = [
  {
    name: '13 elements: past the insertion sort, equals no longer keep their order',
    values: '1 3 3 3 3 3 2 2 2 1 1 1 1',
    order: '5 1 2 3 4 6 7 8 0 9 10 11 12',
  },
  {
    name: '40 elements of three values: unbalanced partitions break patterns',
    values: '2 1 2 2 2 0 2 0 2 0 0 1 2 2 2 0 0 0 0 1 1 2 2 0 2 1 2 1 1 2 1 1 1 0 0 1 1 2 1 2',
    order:
      '21 39 2 3 4 37 6 0 8 29 26 24 12 13 14 22 30 32 1 19 20 38 36 35 11 25 31 27 28 9 7 10 17 33 34 23 15 5 16 18',
  },
  {
    name: '60 elements in repeating runs: the ninther pivot',
    values:
      '0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3 4 5 6 0 1 2 3',
    order:
      '20 41 27 55 34 13 48 6 5 40 54 47 33 26 19 12 32 46 25 4 39 53 18 11 10 38 45 52 31 17 24 59 3 30 58 9 23 44 51 2 16 37 1 36 15 8 57 50 43 22 29 49 7 56 28 14 42 35 21 0',
  },
  {
    name: '100 elements of four values',
    values:
      '1 1 0 1 3 3 3 0 3 1 3 0 3 3 0 2 1 0 2 2 1 1 1 0 1 2 0 3 3 3 0 0 0 0 1 3 3 0 3 0 2 0 1 2 3 0 0 2 3 3 0 0 2 2 0 0 3 1 1 1 3 0 0 0 2 2 2 1 0 1 2 3 0 3 2 0 3 0 3 2 1 2 1 2 2 3 0 3 1 0 3 3 0 1 3 0 0 1 0 3',
    order:
      '76 60 94 91 4 5 6 90 8 87 10 85 12 13 48 44 49 73 56 36 35 78 99 29 38 28 71 27 18 81 19 66 65 64 47 25 15 79 70 53 40 52 83 43 74 84 24 67 1 42 97 93 3 88 9 16 82 57 58 59 34 80 20 21 22 0 69 72 14 31 30 26 46 32 23 75 33 77 63 62 61 17 37 55 68 11 86 54 39 89 7 41 92 51 2 95 96 50 98 45',
  },
  {
    name: '64 elements in reverse order: reversed whole',
    values: Array.from({ length: 64 }, (_, i) => i).join(' '),
    order: Array.from({ length: 64 }, (_, i) => 63 - i).join(' '),
  },
];

for (const c of fromGo) {
  test(`goSort leaves equal elements where Go's sort.Sort does: ${c.name}`, () => {
    const items = c.values.split(' ').map((v, index) => ({ index, value: Number(v) }));
    goSort(items, (a, b) => a.value > b.value);
    assert.is(items.map((i) => i.index).join(' '), c.order);
  });
}

test('goSort keeps equal elements in their order up to 12 elements, as Go insertion-sorts them', () => {
  const items = '1 3 3 2 3 1 2 3 3 1 3 2'.split(' ').map((v, index) => ({ index, value: Number(v) }));
  const stable = [...items].sort((a, b) => b.value - a.value);
  goSort(items, (a, b) => a.value > b.value);
  assert.equal(items, stable);
});

test('goSort sorts: every element before the next by the order given', () => {
  const items = Array.from({ length: 500 }, (_, i) => (i * 7919) % 101);
  goSort(items, (a, b) => a < b);
  assert.ok(items.every((v, i) => i === 0 || (items[i - 1] as number) <= v));
  assert.is(items.length, 500);
});

test.run();
