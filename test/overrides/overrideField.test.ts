import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FieldOverrider } from '../../src/api/policy.ts';
import { applyFieldOverriders } from '../../src/overrides/overrideField.ts';
import { stringifyJsonLikeGo } from '../../src/patches/patchJsonText.ts';
import type { Obj } from './helpers/objects.ts';

function configMap(data: Record<string, string>): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test1', namespace: 'default' }, data };
}

function dataAfter(data: Record<string, string>, overriders: FieldOverrider[]): unknown {
  const step = applyFieldOverriders(configMap(data), overriders);
  if (!step.ok) throw new Error(`unexpected failure: ${step.overrider}: ${step.message}`);
  return step.manifest.data;
}

// Transcribed from karmada pkg/util/overridemanager/overridemanager_test.go
// (Test_overrideManagerImpl_ApplyFieldOverriderPolicies_YAML): the YAML comes back re-encoded.
test('yaml: replace a nested key in an embedded YAML document', () => {
  const got = dataAfter({ 'test.yaml': '\nkey: \n  key1: value\n' }, [
    { fieldPath: '/data/test.yaml', yaml: [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }] },
  ]);
  assert.equal(got, { 'test.yaml': 'key:\n  key1: updated_value\n' });
});

test('a ConfigMap key named __proto__ is a key like any other, for fieldPath and for the sub-patches', () => {
  const data = JSON.parse('{"__proto__":"{\\"a\\":1}"}') as Record<string, string>;
  const got = dataAfter(data, [
    { fieldPath: '/data/__proto__', json: [{ subPath: '/__proto__', operator: 'add', value: { b: 2 } }] },
  ]) as Record<string, unknown>;
  assert.equal(Object.keys(got), ['__proto__']);
  assert.is(Object.getPrototypeOf(got), Object.prototype);
  assert.is(JSON.stringify(got), '{"__proto__":"{\\"a\\":1,\\"__proto__\\":{\\"b\\":2}}"}');
});

test('a JSON or YAML document that is a list is patched as one', () => {
  const got = dataAfter({ j: '[1,2]', y: '- 1\n- 2\n' }, [
    { fieldPath: '/data/j', json: [{ subPath: '/0', operator: 'replace', value: 5 }] },
    { fieldPath: '/data/y', yaml: [{ subPath: '', operator: 'add', value: ['z'] }] },
  ]);
  assert.equal(got, { j: '[5,2]', y: '- z\n' });
});

// Transcribed from the same file (Test_overrideManagerImpl_ApplyJSONOverridePolicies_JSON).
test('json: replace a nested key in an embedded JSON document', () => {
  const got = dataAfter({ 'test.json': '{"key":{"key1":"value"}}' }, [
    { fieldPath: '/data/test.json', json: [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }] },
  ]);
  assert.equal(got, { 'test.json': '{"key":{"key1":"updated_value"}}' });
});

test('yaml: keys come back sorted, list items unindented, comments dropped', () => {
  const text = '# settings\nzeta: 1\nalpha:\n  items:\n    - a\n    - b\n';
  const got = dataAfter({ 'app.yaml': text }, [
    { fieldPath: '/data/app.yaml', yaml: [{ subPath: '/alpha/items/-', operator: 'add', value: 'c' }] },
  ]);
  assert.equal(got, { 'app.yaml': 'alpha:\n  items:\n  - a\n  - b\n  - c\nzeta: 1\n' });
});

test('yaml: integers beyond 2^53 the override does not touch come back with every digit, as sigs.k8s.io/yaml keeps int64', () => {
  const text = 'name: dev\naccount: 1234567890123456789\nlimit: 18446744073709551615\nsafe: 9007199254740992\n';
  const got = dataAfter({ 'app.yaml': text }, [
    { fieldPath: '/data/app.yaml', yaml: [{ subPath: '/name', operator: 'replace', value: 'prod' }] },
  ]);
  assert.equal(got, {
    'app.yaml': 'account: 1234567890123456789\nlimit: 18446744073709551615\nname: prod\nsafe: 9007199254740992\n',
  });
});

