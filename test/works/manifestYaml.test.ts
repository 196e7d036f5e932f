import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, stringify } from 'yaml';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { manifestYaml, YAML_OPTIONS, type SharedParts } from '../../src/branches/rendered/manifestYaml.ts';

const same = (value: unknown) => assert.is(manifestYaml(value), stringify(value, YAML_OPTIONS));

test('scalars the yaml library quotes are quoted the same way, as values, list items and keys', () => {
  const tricky = [
    'yes',
    'no',
    'on',
    'off',
    'y',
    'n',
    'true',
    'True',
    'FALSE',
    'null',
    'Null',
    '~',
    '',
    ' ',
    '0x10',
    '0o17',
    '1e3',
    '1.5',
    '-1',
    '+1',
    '.inf',
    '-.Inf',
    '.nan',
    '012',
    '1_000',
    '2001-12-14',
    'x: y',
    'a #b',
    'a#b',
    '#c',
    '- a',
    '-',
    '?',
    '? a',
    ': a',
    'a:',
    '[a]',
    '{a: 1}',
    '{"a":1}',
    `it's`,
    `"q"`,
    `'q'`,
    `"both'`,
    '*alias',
    '&anchor',
    '!tag',
    '%dir',
    '@at',
    '`tick',
    '|',
    '>',
    ' lead',
    'trail ',
    'ctl\u0007x',
    'é ünï',
    '日本語',
    '😀 emoji',
    'a,b',
    'nginx:1.25',
    'app.kubernetes.io/name',
    '100m',
    '64Mi',
  ];
  for (const s of tricky) {
    same({ v: s });
    same({ list: [s, { k: s }] });
    same({ [s]: 1 });
  }
});

test('multi-line strings, document markers and long keys come out as the library writes them', () => {
  for (const s of [
    'a\nb',
    'a\nb\n',
    '\nlead',
    'trail\n\n',
    '  indented\nblock',
    'x \ny',
    '---',
    '--- a',
    '...',
    'a\n---\nb',
  ]) {
    same({ v: s });
    same({ nested: { list: [s] } });
    same({ [s]: 'k' });
  }
  same({ ['k'.repeat(1100)]: 1 });
});

test('empty and nested collections, null, booleans and numbers are laid out like the library does', () => {
  same({
    a: [{ b: 1, c: [1, [2, 3], {}] }, [], [[1]], { d: {} }],
    e: {},
    f: null,
    g: true,
    h: false,
    i: [{}],
    j: [[]],
  });
  same({ n: [0, -0, 1.5, -2.25, 1e21, 1e-7, 123456789012345, Number.MAX_SAFE_INTEGER] });
  same({ weird: [Infinity, -Infinity, NaN] });
  same({ v: [{ w: { x: 1 } }, [{ y: [{ z: 'deep' }] }]], u: undefined, list: [null, 'x'] });
  same({ holes: [undefined, 1] });
  same({ date: new Date(0) });
  same([]);
  same({});
  same([{ a: 1 }, ['b']]);
  same(Object.assign(Object.create(null) as object, { a: 1 }));
  same({ '80': 'port', '1': 'first', b: 'keys that look like indices come first, as Object.keys has them' });
});

test('a realistic manifest is byte-identical to yaml.stringify', () => {
  same({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'team-1',
      labels: { app: 'web', 'karmada.io/managed': 'true' },
      annotations: {
        'policy.karmada.io/applied-overrides': JSON.stringify([
          { policy: 'OverridePolicy a/b', overriders: { plaintext: [{ path: '/x', value: 'y' }] } },
        ]),
        'flotilla.io/source-commit': '0123456789abcdef0123456789abcdef01234567',
      },
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'nginx:1.25',
              args: ['--port', '8080', '--flag=on'],
              ports: [{ containerPort: 8080 }],
              resources: { requests: { cpu: '100m', memory: '64Mi' } },
            },
          ],
        },
      },
    },
    data: { 'config.yaml': 'a: 1\nb:\n  - 2\n' },
  });
});

test('random objects built from tricky parts match the library', () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const atoms: unknown[] = [
    'plain',
    'yes',
    '0x1F',
    '',
    'a: b',
    `it's`,
    '"x"',
    'multi\nline',
    null,
    true,
    0,
    -3.5,
    'é',
    '~',
    '- x',
    '#',
  ];
  const build = (depth: number): unknown => {
    const pick = rand(depth > 3 ? 1 : 3);
    if (pick === 0) return atoms[rand(atoms.length)];
    if (pick === 1) return Array.from({ length: rand(4) }, () => build(depth + 1));
    return Object.fromEntries(
      Array.from({ length: rand(4) }, () => [String(atoms[rand(atoms.length)] ?? 'k') + rand(3), build(depth + 1)]),
    );
  };
  for (let i = 0; i < 500; i++) same({ root: build(0), other: build(1) });
});

