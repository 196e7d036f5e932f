import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readOrCreateTls } from '../../src/members/tls/readOrCreateTls.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'flotilla-tls-'));

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('issues a CA and a server certificate for localhost and 127.0.0.1 signed by it', () => {
  const tls = readOrCreateTls(dir, 'member1');
  const ca = new X509Certificate(tls.caPem);
  const server = new X509Certificate(tls.certPem);
  assert.ok(ca.ca);
  assert.not.ok(server.ca);
  assert.ok(server.verify(ca.publicKey));
  assert.ok(server.checkIssued(ca));
  assert.is(server.checkHost('localhost'), 'localhost');
  assert.is(server.checkIP('127.0.0.1'), '127.0.0.1');
  assert.is(server.subjectAltName, 'DNS:localhost, DNS:member1, IP Address:127.0.0.1');
});

test('keys and certificates are stored mode 0600 and reused on the next start', () => {
  for (const file of ['ca.crt', 'ca.key', 'server.crt', 'server.key']) {
    assert.is(statSync(path.join(dir, 'tls', file)).mode & 0o777, 0o600, file);
  }
  const first = readOrCreateTls(dir, 'member1');
  const again = readOrCreateTls(dir, 'member1');
  assert.is(again.caPem, first.caPem);
  assert.is(again.certPem, first.certPem);
});

test('a reissued server certificate is still signed by the persisted CA', () => {
  const before = readOrCreateTls(dir, 'member1');
  rmSync(path.join(dir, 'tls', 'server.crt'));
  const after = readOrCreateTls(dir, 'member1');
  assert.is(after.caPem, before.caPem);
  assert.is.not(after.certPem, before.certPem);
  assert.ok(new X509Certificate(after.certPem).verify(new X509Certificate(after.caPem).publicKey));
});

test.run();
