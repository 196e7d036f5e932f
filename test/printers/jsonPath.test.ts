// client-go's JSONPath, with the cases of its own tests (util/jsonpath/jsonpath_test.go and parser_test.go). Go
// structs become objects; encoding/json writes a struct's fields in declaration order but a map's keys sorted, and
// unstructured objects are maps, so those expectations are written with sorted keys.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { executeJsonPath, JsonPathExecutionError, JsonPathSyntaxError } from '../../src/printers/jsonPath.ts';

type Case = [name: string, template: string, input: unknown, expect: string | Error];
const FAILS = new Error('fails');

function check(cases: readonly Case[], allowMissingKeys = false): void {
  for (const [name, template, input, expect] of cases) {
    let out: string;
    try {
      out = executeJsonPath(template, input, { allowMissingKeys });
    } catch (err) {
      if (!(err instanceof JsonPathExecutionError || err instanceof JsonPathSyntaxError)) throw err;
      if (expect === FAILS) continue;
      assert.is((err as Error).message, expect instanceof Error ? expect.message : `no error: ${expect}`, name);
      continue;
    }
    assert.is(out, expect instanceof Error ? `error: ${expect.message}` : expect, name);
  }
}

const TYPES = {
  bools: [true, false, true, false],
  integers: [1, 2, 3, 4],
  floats: [1.0, 2.2, 3.3, 4.0],
  strings: ['one', 'two', 'three', 'four'],
  interfaces: [true, 'one', 1, 1.1],
  maps: [
    { name: 'one', value: 1 },
    { name: 'two', value: 2.02 },
    { name: 'three', value: 3.03 },
    { name: 'four', value: 4.04 },
  ],
};

test('slices of every JSON type: whole, indexed, sliced and stepped', () => {
  check([
    ['boolSlice', '{ .bools }', TYPES, '[true,false,true,false]'],
    ['boolSliceIndex', '{ .bools[0] }', TYPES, 'true'],
    ['boolSliceIndex', '{ .bools[-1] }', TYPES, 'false'],
    ['boolSubSlice', '{ .bools[0:2] }', TYPES, 'true false'],
    ['boolSubSliceFirst2', '{ .bools[:2] }', TYPES, 'true false'],
    ['boolSubSliceStep2', '{ .bools[:4:2] }', TYPES, 'true true'],
    ['integerSlice', '{ .integers }', TYPES, '[1,2,3,4]'],
    ['integerSliceIndexReverse', '{ .integers[-2] }', TYPES, '3'],
    ['integerSubSliceStep2', '{ .integers[:4:2] }', TYPES, '1 3'],
    ['floatSlice', '{ .floats }', TYPES, '[1,2.2,3.3,4]'],
    ['floatSliceIndex', '{ .floats[0] }', TYPES, '1'],
    ['floatSubSliceFirst2', '{ .floats[0:2] }', TYPES, '1 2.2'],
    ['floatSubSliceStep2', '{ .floats[:4:2] }', TYPES, '1 3.3'],
    ['stringSlice', '{ .strings }', TYPES, '["one","two","three","four"]'],
    ['stringSliceIndexReverse', '{ .strings[-2] }', TYPES, 'three'],
    ['stringSubSliceStep2', '{ .strings[:4:2] }', TYPES, 'one three'],
    ['interfaceSlice', '{ .interfaces }', TYPES, '[true,"one",1,1.1]'],
    ['interfaceSliceIndexReverse', '{ .interfaces[-2] }', TYPES, '1'],
    ['interfaceSubSliceFirst2', '{ .interfaces[0:2] }', TYPES, 'true one'],
    ['interfaceSubSliceStep2', '{ .interfaces[:4:2] }', TYPES, 'true 1'],
    [
      'mapSlice',
      '{ .maps }',
      TYPES,
      '[{"name":"one","value":1},{"name":"two","value":2.02},{"name":"three","value":3.03},{"name":"four","value":4.04}]',
    ],
    ['mapSliceIndex', '{ .maps[0] }', TYPES, '{"name":"one","value":1}'],
    ['mapSubSliceFirst2', '{ .maps[0:2] }', TYPES, '{"name":"one","value":1} {"name":"two","value":2.02}'],
    ['mapSubSliceStepOdd', '{ .maps[::2] }', TYPES, '{"name":"one","value":1} {"name":"three","value":3.03}'],
    ['mapSubSliceStepEven', '{ .maps[1::2] }', TYPES, '{"name":"two","value":2.02} {"name":"four","value":4.04}'],
  ]);
});

