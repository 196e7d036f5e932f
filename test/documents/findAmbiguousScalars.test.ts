import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { findAmbiguousScalars } from '../../src/documents/findAmbiguousScalars.ts';

const found = (text: string) =>
  findAmbiguousScalars('f.yaml', text).map((p) => [p.line, p.column, p.code, p.severity, p.message]);

test('YAML 1.1 booleans in any case, as values, list items, flow items and keys, warn at their position', () => {
  const text = 'a: yes\nb: Off\nc:\n  - y\n  - N\nd: [on, x]\nON: 1\ne: true\nf: "yes"\ng: \'no\'\nh: yEs\n';
  assert.equal(
    found(text).map(([line, column]) => [line, column]),
    [
      [1, 4],
      [2, 4],
      [4, 5],
      [5, 5],
      [6, 5],
      [7, 1],
    ],
  );
  const [first] = findAmbiguousScalars('f.yaml', text);
  assert.equal(
    first!.message,
    '`yes` reads as the boolean true in YAML 1.1, which kubectl uses (YAML 1.2 tools read the text "yes")',
  );
  assert.match(first!.fix, /quote it \("yes"\)/);
  assert.match(findAmbiguousScalars('f.yaml', text)[5]!.message, /^the key `ON`/);
});

test('0644-style octal warns with the value kubectl reads and the spellings that read the same everywhere', () => {
  const [p] = findAmbiguousScalars('f.yaml', 'spec:\n  defaultMode: 0644\n');
  assert.equal([p!.line, p!.column, p!.severity], [2, 16, 'warning']);
  assert.match(p!.message, /octal number 420/);
  assert.match(p!.fix, /0o644 or 420/);
  // Same value in every YAML version, or not a number at all: nothing to say.
  assert.equal(found('a: 0o644\nb: 420\nc: 007\nd: 0\ne: "0644"\nf: 08\ng: 0x1F\nh: 1:20\n'), []);
});

test('numbers only YAML 1.1 reads (0b…, digit underscores) warn; quoted and tagged scalars never do', () => {
  assert.equal(
    found('a: 0b101\nb: 1_000\nc: "0b101"\nd: !!str yes\ne: abc_def\n').map(([line]) => line),
    [1, 2],
  );
});

test('integers beyond 2^53 warn: kubectl keeps their digits, JavaScript does not', () => {
  const problems = findAmbiguousScalars(
    'f.yaml',
    'id: 12345678901234567\nsafe: 9007199254740991\nhex: 0x7FFFFFFFFFFFFFFF\nfloat: 1e20\nq: "12345678901234567"\n',
  );
  assert.equal(
    problems.map((p) => p.line),
    [1, 3],
  );
  assert.match(problems[0]!.message, /beyond 2\^53/);
});

test('an integer beyond 2^53 that Flotilla writes back with the same digits does not warn (a CRD schema maximum)', () => {
  const problems = findAmbiguousScalars('f.yaml', 'maximum: 9223372036854775000\nmax: 9223372036854775807\n');
  assert.equal(
    problems.map((p) => p.line),
    [2],
  );
  assert.match(problems[0]!.fix, 'such as 9223372036854776000');
});

test("compact JSON, a value right after its key's colon, warns as YAML with a space does", () => {
  assert.equal(
    found('{"limit":12345678901234567890,"on":"x"}\n').map(([line, column]) => [line, column]),
    [[1, 10]],
  );
});

test('each object of a JSON stream warns at its place in the stream', () => {
  const text = '{"a": 1}\n{\n  "b": 12345678901234567890\n}  {"c":98765432109876543210}\n';
  assert.equal(
    found(text).map(([line, column]) => [line, column]),
    [
      [3, 8],
      [4, 9],
    ],
  );
});

test('a file without any candidate token is not parsed at all, and a broken file reports nothing here', () => {
  assert.equal(found('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yesterday\n'), []);
  assert.equal(found('a: yes\n b: [\n'), []);
});

test.run();
