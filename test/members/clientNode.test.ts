import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KubeConfig, KubernetesObjectApi, PatchStrategy, Watch, type KubernetesObject } from '@kubernetes/client-node';
import type { Member } from '../../src/members/startMember.ts';
import { renderKubeconfig } from '../../src/members/writeKubeconfig.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// @kubernetes/client-node 2.0.1 against a member, loading the same kubeconfig kubectl uses.

const harness = new MemberHarness();
let member: Member;
let kc: KubeConfig;
let client: KubernetesObjectApi;

const configMap = (
  name: string,
  labels: Record<string, string>,
  data: Record<string, string>,
): KubernetesObject & { data: Record<string, string> } => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', labels },
  data,
});

test.before(async () => {
  member = await harness.start({ name: 'member2', bookmarkIntervalMs: 100 });
  kc = new KubeConfig();
  kc.loadFromString(renderKubeconfig([member]));
  kc.setCurrentContext('member2');
  client = KubernetesObjectApi.makeApiClient(kc);
});

test.after(async () => {
  await harness.cleanup();
});

test('requests without the bearer token get a 401 Status; health and version stay public', async () => {
  const denied = await api(member, 'GET', '/api/v1/namespaces', { token: null });
  assert.is(denied.status, 401);
  assert.equal(denied.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Unauthorized',
    reason: 'Unauthorized',
    code: 401,
  });
  const wrong = await api(member, 'GET', '/api/v1/namespaces', { token: 'nope' });
  assert.is(wrong.status, 401);
  assert.is((await api(member, 'GET', '/readyz', { token: null })).body, 'ok');
  assert.is((await api(member, 'GET', '/version', { token: null })).body.minor, '32');
});

test('server-side apply through KubernetesObjectApi.patch creates (201) then updates', async () => {
  const applied = await client.patch(
    configMap('settings', { app: 'web' }, { a: '1' }),
    undefined,
    undefined,
    'flotilla',
    true,
    PatchStrategy.ServerSideApply,
  );
  assert.is(applied.metadata?.name, 'settings');
  assert.ok(applied.metadata?.uid);
  assert.is(applied.metadata?.managedFields?.[0]?.manager, 'flotilla');
  assert.is(applied.metadata?.managedFields?.[0]?.operation, 'Apply');
  const updated = await client.patch(
    configMap('settings', { app: 'web' }, { a: '2' }),
    undefined,
    undefined,
    'flotilla',
    true,
    PatchStrategy.ServerSideApply,
  );
  assert.is((updated as KubernetesObject & { data: Record<string, string> }).data.a, '2');
  assert.ok(Number(updated.metadata?.resourceVersion) > Number(applied.metadata?.resourceVersion));
});

test('a field dropped from the applied configuration is removed from the object', async () => {
  await client.patch(
    configMap('pruned', {}, { keep: '1', drop: '2' }),
    undefined,
    undefined,
    'flotilla',
    true,
    PatchStrategy.ServerSideApply,
  );
  const after = await client.patch(
    configMap('pruned', {}, { keep: '1' }),
    undefined,
    undefined,
    'flotilla',
    true,
    PatchStrategy.ServerSideApply,
  );
  assert.equal((after as KubernetesObject & { data: Record<string, string> }).data, { keep: '1' });
});

test('list honours labelSelector and fieldSelector', async () => {
  await client.create(configMap('other', { app: 'db' }, {}));
  const web = await client.list('v1', 'ConfigMap', 'default', undefined, undefined, undefined, undefined, 'app=web');
  assert.equal(
    web.items.map((i) => i.metadata?.name),
    ['settings'],
  );
  const notWeb = await client.list(
    'v1',
    'ConfigMap',
    'default',
    undefined,
    undefined,
    undefined,
    undefined,
    'app,app!=web',
  );
  assert.equal(
    notWeb.items.map((i) => i.metadata?.name),
    ['other'],
  );
  const byName = await client.list(
    'v1',
    'ConfigMap',
    'default',
    undefined,
    undefined,
    undefined,
    'metadata.name=pruned',
  );
  assert.equal(
    byName.items.map((i) => i.metadata?.name),
    ['pruned'],
  );
});

test('read of a missing object throws ApiException 404 with a NotFound Status body', async () => {
  try {
    await client.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ghost', namespace: 'default' } });
    assert.unreachable('read should fail');
  } catch (error) {
    const e = error as { code?: number; body?: string };
    assert.is(e.code, 404);
    const status = JSON.parse(e.body!);
    assert.is(status.reason, 'NotFound');
    assert.is(status.message, 'deployments.apps "ghost" not found');
  }
});

test('a stale resourceVersion on replace is a 409 Conflict', async () => {
  const current = await client.read({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'other', namespace: 'default' },
  });
  await client.replace({ ...current, data: { v: '1' } } as KubernetesObject);
  try {
    await client.replace({ ...current, data: { v: '2' } } as KubernetesObject);
    assert.unreachable('stale replace should fail');
  } catch (error) {
    assert.is((error as { code?: number }).code, 409);
    assert.match(JSON.parse((error as { body: string }).body).message, 'the object has been modified');
  }
});

test('Watch delivers ADDED, MODIFIED, DELETED and BOOKMARK events', async () => {
  const events: { type: string; name?: string; rv?: string }[] = [];
  const watch = new Watch(kc);
  const controller = await watch.watch(
    '/api/v1/namespaces/default/configmaps',
    { allowWatchBookmarks: true, labelSelector: 'app=watched' },
    (type: string, obj: KubernetesObject) =>
      events.push({ type, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion }),
    () => undefined,
  );
  try {
    await client.create(configMap('w1', { app: 'watched' }, { a: '1' }));
    await client.patch(
      { ...configMap('w1', { app: 'watched' }, { a: '2' }) },
      undefined,
      undefined,
      'flotilla',
      undefined,
      PatchStrategy.MergePatch,
    );
    await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w1', namespace: 'default' } });
    await waitFor('all four event types', () =>
      ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'].every((t) => events.some((e) => e.type === t)),
    );
  } finally {
    controller.abort();
  }
  const named = events.filter((e) => e.type !== 'BOOKMARK');
  assert.equal(
    named.map((e) => `${e.type} ${e.name}`),
    ['ADDED w1', 'MODIFIED w1', 'DELETED w1'],
  );
  // Resource versions only ever grow along the stream.
  const rvs = events.map((e) => Number(e.rv));
  assert.equal(
    rvs,
    [...rvs].sort((a, b) => a - b),
  );
});

test('a watch resumed from an old resourceVersion replays what happened since', async () => {
  const start = (await client.list('v1', 'ConfigMap', 'default')).metadata?.resourceVersion;
  await client.create(configMap('later', { app: 'resume' }, {}));
  const seen: string[] = [];
  const controller = await new Watch(kc).watch(
    '/api/v1/namespaces/default/configmaps',
    { resourceVersion: start, labelSelector: 'app=resume' },
    (type: string, obj: KubernetesObject) => seen.push(`${type} ${obj.metadata?.name}`),
    () => undefined,
  );
  try {
    await waitFor('replayed ADDED', () => seen.includes('ADDED later'));
  } finally {
    controller.abort();
  }
});

test('create in a namespace that does not exist is a 404 for the namespace', async () => {
  try {
    await client.create({ ...configMap('x', {}, {}), metadata: { name: 'x', namespace: 'missing' } });
    assert.unreachable('create should fail');
  } catch (error) {
    assert.is((error as { code?: number }).code, 404);
    assert.is(JSON.parse((error as { body: string }).body).message, 'namespaces "missing" not found');
  }
});

test.run();
