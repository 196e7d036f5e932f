import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commitEvents } from '../../src/views/commitEvents.ts';
import { describeUnstructured, smartLabelFor } from '../../src/views/describeUnstructured.ts';

test("field labels as kubectl's smartLabelFor makes them: camel case split, acronyms upper-cased, others as they are", () => {
  assert.is(smartLabelFor('apiVersion'), 'API Version');
  assert.is(smartLabelFor('replicaDivisionPreference'), 'Replica Division Preference');
  assert.is(smartLabelFor('uid'), 'UID');
  assert.is(smartLabelFor('targetURLs'), 'Target UR Ls');
  assert.is(smartLabelFor('HTTPServer'), 'HTTP Server');
  assert.is(smartLabelFor('max-surge'), 'Max - Surge');
  assert.is(smartLabelFor('app.kubernetes.io/name'), 'app.kubernetes.io/name');
  assert.is(smartLabelFor('port80'), 'port80');
});

test('the header, then every other field sorted, lists of scalars one per line, null as Go prints it', () => {
  assert.is(
    describeUnstructured({
      kind: 'Thing',
      apiVersion: 'example.io/v1',
      metadata: { name: 'a', labels: { z: '1', b: '2' }, annotations: {} },
      spec: { zones: ['z1', 'z2'], paused: false, note: null },
    }),
    `Name:         a
Namespace:    
Labels:       b=2
              z=1
Annotations:  <none>
API Version:  example.io/v1
Kind:         Thing
Metadata:
Spec:
  Note:    <nil>
  Paused:  false
  Zones:
    z1
    z2
`,
  );
});

test("annotations as kubectl prints them: a long or multi-line value under its key, cut at kubectl's line length; last-applied left out", () => {
  const long = `${'a'.repeat(130)},${'b'.repeat(20)}`;
  const text = describeUnstructured({
    metadata: {
      name: 'a',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Thing"}\n',
        'example.io/long': long,
        'example.io/lines': 'first\nsecond\n',
        'example.io/short': 'x',
        'example.io/fits': 'c'.repeat(140 - 'example.io/fits'.length - 2),
      },
    },
  });
  assert.is(
    text.split('Metadata:')[0],
    `Name:         a
Namespace:    
Labels:       <none>
Annotations:  example.io/fits: ${'c'.repeat(123)}
              example.io/lines:
                first
                second
              example.io/long:
                ${long.slice(0, 138)}...
              example.io/short: x
`,
  );
  const onlyLastApplied = describeUnstructured({
    metadata: { name: 'a', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
  });
  assert.match(onlyLastApplied, /\nAnnotations:  <none>\n/);
});

test("Events: with none, kubectl's `Events:\\t<none>` lines up with the fields before it; with some, a table of its own under dashes", () => {
  const object = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'a' }, spec: { replicas: 1 } };
  assert.ok(
    describeUnstructured(object, commitEvents([], new Date(0))).endsWith(
      'Spec:\n  Replicas:  1\nEvents:      <none>\n',
    ),
  );
  const at = (seconds: number) => ({ name: 'Ada', email: 'a@example.com', timestamp: seconds, timezoneOffset: 0 });
  const commit = {
    oid: 'a'.repeat(40),
    message: 'Add gadgets\n',
    tree: '',
    parents: [],
    author: at(0),
    committer: at(0),
  };
  assert.ok(
    describeUnstructured(object, commitEvents([commit], new Date(3_600_000))).endsWith(
      `Spec:
  Replicas:  1
Events:
  Type    Reason     Age   From  Message
  ----    ------     ----  ----  -------
  Normal  Committed  60m   Ada   Add gadgets (aaaaaaaaaaaa)
`,
    ),
  );
});

test.run();
