import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// The registry's preconditions on writes: an update's metadata.uid must be the stored object's (rest.defaultUpdatedObjectInfo),
// failing as the storage layer's InvalidObj error in a 409 Conflict; a delete's preconditions are checked first by
// rest.BeforeDelete, with its own wording.

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;
const OTHER_UID = '00000000-0000-0000-0000-000000000000';

test.before(async () => {
  member = await harness.start({ name: 'member1' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test("kubectl replace of an object whose uid is not the stored one's is a conflict and changes nothing", async () => {
  assert.is((await kubectl(['create', 'configmap', 'settings', '--from-literal=mode=a'])).code, 0);
  const stored = JSON.parse((await kubectl(['get', 'configmap', 'settings', '-o', 'json'])).stdout);
  const file = path.join(harness.tempDir(), 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({ ...stored, metadata: { ...stored.metadata, uid: OTHER_UID }, data: { mode: 'b' } }),
  );

  const replaced = await kubectl(['replace', '-f', file]);
  assert.is.not(replaced.code, 0);
  assert.match(
    replaced.stderr,
    `Operation cannot be fulfilled on configmaps "settings": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/settings, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${OTHER_UID}, UID in object meta: ${stored.metadata.uid}`,
  );
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/settings')).body.data.mode, 'a');

  writeFileSync(file, JSON.stringify({ ...stored, data: { mode: 'b' } }));
  assert.is((await kubectl(['replace', '-f', file])).code, 0);
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/settings')).body.data.mode, 'b');
});

test('a patch or an apply that changes metadata.uid is refused as an immutable field; one that empties it keeps the stored uid', async () => {
  await kubectl(['create', 'configmap', 'flags', '--from-literal=on=yes']);
  const changed = await kubectl([
    'patch',
    'configmap',
    'flags',
    '-p',
    JSON.stringify({ metadata: { uid: OTHER_UID } }),
  ]);
  assert.is.not(changed.code, 0);
  assert.match(
    changed.stderr,
    `ConfigMap "flags" is invalid: metadata.uid: Invalid value: "${OTHER_UID}": field is immutable`,
  );
  const applied = await kubectl(
    ['apply', '--server-side', '--force-conflicts', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'flags', uid: OTHER_UID },
      data: { on: 'x' },
    }),
  );
  assert.is.not(applied.code, 0);
  assert.match(applied.stderr, `metadata.uid: Invalid value: "${OTHER_UID}": field is immutable`);
  const before = (await api(member, 'GET', '/api/v1/namespaces/default/configmaps/flags')).body.metadata.uid;
  const emptied = await api(member, 'PATCH', '/api/v1/namespaces/default/configmaps/flags', {
    body: { metadata: { uid: '' }, data: { on: 'no' } },
    contentType: 'application/merge-patch+json',
  });
  assert.is(emptied.status, 200);
  assert.is(emptied.body.metadata.uid, before);
});

test('a delete whose preconditions name another uid or resourceVersion is a conflict saying what the mismatch means', async () => {
  const created = await api(member, 'POST', '/api/v1/namespaces/default/services', {
    body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'spare' }, spec: { ports: [{ port: 80 }] } },
  });
  assert.is(created.status, 201);
  const { uid, resourceVersion } = created.body.metadata;
  const byUid = await api(member, 'DELETE', '/api/v1/namespaces/default/services/spare', {
    body: { preconditions: { uid: OTHER_UID } },
  });
  assert.is(byUid.status, 409);
  assert.is(
    byUid.body.message,
    `Operation cannot be fulfilled on Service "spare": the UID in the precondition (${OTHER_UID}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
  );
  const byVersion = await api(member, 'DELETE', '/api/v1/namespaces/default/services/spare', {
    body: { preconditions: { resourceVersion: '1' } },
  });
  assert.is(byVersion.status, 409);
  assert.is(
    byVersion.body.message,
    `Operation cannot be fulfilled on Service "spare": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
  );
  assert.equal(byVersion.body.details, { name: 'spare', kind: 'Service' });
  const deleted = await api(member, 'DELETE', '/api/v1/namespaces/default/services/spare', {
    body: { preconditions: { uid } },
  });
  assert.is(deleted.status, 200);
});

