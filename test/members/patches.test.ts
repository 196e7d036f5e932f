import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonPatch, jsonPatchDecodeError } from '../../src/members/patches/jsonPatch.ts';
import { mergePatch } from '../../src/members/patches/mergePatch.ts';
import { objectShape, type ValueShape } from '../../src/api/listSemantics.ts';
import { strategicMergePatch } from '../../src/members/patches/strategicMergePatch.ts';
import { matchesLabelRequirements, parseLabelSelector } from '../../src/members/selectors/parseLabelSelector.ts';
import { matchesFieldRequirements, parseFieldSelector } from '../../src/members/selectors/parseFieldSelector.ts';
import { humanDuration } from '../../src/time/humanDuration.ts';

const POD = objectShape('v1', 'Pod');
const POD_SPEC: ValueShape = { of: 'type', type: 'V1PodSpec' };
const inPodSpec = (target: unknown, patch: unknown) => strategicMergePatch(target, patch, POD_SPEC);
const inMeta = (target: unknown, patch: unknown) =>
  strategicMergePatch(target, patch, { of: 'type', type: 'V1ObjectMeta' });

const pod = () => ({
  metadata: { name: 'p', labels: { a: '1', b: '2' }, finalizers: ['x'] },
  spec: {
    containers: [
      { name: 'web', image: 'nginx', env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 'envoy' },
    ],
    args: ['a', 'b'],
  },
});

test('merge patch: null deletes, maps merge, lists replace', () => {
  assert.equal(mergePatch(pod(), { metadata: { labels: { a: null, c: '3' } }, spec: { args: ['z'] } }), {
    metadata: { name: 'p', labels: { b: '2', c: '3' }, finalizers: ['x'] },
    spec: { containers: pod().spec.containers, args: ['z'] },
  });
});

test('json patch: add, replace, remove, test', () => {
  const out = jsonPatch(pod(), [
    { op: 'test', path: '/metadata/name', value: 'p' },
    { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' },
    { op: 'add', path: '/metadata/labels/c', value: '3' },
    { op: 'remove', path: '/spec/args/0' },
  ]) as ReturnType<typeof pod>;
  assert.is(out.spec.containers[0]!.image, 'nginx:2');
  assert.equal(out.metadata.labels, { a: '1', b: '2', c: '3' });
  assert.equal(out.spec.args, ['b']);
  // kube-apiserver answers any operation that does not apply with its generic 422, the library's words dropped.
  for (const ops of [
    [{ op: 'test', path: '/metadata/name', value: 'q' }],
    [{ op: 'remove', path: '/metadata/labels/nope' }],
    [{ op: 'add', value: 'no path' }],
  ])
    assert.throws(
      () => jsonPatch(pod(), ops),
      (e: { code?: number; reason?: string; message?: string }) =>
        e.code === 422 &&
        e.reason === 'Invalid' &&
        e.message === 'the server rejected our request due to an error in our request',
    );
});

test('strategic merge patch: containers merge by name, $patch delete, $setElementOrder, primitive list delete', () => {
  const out = strategicMergePatch(
    pod(),
    {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] },
      spec: {
        '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }, { name: 'new' }],
        containers: [
          { name: 'web', image: 'nginx:2', env: [{ name: 'B', value: '2' }] },
          { name: 'new', image: 'busybox' },
        ],
      },
    },
    POD,
  ) as any;
  assert.equal(
    out.spec.containers.map((c: any) => c.name),
    ['side', 'web', 'new'],
  );
  assert.is(out.spec.containers[1].image, 'nginx:2');
  // A name the patch adds comes before the live ones it does not name (apimachinery's mergeSortedSlice).
  assert.equal(out.spec.containers[1].env, [
    { name: 'B', value: '2' },
    { name: 'A', value: '1' },
  ]);
  assert.equal(out.metadata.finalizers, []);
  const deleted = strategicMergePatch(
    pod(),
    { spec: { containers: [{ name: 'side', $patch: 'delete' }] } },
    POD,
  ) as any;
  assert.equal(
    deleted.spec.containers.map((c: any) => c.name),
    ['web'],
  );
  const replaced = strategicMergePatch(pod(), { spec: { $patch: 'replace', args: ['only'] } }, POD) as any;
  assert.equal(replaced.spec, { args: ['only'] });
});