const STORE = {
  Book: [
    { Category: 'reference', Author: 'Nigel Rees', Title: 'Sayings of the Centurey', Price: 8.95 },
    { Category: 'fiction', Author: 'Evelyn Waugh', Title: 'Sword of Honour', Price: 12.99 },
    { Category: 'fiction', Author: 'Herman Melville', Title: 'Moby Dick', Price: 8.99 },
  ],
  Bicycle: [
    { Color: 'red', Price: 19.95, IsNew: true },
    { Color: 'green', Price: 20.01, IsNew: false },
  ],
  Name: 'jsonpath',
  Labels: { engieer: 10, 'web/html': 15, 'k8s-app': 20 },
  Employees: { jason: 'manager', dan: 'clerk' },
};

test('text, fields, unions, ranges, recursive descent and filters over a store', () => {
  check([
    ['plain', 'hello jsonpath', null, 'hello jsonpath'],
    ['recursive', '{..}', [1, 2, 3], '[1,2,3]'],
    ['filter', '{[?(@<5)]}', [2, 6, 3, 7], '2 3'],
    ['quote', '{"{"}', null, '{'],
    ['union', '{[1,3,4]}', [0, 1, 2, 3, 4], '1 3 4'],
    ['array', '{[0:2]}', ['Monday', 'Tudesday'], 'Monday Tudesday'],
    ['variable', 'hello {.Name}', STORE, 'hello jsonpath'],
    ['dict/', '{$.Labels.web/html}', STORE, '15'],
    ['dict/', '{$.Employees.jason}', STORE, 'manager'],
    ['dict-', '{.Labels.k8s-app}', STORE, '20'],
    ['nest', '{.Bicycle[*].Color}', STORE, 'red green'],
    ['allarray', '{.Book[*].Author}', STORE, 'Nigel Rees Evelyn Waugh Herman Melville'],
    ['allfields', '{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}', STORE, '{red 19.95 true} {green 20.01 false} '],
    ['recurfields', '{..Price}', STORE, '8.95 12.99 8.99 19.95 20.01'],
    ['recurdotfields', '{...Price}', STORE, '8.95 12.99 8.99 19.95 20.01'],
    ['superrecurfields', `{${'.'.repeat(60)}Price}`, STORE, FAILS],
    [
      'allstructsSlice',
      '{.Bicycle}',
      STORE,
      '[{"Color":"red","IsNew":true,"Price":19.95},{"Color":"green","IsNew":false,"Price":20.01}]',
    ],
    [
      'allstructs',
      '{range .Bicycle[*]}{ @ }{ " " }{end}',
      STORE,
      '{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} ',
    ],
    [
      'lastarray',
      '{.Book[-1:]}',
      STORE,
      '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    ],
    [
      'recurarray',
      '{..Book[2]}',
      STORE,
      '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    ],
    ['bool', '{.Bicycle[?(@.IsNew==true)]}', STORE, '{"Color":"red","IsNew":true,"Price":19.95}'],
  ]);
  check(
    [
      ['nonexistent field', '{.hello}', STORE, ''],
      ['nonexistent field 2', 'before-{.hello}after', STORE, 'before-after'],
    ],
    true,
  );
  check([
    ['invalid identifier', '{hello}', STORE, new Error('unrecognized identifier hello')],
    ['nonexistent field', '{.hello}', STORE, new Error('hello is not found')],
    ['invalid array', '{.Labels[0]}', STORE, new Error('map[string]interface {} is not array or slice')],
    ['invalid filter operator', '{.Book[?(@.Price<>10)]}', STORE, new Error('unrecognized filter operator <>')],
    ['redundant end', '{range .Labels.*}{@}{end}{end}', STORE, new Error('not in range, nothing to end')],
  ]);
});

test('a float is never compared with an int, as Go keeps their types apart', () => {
  check([
    ['float literal', '{.Book[?(@.Price<9.0)].Title}', STORE, 'Sayings of the Centurey Moby Dick'],
    ['int literal', '{.Book[?(@.Price<9)].Title}', STORE, new Error('incompatible types for comparison')],
    ['no && in filters', '{.Book[?(@.Price<9.0 && @.Category=="fiction")]}', STORE, FAILS],
  ]);
});

const POINTS = [
  { id: 'i1', x: 4, y: -5 },
  { id: 'i2', x: -2, y: -5, z: 1 },
  { id: 'i3', x: 8, y: 3 },
  { id: 'i4', x: -6, y: -1 },
  { id: 'i5', x: 0, y: 2, z: 1 },
  { id: 'i6', x: 1, y: 4 },
  { id: 'i7', x: null, y: 4 },
];

const NODES = {
  kind: 'List',
  items: [
    {
      kind: 'None',
      metadata: { name: '127.0.0.1', labels: { 'kubernetes.io/hostname': '127.0.0.1' } },
      status: { capacity: { cpu: '4' }, ready: true, addresses: [{ type: 'LegacyHostIP', address: '127.0.0.1' }] },
    },
    {
      kind: 'None',
      metadata: { name: '127.0.0.2', labels: { 'kubernetes.io/hostname': '127.0.0.2' } },
      status: {
        capacity: { cpu: '8' },
        ready: false,
        addresses: [
          { type: 'LegacyHostIP', address: '127.0.0.2' },
          { type: 'another', address: '127.0.0.3' },
        ],
      },
    },
  ],
  users: [
    { name: 'myself', user: {} },
    { name: 'e2e', user: { username: 'admin', password: 'secret' } },
  ],
};

test('JSON input: exists filters, bracket keys, null, and the Kubernetes cases', () => {
  check([
    ['exists filter', '{[?(@.z)].id}', POINTS, 'i2 i5'],
    ['bracket key', "{[0]['id']}", POINTS, 'i1'],
    ['nil value', "{[-1]['x']}", POINTS, 'null'],
    ['range item', '{range .items[*]}{.metadata.name}, {end}{.kind}', NODES, '127.0.0.1, 127.0.0.2, List'],
    ['range item with quote', '{range .items[*]}{.metadata.name}{"\\t"}{end}', NODES, '127.0.0.1\t127.0.0.2\t'],
    ['range addresss', '{.items[*].status.addresses[*].address}', NODES, '127.0.0.1 127.0.0.2 127.0.0.3'],
    [
      'double range',
      '{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}',
      NODES,
      '127.0.0.1, 127.0.0.2, 127.0.0.3, ',
    ],
    ['item name', '{.items[*].metadata.name}', NODES, '127.0.0.1 127.0.0.2'],
    [
      'union nodes capacity',
      "{.items[*]['metadata.name', 'status.capacity']}",
      NODES,
      '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}',
    ],
    [
      'range nodes capacity',
      '{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}',
      NODES,
      '[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] ',
    ],
    ['user password', '{.users[?(@.name=="e2e")].user.password}', NODES, 'secret'],
    ['hostname', '{.items[0].metadata.labels.kubernetes\\.io/hostname}', NODES, '127.0.0.1'],
    ['hostname filter', '{.items[?(@.metadata.labels.kubernetes\\.io/hostname=="127.0.0.1")].kind}', NODES, 'None'],
    ['bool item', '{.items[?(@..ready==true)].metadata.name}', NODES, '127.0.0.1'],
    ['recursive name', '{..name}', NODES, '127.0.0.1 127.0.0.2 myself e2e'],
  ]);
});

const PODS = {
  items: [
    {
      metadata: { name: 'pod1' },
      spec: {
        containers: [
          { name: 'foo', another: [{ name: 'value1' }, { name: 'value2' }] },
          { name: 'bar', another: [{ name: 'value1' }, { name: 'value2' }] },
        ],
      },
    },
    {
      metadata: { name: 'pod2' },
      spec: { containers: [{ name: 'baz', another: [{ name: 'value1' }, { name: 'value2' }] }] },
    },
  ],
};

test('ranges: empty, nested, and side by side', () => {
  check(
    [
      ['empty range', '{range .items[*]}{.metadata.name}{end}', { items: [] }, ''],
      [
        'empty nested range',
        '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
        { items: [] },
        '',
      ],
    ],
    true,
  );
  check([
    [
      'nested range',
      '{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}',
      PODS,
      'pod1:foo,bar,+pod2:baz,+',
    ],
    [
      'nested range within a nested range',
      '{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}',
      PODS,
      'pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#',
    ],
    [
      'two nested ranges at the same level',
      '{range .items[*]}{.metadata.name}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\\n"}{end}',
      PODS,
      'pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n',
    ],
  ]);
});

const ANNOTATED = {
  kind: 'List',
  items: [
    { kind: 'Pod', metadata: { name: 'pod1', annotations: { color: 'blue' } } },
    { kind: 'Pod', metadata: { name: 'pod2' } },
    { kind: 'Pod', metadata: { name: 'pod3', annotations: { color: 'green' } } },
    { kind: 'Pod', metadata: { name: 'pod4', annotations: { color: 'blue' } } },
  ],
};

test('a filter over items some of which lack the field: matches with missing keys allowed, fails without', () => {
  const template = '{.items[?(@.metadata.annotations.color=="blue")].metadata.name}';
  check([['tolerate missing', template, ANNOTATED, 'pod1 pod4']], true);
  check([['error on missing', template, ANNOTATED, FAILS]]);
  const running = {
    kind: 'List',
    items: [
      ...['pod1', 'pod2', 'pod3'].map((name) => ({ kind: 'Pod', metadata: { name }, status: { phase: 'Running' } })),
      { resourceVersion: '' },
    ],
  };
  check(
    [
      [
        'range over a filter',
        '{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\\n"}{end}',
        running,
        'pod1 is Running\npod2 is Running\npod3 is Running\n',
      ],
    ],
    true,
  );
});

const CONTAINERS = (n: number) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  spec: { containers: Array.from({ length: n }, (_, i) => ({ image: 'radial/busyboxplus:curl', name: `fake${i}` })) },
});

