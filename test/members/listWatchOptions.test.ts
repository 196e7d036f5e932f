import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness } from './helpers/memberHarness.ts';

// Query parameters of list and watch requests, read as kube-apiserver reads them: the Python client's
// `watch=True`, strconv errors as 400s, and continue tokens that survive changes between pages.

const harness = new MemberHarness();
let member: Member;

const configMap = (name: string, app: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels: { app } },
  data: { k: name },
});
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** The events of a watch response that ended on its own (timeoutSeconds). */
function events(
  body: unknown,
): { type: string; object: { metadata: { name?: string; annotations?: Record<string, string> } } }[] {
  // A stream of exactly one event is itself valid JSON, which the harness has already parsed.
  if (typeof body === 'object' && body !== null) return [body as ReturnType<typeof events>[number]];
  assert.type(body, 'string');
  return (body as string)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

test.before(async () => {
  member = await harness.start({ name: 'options' });
  for (const name of ['page-a', 'page-b', 'page-c'])
    assert.is((await api(member, 'POST', CONFIGMAPS, { body: configMap(name, 'paged') })).status, 201);
});

test.after(async () => {
  await harness.cleanup();
});

test('watch=True (the Python client) streams watch events until timeoutSeconds instead of answering a list', async () => {
  const res = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&watch=True&timeoutSeconds=1`);
  assert.is(res.status, 200);
  assert.equal(
    events(res.body).map((e) => `${e.type} ${e.object.metadata.name}`),
    ['ADDED page-a', 'ADDED page-b', 'ADDED page-c'],
  );
});

test('a watch from no resourceVersion that allows bookmarks ends its initial events with the initial-events-end bookmark', async () => {
  const res = await api(
    member,
    'GET',
    `${CONFIGMAPS}?labelSelector=app%3Dpaged&watch=1&allowWatchBookmarks=true&timeoutSeconds=1`,
  );
  const seen = events(res.body);
  assert.equal(
    seen.slice(0, 4).map((e) => e.type),
    ['ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
  );
  assert.equal(seen[3]!.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
});

test('a watch that allows bookmarks gets one 2 s before its timeout, at the resourceVersion then current; a shorter watch none', async () => {
  const from = (await api(member, 'GET', CONFIGMAPS)).body.metadata.resourceVersion;
  const query = `${CONFIGMAPS}?watch=1&allowWatchBookmarks=true&resourceVersion=${from}`;
  const [long, short] = await Promise.all([
    api(member, 'GET', `${query}&timeoutSeconds=3`),
    api(member, 'GET', `${query}&timeoutSeconds=1`),
    api(member, 'POST', CONFIGMAPS, { body: configMap('during-watch', 'other') }),
  ]);
  const current = (await api(member, 'GET', CONFIGMAPS)).body.metadata.resourceVersion;
  assert.equal(
    events(long.body).map((e) => e.type),
    ['ADDED', 'BOOKMARK'],
  );
  assert.equal(events(long.body)[1]!.object, {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { resourceVersion: current },
  });
  assert.equal(
    events(short.body).map((e) => e.type),
    ['ADDED'],
  );
  await api(member, 'DELETE', `${CONFIGMAPS}/during-watch`);
});

test('watch=false and watch=0 are lists', async () => {
  for (const value of ['false', 'False', '0']) {
    const res = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&watch=${value}`);
    assert.is(res.body.kind, 'ConfigMapList', value);
  }
});

test('the deprecated /watch/ prefix serves a watch of the collection, or of one object by name', async () => {
  const all = await api(
    member,
    'GET',
    `/api/v1/watch/namespaces/default/configmaps?labelSelector=app%3Dpaged&timeoutSeconds=1`,
  );
  assert.equal(
    events(all.body).map((e) => `${e.type} ${e.object.metadata.name}`),
    ['ADDED page-a', 'ADDED page-b', 'ADDED page-c'],
  );
  const one = await api(member, 'GET', `/api/v1/watch/namespaces/default/configmaps/page-b?timeoutSeconds=1`);
  assert.equal(
    events(one.body).map((e) => `${e.type} ${e.object.metadata.name}`),
    ['ADDED page-b'],
  );
  const mismatch = await api(
    member,
    'GET',
    `/api/v1/watch/namespaces/default/configmaps/page-b?fieldSelector=metadata.name%3Dpage-c`,
  );
  assert.is(mismatch.status, 400);
  assert.is(mismatch.body.message, "fieldSelector metadata.name doesn't match requested name");
  assert.is(
    (await api(member, 'POST', '/api/v1/watch/namespaces/default/configmaps', { body: configMap('x', 'x') })).status,
    405,
  );
});

test("an unparsable limit or timeoutSeconds is a 400 with strconv's message", async () => {
  const limit = await api(member, 'GET', `${CONFIGMAPS}?limit=two`);
  assert.is(limit.status, 400);
  assert.is(limit.body.reason, 'BadRequest');
  assert.is(limit.body.message, 'strconv.ParseInt: parsing "two": invalid syntax');
  assert.is((await api(member, 'GET', `${CONFIGMAPS}?watch=true&timeoutSeconds=1.5`)).status, 400);
});

