import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { api, MemberHarness } from './helpers/memberHarness.ts';
import type { Member } from '../../src/members/startMember.ts';

const harness = new MemberHarness();
let member: Member;

test.before(async () => {
  member = await harness.start({ name: 'member3' });
});

test.after(async () => {
  await harness.cleanup();
});

test('errorRate 1 answers every API request with a 500 InternalError Status; 0 restores service', async () => {
  await member.faults.set({ errorRate: 1 });
  const failed = await api(member, 'GET', '/api/v1/namespaces');
  assert.is(failed.status, 500);
  assert.is(failed.body.reason, 'InternalError');
  assert.is((await api(member, 'GET', '/healthz')).status, 200, 'health endpoints are spared');
  await member.faults.set({ errorRate: 0 });
  assert.is((await api(member, 'GET', '/api/v1/namespaces')).status, 200);
});

test('readyzFalse makes /readyz fail while the API keeps serving', async () => {
  await member.faults.set({ readyzFalse: true });
  assert.is((await api(member, 'GET', '/readyz')).status, 500);
  assert.is((await api(member, 'GET', '/livez')).status, 200);
  assert.is((await api(member, 'GET', '/api/v1/namespaces')).status, 200);
  await member.faults.set({ readyzFalse: false });
  assert.is((await api(member, 'GET', '/readyz')).status, 200);
});

test('latency delays every request by at least the configured time', async () => {
  await member.faults.set({ latencyMs: 150 });
  const started = Date.now();
  await api(member, 'GET', '/version');
  assert.ok(Date.now() - started >= 150);
  await member.faults.set({ latencyMs: 0 });
});

test('refuse closes the port (ECONNREFUSED) and reopening serves the same URL again', async () => {
  await member.faults.set({ refuse: true });
  try {
    await api(member, 'GET', '/version');
    assert.unreachable('connection should be refused');
  } catch (error) {
    const code =
      (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    assert.is(code, 'ECONNREFUSED');
  }
  await member.faults.set({ refuse: false });
  assert.is((await api(member, 'GET', '/version')).status, 200);
});

test.run();