test('a dry-run delete answers as the delete would and stores nothing: a Status, its preconditions checked, the finalizer it would hold by', async () => {
  const created = await api(member, 'POST', '/api/v1/namespaces/default/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rehearsed' }, data: { k: 'v' } },
  });
  assert.is(created.status, 201);
  const { uid, resourceVersion } = created.body.metadata;
  const item = '/api/v1/namespaces/default/configmaps/rehearsed';
  const rehearsal = await kubectl(['delete', 'configmap', 'rehearsed', '--dry-run=server']);
  assert.is(rehearsal.stdout, 'configmap "rehearsed" deleted (server dry run)\n', rehearsal.stderr);
  const plain = await api(member, 'DELETE', `${item}?dryRun=All`);
  assert.is(plain.status, 200);
  assert.equal(plain.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: 'rehearsed', kind: 'configmaps', uid },
  });
  const stale = await api(member, 'DELETE', `${item}?dryRun=All`, { body: { preconditions: { uid: OTHER_UID } } });
  assert.is(stale.status, 409);
  const orphaning = await api(member, 'DELETE', `${item}?dryRun=All&propagationPolicy=Orphan`);
  assert.is(orphaning.status, 200);
  assert.equal(orphaning.body.metadata.finalizers, ['orphan']);
  assert.type(orphaning.body.metadata.deletionTimestamp, 'string');
  assert.is(orphaning.body.metadata.resourceVersion, resourceVersion);
  const after = await api(member, 'GET', item);
  assert.is(after.body.metadata.resourceVersion, resourceVersion);
  assert.is(after.body.metadata.deletionTimestamp, undefined);
});

test("a create carrying a revision as its resourceVersion is refused by storage, after the namespace check and before the name's; one it cannot parse is dropped", async () => {
  const create = (name: string, resourceVersion: string, namespace = 'default', query = '') =>
    api(member, 'POST', `/api/v1/namespaces/${namespace}/configmaps${query}`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion } },
    });
  const refused = await create('carried', '42');
  assert.is(refused.status, 500);
  assert.equal(refused.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'resourceVersion should not be set on objects to be created',
    code: 500,
  });
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/configmaps/carried')).status, 404);
  assert.is((await create('carried', '42', 'missing')).status, 404);
  const rehearsed = await create('carried', '42', 'default', '?dryRun=All');
  assert.is(rehearsed.status, 201);
  assert.is(rehearsed.body.metadata.resourceVersion, '42');

  for (const [name, resourceVersion] of [
    ['zero', '0'],
    ['word', 'abc'],
    ['past-uint64', '18446744073709551616'],
  ]) {
    const created = await create(name!, resourceVersion!);
    assert.is(created.status, 201, `${resourceVersion}: ${JSON.stringify(created.body)}`);
    assert.is.not(created.body.metadata.resourceVersion, resourceVersion);
  }
  assert.is((await create('zero', '42')).status, 500);
  assert.is((await create('zero', '0')).status, 409);

  const file = path.join(harness.tempDir(), 'carried.json');
  writeFileSync(
    file,
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'carried', resourceVersion: '7' } }),
  );
  const raw = await kubectl(['create', '--raw', '/api/v1/namespaces/default/configmaps', '-f', file]);
  assert.is(raw.code, 1);
  assert.is(raw.stderr, 'Error from server: resourceVersion should not be set on objects to be created\n');
});

test('a custom resource is replaced only at the resourceVersion read: a PUT without one is a 422, a ConfigMap overwritten', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
  assert.is(
    (await api(member, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status,
    201,
  );
  const widgets = '/apis/example.com/v1/namespaces/default/widgets';
  const widget = (size: number) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, size });
  await waitFor('widgets served', async () => (await api(member, 'POST', widgets, { body: widget(1) })).status === 201);
  const blind = await api(member, 'PUT', `${widgets}/w`, { body: widget(2) });
  assert.is(blind.status, 422);
  assert.is(
    blind.body.message,
    'widgets.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
  );
  assert.is((await api(member, 'GET', `${widgets}/w`)).body.size, 1);

  const configMaps = '/api/v1/namespaces/default/configmaps';
  const config = (a: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'unconditional' },
    data: { a },
  });
  assert.is((await api(member, 'POST', configMaps, { body: config('1') })).status, 201);
  assert.is((await api(member, 'PUT', `${configMaps}/unconditional`, { body: config('2') })).status, 200);
});

test.run();