test('negative indexes and steps', () => {
  const four = CONTAINERS(4);
  const six = CONTAINERS(6);
  check([
    ['[0]', '{.spec.containers[0].name}', four, 'fake0'],
    ['[0:0]', '{.spec.containers[0:0].name}', four, ''],
    ['[0:-1]', '{.spec.containers[0:-1].name}', four, 'fake0 fake1 fake2'],
    ['[-1:0]', '{.spec.containers[-1:0].name}', four, new Error('starting index 3 is greater than ending index 0')],
    ['[-1]', '{.spec.containers[-1].name}', four, 'fake3'],
    ['[-1:]', '{.spec.containers[-1:].name}', four, 'fake3'],
    ['[-2]', '{.spec.containers[-2].name}', four, 'fake2'],
    ['[-2:]', '{.spec.containers[-2:].name}', four, 'fake2 fake3'],
    ['[-4]', '{.spec.containers[-4].name}', four, 'fake0'],
    ['[-4:]', '{.spec.containers[-4:].name}', four, 'fake0 fake1 fake2 fake3'],
    ['[-5]', '{.spec.containers[-5].name}', four, new Error('array index out of bounds: index -1, length 4')],
    ['[5:5]', '{.spec.containers[5:5].name}', four, ''],
    ['[-5:-5]', '{.spec.containers[-5:-5].name}', four, ''],
    ['[3:1]', '{.spec.containers[3:1].name}', four, FAILS],
    ['[-1:-2]', '{.spec.containers[-1:-2].name}', four, FAILS],
    ['[0:]', '{.spec.containers[0:].name}', six, 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['[0:6:]', '{.spec.containers[0:6:].name}', six, 'fake0 fake1 fake2 fake3 fake4 fake5'],
    ['[0:6:0]', '{.spec.containers[0:6:0].name}', six, new Error('step must be > 0')],
    ['[0:6:-1]', '{.spec.containers[0:6:-1].name}', six, FAILS],
    ['[1:4:2]', '{.spec.containers[1:4:2].name}', six, 'fake1 fake3'],
    ['[1:4:4]', '{.spec.containers[1:4:4].name}', six, 'fake1'],
    ['[0:6:5]', '{.spec.containers[0:6:5].name}', six, 'fake0 fake5'],
  ]);
});

test("templates the parser refuses, in the parser's words", () => {
  const data = {};
  check(
    [
      ['unclosed action', '{.hello', new Error('unclosed action')],
      ['unrecognized character', '{*}', new Error("unrecognized character in action: U+002A '*'")],
      ['invalid number', '{+12.3.0}', new Error('cannot parse number +12.3.0')],
      ['unterminated array', '{[1}', new Error('unterminated array')],
      ['unterminated filter', '{[?(.price]}', new Error('unterminated filter')],
      ['invalid multiple recursive descent', '{........}', new Error('invalid multiple recursive descent')],
      ['malformat input', '{\\\\\\}', FAILS],
    ].map(([name, template, expect]) => [name, template, data, expect] as Case),
  );
  const quoted = { status: { nodeInfo: { osImage: '()' } }, test: '())(' };
  check([
    ['paired parentheses in quotes', '{[?(@.status.nodeInfo.osImage == "()")].test}', [quoted], '())('],
    ['parentheses in double quotes', '{[?(@.test == "())(")].test}', [quoted], '())('],
    ['filter suffix', '{[?(@.status.nodeInfo.osImage == "{[()]}")].test}', [quoted], ''],
    ['single containing escaped single', "{[?(@.x == '\\'')].y}", [{ x: "'", y: 'ok' }], 'ok'],
  ]);
});

test('-o jsonpath-as-json prints each result list as an indented JSON array', () => {
  assert.is(
    executeJsonPath('{.items[*].metadata.name}', ANNOTATED, { asJson: true }),
    '[\n    "pod1",\n    "pod2",\n    "pod3",\n    "pod4"\n]\n',
  );
  assert.is(executeJsonPath('{.nope}', ANNOTATED, { asJson: true, allowMissingKeys: true }), '[]\n');
});

test.run();