// Expected texts below are what Karmada's applyRawYAMLPatch (sigs.k8s.io/yaml over go.yaml.in/yaml/v2) wrote.
test('yaml: the document comes back as go-yaml v2 writes it: Go key order, Go floats, quoted YAML 1.1 look-alikes', () => {
  const got = dataAfter(
    {
      'app.yaml':
        'feature-flags:\n  ratio: 0.00001\n  big: 1500000.5\n  version: 1.10\n  start: 2024-01-15\n  release: 3:25:45\n  country: NO\nserver10: b\nserver9: a\n',
    },
    [{ fieldPath: '/data/app.yaml', yaml: [{ subPath: '/server1', operator: 'add', value: 'c' }] }],
  );
  assert.equal(got, {
    'app.yaml':
      'feature-flags:\n  big: 1.5000005e+06\n  country: false\n  ratio: 1e-05\n  release: "3:25:45"\n  start: "2024-01-15"\n  version: 1.1\nserver1: c\nserver9: a\nserver10: b\n',
  });
});

test('yaml: long strings are folded at 80 columns as go-yaml v2 folds them', () => {
  const got = dataAfter({ 'rules.yaml': RULES }, [
    { fieldPath: '/data/rules.yaml', yaml: [{ subPath: '/groups/0/rules/0/for', operator: 'replace', value: '15m' }] },
  ]);
  assert.equal(got, {
    'rules.yaml':
      'groups:\n- name: example\n  rules:\n  - alert: HighRequestLatency\n    annotations:\n      description: \'{{ $labels.instance }} of job {{ $labels.job }} has a median request\n        latency above 0.5s (current value: {{ $value }}s)\'\n      summary: High request latency on {{ $labels.instance }} which has been elevated\n        for more than ten minutes now\n    expr: job:request_latency_seconds:mean5m{job="myjob"} > 0.5\n    for: 15m\n    labels:\n      severity: page\n  - alert: InstanceDown\n    annotations:\n      description: |-\n        {{ $labels.instance }} of job {{ $labels.job }} has been down for more than 5 minutes.\n          VALUE = {{ $value }}\n          LABELS = {{ $labels }}\n      summary: Instance {{ $labels.instance }} down\n    expr: up == 0\n    for: 5m\n    labels:\n      severity: critical\n      team: platform\n  - expr: sum by (job) (http_inprogress_requests)\n    record: job:http_inprogress_requests:sum\n  - alert: DiskWillFillIn4Hours\n    expr: predict_linear(node_filesystem_free_bytes{fstype!~"tmpfs|ramfs"}[1h], 4\n      * 3600) < 0 and on(instance, device, mountpoint) node_filesystem_readonly ==\n      0\n    for: 5m\n    labels:\n      severity: warning\n',
  });
});

const RULES =
  'groups:\n- name: example\n  rules:\n  - alert: HighRequestLatency\n    expr: job:request_latency_seconds:mean5m{job="myjob"} > 0.5\n    for: 10m\n    labels:\n      severity: page\n    annotations:\n      summary: High request latency on {{ $labels.instance }} which has been elevated for more than ten minutes now\n      description: "{{ $labels.instance }} of job {{ $labels.job }} has a median request latency above 0.5s (current value: {{ $value }}s)"\n  - alert: InstanceDown\n    expr: up == 0\n    for: 5m\n    labels:\n      severity: critical\n      team: "platform"\n    annotations:\n      summary: "Instance {{ $labels.instance }} down"\n      description: |-\n        {{ $labels.instance }} of job {{ $labels.job }} has been down for more than 5 minutes.\n          VALUE = {{ $value }}\n          LABELS = {{ $labels }}\n  - record: job:http_inprogress_requests:sum\n    expr: sum by (job) (http_inprogress_requests)\n  - alert: DiskWillFillIn4Hours\n    expr: predict_linear(node_filesystem_free_bytes{fstype!~"tmpfs|ramfs"}[1h], 4 * 3600) < 0 and on(instance, device, mountpoint) node_filesystem_readonly == 0\n    for: 5m\n    labels: {severity: warning}\n';

