import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// Request bodies that are not JSON, answered in the words of kube-apiserver's decoders (Go's encoding/json).
const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;
let member: Member;

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const unrecognized = (detail: string) =>
  `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: ${detail}`;

test('a create body that is not JSON is refused with Go json error and the start of the body', async () => {
  for (const [body, message] of [
    ['{"a":', unrecognized('unexpected end of JSON input ({"a":)')],
    [
      '{"metadata":{"name":"x"},"data":{"a":"1",}}',
      unrecognized(
        `invalid character '}' looking for beginning of object key string ({"metadata":{"name":"x"},"data ...)`,
      ),
    ],
    ['[1 2]', unrecognized("invalid character '2' after array element (5b3120325d)")],
    ['{"a":tx}', unrecognized("invalid character 'x' in literal true (expecting 'r') ({\"a\":tx})")],
    ['{"a":1} x', unrecognized('invalid character \'x\' after top-level value ({"a":1} x)')],
    ['{"a":-}', unrecognized('invalid character \'}\' in numeric literal ({"a":-})')],
  ]) {
    const res = await api(member, 'POST', CONFIGMAPS, { body });
    assert.is(res.status, 400, body);
    assert.is(res.body.reason, 'BadRequest');
    assert.is(res.body.message, message);
  }
});

test('an update body that is not JSON is refused as the create handler refuses it', async () => {
  const created = await api(member, 'POST', CONFIGMAPS, { body: { metadata: { name: 'upd' } } });
  assert.is(created.status, 201);
  const res = await api(member, 'PUT', `${CONFIGMAPS}/upd`, { body: '{"metadata":{"name":"upd"},"data":{"a":"1}}' });
  assert.is(res.status, 400);
  assert.is(res.body.message, unrecognized('unexpected end of JSON input ({"metadata":{"name":"upd"},"da ...)'));
});

test('a patch body that is not JSON is refused by the decoder its type and field validation pick', async () => {
  const created = await api(member, 'POST', CONFIGMAPS, { body: { metadata: { name: 'pat' } } });
  assert.is(created.status, 201);
  const cases: [string, string, string][] = [
    [
      'application/json-patch+json',
      'Strict',
      "error decoding patch: invalid character ']' looking for beginning of value",
    ],
    ['application/json-patch+json', 'Ignore', "invalid character ']' looking for beginning of value"],
    [
      'application/merge-patch+json',
      'Warn',
      "error decoding patch: invalid character ']' looking for beginning of value",
    ],
    ['application/merge-patch+json', 'Ignore', 'Invalid JSON Patch'],
    ['application/strategic-merge-patch+json', 'Strict', "invalid character ']' looking for beginning of value"],
  ];
  for (const [contentType, validation, message] of cases) {
    const res = await api(member, 'PATCH', `${CONFIGMAPS}/pat?fieldValidation=${validation}`, {
      body: '[{"op":"add","path":"/data","value":]',
      contentType,
    });
    assert.is(res.status, 400, contentType);
    assert.is(res.body.message, message, `${contentType} ${validation}`);
  }
});

test('kubectl create --raw with a cut-off body shows the API server message', async () => {
  const result = await kubectl(['create', '--raw', CONFIGMAPS, '-f', '-'], '{"apiVersion":"v1","kind":"ConfigMap",');
  assert.is(result.code, 1);
  assert.match(
    result.stderr,
    'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)',
  );
});

const DEPLOYMENT = (extra: string) =>
  `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dup","labels":{"a":"1","a":"2"}},"spec":{"paused":false,"bogus":1,"paused":true,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx","name":"c"}]}}}${extra}}`;

