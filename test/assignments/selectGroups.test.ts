import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { selectGroups, type GroupInfo } from '../../src/assignments/selectGroups.ts';

// Karmada pkg/scheduler/core/spreadconstraint/select_groups_test.go. Groups as name:value:weight.
const cases: { name: string; groups: string; min: number; max: number; target: number; expected: string[] }[] = [
  { name: 'no groups', groups: '', min: 2, max: 3, target: 1, expected: [] },
  { name: 'not enough groups', groups: 'R1:1:80', min: 2, max: 3, target: 1, expected: [] },
  { name: 'not enough value', groups: 'R1:1:80 R2:2:30', min: 2, max: 3, target: 4, expected: [] },
  { name: 'one group', groups: 'R1:1:80', min: 1, max: 3, target: 1, expected: ['R1'] },
  { name: 'prioritize one path', groups: 'R1:1:80 R3:1:80 R2:1:60 R5:2:60 R4:5:50 R6:3:50', min: 1, max: 3, target: 10, expected: ['R5', 'R4', 'R6'] },
  { name: 'fewer groups in total', groups: 'R1:1:80 R2:4:40 R3:1:30 R4:3:30 R5:3:20 R6:5:10', min: 2, max: 6, target: 5, expected: ['R1', 'R2'] },
  { name: 'highest score', groups: 'R1:1:60 R2:1:50 R3:1:40 R4:3:30 R5:3:20 R6:3:10', min: 1, max: 3, target: 6, expected: ['R1', 'R4', 'R5'] },
  { name: 'groups chosen earlier', groups: 'R1:1:60 R2:2:50 R3:3:40 R4:4:30', min: 1, max: 2, target: 5, expected: ['R1', 'R4'] },
  { name: 'greater value', groups: 'R4:1:60 R3:3:50 R1:3:40 R2:4:30', min: 1, max: 2, target: 5, expected: ['R3', 'R1'] },
];

function parse(spec: string): GroupInfo[] {
  return spec.split(/\s+/).filter(Boolean).map((g) => {
    const [name = '', value = '0', weight = '0'] = g.split(':');
    return { name, value: Number(value), weight: Number(weight) };
  });
}

for (const c of cases) {
  test(`selectGroups: ${c.name}`, () => {
    assert.equal(selectGroups(parse(c.groups), c.min, c.max, c.target).map((g) => g.name), c.expected);
  });
}

test('selectGroups: with exactly minGroups groups the search keeps the first branch (Karmada quirk)', () => {
  assert.equal(selectGroups(parse('A:1:10 B:1:20'), 2, 2, 2).map((g) => g.name), ['B', 'A']);
});

test.run();
