import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  MAX_GROUP_SEARCH_STEPS,
  searchGroups,
  selectGroups,
  type GroupInfo,
} from '../../src/assignments/selectGroups.ts';

// Karmada pkg/scheduler/core/spreadconstraint/select_groups_test.go. Groups as name:value:weight.
const cases: { name: string; groups: string; min: number; max: number; target: number; expected: string[] }[] = [
  { name: 'no groups', groups: '', min: 2, max: 3, target: 1, expected: [] },
  { name: 'not enough groups', groups: 'R1:1:80', min: 2, max: 3, target: 1, expected: [] },
  { name: 'not enough value', groups: 'R1:1:80 R2:2:30', min: 2, max: 3, target: 4, expected: [] },
  { name: 'one group', groups: 'R1:1:80', min: 1, max: 3, target: 1, expected: ['R1'] },
  {
    name: 'prioritize one path',
    groups: 'R1:1:80 R3:1:80 R2:1:60 R5:2:60 R4:5:50 R6:3:50',
    min: 1,
    max: 3,
    target: 10,
    expected: ['R5', 'R4', 'R6'],
  },
  {
    name: 'fewer groups in total',
    groups: 'R1:1:80 R2:4:40 R3:1:30 R4:3:30 R5:3:20 R6:5:10',
    min: 2,
    max: 6,
    target: 5,
    expected: ['R1', 'R2'],
  },
  {
    name: 'highest score',
    groups: 'R1:1:60 R2:1:50 R3:1:40 R4:3:30 R5:3:20 R6:3:10',
    min: 1,
    max: 3,
    target: 6,
    expected: ['R1', 'R4', 'R5'],
  },
  {
    name: 'groups chosen earlier',
    groups: 'R1:1:60 R2:2:50 R3:3:40 R4:4:30',
    min: 1,
    max: 2,
    target: 5,
    expected: ['R1', 'R4'],
  },
  {
    name: 'greater value',
    groups: 'R4:1:60 R3:3:50 R1:3:40 R2:4:30',
    min: 1,
    max: 2,
    target: 5,
    expected: ['R3', 'R1'],
  },
];

function parse(spec: string): GroupInfo[] {
  return spec
    .split(/\s+/)
    .filter(Boolean)
    .map((g) => {
      const [name = '', value = '0', weight = '0'] = g.split(':');
      return { name, value: Number(value), weight: Number(weight) };
    });
}

for (const c of cases) {
  test(`selectGroups: ${c.name}`, () => {
    assert.equal(
      selectGroups(parse(c.groups), c.min, c.max, c.target)?.map((g) => g.name),
      c.expected,
    );
  });
}

test('selectGroups: with exactly minGroups groups the search keeps the first branch (Karmada quirk)', () => {
  assert.equal(
    selectGroups(parse('A:1:10 B:1:20'), 2, 2, 2)?.map((g) => g.name),
    ['B', 'A'],
  );
});

const regions = (n: number): GroupInfo[] =>
  Array.from({ length: n }, (_, i) => ({ name: `R${String(i).padStart(2, '0')}`, value: 1, weight: 1000 + i }));

test('selectGroups refuses a search of more than its step budget, stopping at the budget instead of enumerating every combination', () => {
  // Past the budget each level still on the stack only runs out its loop over the groups. First a search small enough
  // to run in full (some 40,000 steps), so that one running on past its budget fails here rather than hangs below.
  const full = searchGroups(regions(16), 1, 16, 8, Number.POSITIVE_INFINITY);
  const small = searchGroups(regions(16), 1, 16, 8, 1_000);
  assert.ok(full.steps > 10_000, `${full.steps} steps in full`);
  assert.is(small.chosen, undefined);
  assert.ok(small.steps <= 1_000 + 1 + 16 * 16, `${small.steps} steps`);
  // 28 regions of one cluster, any 1..28 of them to hold 14 clusters: C(28,14) = 40 million paths in Karmada's search.
  assert.is(selectGroups(regions(28), 1, 28, 14), undefined);
  const refused = searchGroups(regions(28), 1, 28, 14);
  assert.ok(refused.steps <= MAX_GROUP_SEARCH_STEPS + 1 + 28 * 28, `${refused.steps} steps`);
});

test('selectGroups still searches 28 regions when maxGroups keeps the search small', () => {
  // The heaviest three, which the search finds among C(28,3) = 3276 paths.
  assert.equal(
    selectGroups(regions(28), 1, 3, 3)?.map((g) => g.name),
    ['R27', 'R26', 'R25'],
  );
});

test('selectGroups counts its steps: the same search passes with a budget just large enough and is refused one step short', () => {
  let needed = 0;
  for (let budget = 1; budget < 100 && needed === 0; budget++)
    if (selectGroups(regions(6), 2, 3, 3, budget) !== undefined) needed = budget;
  assert.ok(needed > 1 && needed < MAX_GROUP_SEARCH_STEPS);
  assert.equal(
    selectGroups(regions(6), 2, 3, 3, needed)?.map((g) => g.name),
    ['R05', 'R04', 'R03'],
  );
  assert.is(selectGroups(regions(6), 2, 3, 3, needed - 1), undefined);
});

test.run();
