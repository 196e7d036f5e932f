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

test.run();