test('identifier-like strings (names, images, labels) are plain exactly when the library writes them plain', () => {
  const alphabet = 'aZ09_./@:-# x';
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  for (let i = 0; i < 3000; i++) {
    const s = Array.from({ length: 1 + rand(6) }, () => alphabet[rand(alphabet.length)]).join('');
    same({ [s]: s, list: [s] });
  }
  for (const s of [
    'a:',
    'a::',
    'a:b:',
    'n',
    'No',
    'NULL',
    'Null',
    'nULL',
    'TRUE',
    'tRUE',
    'e1',
    'E',
    'x@y',
    'a/b/',
    'nginx@sha256:abc',
    'Infinity',
    'NaN',
  ])
    same({ [s]: s });
});

test('quantities, commit shas, sentences, label lists and paths are written as the library writes them', () => {
  let seed = 17;
  const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const text = (alphabet: string, max: number) =>
    Array.from({ length: 1 + rand(max) }, () => alphabet[rand(alphabet.length)]).join('');
  const suffixes = [
    'm',
    'k',
    'M',
    'G',
    'T',
    'P',
    'E',
    'Ki',
    'Mi',
    'Gi',
    'Ti',
    'Pi',
    'Ei',
    'e',
    'e3',
    'E+3',
    'n',
    'u',
    'Z',
  ];
  const strings: string[] = [
    'Binding has been scheduled successfully.',
    'app.kubernetes.io/component,app.kubernetes.io/name,karmada.io/managed',
    '/healthz',
    '/',
    '//',
    '/a:b',
    '0b10101010101010101010101010101010101010',
    `${'1'.repeat(20)}e${'2'.repeat(19)}`,
    `${'0'.repeat(39)}a`,
    'a ,b',
    'a b,',
    'yes no',
    'e1 e2',
  ];
  for (let i = 0; i < 3000; i++) {
    strings.push(
      `${text('0123456789', 6)}${rand(3) === 0 ? `.${text('0123456789', 3)}` : ''}${suffixes[rand(suffixes.length)]}`,
    );
    strings.push(text('0123456789abcdef', 1) + text(rand(2) ? '0123456789abcdef' : '0123456789be', 39).padEnd(39, 'e'));
    strings.push(`${text('aZ/,', 1)}${text('aZ09_./@,-: #', 12)}`);
    strings.push(`${text('aZ/', 1)}${text('aZ09_./@,- ', 12)}`);
  }
  for (const s of strings) same({ [s]: s, list: [s], nested: { [s]: [s] } });
  // YAML 1.1's null and boolean words in the three casings its schema takes, and a casing it does not.
  for (const word of ['null', 'true', 'false', 'y', 'yes', 'on', 'n', 'no', 'off'])
    for (const cased of [
      word,
      word[0]!.toUpperCase() + word.slice(1),
      word.toUpperCase(),
      word.slice(0, -1) + word.at(-1)!.toUpperCase(),
    ])
      same({ [cased]: cased, list: [cased] });
});

test('UUIDs (permanent ids, uids) are written as the library writes them, digits-only and exponent-like ones too', () => {
  const hex = '0123456789abcdef';
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const group = (n: number, digits: string) => Array.from({ length: n }, () => digits[next() % digits.length]).join('');
  const uuids = [
    '00000000-0000-0000-0000-000000000000',
    '12345678-1234-1234-1234-123456789012',
    '1e100000-0000-0000-0000-000000000000',
    '0e000000-1e10-2e20-3e30-4e4000000000',
    '2001-12-14-0000-0000-0000-000000000000'.slice(0, 36),
    '7297ac9a-8379-50f4-a84f-39191774cd6d',
  ];
  for (let i = 0; i < 2000; i++) {
    const digits = i % 3 === 0 ? '0123456789' : i % 3 === 1 ? '0123456789e' : hex;
    uuids.push([8, 4, 4, 4, 12].map((n) => group(n, digits)).join('-'));
  }
  for (const uuid of uuids) {
    same({ metadata: { uid: uuid, labels: { 'resourcebinding.karmada.io/permanent-id': uuid } } });
    same([uuid]);
  }
});

test('digit strings and one-line JSON text (counts, Karmada annotations) are quoted as the library quotes them', () => {
  let seed = 13;
  const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
  const text = (alphabet: string, max: number) =>
    Array.from({ length: rand(max) }, () => alphabet[rand(alphabet.length)]).join('');
  const strings: string[] = [
    '0',
    '00',
    '007',
    '9'.repeat(40),
    '[]',
    '{}',
    '[""]',
    `{"a":"it's"}`,
    '["a"] #x',
    '{"a": "b"}',
  ];
  for (let i = 0; i < 1500; i++) {
    strings.push(`${1 + rand(9)}${text('0123456789', 20)}`);
    strings.push(JSON.stringify([{ [text(printable, 8)]: text(printable, 12), n: rand(100) }]));
    strings.push(`${rand(2) ? '[' : '{'}${text(printable, 30)}`);
    strings.push(`${rand(2) ? '[' : '{'}"${text('\t\u00e9\n\'"#: ', 6)}`);
  }
  for (const s of strings) same({ annotations: { [s]: s }, list: [s] });
});

