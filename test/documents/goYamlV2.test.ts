import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonToGoYaml } from '../../src/yaml/goYamlV2.ts';

/**
 * Expected texts are what sigs.k8s.io/yaml v1.6.0's JSONToYAML (go.yaml.in/yaml/v2 v2.4.4, the libraries Karmada
 * vendors) wrote for the same value under `v`, the way applyRawYAMLPatch writes back a patched document.
 */
const CASES: [string, unknown, string][] = [
  [
    'a plain scalar past column 80 folds at a space',
    'This alert fires when the error budget burn rate over the last hour exceeds fourteen times the allowed rate',
    'v: This alert fires when the error budget burn rate over the last hour exceeds fourteen\n  times the allowed rate\n',
  ],
  [
    'a single-quoted scalar folds too',
    'x: This alert fires when the error budget burn rate over the last hour exceeds fourteen times the allowed rate',
    "v: 'x: This alert fires when the error budget burn rate over the last hour exceeds\n  fourteen times the allowed rate'\n",
  ],
  [
    'a double-quoted scalar folds, escaping the space that starts a continuation',
    'tab\there and then This alert fires when the error budget burn rate over the last hour exceeds fourteen times the allowed rate  with  double  spaces  at the end of it all',
    'v: "tab\\there and then This alert fires when the error budget burn rate over the last\n  hour exceeds fourteen times the allowed rate  with  double  spaces  at the end of\n  it all"\n',
  ],
  [
    'a key never folds',
    {
      'This alert fires when the error budget burn rate over the last hour exceeds fourteen times the allowed rate': 1,
    },
    'v:\n  This alert fires when the error budget burn rate over the last hour exceeds fourteen times the allowed rate: 1\n',
  ],
  [
    'keys sort with the numbers in them compared as numbers',
    { k10: 1, k9: 1, k1: 1, a_1: 1, 'a.1': 1, 'a-1': 1, A: 1, z: 1, '10': 1, '9': 1, k01: 1 },
    'v:\n  "9": 1\n  "10": 1\n  A: 1\n  a-1: 1\n  a.1: 1\n  a_1: 1\n  k1: 1\n  k01: 1\n  k9: 1\n  k10: 1\n  z: 1\n',
  ],
  [
    "floats take strconv's shortest 'g' form, integral ones are ints as encoding/json writes them",
    [0.000001, 0.00001, 0.0001, 1500000.5, 1e6, 123456.5, 2.5, -0.25, 1e21, 1e20, 100],
    'v:\n- 1e-06\n- 1e-05\n- 0.0001\n- 1.5000005e+06\n- 1000000\n- 123456.5\n- 2.5\n- -0.25\n- 1e+21\n- 1e+20\n- 100\n',
  ],
  [
    '64-bit integers keep every digit',
    [9223372036854775807n, -9223372036854775808n, 18446744073709551615n, 12345678901234567000],
    'v:\n- 9223372036854775807\n- -9223372036854775808\n- 18446744073709551615\n- 12345678901234567000\n',
  ],
  [
    'strings that cannot be plain are single-quoted',
    ['*', ':8080', 'x: y', '#x', '@x', '- x', '-', ' lead', 'trail ', "'q'", '--- x', '...', '`x`', '{a}', 'a #b'],
    "v:\n- '*'\n- :8080\n- 'x: y'\n- '#x'\n- '@x'\n- '- x'\n- '-'\n- ' lead'\n- 'trail '\n- '''q'''\n- '--- x'\n- '...'\n- '`x`'\n- '{a}'\n- 'a #b'\n",
  ],
  [
    'strings a plain scalar would read as something else are double-quoted',
    [
      '',
      '~',
      'null',
      'yes',
      'On',
      'n',
      '0x1F',
      '010',
      '1e3',
      '1_000',
      '.5',
      '1:20',
      '2001-12-14',
      '2001-12-14T21:59:43.1Z',
      '2001-12-14 21:59:43',
      '.inf',
    ],
    'v:\n- ""\n- "~"\n- "null"\n- "yes"\n- "On"\n- "n"\n- "0x1F"\n- "010"\n- "1e3"\n- "1_000"\n- ".5"\n- "1:20"\n- "2001-12-14"\n- "2001-12-14T21:59:43.1Z"\n- "2001-12-14 21:59:43"\n- ".inf"\n',
  ],
  [
    'strings any YAML reader keeps as text stay plain',
    ['<<', 'e1', 'yEs', '2001-12-14x', '2001-13-01', 'a#b', 'a:b', 'http://x/y?a=b#c', '- ', '\u00e9', 'x\u00a0y'],
    "v:\n- <<\n- e1\n- yEs\n- 2001-12-14x\n- 2001-13-01\n- a#b\n- a:b\n- http://x/y?a=b#c\n- '- '\n- \u00e9\n- x\u00a0y\n",
  ],
  [
    'a tab, a control or a non-BMP character forces double quotes with escapes',
    ['a\tb', 'a\u0001b', '\u001b[0m', '\ud83d\ude00', 'a\u0085b', '\u00a0x', 'a\u2028b'],
    'v:\n- "a\\tb"\n- "a\\x01b"\n- "\\e[0m"\n- "\\U0001F600"\n- a b\n- \u00a0x\n- \'a\u2028  b\'\n',
  ],
  [
    'a string that starts with a BOM has every character escaped',
    ['\ufeffab c'],
    'v:\n- "\\uFEFF\\x61\\x62\\x20\\x63"\n',
  ],
  [
    "multi-line strings are literal blocks with go-yaml's chomping and indentation hints",
    ['a\nb', 'a\nb\n', 'a\nb\n\n', '\nlead', ' lead\nx', 'x\n\ny\n'],
    'v:\n- |-\n  a\n  b\n- |\n  a\n  b\n- |+\n  a\n  b\n\n- |2-\n\n  lead\n- |2-\n   lead\n  x\n- |\n  x\n\n  y\n',
  ],
  [
    'a multi-line string with a trailing space or a special character is double-quoted',
    ['trail \nx', 'a\n\tb', 'a\tb\nc', 'x\n \n'],
    'v:\n- "trail \\nx"\n- "a\\n\\tb"\n- "a\\tb\\nc"\n- "x\\n \\n"\n',
  ],
  [
    'a multi-line or long key takes the ? form',
    {
      'a\nb': 1,
      ['k'.repeat(130)]: 2,
    },
    'v:\n  ? |-\n    a\n    b\n  : 1\n  ? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n  : 2\n',
  ],
  [
    'sequences are not indented under a key, nested ones are',
    { l: [[1, [2, 3]], { a: [] }, {}, null, true] },
    'v:\n  l:\n  - - 1\n    - - 2\n      - 3\n  - a: []\n  - {}\n  - null\n  - true\n',
  ],
];