test('yaml: a key the embedded document repeats keeps its last value, as go-yaml reads it', () => {
  const got = dataAfter({ 'd.yaml': 'a: 1\nb: 2\na: 3\n' }, [
    { fieldPath: '/data/d.yaml', yaml: [{ subPath: '/c', operator: 'add', value: 4 }] },
  ]);
  assert.equal(got, { 'd.yaml': 'a: 3\nb: 2\nc: 4\n' });
});

test('yaml: 64-bit ints stay ints with every digit, even those a JavaScript number holds exactly', () => {
  const got = dataAfter(
    { 'i.yaml': 'min: -9223372036854775808\nmax: 18446744073709551615\nf: 9223372036854775808.0\n' },
    [{ fieldPath: '/data/i.yaml', yaml: [{ subPath: '/c', operator: 'add', value: 1 }] }],
  );
  assert.equal(got, {
    'i.yaml': 'c: 1\nf: 9223372036854776000\nmax: 18446744073709551615\nmin: -9223372036854775808\n',
  });
});

test('json: key order is kept, new keys go last, output is compact with Go HTML escapes', () => {
  const got = dataAfter({ 'c.json': '{ "b": 1, "a": { "x": true } }' }, [
    {
      fieldPath: '/data/c.json',
      json: [
        { subPath: '/a/x', operator: 'remove' },
        { subPath: '/html', operator: 'add', value: '<b>&</b>' },
      ],
    },
  ]);
  assert.equal(got, { 'c.json': '{"b":1,"a":{},"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}' });
  assert.is(stringifyJsonLikeGo({ s: 'a\u2028b' }), '{"s":"a\\u2028b"}');
});

test('the field path is a JSON pointer: ~1 addresses a key with /', () => {
  const got = dataAfter({ 'conf/app.json': '{"a":1}' }, [
    { fieldPath: '/data/conf~1app.json', json: [{ subPath: '/a', operator: 'replace', value: 2 }] },
  ]);
  assert.equal(got, { 'conf/app.json': '{"a":2}' });
});

test('an array index in the field path is read as Go reads an int (+0, -0, 00 name the first element); a negative one fails', () => {
  // go-openapi/jsonpointer, which Karmada's applyFieldOverriders reads and writes fieldPath with, parses array
  // tokens with strconv.Atoi and refuses only what lands outside the array.
  const pod: Obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'x', env: [{ name: 'J', value: '{"a":1}' }] }] },
  };
  for (const index of ['0', '+0', '-0', '00']) {
    const step = applyFieldOverriders(pod, [
      {
        fieldPath: `/spec/containers/${index}/env/${index}/value`,
        json: [{ subPath: '/a', operator: 'replace', value: 2 }],
      },
    ]);
    if (!step.ok) throw new Error(`${index}: ${step.message}`);
    const containers = (step.manifest.spec as { containers: { env: { value: string }[] }[] }).containers;
    assert.is(containers[0]?.env[0]?.value, '{"a":2}', index);
    assert.equal(Object.keys(containers), ['0'], index);
  }
  for (const index of ['-1', '1', '0x0', ' 0']) {
    const step = applyFieldOverriders(pod, [
      { fieldPath: `/spec/containers/${index}/env/0/value`, json: [{ subPath: '/a', operator: 'replace', value: 2 }] },
    ]);
    assert.not.ok(step.ok, index);
  }
});

test('overriders apply in order and leave other data keys alone', () => {
  const got = dataAfter({ 'a.json': '{"n":1}', 'b.json': '{"n":1}' }, [
    { fieldPath: '/data/a.json', json: [{ subPath: '/n', operator: 'replace', value: 2 }] },
    { fieldPath: '/data/a.json', json: [{ subPath: '/m', operator: 'add', value: 3 }] },
  ]);
  assert.equal(got, { 'a.json': '{"n":2,"m":3}', 'b.json': '{"n":1}' });
});

