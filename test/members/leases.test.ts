// Leases (coordination.k8s.io/v1) as kube-apiserver stores them: the MicroTimes leader election compares re-encoded
// in UTC with six fractional digits, and a write whose times Go cannot decode refused before anything is stored.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

const harness = new MemberHarness();
let member: Member;
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';

const lease = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, ...spec },
});

test.before(async () => {
  member = await harness.start({ name: 'member1' });
});

test.after(async () => {
  await harness.cleanup();
});

test("a Lease's acquireTime and renewTime are stored and returned in UTC with six fractional digits", async () => {
  const created = await api(member, 'POST', LEASES, {
    body: lease('zoned', { acquireTime: '2024-01-02T05:04:05.000000+02:00', renewTime: '2024-01-02T03:04:05.5Z' }),
  });
  assert.is(created.status, 400);

  const ok = await api(member, 'POST', LEASES, {
    body: lease('zoned', {
      acquireTime: '2024-01-02T05:04:05.000000+02:00',
      renewTime: '2024-01-01T23:04:05.500000-04:00',
    }),
  });
  assert.is(ok.status, 201);
  const read = await api(member, 'GET', `${LEASES}/zoned`);
  assert.is(read.body.spec.acquireTime, '2024-01-02T03:04:05.000000Z');
  assert.is(read.body.spec.renewTime, '2024-01-02T03:04:05.500000Z');
});

test('a write of a Lease whose time has no fractional seconds is a 400 naming the time and the layout', async () => {
  const whole = await api(member, 'POST', LEASES, { body: lease('whole', { renewTime: '2024-01-02T03:04:05+00:00' }) });
  assert.is(whole.status, 400);
  assert.is(
    whole.body.message,
    'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-02T03:04:05+00:00" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "+00:00" as ".000000"',
  );
  assert.is((await api(member, 'GET', `${LEASES}/whole`)).status, 404);

  assert.is((await api(member, 'POST', LEASES, { body: lease('patched', {}) })).status, 201);
  const patched = await api(member, 'PATCH', `${LEASES}/patched`, {
    body: { spec: { renewTime: '2024-01-02T03:04:05Z' } },
    contentType: 'application/merge-patch+json',
  });
  assert.is(patched.status, 400);
  assert.is((await api(member, 'GET', `${LEASES}/patched`)).body.spec.renewTime, undefined);
});

test('a Lease with a duration, transition count or coordination field kube-apiserver refuses is a 422 naming each', async () => {
  const refused = await api(member, 'POST', LEASES, {
    body: lease('refused', { leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'b' }),
  });
  assert.is(refused.status, 422);
  assert.equal(
    refused.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`),
    [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
      'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
    ],
  );

  const strategy = await api(member, 'POST', LEASES, { body: lease('strategy', { strategy: 'Newest' }) });
  assert.is(strategy.status, 422);
  assert.match(
    strategy.body.message,
    'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
  );

  const coordinated = lease('coordinated', { strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  assert.is((await api(member, 'POST', LEASES, { body: coordinated })).status, 201);
  const renewed = await api(member, 'PATCH', `${LEASES}/coordinated`, {
    body: { spec: { leaseDurationSeconds: -15 } },
    contentType: 'application/merge-patch+json',
  });
  assert.is(renewed.status, 422);
  assert.is((await api(member, 'GET', `${LEASES}/coordinated`)).body.spec.leaseDurationSeconds, 15);
});

test('a Lease duration that is not an int32 cannot be decoded: a 400', async () => {
  const text = await api(member, 'POST', LEASES, { body: lease('text', { leaseDurationSeconds: '15' }) });
  assert.is(text.status, 400);
  assert.is(
    text.body.message,
    'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32',
  );
});

test("a Lease's name is a DNS-1123 subdomain: a 422 with apimachinery's example and regex", async () => {
  const refused = await api(member, 'POST', LEASES, { body: lease('Leader_Lock', {}) });
  assert.is(refused.status, 422);
  assert.is(
    refused.body.message,
    `Lease.coordination.k8s.io "Leader_Lock" is invalid: metadata.name: Invalid value: "Leader_Lock": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  );
});

