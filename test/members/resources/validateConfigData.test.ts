import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateConfigData } from '../../../src/members/resources/validateConfigData.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const secret = (extra: object): KubeObject => ({ metadata: { name: 's' }, type: 'Opaque', ...extra });
const lines = (kind: string, next: KubeObject, previous?: KubeObject) =>
  validateConfigData(kind, next, previous).map((e) => `${e.field}: ${e.body}`);

test('Secret types require their keys, and keys must be config keys', () => {
  assert.equal(lines('Secret', secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64('c') } })), [
    'data[tls.key]: Required value',
  ]);
  assert.equal(lines('Secret', secret({ type: 'kubernetes.io/basic-auth', data: {} })), [
    'data[%s][username]: Required value',
    'data[%s][password]: Required value',
  ]);
  assert.equal(
    lines(
      'Secret',
      secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }),
    ),
    [],
  );
  assert.match(
    lines('Secret', secret({ type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('nope') } }))[0]!,
    /^data\[\.dockerconfigjson\]: Invalid value: "<secret contents redacted>": /,
  );
  assert.equal(lines('Secret', secret({ type: 'kubernetes.io/service-account-token' })), [
    'metadata.annotations[kubernetes.io/service-account.name]: Required value',
  ]);
  assert.equal(lines('Secret', secret({ data: { 'bad key': b64('x') } })), [
    "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  ]);
  assert.equal(lines('Secret', secret({ data: { '..x': b64('x') } })), [
    'data[..x]: Invalid value: "..x": must not start with \'..\'',
  ]);
  assert.equal(lines('Secret', secret({ data: { big: Buffer.alloc(1024 * 1024 + 1).toString('base64') } })), [
    'data: Too long: may not be more than 1048576 bytes',
  ]);
});

test("a Secret's type cannot change, and immutable Secrets and ConfigMaps keep their data", () => {
  assert.equal(
    lines('Secret', secret({ type: 'Opaque' }), secret({ type: 'kubernetes.io/basic-auth', data: { username: '' } })),
    ['type: Invalid value: "Opaque": field is immutable'],
  );
  const frozen = secret({ immutable: true, data: { a: b64('1') } });
  assert.equal(lines('Secret', secret({ immutable: true, data: { a: b64('1') } }), frozen), []);
  assert.equal(lines('Secret', secret({ data: { a: b64('2') } }), frozen), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  const cm: KubeObject = { metadata: { name: 'c' }, immutable: true, data: { a: '1' } };
  assert.equal(lines('ConfigMap', { ...cm, data: { a: '2' } }, cm), [
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.equal(lines('ConfigMap', { metadata: { name: 'c' }, data: { k: 'v' }, binaryData: { k: b64('v') } }), [
    'binaryData[k]: Invalid value: "k": duplicate of key present in data',
  ]);
});

test.run();
