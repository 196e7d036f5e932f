import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// Response bytes as kube-apiserver writes them: its JSON serializer is Go's json.Encoder (compact, a newline after
// each object, <, >, & and U+2028/2029 escaped), json.MarshalIndent for a pretty request, WriteRawJSON for /version
// and json.Marshal for kube-openapi's documents. Clients compare these bytes: the Python client's create_from_yaml
// reports a conflict with the body as it came.

const harness = new MemberHarness();
let member: Member;

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const KUBECTL_AGENT = { 'user-agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9' };
const TRICKY = '<b> & \u2028';
const TRICKY_GO = '\\u003cb\\u003e \\u0026 \\u2028';

test.before(async () => {
  member = await harness.start({ name: 'encoding' });
  const created = await api(member, 'POST', CONFIGMAPS, {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tricky' }, data: { text: TRICKY } },
  });
  assert.is(created.status, 201, created.text);
});

test.after(async () => {
  await harness.cleanup();
});

test("an object is json.Encoder's bytes: compact, HTML-safe escapes, ended by a newline", async () => {
  const read = await api(member, 'GET', `${CONFIGMAPS}/tricky`, { headers: KUBECTL_AGENT });
  assert.is(read.status, 200);
  assert.ok(read.text.endsWith('}\n'), JSON.stringify(read.text.slice(-10)));
  assert.is(read.text.split('\n').length, 2);
  assert.ok(read.text.includes(`"text":"${TRICKY_GO}"`), read.text);
  assert.is(read.body.data.text, TRICKY);
});

test('a Status is encoded like any object, so an error body also ends in a newline', async () => {
  const missing = await api(member, 'GET', `${CONFIGMAPS}/missing`, { headers: KUBECTL_AGENT });
  assert.is(missing.status, 404);
  assert.is(
    missing.text,
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","kind":"configmaps"},"code":404}\n',
  );
});

test('pretty=true, or a curl, wget or browser agent without a pretty parameter, gets indented JSON with no newline', async () => {
  const indented = (text: string) => text.startsWith('{\n  "') && text.endsWith('\n}');
  const asked = await api(member, 'GET', `${CONFIGMAPS}/tricky?pretty=true`, { headers: KUBECTL_AGENT });
  assert.ok(indented(asked.text), asked.text);
  assert.ok(asked.text.includes(`"text": "${TRICKY_GO}"`), asked.text);
  for (const agent of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)']) {
    const byAgent = await api(member, 'GET', `${CONFIGMAPS}/tricky`, { headers: { 'user-agent': agent } });
    assert.ok(indented(byAgent.text), `${agent}: ${byAgent.text}`);
  }
  // strconv.ParseBool decides: "0" and an unparsable value both mean compact, even for curl.
  for (const value of ['0', 'yes']) {
    const compact = await api(member, 'GET', `${CONFIGMAPS}/tricky?pretty=${value}`, {
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    assert.ok(compact.text.startsWith('{"') && compact.text.endsWith('}\n'), `pretty=${value}: ${compact.text}`);
  }
});

test('watch events stay one compact line each, even when pretty is asked for', async () => {
  const watched = await api(
    member,
    'GET',
    `${CONFIGMAPS}?watch=1&fieldSelector=metadata.name%3Dtricky&timeoutSeconds=1&pretty=true`,
    {
      headers: KUBECTL_AGENT,
    },
  );
  assert.is(watched.status, 200);
  assert.match(watched.text, /^\{"type":"ADDED","object":\{.*\}\}\n$/);
  assert.ok(watched.text.includes(TRICKY_GO));
});

test('/version is always indented and the OpenAPI v3 documents are compact with no newline, whoever asks', async () => {
  const version = await api(member, 'GET', '/version', { headers: KUBECTL_AGENT });
  assert.ok(version.text.startsWith('{\n  "major": "1",') && version.text.endsWith('\n}'), version.text);
  const index = await api(member, 'GET', '/openapi/v3', { headers: { 'user-agent': 'curl/8.5.0' } });
  assert.ok(index.text.startsWith('{"paths":{') && index.text.endsWith('}}'), index.text.slice(-20));
});

test.run();