test('yaml: only the first document of a multi-document string is kept, as Go reads it', () => {
  const got = dataAfter({ 'm.yaml': 'a: 1\n---\nb: 2\n' }, [
    { fieldPath: '/data/m.yaml', yaml: [{ subPath: '/a', operator: 'replace', value: 3 }] },
  ]);
  assert.equal(got, { 'm.yaml': 'a: 3\n' });
});

test('yaml: YAML 1.1 scalars are read as Go reads them (on is true, 010 is octal)', () => {
  const got = dataAfter({ 'y.yaml': 'enabled: on\nmode: 010\n' }, [
    { fieldPath: '/data/y.yaml', yaml: [{ subPath: '/extra', operator: 'add', value: 'yes' }] },
  ]);
  assert.equal(got, { 'y.yaml': 'enabled: true\nextra: "yes"\nmode: 8\n' });
});

test('an empty JSON string is left as it is', () => {
  assert.equal(
    dataAfter({ 'e.json': '' }, [{ fieldPath: '/data/e.json', json: [{ subPath: '/a', operator: 'add', value: 1 }] }]),
    { 'e.json': '' },
  );
});

test('with both json and yaml the YAML operations apply, with neither the field becomes "", as Karmada applies them', () => {
  // Only the deprecated spec.overriders can hold these (validation refuses them in a rule): applyFieldOverriders.
  assert.equal(
    dataAfter({ a: 'x: 1\n' }, [
      {
        fieldPath: '/data/a',
        json: [{ subPath: '/x', operator: 'replace', value: 3 }],
        yaml: [{ subPath: '/x', operator: 'replace', value: 2 }],
      },
    ]),
    { a: 'x: 2\n' },
  );
  assert.equal(dataAfter({ a: '{"x":1}' }, [{ fieldPath: '/data/a' }]), { a: '' });
});

const failures: {
  name: string;
  data: Record<string, string>;
  overrider: FieldOverrider;
  overrider_: string;
  message: RegExp;
}[] = [
  {
    name: 'a missing field',
    data: { a: '{}' },
    overrider: { fieldPath: '/data/b', json: [{ subPath: '/x', operator: 'add', value: 1 }] },
    overrider_: 'fieldOverrider[0]',
    message: /path\(\/data\/b\)/,
  },
  {
    name: 'a field that is not a string',
    data: { a: '{}' },
    overrider: { fieldPath: '/data', json: [{ subPath: '/x', operator: 'add', value: 1 }] },
    overrider_: 'fieldOverrider[0]',
    message: /is not string/,
  },
  {
    name: 'invalid embedded JSON',
    data: { a: '{oops' },
    overrider: { fieldPath: '/data/a', json: [{ subPath: '/x', operator: 'add', value: 1 }] },
    overrider_: 'fieldOverrider[0]',
    message: /invalid JSON/,
  },
  {
    name: 'invalid embedded YAML',
    data: { a: 'a: [' },
    overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/x', operator: 'add', value: 1 }] },
    overrider_: 'fieldOverrider[0]',
    message: /yaml/,
  },
  {
    name: 'a control character in the embedded YAML, which go-yaml refuses',
    data: { a: 'a: x\u0001y\n' },
    overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/x', operator: 'add', value: 1 }] },
    overrider_: 'fieldOverrider[0]',
    message: /control characters are not allowed/,
  },
  {
    name: 'a patched value go-yaml cannot read back from its JSON (DEL is left unescaped there)',
    data: { a: 'a: 1\n' },
    overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/x', operator: 'add', value: 'x\u007f' }] },
    overrider_: 'fieldOverrider[0]',
    message: /json to yaml: yaml: control characters are not allowed/,
  },
  {
    name: 'a sub-path that is missing',
    data: { a: '{"k":{}}' },
    overrider: {
      fieldPath: '/data/a',
      json: [
        { subPath: '/k/v', operator: 'add', value: 1 },
        { subPath: '/k/w', operator: 'replace', value: 1 },
      ],
    },
    overrider_: 'fieldOverrider[0].json[1]',
    message: /missing key/,
  },
  // evanphx/json-patch reads a document as an array only when its text starts with "[", else as an object.
  {
    name: 'a JSON array after a line break',
    data: { a: '\n[1,2]' },
    overrider: { fieldPath: '/data/a', json: [{ subPath: '/0', operator: 'replace', value: 5 }] },
    overrider_: 'fieldOverrider[0]',
    message: /only when its first character is "\["/,
  },
  {
    name: 'a JSON document that is a number',
    data: { a: '5' },
    overrider: { fieldPath: '/data/a', json: [{ subPath: '', operator: 'replace', value: { x: 1 } }] },
    overrider_: 'fieldOverrider[0]',
    message: /an object or an array, and the document is a number/,
  },
  {
    name: 'a YAML document that is a string',
    data: { a: 'hello\n' },
    overrider: { fieldPath: '/data/a', yaml: [{ subPath: '', operator: 'replace', value: { x: 1 } }] },
    overrider_: 'fieldOverrider[0]',
    message: /the document is a string/,
  },
  {
    name: 'an add of a string at the whole document',
    data: { a: '{}' },
    overrider: {
      fieldPath: '/data/a',
      json: [
        { subPath: '/x', operator: 'add', value: 1 },
        { subPath: '', operator: 'add', value: 'x' },
      ],
    },
    overrider_: 'fieldOverrider[0].json[1]',
    message: /needs an object or an array/,
  },
  {
    name: 'an add of a number at the whole YAML document, after an operation that fails first',
    data: { a: 'k: 1\n' },
    overrider: {
      fieldPath: '/data/a',
      yaml: [
        { subPath: '/missing/x', operator: 'add', value: 1 },
        { subPath: '', operator: 'add', value: 2 },
      ],
    },
    overrider_: 'fieldOverrider[0].yaml[0]',
    message: /missing path/,
  },
];

