import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from '../helpers/memberHarness.ts';

// What kube-controller-manager puts in every namespace: the `default` ServiceAccount (serviceaccount
// controller) and the `kube-root-ca.crt` ConfigMap (root-ca-cert-publisher).

const harness = new MemberHarness();
let member: Member;

const account = (ns: string) => api(member, 'GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`);
const rootCa = (ns: string) => api(member, 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);

test.before(async () => {
  member = await harness.start({ name: 'nsdefaults' });
  await member.settled();
});

test.after(async () => {
  await harness.cleanup();
});

test('the namespaces present at start each have the default ServiceAccount and the root CA ConfigMap', async () => {
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    const sa = await account(ns);
    assert.is(sa.status, 200, ns);
    const cm = await rootCa(ns);
    assert.is(cm.status, 200, ns);
    assert.equal(cm.body.data, { 'ca.crt': member.caPem });
    assert.is(cm.body.metadata.managedFields[0].manager, 'kube-controller-manager');
    assert.match(
      cm.body.metadata.annotations['kubernetes.io/description'],
      /^Contains a CA bundle that can be used to verify the kube-apiserver/,
    );
  }
});

test('a new namespace gets both as soon as it exists', async () => {
  assert.is(
    (
      await api(member, 'POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
      })
    ).status,
    201,
  );
  await member.settled();
  assert.is((await account('team-a')).status, 200);
  assert.equal((await rootCa('team-a')).body.data, { 'ca.crt': member.caPem });
});

test('a deleted default ServiceAccount or root CA ConfigMap comes back, and an edited one is put back', async () => {
  assert.is((await api(member, 'DELETE', '/api/v1/namespaces/team-a/serviceaccounts/default')).status, 200);
  assert.is((await api(member, 'DELETE', '/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt')).status, 200);
  await member.settled();
  assert.is((await account('team-a')).status, 200);
  assert.is((await rootCa('team-a')).status, 200);

  const edited = await api(member, 'PATCH', '/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt', {
    contentType: 'application/merge-patch+json',
    body: { metadata: { annotations: { mine: 'kept' } }, data: { 'ca.crt': 'tampered', extra: 'x' } },
  });
  assert.is(edited.status, 200);
  await member.settled();
  const cm = (await rootCa('team-a')).body;
  assert.equal(cm.data, { 'ca.crt': member.caPem });
  assert.is(cm.metadata.annotations.mine, 'kept');
});

test('a deleted namespace still goes away: nothing is recreated in a Terminating namespace', async () => {
  assert.is((await api(member, 'DELETE', '/api/v1/namespaces/team-a')).status, 200);
  await waitFor(
    'namespace team-a gone',
    async () => (await api(member, 'GET', '/api/v1/namespaces/team-a')).status === 404,
  );
  assert.equal(member.store.list('/configmaps', 'team-a'), []);
  assert.equal(member.store.list('/serviceaccounts', 'team-a'), []);
});

test.run();