test('keys written twice are strict decoding errors in document order among unknown fields, named by field path', async () => {
  const strict = await api(member, 'POST', '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict', {
    body: DEPLOYMENT(''),
  });
  assert.is(strict.status, 400);
  assert.is(
    strict.body.message,
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.labels.a", unknown field "spec.bogus", duplicate field "spec.paused", duplicate field "spec.template.spec.containers[0].name"',
  );
  const warned = await api(member, 'POST', '/apis/apps/v1/namespaces/default/deployments?fieldValidation=Warn', {
    body: DEPLOYMENT(''),
  });
  assert.is(warned.status, 201);
  assert.equal(warned.headers.warning, [
    '299 - "duplicate field \\"metadata.labels.a\\""',
    '299 - "unknown field \\"spec.bogus\\""',
    '299 - "duplicate field \\"spec.paused\\""',
    '299 - "duplicate field \\"spec.template.spec.containers[0].name\\""',
  ]);
  // The last value written is the one kept, as Go's decoder keeps it.
  assert.is(warned.body.spec.paused, true);
  assert.equal(warned.body.metadata.labels, { a: '2' });
  const ignored = await api(member, 'PUT', '/apis/apps/v1/namespaces/default/deployments/dup?fieldValidation=Ignore', {
    body: DEPLOYMENT(''),
  });
  assert.is(ignored.status, 200);
  assert.is(ignored.headers.warning, undefined);
});

test('a JSON or merge patch with keys written twice names them as the patch handler does', async () => {
  const created = await api(member, 'POST', CONFIGMAPS, { body: { metadata: { name: 'dup-patch' } } });
  assert.is(created.status, 201);
  const jsonPatch = await api(member, 'PATCH', `${CONFIGMAPS}/dup-patch?fieldValidation=Strict`, {
    body: '[{"op":"add","path":"/data","value":{"a":"1","a":"2"}},{"op":"add","path":"/data/b","Value":"x","path":"/data/c","value":"3"}]',
    contentType: 'application/json-patch+json',
  });
  assert.is(jsonPatch.status, 422);
  assert.ok(
    jsonPatch.body.message.endsWith(
      ': strict decoding error: json patch duplicate field "[0].value.a", json patch unknown field "[1].Value", json patch duplicate field "[1].path"',
    ),
    jsonPatch.body.message,
  );
  const mergePatch = await api(member, 'PATCH', `${CONFIGMAPS}/dup-patch?fieldValidation=Warn`, {
    body: '{"data":{"a":"1","a":"2"}}',
    contentType: 'application/merge-patch+json',
  });
  assert.is(mergePatch.status, 200);
  assert.equal(mergePatch.headers.warning, '299 - "duplicate field \\"data.a\\""');
  assert.equal(mergePatch.body.data, { a: '2' });
});

test('a strategic merge patch refused under Strict is a 422 showing the patch map, as its patcher answers', async () => {
  const created = await api(member, 'POST', CONFIGMAPS, { body: { metadata: { name: 'smp' } } });
  assert.is(created.status, 201);
  const res = await api(member, 'PATCH', `${CONFIGMAPS}/smp?fieldValidation=Strict`, {
    body: '{"data":{"b":"x y","a":"1","a":"2"},"bogus":[1.5,1234567.5,null,true]}',
    contentType: 'application/strategic-merge-patch+json',
  });
  assert.is(res.status, 422);
  assert.is(res.body.reason, 'Invalid');
  assert.is(
    res.body.message,
    ' "" is invalid: patch: Invalid value: "map[bogus:[1.5 1.2345675e+06 <nil> true] data:map[a:2 b:x y]]": strict decoding error: duplicate field "data.a", unknown field "bogus"',
  );
});

test('kubectl replace --raw with a key written twice is refused under strict field validation', async () => {
  const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"raw-dup"},"data":{"k":"1","k":"2"}}';
  assert.is((await kubectl(['create', '--raw', CONFIGMAPS, '-f', '-'], body)).code, 0);
  const replaced = await kubectl(['replace', '--raw', `${CONFIGMAPS}/raw-dup?fieldValidation=Strict`, '-f', '-'], body);
  assert.is(replaced.code, 1);
  assert.match(
    replaced.stderr,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.k"',
  );
});

test.run();