for (const f of failures) {
  test(`fails on ${f.name}, naming the overrider`, () => {
    const step = applyFieldOverriders(configMap(f.data), [f.overrider]);
    assert.is(step.ok, false);
    if (step.ok) return;
    assert.is(step.overrider, f.overrider_);
    assert.match(step.message, f.message);
  });
}

test('the input manifest is not mutated', () => {
  const manifest = configMap({ 'a.json': '{"n":1}' });
  applyFieldOverriders(manifest, [
    { fieldPath: '/data/a.json', json: [{ subPath: '/n', operator: 'replace', value: 2 }] },
  ]);
  assert.equal(manifest.data, { 'a.json': '{"n":1}' });
});

test('a string a pull request controls cannot make the yaml rewrite exhaust the stack or memory: that override fails alone', () => {
  const replaceKey: FieldOverrider = {
    fieldPath: '/data/conf',
    yaml: [{ subPath: '/key', operator: 'replace', value: 2 }],
  };
  const failure = (conf: string) => {
    const step = applyFieldOverriders(configMap({ conf }), [replaceKey]);
    assert.is(step.ok, false);
    return step.ok ? '' : step.message;
  };
  const nest = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
  // Written nesting, refused from the text before any reader recurses.
  assert.match(failure(`key: 1\na: ${nest(900, '1')}\n`), 'nests 900 levels deep, over Flotilla');
  // Each anchor 200 deep, each alias one more 200: written shallow, read 800 deep.
  const chained = `key: 1\na0: &a0 ${nest(200, '1')}\na1: &a1 ${nest(200, '*a0')}\na2: &a2 ${nest(200, '*a1')}\na3: &a3 ${nest(200, '*a2')}\n`;
  assert.match(failure(chained), "its aliases nest the document over Flotilla's limit of 256 levels");
  // A few kilobytes of aliases that would copy megabytes.
  const wide = `key: 1\na: &a [${Array.from({ length: 2000 }, (_, i) => `s${i}`).join(', ')}]\nb: [${Array(500).fill('*a').join(', ')}]\n`;
  assert.match(failure(wide), 'aliases that copy more than 1048576 bytes');
});

test.run();
