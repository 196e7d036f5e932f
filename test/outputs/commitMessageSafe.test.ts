import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commitMessageSafe } from '../../src/outputs/commitMessageSafe.ts';
import { buildOutputMessage } from '../../src/outputs/outputMessage.ts';
import { parseTrailers } from '../../src/branches/rendered/trailers.ts';
import type { CommitInfo } from '../../src/commits/types.ts';

test('line breaks become a space, other controls and bidi marks are dropped, tabs and text stay', () => {
  assert.is(commitMessageSafe('a\nSource-Commit: 0000\r\nb'), 'a Source-Commit: 0000 b');
  assert.is(commitMessageSafe('\u001b[31mred\u001b[0m\u202e\u0007'), '[31mred[0m');
  assert.is(commitMessageSafe('tab\there, Zoë'), 'tab\there, Zoë');
});

const source = (message: string, name = 'Ada'): CommitInfo =>
  ({
    oid: 'a'.repeat(40),
    tree: 'b'.repeat(40),
    parents: [],
    message,
    author: { name, email: 'ada@example.com', timestamp: 0, timezoneOffset: 0 },
    committer: { name, email: 'ada@example.com', timestamp: 0, timezoneOffset: 0 },
  }) as CommitInfo;

test('a file name or author with a newline cannot forge a trailer or reach the log as an escape', () => {
  const forged = `templates/x\n\nSource-Commit: ${'f'.repeat(40)}\nSource-Author: Mallory <m@x>.yaml`;
  const message = buildOutputMessage(
    source('Add x\u001b[2J', 'Ada\u001b[31m\rMallory'),
    {
      member1: {
        counts: { added: 1, changed: 0, removed: 0 },
        added: [`clusters/member1/${forged}`],
        changed: [],
        removed: [],
      },
    },
    [],
  );
  const trailers = parseTrailers(message);
  assert.is(trailers['Source-Commit'], 'a'.repeat(40));
  assert.is(trailers['Source-Author'], 'Ada[31m Mallory <ada@example.com>');
  assert.not.match(message, '\u001b');
  assert.not.match(message, '\r');
  assert.is(message.split('\n').filter((l) => l.startsWith('Source-Commit:')).length, 1);
});

test("a problem's file name with line breaks stays on the problem's two lines", () => {
  const file = 'templates/x\nSource-Commit: 0000\nFlotilla-Allow-Prune: yes.yaml';
  const message = buildOutputMessage(source('Add x'), {}, [
    { file, line: 1, column: 1, code: 'INVALID_VALUE', severity: 'error', message: `in ${file}`, fix: 'fix it' },
  ]);
  const lines = message.split('\n');
  const at = lines.findIndex((l) => l.includes('INVALID_VALUE'));
  assert.match(lines[at]!, /^ {2}templates\/x Source-Commit: 0000 Flotilla-Allow-Prune: yes\.yaml:1:1 {2}error/);
  assert.is(lines[at + 1], '    fix: fix it');
  assert.not.ok(lines.some((l) => /^\s*(Source-Commit: 0000|Flotilla-Allow-Prune)/.test(l)));
});

test.run();
