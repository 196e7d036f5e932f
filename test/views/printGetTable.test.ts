// `flotilla get`'s table is kubectl get's, byte for byte: cli-runtime's printTable writes a string cell up to its first
// line break and `...`, and its tabwriter pads every cell but a line's last, empty ones included.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { printGetTable } from '../../src/views/printTable.ts';

test('a cell holding several lines prints its first line and "..."', () => {
  for (const text of ['line1\nline2', 'line1\rline2', 'line1\fline2'])
    assert.is(printGetTable(['NAME', 'NOTE'], [['a', text]]), 'NAME   NOTE\na      line1...\n', JSON.stringify(text));
  assert.is(printGetTable(['NAME', 'NOTE'], [['a', '\nrest']]), 'NAME   NOTE\na      ...\n');
});

test("empty cells at a line's end keep the padding of the cells before them, as kubectl's tabwriter writes them", () => {
  assert.is(
    printGetTable(
      ['NAME', 'SIZE', 'PHASE'],
      [
        ['odd', '', ''],
        ['small', '3', ''],
      ],
    ),
    `NAME    SIZE   PHASE\nodd${' '.repeat(12)}\nsmall   3      \n`,
  );
});

test('control characters still print as visible escapes', () => {
  assert.is(printGetTable(['NAME'], [['a\u001b[2J']]), 'NAME\na\\x1b[2J\n');
});

test.run();