test('a malformed timeout is a 400 before authentication, except on long-running watches', async () => {
  const res = await api(member, 'GET', `${CONFIGMAPS}?timeout=30`, { token: null });
  assert.is(res.status, 400);
  assert.is(res.body.message, 'invalid timeout specified in the request URL - time: missing unit in duration "30"');
  assert.is((await api(member, 'GET', `${CONFIGMAPS}?timeout=30s`)).status, 200);
  assert.is((await api(member, 'GET', `${CONFIGMAPS}?watch=1&timeout=30&timeoutSeconds=1`)).status, 200);
});

test("an object leaving a watch's label selector is DELETED as it last matched, at the resourceVersion that moved it out", async () => {
  assert.is((await api(member, 'POST', CONFIGMAPS, { body: configMap('leaving', 'watched') })).status, 201);
  const from = member.store.resourceVersion;
  const watching = api(
    member,
    'GET',
    `${CONFIGMAPS}?watch=1&labelSelector=app%3Dwatched&resourceVersion=${from}&timeoutSeconds=1`,
  );
  const moved = await api(member, 'PATCH', `${CONFIGMAPS}/leaving`, {
    body: { metadata: { labels: { app: 'elsewhere' } } },
    contentType: 'application/merge-patch+json',
  });
  assert.is(moved.status, 200);
  const seen = events((await watching).body) as { type: string; object: { metadata: Record<string, unknown> } }[];
  assert.equal(
    seen.map((e) => [e.type, e.object.metadata.labels, e.object.metadata.resourceVersion]),
    [['DELETED', { app: 'watched' }, moved.body.metadata.resourceVersion]],
  );
});

test('a watch from a resourceVersion older than the server keeps ends in a 410 ERROR naming the oldest it could start from', async () => {
  const res = await api(member, 'GET', `${CONFIGMAPS}?watch=1&resourceVersion=5`);
  assert.is(res.status, 200);
  assert.equal(res.body, {
    type: 'ERROR',
    object: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: 5 (${member.store.oldestWatchableVersion()})`,
      reason: 'Expired',
      code: 410,
    },
  });
  assert.ok(member.store.oldestWatchableVersion() < member.store.resourceVersion);
});

test('a watch from an unparsable resourceVersion is a 422 before any event', async () => {
  const res = await api(member, 'GET', `${CONFIGMAPS}?watch=true&resourceVersion=latest`);
  assert.is(res.status, 422);
  assert.is(
    res.body.message,
    'configmaps "" is invalid: resourceVersion: Invalid value: "latest": strconv.ParseUint: parsing "latest": invalid syntax',
  );
});

test('list pages continue from the next object, so a delete between pages skips nothing', async () => {
  const first = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=2`);
  assert.equal(
    first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['page-a', 'page-b'],
  );
  // PrepareContinueToken leaves the count out of a filtered list: the store's count includes what the filter drops.
  assert.is(first.body.metadata.remainingItemCount, undefined);
  assert.is((await api(member, 'DELETE', `${CONFIGMAPS}/page-a`)).status, 200);
  const rest = await api(
    member,
    'GET',
    `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`,
  );
  assert.equal(
    rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['page-c'],
  );
  assert.is(rest.body.metadata.continue, undefined);
  const garbage = await api(member, 'GET', `${CONFIGMAPS}?limit=2&continue=bogus%21`);
  assert.is(garbage.status, 400);
  assert.match(garbage.body.message, /^invalid continue token: /);
});

test("list pages read the first page's resourceVersion: changes made between pages do not show", async () => {
  const SNAP = '/api/v1/namespaces/snapshot/secrets';
  const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: name } });
  await api(member, 'POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'snapshot' } },
  });
  for (const name of ['snap-a', 'snap-b', 'snap-c'])
    assert.is((await api(member, 'POST', SNAP, { body: secret(name) })).status, 201);
  const names = (list: { body: { items: { metadata: { name: string } }[] } }) =>
    list.body.items.map((i) => i.metadata.name);

  const first = await api(member, 'GET', `${SNAP}?limit=1`);
  assert.equal(names(first), ['snap-a']);
  assert.is(first.body.metadata.remainingItemCount, 2);
  const at = first.body.metadata.resourceVersion;
  await api(member, 'PATCH', `${SNAP}/snap-b`, {
    body: { data: { k: 'changed' } },
    contentType: 'application/merge-patch+json',
  });
  await api(member, 'DELETE', `${SNAP}/snap-c`);
  await api(member, 'POST', SNAP, { body: secret('snap-d') });

  const rest = await api(member, 'GET', `${SNAP}?limit=5&continue=${encodeURIComponent(first.body.metadata.continue)}`);
  assert.equal(names(rest), ['snap-b', 'snap-c']);
  assert.is(Buffer.from(rest.body.items[0].data.k, 'base64').toString(), 'snap-b');
  assert.is(rest.body.metadata.resourceVersion, at);
  const exact = await api(member, 'GET', `${SNAP}?resourceVersion=${at}&resourceVersionMatch=Exact`);
  assert.equal(names(exact), ['snap-a', 'snap-b', 'snap-c']);
  assert.equal(names(await api(member, 'GET', SNAP)), ['snap-a', 'snap-b', 'snap-d']);
});

