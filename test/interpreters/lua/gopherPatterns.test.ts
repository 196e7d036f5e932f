// gopher-lua's pattern grammar and matcher (its pm package), which Karmada's string.find, match and gmatch use. The
// expected values are gopher-lua v1.1.1's, run with Karmada's string library.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type CaptureSlots,
  capturePosition,
  findGopherPattern,
  GopherPatternError,
  isPositionCapture,
} from '../../../src/interpreters/lua/gopherPatterns.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

/** The first match as find reports it: 1-based start, end, then each capture's text or position. */
function find(subject: string, pattern: string, offset = 0): (string | number)[] | undefined {
  const [slots] = findGopherPattern(bytes(pattern), bytes(subject), offset, 1);
  return slots ? described(subject, slots) : undefined;
}

function described(subject: string, slots: CaptureSlots): (string | number)[] {
  const out: (string | number)[] = [capturePosition(slots, 0) + 1, capturePosition(slots, 1)];
  for (let i = 2; i < slots.length; i += 2)
    out.push(
      isPositionCapture(slots, i)
        ? capturePosition(slots, i)
        : subject.slice(capturePosition(slots, i), capturePosition(slots, i + 1)),
    );
  return out;
}

const refusal = (pattern: string): string => {
  try {
    findGopherPattern(bytes(pattern), bytes('x'), 0, 1);
  } catch (err) {
    assert.instance(err, GopherPatternError);
    return (err as Error).message;
  }
  return 'accepted';
};

test('the letter classes, sets, quantifiers and captures of Lua 5.1 patterns match as in Lua', () => {
  assert.equal(find('nginx:1.27', '^(.*):(.*)$'), [1, 10, 'nginx', '1.27']);
  assert.equal(find('  trim  ', '^%s*(.-)%s*$'), [1, 8, 'trim']);
  assert.equal(find('apps/v1', '^([^/]+)/([^/]+)$'), [1, 7, 'apps', 'v1']);
  assert.equal(find('10Gi', '^(%d+)(%a*)$'), [1, 4, '10', 'Gi']);
  assert.equal(find('hello', '()ll()'), [3, 4, 3, 5]);
  assert.equal(find('f(a(b)c)', '%b()'), [2, 8]);
  assert.equal(find('xx', '(x)%1'), [1, 2, 'x']);
  assert.equal(find('a.b', '%.'), [2, 2]);
  assert.equal(find('aXb', '%u'), [2, 2]);
  assert.equal(find('hello world', 'o', 5), [8, 8]);
});

test('%f and %g are no classes: they are the letters f and g, and what follows them is read on its own', () => {
  assert.equal(find('ofF1', '%f[%u]'), [2, 3]);
  assert.equal(find('F', '%f[%u]'), undefined);
  assert.equal(find('xg1', '%g.'), [2, 3]);
});

test('a range whose ends are not both plain characters matches nothing', () => {
  assert.equal(find('a-z', '[%a-z]'), undefined);
  assert.equal(find('bcd', '[a-c-e]'), undefined);
  assert.equal(find('b', '[a-c]'), [1, 1]);
  assert.equal(find('-', '[a-]'), [1, 1]);
});

test('a % at the end and a %b without its characters are accepted and match nothing', () => {
  assert.equal(find('x%', '%'), undefined);
  assert.equal(find('a(b', '%b('), undefined);
});

test("$ anchors only as the pattern's last character and ^ only as its first, elsewhere they are characters", () => {
  assert.equal(find('ab', '(a)(b)$'), [1, 2, 'a', 'b']);
  assert.equal(find('a$b', 'a$b'), [1, 3]);
  assert.equal(find('x^y', 'x^y'), [1, 3]);
  assert.equal(find('ab', '^b'), undefined);
});

test("a malformed pattern is refused in pm's words, with the position it stopped at", () => {
  assert.is(refusal('(x'), 'unfinished capture at EOS');
  assert.is(refusal('x)'), "invalid ')' at 0");
  assert.is(refusal('[x'), 'unexpected EOS at 1');
  assert.is(refusal('%0'), 'invalid capture index at 0');
  assert.is(refusal('%1'), 'invalid capture index');
});

test('all matches: the next search starts where a match ended, one byte on after an empty one; ^ tries once', () => {
  const all = (subject: string, pattern: string) =>
    findGopherPattern(bytes(pattern), bytes(subject), 0, -1).map((slots) => described(subject, slots));
  assert.equal(all('a,b,,c', '([^,]*)'), [
    [1, 1, 'a'],
    [2, 1, ''],
    [3, 3, 'b'],
    [4, 3, ''],
    [5, 4, ''],
    [6, 6, 'c'],
    [7, 6, ''],
  ]);
  assert.equal(all('abab', '^ab'), [[1, 2]]);
});

test("a long backtracking search calls its caller's check, which can stop it", () => {
  const subject = Buffer.alloc(20000, 'a');
  let checks = 0;
  assert.throws(
    () =>
      findGopherPattern(bytes('a+b'), subject, 0, 1, () => {
        if (++checks === 3) throw new Error('stopped');
      }),
    /stopped/,
  );
  assert.is(checks, 3);
});

test.run();
