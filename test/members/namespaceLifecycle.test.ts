import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// A namespace's deletion as kube-apiserver and the namespace controller run it: Terminating until its content is
// gone, conditions saying what holds it, and the finalize subresource that ends it.
const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  member = await harness.start({ name: 'nslife' });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

test('a Terminating namespace refuses new content and a second delete, and says what holds it', async () => {
  assert.is((await kubectl(['create', 'namespace', 't1'])).code, 0);
  const held = await kubectl(['create', 'configmap', 'held', '-n', 't1']);
  assert.is(held.code, 0, held.stderr);
  await api(member, 'PATCH', '/api/v1/namespaces/t1/configmaps/held', {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: ['example.com/hold'] } },
  });
  assert.is((await kubectl(['delete', 'namespace', 't1', '--wait=false'])).code, 0);

  const again = await kubectl(['delete', 'namespace', 't1', '--wait=false']);
  assert.is(
    again.stderr.trim(),
    'Error from server (Conflict): Operation cannot be fulfilled on namespaces "t1": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
  );

  const created = await api(member, 'POST', '/api/v1/namespaces/t1/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'zz' } },
  });
  assert.is(created.status, 403);
  assert.is(
    created.body.message,
    'configmaps "zz" is forbidden: unable to create new content in namespace t1 because it is being terminated',
  );
  assert.equal(created.body.details, {
    name: 'zz',
    kind: 'configmaps',
    causes: [
      { reason: 'NamespaceTerminating', message: 'namespace t1 is being terminated', field: 'metadata.namespace' },
    ],
  });

  const ns = await waitFor('conditions', async () => {
    const n = (await api(member, 'GET', '/api/v1/namespaces/t1')).body;
    return n.status?.conditions?.length === 5 ? n : undefined;
  });
  const byType = Object.fromEntries(ns.status.conditions.map((c: any) => [c.type, c]));
  assert.equal(
    ns.status.conditions.map((c: any) => c.type),
    [
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ],
  );
  assert.is(byType.NamespaceDeletionDiscoveryFailure.status, 'False');
  assert.is(byType.NamespaceDeletionDiscoveryFailure.reason, 'ResourcesDiscovered');
  assert.equal(
    [byType.NamespaceContentRemaining.status, byType.NamespaceContentRemaining.reason],
    ['True', 'SomeResourcesRemain'],
  );
  assert.is(
    byType.NamespaceContentRemaining.message,
    'Some resources are remaining: configmaps. has 1 resource instances',
  );
  assert.is(
    byType.NamespaceFinalizersRemaining.message,
    'Some finalizers are remaining: example.com/hold in 1 resource instances',
  );

  await api(member, 'PATCH', '/api/v1/namespaces/t1/configmaps/held', {
    contentType: 'application/merge-patch+json',
    body: { metadata: { finalizers: null } },
  });
  await waitFor('gone', async () => (await api(member, 'GET', '/api/v1/namespaces/t1')).status === 404);
});

test('kubectl replace --raw on namespaces/finalize empties spec.finalizers and ends a Terminating namespace', async () => {
  assert.is((await kubectl(['create', 'namespace', 't2'])).code, 0);
  const withFinalizers = await kubectl(
    ['replace', '--raw', '/api/v1/namespaces/t2/finalize', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 't2' },
      spec: { finalizers: ['kubernetes', 'example.com/x'] },
    }),
  );
  assert.is(withFinalizers.code, 0, withFinalizers.stderr);
  assert.equal(JSON.parse(withFinalizers.stdout).spec.finalizers, ['kubernetes', 'example.com/x']);
  assert.is((await kubectl(['delete', 'namespace', 't2', '--wait=false'])).code, 0);
  // The controller drops `kubernetes` once the content is gone; example.com/x is nobody's but the caller's.
  await waitFor('kubernetes finalizer done', async () => {
    const ns = (await api(member, 'GET', '/api/v1/namespaces/t2')).body;
    return ns.spec?.finalizers?.length === 1;
  });
  const ns = (await api(member, 'GET', '/api/v1/namespaces/t2')).body;
  const finalized = await kubectl(
    ['replace', '--raw', '/api/v1/namespaces/t2/finalize', '-f', '-'],
    JSON.stringify({ ...ns, spec: { finalizers: [] } }),
  );
  assert.is(finalized.code, 0, finalized.stderr);
  assert.is((await api(member, 'GET', '/api/v1/namespaces/t2')).status, 404);
  assert.is((await api(member, 'GET', '/api/v1/namespaces/default/finalize')).status, 405);
});

test.run();
