import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatVersionOf, withFormatTrailer } from '../../src/branches/formatVersion.ts';
import { parseTrailers } from '../../src/branches/rendered/trailers.ts';

test('the format trailer joins the trailers a message already ends with', () => {
  const message = withFormatTrailer(
    'Status of member1\n\n1 status file(s) changed\n\nRendered-Commit: abc\nSource-Commit: def\n',
    1,
  );
  assert.is(
    message,
    'Status of member1\n\n1 status file(s) changed\n\nRendered-Commit: abc\nSource-Commit: def\nFlotilla-Format: 1\n',
  );
  assert.equal(parseTrailers(message), { 'Rendered-Commit': 'abc', 'Source-Commit': 'def', 'Flotilla-Format': '1' });
});

test('a message without trailers gets the format trailer in a paragraph of its own', () => {
  const message = withFormatTrailer(
    'Inventory planned for member1\n\nRecorded before applying rendered commit abc, so whatever\nthat apply creates can be pruned.\n',
    1,
  );
  assert.ok(message.endsWith('can be pruned.\n\nFlotilla-Format: 1\n'), message);
  assert.equal(parseTrailers(message), { 'Flotilla-Format': '1' });
  assert.is(withFormatTrailer('Subject only\n', 1), 'Subject only\n\nFlotilla-Format: 1\n');
});

test('a commit written before the trailer existed follows format 1; a malformed version is not a number', () => {
  assert.is(formatVersionOf({ 'Source-Commit': 'abc' }), 1);
  assert.is(formatVersionOf({ 'Flotilla-Format': '2' }), 2);
  assert.ok(Number.isNaN(formatVersionOf({ 'Flotilla-Format': 'two' })));
  assert.ok(Number.isNaN(formatVersionOf({ 'Flotilla-Format': '01' })));
});

test.run();