test("every string reads back as the same string under YAML 1.1 (kubectl, PyYAML), YAML 1.2 and Flotilla's own reader", () => {
  const strings = [
    'yes',
    'Yes',
    'YES',
    'no',
    'on',
    'On',
    'OFF',
    'y',
    'Y',
    'n',
    'N',
    'true',
    'False',
    '~',
    'null',
    '',
    '0644',
    '0400',
    '08',
    '0o644',
    '0x1F',
    '0b101',
    '1_000',
    '1:20',
    '190:20:30',
    '1:20.5',
    '2001-12-14',
    '2001-12-14t21:59:43.10-05:00',
    '1e3',
    'e1',
    'E-5',
    '6.8523015e+5',
    '.5',
    '.inf',
    '-.Inf',
    '.NaN',
    '+12',
    '-0',
    '12345678901234567890',
    '<<',
    'plain',
    'nginx:1.25',
    'a: b',
    '=',
    'yEs',
    'oN',
  ];
  for (const s of strings) {
    const text = manifestYaml({ v: s, [s]: s, list: [s, { [s]: [s] }] });
    const expected = { v: s, [s]: s, list: [s, { [s]: [s] }] };
    assert.equal(parseYamlValue(text), expected, `Flotilla (kubectl's reading) of ${text}`);
    assert.equal(parse(text, { version: '1.1' }), expected, `YAML 1.1 of ${text}`);
    assert.equal(parse(text), expected, `YAML 1.2 of ${text}`);
  }
});

test('strings some readers would not take raw are double-quoted with escapes, and read back the same', () => {
  const strings = [
    'tab\there',
    'a\x7fb',
    'a\x9fb',
    'a\u0085b',
    'a\u2028b\u2029c',
    '\ufeffa\ufffe\uffff',
    '=',
    'l1\nl2\x7f',
  ];
  for (const s of strings) {
    const value = { v: s, [s]: s, list: [s, { [s]: [s] }] };
    const text = manifestYaml(value);
    assert.not.match(text, /[\t\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/, `written raw: ${JSON.stringify(text)}`);
    assert.equal(parseYamlValue(text), value, `Flotilla (kubectl's reading) of ${text}`);
    assert.equal(parse(text, { version: '1.1' }), value, `YAML 1.1 of ${text}`);
    assert.equal(parse(text), value, `YAML 1.2 of ${text}`);
  }
  assert.is(manifestYaml({ v: 'a\u0085b' }), 'v: "a\\Nb"\n');
  // Beside a block literal (the document is laid out by the library) they are escaped all the same.
  const mixed = { conf: 'server {\n\tlisten 80;\n}\n', tab: 'x\ty', del: 'a\x7fb', list: ['=', 'c\u2028d'] };
  const text = manifestYaml(mixed);
  assert.not.match(text, /[\x7f\u2028]|: x\t|- =/);
  assert.match(text, 'conf: |\n');
  assert.equal(parseYamlValue(text), mixed);
  assert.equal(parse(text, { version: '1.1' }), mixed);
  // A file with tabs (a Makefile, an nginx.conf) stays a readable block literal, tabs and all.
  same({ data: { 'nginx.conf': 'server {\n\tlisten 80;\n}\n' } });
  assert.match(manifestYaml({ data: { 'nginx.conf': 'server {\n\tlisten 80;\n}\n' } }), '|\n');
  assert.is(manifestYaml({ list: ['='] }), 'list:\n  - "="\n');
});

test('documents sharing parts come out the same when the shared parts are laid out once, wherever they stand', () => {
  const podSpec = { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] };
  const data = { 'log-level': 'info', port: '8080', yes: 'no', empty: {}, list: [[1, 2], { a: [] }] };
  const item = { key: 'k', values: ['a', 'b'] };
  const selector = { matchExpressions: [item, item] };
  // One template's manifest for cluster after cluster: new top levels, parts shared; a part met at several depths,
  // shared list items (their first line carries the dash), and last a shared part the library writes over lines.
  const notes = { text: 'two\nlines' };
  const docs = ['m1', 'm2', 'm3', 'm4', 'm5'].map((cluster, i) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { cluster }, annotations: data },
    spec: {
      replicas: i,
      selector,
      template: { metadata: { labels: data }, spec: podSpec },
      extra: i % 2 === 0 ? [item, data, podSpec] : [data, [item]],
    },
    data,
    items: [item, selector],
    ...(i >= 3 ? { notes } : {}),
  }));
  const parts: SharedParts = new Map();
  for (const doc of docs) assert.is(manifestYaml(doc, parts), stringify(doc, YAML_OPTIONS));
  assert.ok(
    [item, data, selector].every((part) => parts.get(part)?.text !== undefined),
    'parts met twice are kept',
  );
});

test.run();