for (const [capability, value, expected] of CASES) {
  test(`go-yaml v2 output: ${capability}`, () => {
    assert.equal(jsonToGoYaml({ v: value }), { ok: true, text: expected });
  });
}

test('go-yaml v2 output: a document that is one scalar ends with a line break', () => {
  assert.equal(jsonToGoYaml('text'), { ok: true, text: 'text\n' });
  assert.equal(jsonToGoYaml(null), { ok: true, text: 'null\n' });
  assert.equal(jsonToGoYaml({}), { ok: true, text: '{}\n' });
});

test('go-yaml v2 output: what go-yaml cannot read back from the JSON fails as in Karmada', () => {
  // encoding/json leaves DEL and C1 controls unescaped, and go-yaml's reader refuses them.
  assert.equal(jsonToGoYaml({ v: 'a\u007fb' }), { ok: false, message: 'yaml: control characters are not allowed' });
  // A NEL is a line break to go-yaml: a key with one spans lines, and so is no simple key in a flow mapping.
  assert.equal(jsonToGoYaml({ 'a\u0085b': 1 }), { ok: false, message: "yaml: did not find expected ',' or '}'" });
  // A quoted key of more than 1024 characters (1023 plus the quotes) is dropped as a simple key.
  assert.equal(jsonToGoYaml({ ['k'.repeat(1022)]: 1 }).ok, true);
  assert.equal(jsonToGoYaml({ ['k'.repeat(1023)]: 1 }), {
    ok: false,
    message: "yaml: did not find expected ',' or '}'",
  });
  assert.equal(jsonToGoYaml({ v: 'a\u0085--- b' }), {
    ok: false,
    message: 'yaml: found unexpected document indicator',
  });
});
test.run();
