import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness } from './helpers/memberHarness.ts';
import { parseFieldSelector } from '../../src/members/selectors/parseFieldSelector.ts';

// Field selectors through the real kubectl 1.32, read as kube-apiserver reads them: apimachinery's grammar, each
// kind's field label conversion (which labels it takes, renames or refuses, in its own words), and the fields its
// registry strategy projects, zero values included.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

const names = (out: string) => out.split('\n').filter(Boolean).sort();

test.before(async () => {
  const member = await harness.start({ name: 'fields' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test('terms split on unescaped commas, values unescape, and an unreadable term quotes the whole selector', () => {
  assert.equal(parseFieldSelector('status.phase!=Failed,metadata.name==a\\,b'), [
    { path: 'metadata.name', op: '=', value: 'a,b' },
    { path: 'status.phase', op: '!=', value: 'Failed' },
  ]);
  assert.equal(parseFieldSelector('metadata.name = a'), [{ path: 'metadata.name ', op: '=', value: ' a' }]);
  const refusal = (text: string) => {
    try {
      parseFieldSelector(text);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  assert.is(refusal('metadata.name=a,foo'), "invalid selector: 'metadata.name=a,foo'; can't understand 'foo'");
  assert.is(refusal('metadata.name=a=b'), 'invalid field selector: unescaped character in value: =');
  assert.is(refusal('metadata.name=a\\b'), 'invalid field selector: invalid escape sequence: \\b');
});

test('kubectl get --field-selector: an escaped comma is part of the value, an unescaped = is refused', async () => {
  const escaped = await kubectl(['get', 'configmaps', '--field-selector', 'metadata.name=a\\,b', '-o', 'name']);
  assert.is(escaped.code, 0, escaped.stderr);
  const unescaped = await kubectl(['get', 'configmaps', '--field-selector', 'metadata.name=a=b']);
  assert.is(unescaped.code, 1);
  assert.match(unescaped.stderr, 'invalid field selector: unescaped character in value: =');
});

test('nodes and namespaces take no metadata.namespace; nodes select by spec.unschedulable, false when left out', async () => {
  for (const kind of ['nodes', 'namespaces']) {
    const res = await kubectl(['get', kind, '--field-selector', 'metadata.namespace=default']);
    assert.is(res.code, 1, kind);
    assert.match(res.stderr, 'field label not supported: metadata.namespace');
  }
  const schedulable = await kubectl(['get', 'nodes', '--field-selector', 'spec.unschedulable=false', '-o', 'name']);
  assert.equal(names(schedulable.stdout), ['node/fields-node-1', 'node/fields-node-2', 'node/fields-node-3']);
  const active = await kubectl(['get', 'namespaces', '--field-selector', 'status.phase=Active,metadata.name=default']);
  assert.match(active.stdout, /^default\s+Active/m);
});

test('pods select by spec.host (the old name of spec.nodeName) and by spec.hostNetwork, false when left out', async () => {
  const pod = (name: string, node: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] },
    });
  for (const [name, node] of [
    ['on-one', 'fields-node-1'],
    ['on-two', 'fields-node-2'],
  ] as const)
    assert.is((await kubectl(['create', '-f', '-'], pod(name, node))).code, 0);
  const byHost = await kubectl(['get', 'pods', '--field-selector', 'spec.host=fields-node-2', '-o', 'name']);
  assert.equal(names(byHost.stdout), ['pod/on-two']);
  const notHostNetwork = await kubectl(['get', 'pods', '--field-selector', 'spec.hostNetwork=false', '-o', 'name']);
  assert.equal(names(notHostNetwork.stdout), ['pod/on-one', 'pod/on-two']);
});

test("Jobs select by status.successful, read from status.succeeded and 0 before any pod succeeds, and refuse other labels in the Job's words", async () => {
  const job = JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'held', namespace: 'default' },
    spec: {
      suspend: true,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });
  assert.is((await kubectl(['create', '-f', '-'], job)).code, 0);
  const none = await kubectl(['get', 'jobs', '--field-selector', 'status.successful=0', '-o', 'name']);
  assert.equal(names(none.stdout), ['job.batch/held']);
  const refused = await kubectl(['get', 'jobs', '--field-selector', 'status.succeeded=0']);
  assert.is(refused.code, 1);
  assert.match(refused.stderr, 'field label "status.succeeded" not supported for Job');
});

test('apps kinds take only the metadata labels: a ReplicaSet is not selected by status.replicas', async () => {
  const res = await kubectl(['get', 'replicasets', '--field-selector', 'status.replicas=1']);
  assert.is(res.code, 1);
  assert.match(
    res.stderr,
    '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
  );
});

test("a custom resource selects by its version's selectableFields; a cluster-scoped one takes no metadata.namespace", async () => {
  const crd = JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'paints.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'paints', singular: 'paint', kind: 'Paint' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.coats' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { color: { type: 'string' }, coats: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  });
  assert.is((await kubectl(['apply', '--server-side', '-f', '-'], crd)).code, 0);
  assert.is(
    (await kubectl(['wait', '--for=condition=Established', 'crd/paints.example.com', '--timeout=10s'])).code,
    0,
  );
  const paint = (name: string, color: string, coats: number) =>
    JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Paint', metadata: { name }, spec: { color, coats } });
  for (const [name, color, coats] of [
    ['sky', 'blue', 2],
    ['sea', 'blue', 3],
    ['sun', 'yellow', 2],
  ] as const)
    assert.is((await kubectl(['create', '-f', '-'], paint(name, color, coats))).code, 0);
  const blue = await kubectl(['get', 'paints', '--field-selector', 'spec.color=blue,spec.coats!=3', '-o', 'name']);
  assert.equal(names(blue.stdout), ['paint.example.com/sky']);
  for (const [selector, label] of [
    ['spec.size=1', 'spec.size'],
    ['metadata.namespace=default', 'metadata.namespace'],
  ] as const) {
    const res = await kubectl(['get', 'paints', '--field-selector', selector]);
    assert.is(res.code, 1, selector);
    assert.match(res.stderr, `field label not supported: ${label}`);
  }
});

test.run();