test('a list from resourceVersion "0" is answered whole from the cache, its limit ignored', async () => {
  const whole = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=1&resourceVersion=0`);
  assert.is(whole.status, 200);
  assert.is(whole.body.items.length, 2);
  assert.is(whole.body.metadata.continue, undefined);
  const paged = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=1`);
  assert.is(paged.body.items.length, 1);
  assert.type(paged.body.metadata.continue, 'string');
});

test('a page of a list older than the server keeps is 410 Expired with a token for the rest of the current list', async () => {
  const tooOld = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 2, start: 'default/page-b' })).toString(
    'base64url',
  );
  const expired = await api(member, 'GET', `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=5&continue=${tooOld}`);
  assert.is(expired.status, 410);
  assert.is(expired.body.reason, 'Expired');
  assert.match(
    expired.body.message,
    /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response/,
  );
  const latest = await api(
    member,
    'GET',
    `${CONFIGMAPS}?labelSelector=app%3Dpaged&limit=5&continue=${expired.body.metadata.continue}`,
  );
  assert.is(latest.status, 200);
  assert.equal(
    latest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ['page-b', 'page-c'],
  );

  const exact = await api(member, 'GET', `${CONFIGMAPS}?resourceVersion=2&limit=5`);
  assert.is(exact.status, 410);
  assert.is(exact.body.message, 'The resourceVersion for the provided list is too old.');
});

test('a list or a get at the next resourceVersion waits for the write that reaches it, as the watch cache does', async () => {
  const next = member.store.resourceVersion + 1;
  const listing = api(member, 'GET', `${CONFIGMAPS}?resourceVersion=${next}`);
  const reading = api(member, 'GET', `${CONFIGMAPS}/catch-up?resourceVersion=${next}`);
  // A request answered after them makes it all but certain both reads reached the server before the write.
  assert.is((await api(member, 'GET', '/version')).status, 200);
  assert.is((await api(member, 'POST', CONFIGMAPS, { body: configMap('catch-up', 'fresh') })).status, 201);
  const [list, read] = await Promise.all([listing, reading]);
  assert.is(list.status, 200);
  assert.ok(Number(list.body.metadata.resourceVersion) >= next);
  assert.ok(list.body.items.some((c: { metadata: { name: string } }) => c.metadata.name === 'catch-up'));
  assert.is(read.status, 200);
  assert.is(read.body.metadata.name, 'catch-up');
});

test('a non-apply patch with force, or an apply without fieldManager, is a 422 naming PatchOptions', async () => {
  const merge = await api(member, 'PATCH', `${CONFIGMAPS}/page-b?force=true`, {
    contentType: 'application/merge-patch+json',
    body: { data: { k: 'x' } },
  });
  assert.is(merge.status, 422);
  assert.is(
    merge.body.message,
    'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  );
  const apply = await api(member, 'PATCH', `${CONFIGMAPS}/page-b`, {
    contentType: 'application/apply-patch+yaml',
    body: configMap('page-b', 'paged'),
  });
  assert.is(apply.status, 422);
  assert.is(
    apply.body.message,
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  );
});

test('dryRun=All on create stores nothing, any other dryRun value is a 422', async () => {
  const dry = await api(member, 'POST', `${CONFIGMAPS}?dryRun=All`, { body: configMap('dry', 'dry') });
  assert.is(dry.status, 201);
  assert.is((await api(member, 'GET', `${CONFIGMAPS}/dry`)).status, 404);
  const wrong = await api(member, 'POST', `${CONFIGMAPS}?dryRun=true`, { body: configMap('dry', 'dry') });
  assert.is(wrong.status, 422);
  assert.is((await api(member, 'GET', `${CONFIGMAPS}/dry`)).status, 404);
});

test('a dryRun=All create is refused as the real one: a missing namespace is 404, a taken name 409, by POST and by apply', async () => {
  const elsewhere = '/api/v1/namespaces/not-there/configmaps';
  const post = await api(member, 'POST', `${elsewhere}?dryRun=All`, { body: configMap('dry', 'dry') });
  assert.is(post.status, 404);
  assert.is(post.body.message, 'namespaces "not-there" not found');
  const apply = await api(member, 'PATCH', `${elsewhere}/dry?dryRun=All&fieldManager=test`, {
    body: configMap('dry', 'dry'),
    contentType: 'application/apply-patch+yaml',
  });
  assert.is(apply.status, 404);
  assert.is(apply.body.message, 'namespaces "not-there" not found');
  const taken = await api(member, 'POST', `${CONFIGMAPS}?dryRun=All`, { body: configMap('page-b', 'other') });
  assert.is(taken.status, 409);
  assert.is((await api(member, 'GET', `${CONFIGMAPS}/page-b`)).body.metadata.labels.app, 'paged');
  assert.is((await api(member, 'GET', '/api/v1/namespaces/not-there')).status, 404);
});

test.run();
