import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goStringSliceText } from '../../src/text/goSyntax.ts';

test("a list value prints as Go's %#v prints a slice of strings in the API server's field errors", () => {
  assert.is(goStringSliceText(['orphan', 'foregroundDeletion']), '[]string{"orphan", "foregroundDeletion"}');
  assert.is(goStringSliceText([]), '[]string{}');
  assert.is(goStringSliceText(undefined), '[]string(nil)');
  assert.is(goStringSliceText(null, 'core.ResourceQuotaScope'), '[]core.ResourceQuotaScope(nil)');
  assert.is(goStringSliceText(['Terminating'], 'core.ResourceQuotaScope'), '[]core.ResourceQuotaScope{"Terminating"}');
});

test('each element is quoted as strconv.Quote quotes it, not as JSON escapes it', () => {
  // JSON writes \u0007 and leaves U+00A0 as it is; Go writes \a and \u00a0.
  assert.is(goStringSliceText(['a\x07', 'no\u00a0break', 'é']), '[]string{"a\\a", "no\\u00a0break", "é"}');
});

test.run();
