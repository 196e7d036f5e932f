import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { printTable } from '../../src/views/printTable.ts';
import { terminalSafe } from '../../src/text/terminalSafe.ts';

test('ANSI escapes, CR, other C0 and C1 controls and DEL print as visible escapes', () => {
  assert.is(terminalSafe('\u001b[31mred\u001b[0m'), '\\x1b[31mred\\x1b[0m');
  assert.is(terminalSafe('\u001b]0;pwned\u0007title'), '\\x1b]0;pwned\\x07title');
  assert.is(terminalSafe('ok\rFAKE'), 'ok\\rFAKE');
  assert.is(terminalSafe('a\u0000b\u007fc\u009bd\u0085e'), 'a\\x00b\\x7fc\\x9bd\\x85e');
});

test('bidi overrides, isolates and marks print as \\u escapes', () => {
  assert.is(terminalSafe('evil\u202Etxt.exe'), 'evil\\u202etxt.exe');
  assert.is(terminalSafe('\u2066a\u2069\u200e\u200f\u061c'), '\\u2066a\\u2069\\u200e\\u200f\\u061c');
});

test('newlines and tabs: escaped in one-line text, kept in a multiline block; other text untouched', () => {
  assert.is(terminalSafe('one\ntwo\tthree'), 'one\\ntwo\\tthree');
  assert.is(terminalSafe('one\ntwo\tthree\u001b', { multiline: true }), 'one\ntwo\tthree\\x1b');
  assert.is(terminalSafe('Zoë 日本 → ok'), 'Zoë 日本 → ok');
  assert.is(terminalSafe(terminalSafe('\u001b[2J')), '\\x1b[2J', 'idempotent');
});

test('printTable neutralises every cell and aligns on what it prints', () => {
  const out = printTable(
    ['NAME', 'MESSAGE'],
    [
      ['a\u001b[2J', 'x'],
      ['bb', 'y\rz'],
    ],
  );
  assert.not.match(out, '\u001b');
  assert.not.match(out, '\r');
  assert.is(out.split('\n')[1], 'a\\x1b[2J   x');
  assert.is(out.split('\n')[2], 'bb         y\\rz');
});

test.run();
