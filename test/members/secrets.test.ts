import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// A Secret's stringData is merged into data by every write path, and never stored or returned.

const harness = new MemberHarness();
let member: Member;
const SECRETS = '/api/v1/namespaces/default/secrets';
const b64 = (text: string) => Buffer.from(text).toString('base64');

test.before(async () => {
  member = await harness.start({ name: 'secrets' });
});

test.after(async () => {
  await harness.cleanup();
});

async function stored(name: string): Promise<Record<string, unknown>> {
  const res = await api(member, 'GET', `${SECRETS}/${name}`);
  assert.is(res.status, 200);
  assert.is(res.body.stringData, undefined);
  return res.body;
}

test('create merges stringData into data (stringData wins) and defaults type to Opaque', async () => {
  const res = await api(member, 'POST', SECRETS, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'created' },
      data: { a: b64('from data'), b: b64('b') },
      stringData: { a: 'from stringData', c: 'c' },
    },
  });
  assert.is(res.status, 201);
  assert.is(res.body.stringData, undefined);
  const secret = await stored('created');
  assert.equal(secret.data, { a: b64('from stringData'), b: b64('b'), c: b64('c') });
  assert.is(secret.type, 'Opaque');
});

test('update, merge patch, strategic merge patch and server-side apply merge stringData too', async () => {
  const base = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'updated' }, data: { a: b64('a') } };
  assert.is((await api(member, 'POST', SECRETS, { body: base })).status, 201);

  assert.is(
    (await api(member, 'PUT', `${SECRETS}/updated`, { body: { ...base, stringData: { put: 'p' } } })).status,
    200,
  );
  assert.equal((await stored('updated')).data, { a: b64('a'), put: b64('p') });

  assert.is(
    (
      await api(member, 'PATCH', `${SECRETS}/updated`, {
        contentType: 'application/merge-patch+json',
        body: { stringData: { merge: 'm' } },
      })
    ).status,
    200,
  );
  assert.equal((await stored('updated')).data, { a: b64('a'), put: b64('p'), merge: b64('m') });

  assert.is(
    (
      await api(member, 'PATCH', `${SECRETS}/updated`, {
        contentType: 'application/strategic-merge-patch+json',
        body: { stringData: { a: 'replaced' } },
      })
    ).status,
    200,
  );
  assert.equal((await stored('updated')).data, { a: b64('replaced'), put: b64('p'), merge: b64('m') });

  const applied = await api(member, 'PATCH', `${SECRETS}/applied?fieldManager=tester`, {
    contentType: 'application/apply-patch+yaml',
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'applied' }, stringData: { password: 's3cr3t' } },
  });
  assert.is(applied.status, 201);
  assert.is(applied.body.stringData, undefined);
  const secret = await stored('applied');
  assert.equal(secret.data, { password: b64('s3cr3t') });
  assert.is(secret.type, 'Opaque');
});

test("a TLS Secret without its key is a 422, and a Secret's type cannot be changed by a later write", async () => {
  const tls = await api(member, 'POST', SECRETS, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cert' },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': 'c' },
    },
  });
  assert.is(tls.status, 422);
  assert.is(tls.body.message, 'Secret "cert" is invalid: data[tls.key]: Required value');
  const created = await api(member, 'POST', SECRETS, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cert' },
      type: 'kubernetes.io/tls',
      stringData: { 'tls.crt': 'c', 'tls.key': 'k' },
    },
  });
  assert.is(created.status, 201);
  // The manifest without a type means Opaque, which the stored TLS Secret cannot become.
  const replaced = await api(member, 'PUT', `${SECRETS}/cert`, {
    body: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cert' },
      stringData: { 'tls.crt': 'c', 'tls.key': 'k' },
    },
  });
  assert.is(replaced.status, 422);
  assert.is(replaced.body.message, 'Secret "cert" is invalid: type: Invalid value: "Opaque": field is immutable');
});

test.run();
