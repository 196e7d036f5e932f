import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonPatch } from '../../src/members/patches/jsonPatch.ts';
import { mergePatch } from '../../src/members/patches/mergePatch.ts';
import { strategicMergePatch } from '../../src/members/patches/strategicMergePatch.ts';
import { matchesLabelRequirements, parseLabelSelector } from '../../src/members/selectors/parseLabelSelector.ts';
import { matchesFieldRequirements, parseFieldSelector } from '../../src/members/selectors/parseFieldSelector.ts';
import { humanDuration } from '../../src/time/humanDuration.ts';

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
  assert.throws(() => jsonPatch(pod(), [{ op: 'test', path: '/metadata/name', value: 'q' }]), /test failed/);
});

test('strategic merge patch: containers merge by name, $patch delete, $setElementOrder, primitive list delete', () => {
  const out = strategicMergePatch(pod(), {
    metadata: { '$deleteFromPrimitiveList/finalizers': ['x'] },
    spec: {
      '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }, { name: 'new' }],
      containers: [
        { name: 'web', image: 'nginx:2', env: [{ name: 'B', value: '2' }] },
        { name: 'new', image: 'busybox' },
      ],
    },
  }) as any;
  assert.equal(
    out.spec.containers.map((c: any) => c.name),
    ['side', 'web', 'new'],
  );
  assert.is(out.spec.containers[1].image, 'nginx:2');
  assert.equal(out.spec.containers[1].env, [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ]);
  assert.equal(out.metadata.finalizers, []);
  const deleted = strategicMergePatch(pod(), { spec: { containers: [{ name: 'side', $patch: 'delete' }] } }) as any;
  assert.equal(
    deleted.spec.containers.map((c: any) => c.name),
    ['web'],
  );
  const replaced = strategicMergePatch(pod(), { spec: { $patch: 'replace', args: ['only'] } }) as any;
  assert.equal(replaced.spec, { args: ['only'] });
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

test.run();