test("strategic merge patch orders merged lists as apimachinery does: the patch's order, new items first, $setElementOrder alone", () => {
  const named = (...n: (string | Record<string, unknown>)[]) => n.map((x) => (typeof x === 'string' ? { name: x } : x));
  const order = (value: unknown) =>
    ((value as { containers: { name: string; other?: string }[] }).containers ?? []).map(
      (c) => c.name + (c.other ? `:${c.other}` : ''),
    );
  // Cases of apimachinery's strategicpatch/patch_test.go.
  assert.equal(order(inPodSpec({ containers: named('1', '2', '3') }, { containers: named('3', '1', '2') })), [
    '3',
    '1',
    '2',
  ]);
  assert.equal(order(inPodSpec({ containers: named('1', '2', '3') }, { containers: named('3', '1') })), [
    '2',
    '3',
    '1',
  ]);
  assert.equal(
    order(
      inPodSpec(
        {
          containers: [
            { name: '1', other: 'a' },
            { name: '2', other: 'b' },
          ],
        },
        { '$setElementOrder/containers': named('4', '1', '2', '3'), containers: named('4', '3') },
      ),
    ),
    ['4', '1:a', '2:b', '3'],
  );
  assert.equal(
    order(
      inPodSpec(
        { containers: [{ name: '1' }, { name: '2', other: 'b' }, { name: '4', other: 'c' }] },
        {
          '$setElementOrder/containers': named('2', '3'),
          containers: [{ name: '3' }, { name: '1', $patch: 'delete' }],
        },
      ),
    ),
    ['2:b', '4:c', '3'],
  );
  assert.equal(
    order(
      inPodSpec(
        { containers: named('1', '3') },
        { '$setElementOrder/containers': named('3', '2', '1'), containers: named('3', '1') },
      ),
    ),
    ['3', '1'],
  );
  // kubectl apply that only reorders sends the order without the list.
  assert.equal(order(inPodSpec({ containers: named('2', '1') }, { '$setElementOrder/containers': named('1', '2') })), [
    '1',
    '2',
  ]);
  assert.equal(
    (inMeta({ finalizers: ['1', '3'] }, { '$setElementOrder/finalizers': ['3', '2', '1'] }) as any).finalizers,
    ['3', '1'],
  );
  assert.equal((inMeta({ finalizers: ['x/a'] }, { finalizers: ['x/b'] }) as any).finalizers, ['x/b', 'x/a']);
  assert.equal(
    (
      inMeta(
        { finalizers: ['a', 'b'] },
        { '$setElementOrder/finalizers': ['a'], '$deleteFromPrimitiveList/finalizers': ['b'] },
      ) as any
    ).finalizers,
    ['a'],
  );
});

test('label selector strings parse and match like the API server', () => {
  const labels = { app: 'web', tier: 'front' };
  const cases: [string, boolean][] = [
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app in (web,db)', true],
    ['tier notin (front)', false],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['app=web,tier=back', false],
    ['', true],
  ];
  for (const [text, expected] of cases)
    assert.is(matchesLabelRequirements(parseLabelSelector(text), labels), expected, text);
});

test('field selectors compare dotted paths', () => {
  const obj = { metadata: { name: 'a', namespace: 'default' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } };
  assert.ok(matchesFieldRequirements(parseFieldSelector('metadata.name=a,status.phase=Running'), obj));
  assert.not.ok(matchesFieldRequirements(parseFieldSelector('spec.nodeName!=n1'), obj));
});

test("AGE column uses kubectl's human duration", () => {
  assert.is(humanDuration(45_000), '45s');
  assert.is(humanDuration(330_000), '5m30s');
  assert.is(humanDuration(95 * 60_000), '95m');
  assert.is(humanDuration(200 * 60_000), '3h20m');
  assert.is(humanDuration(4 * 86_400_000), '4d');
});

test("json patch bodies that are not operations get Go's decoding errors: the handler's under Warn or Strict, DecodePatch's under Ignore", () => {
  const cases: [unknown, string | undefined, string | undefined][] = [
    [
      { op: 'add' },
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    ],
    [
      [{ op: 'add', path: '/a' }, true],
      'error decoding patch: json: cannot unmarshal bool into Go value of type handlers.jsonPatchOp',
      'json: cannot unmarshal bool into Go value of type jsonpatch.Operation',
    ],
    [
      [{ op: 'move', path: '/a', from: ['/b'] }],
      'error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.from of type string',
      undefined,
    ],
    [undefined, 'error decoding patch: unexpected end of JSON input', 'unexpected end of JSON input'],
    [null, undefined, undefined],
    [[null, { op: 'remove', path: '/a', value: 1 }], undefined, undefined],
  ];
  for (const [body, strict, ignore] of cases) {
    assert.is(jsonPatchDecodeError(body, false), strict, JSON.stringify(body));
    assert.is(jsonPatchDecodeError(body, true), ignore, JSON.stringify(body));
  }
  assert.throws(
    () => jsonPatch({ a: 1 }, [{ op: 'append', path: '/a', value: 2 }]),
    (e: { code?: number }) => e.code === 422,
  );
  assert.equal(jsonPatch({ a: 1 }, null), { a: 1 });
});

test.run();
