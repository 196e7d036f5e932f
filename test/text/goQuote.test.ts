import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { goQuote } from '../../src/text/goQuote.ts';

test("strings quoted as Go's strconv.Quote quotes them (go1.19's output for the same texts)", () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x00\x1f\x7f', '"\\x00\\x1f\\x7f"'],
    ['a"b\\c\td\x1b', '"a\\"b\\\\c\\td\\x1b"'],
    ['no\u00a0break', '"no\\u00a0break"'],
    ['é ü 中文', '"é ü 中文"'],
    ['zero\u200bwidth', '"zero\\u200bwidth"'],
    ['\u0085next', '"\\u0085next"'],
    ['emoji 😀', '"emoji 😀"'],
    ['\u{e0001}tag', '"\\U000e0001tag"'],
    ['soft\u00adhyphen', '"soft\\u00adhyphen"'],
    ['line\u2028sep', '"line\\u2028sep"'],
  ];
  for (const [text, quoted] of cases) assert.is(goQuote(text), quoted, JSON.stringify(text));
});

test.run();