test("a malformed name is one of a create's errors, not the only one: one 422 names every problem", async () => {
  const refused = await api(member, 'POST', LEASES, { body: lease('Leader_Lock', { leaseDurationSeconds: -1 }) });
  assert.is(refused.status, 422);
  assert.equal(
    refused.body.details.causes.map((c: { field: string }) => c.field),
    ['metadata.name', 'spec.leaseDurationSeconds'],
  );
});

test('a Lease is written only at the resourceVersion read: none is a 422, a stale one a 409, as for leader election', async () => {
  const created = await api(member, 'POST', LEASES, { body: lease('held', {}) });
  assert.is(created.status, 201);
  const blind = await api(member, 'PUT', `${LEASES}/held`, { body: lease('held', { holderIdentity: 'b' }) });
  assert.is(blind.status, 422);
  assert.is(
    blind.body.message,
    'leases.coordination.k8s.io "held" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  );
  assert.equal(blind.body.details, {
    name: 'held',
    group: 'coordination.k8s.io',
    kind: 'leases',
    causes: [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0x0: must be specified for an update',
        field: 'metadata.resourceVersion',
      },
    ],
  });
  const { resourceVersion } = created.body.metadata;
  const renewed = await api(member, 'PUT', `${LEASES}/held`, {
    body: {
      ...lease('held', { renewTime: '2026-12-05T11:00:02.000000Z' }),
      metadata: { name: 'held', resourceVersion },
    },
  });
  assert.is(renewed.status, 200);
  const stale = await api(member, 'PUT', `${LEASES}/held`, {
    body: { ...lease('held', { holderIdentity: 'b' }), metadata: { name: 'held', resourceVersion } },
  });
  assert.is(stale.status, 409);
  assert.is(
    stale.body.message,
    'Operation cannot be fulfilled on leases.coordination.k8s.io "held": the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.is((await api(member, 'GET', `${LEASES}/held`)).body.spec.holderIdentity, 'a');
});

test('a PUT of a missing Lease (or Endpoints, Role) creates it, unless it names the uid of the one deleted since read', async () => {
  const first = await api(member, 'POST', LEASES, { body: lease('gone', {}) });
  assert.is((await api(member, 'DELETE', `${LEASES}/gone`)).status, 200);
  const { uid, resourceVersion } = first.body.metadata;
  const renewal = await api(member, 'PUT', `${LEASES}/gone`, {
    body: { ...lease('gone', {}), metadata: { name: 'gone', uid, resourceVersion } },
  });
  assert.is(renewal.status, 409);
  assert.is(
    renewal.body.message,
    `Operation cannot be fulfilled on leases.coordination.k8s.io "gone": StorageError: invalid object, Code: 4, Key: /registry/leases/default/gone, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: `,
  );
  assert.is((await api(member, 'GET', `${LEASES}/gone`)).status, 404);

  const made = await api(member, 'PUT', `${LEASES}/gone`, {
    body: { ...lease('gone', {}), metadata: { name: 'gone', resourceVersion } },
  });
  assert.is(made.status, 201);
  assert.is.not(made.body.metadata.uid, uid);
  assert.is.not(made.body.metadata.resourceVersion, resourceVersion);
  assert.is((await api(member, 'GET', `${LEASES}/gone`)).body.spec.holderIdentity, 'a');
  const config = await api(member, 'PUT', '/api/v1/namespaces/default/configmaps/gone', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' } },
  });
  assert.is(config.status, 404, 'a ConfigMap is created by a POST only');
  const endpoints = await api(member, 'PUT', '/api/v1/namespaces/default/endpoints/gone', {
    body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'gone' } },
  });
  assert.is(endpoints.status, 201);
  const role = await api(member, 'PUT', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/gone', {
    body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'gone' } },
  });
  assert.is(role.status, 201);
});

test.run();
