import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyClusterFolder } from '../../src/deliveries/applyClusterFolder.ts';
import type { KubeRequest } from '../../src/deliveries/KubeTarget.ts';
import { fakeKube, json, NO_WAIT } from './helpers/fakeKube.ts';

const CORE = {
  resources: [
    { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { name: 'namespaces', kind: 'Namespace', namespaced: false },
  ],
};
const cm = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'd', labels: { 'karmada.io/managed': 'true' }, annotations },
  data: { k: 'v' },
});
const foreign = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', namespace: 'd', uid: 'u1' },
  data: { k: 'theirs' },
};

/** A member holding `objects` by path; apply patches echo the body back. */
function member(objects: Record<string, unknown>) {
  return fakeKube('m', (req: KubeRequest) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET')
      return objects[req.path] ? json(200, objects[req.path]) : json(404, { message: 'not found' });
    if (req.method === 'PATCH') return json(objects[req.path] ? 200 : 201, JSON.parse(req.body!));
    if (req.method === 'DELETE') return json(200, { kind: 'Status', status: 'Success' });
    return json(405, {});
  });
}

test('abort: an existing object without our label is reported as a conflict and not written', async () => {
  const kube = member({ '/api/v1/namespaces/d/configmaps/x': foreign });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', cm('x')]]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'conflict');
  assert.ok(
    r.results[0]!.message.startsWith(
      'resource(kind=ConfigMap, d/x) already exists in the cluster m and the work.karmada.io/conflict-resolution strategy value is empty, Karmada will not manage this resource',
    ),
    `Karmada's words first, as its Work's Applied condition says: ${r.results[0]!.message}`,
  );
  assert.match(r.results[0]!.message, 'fix: delete it, or set work.karmada.io/conflict-resolution: overwrite');
  assert.is(r.writes, 0);
  assert.is(kube.stats.writes, 0);
  assert.equal(r.inventory, [], 'not ours: never in the inventory, so never pruned');
});

test('overwrite: the same object is taken over with a forced apply', async () => {
  const kube = member({ '/api/v1/namespaces/d/configmaps/x': foreign });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', cm('x', { 'work.karmada.io/conflict-resolution': 'overwrite' })]]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'configured');
  const patch = kube.log.find((q) => q.method === 'PATCH')!;
  assert.equal(patch.query, { fieldManager: 'flotilla', force: 'true' });
  assert.is(patch.contentType, 'application/apply-patch+yaml');
});

test('abort on a new object applies without force', async () => {
  const kube = member({});
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', cm('new')]]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'created');
  assert.equal(kube.log.find((q) => q.method === 'PATCH')!.query, { fieldManager: 'flotilla' });
});

test("the Work's applied-overrides annotations never reach the member, new or already there", async () => {
  const work = {
    'resourcetemplate.karmada.io/managed-annotations': 'resourcetemplate.karmada.io/managed-annotations',
    'policy.karmada.io/applied-overrides': '[{"policyName":"op","overriders":{}}]',
    'policy.karmada.io/applied-cluster-overrides': '[{"policyName":"cop","overriders":{}}]',
  };
  const onMember = cm('old', { 'resourcetemplate.karmada.io/managed-annotations': 'x' });
  const kube = member({ '/api/v1/namespaces/d/configmaps/old': onMember });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([
      ['a', cm('new', work)],
      ['b', cm('old', work)],
    ]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.equal(
    r.results.map((x) => x.action),
    ['created', 'configured'],
  );
  const sent = kube.log
    .filter((q) => q.method === 'PATCH')
    .map((q) => (JSON.parse(q.body!) as { metadata: { annotations: Record<string, string> } }).metadata.annotations);
  assert.equal(sent, [
    { 'resourcetemplate.karmada.io/managed-annotations': 'resourcetemplate.karmada.io/managed-annotations' },
    { 'resourcetemplate.karmada.io/managed-annotations': 'resourcetemplate.karmada.io/managed-annotations' },
  ]);
});

test('a 409 from the server under abort is a conflict with the server message', async () => {
  const kube = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(200, { ...cm('x'), data: { k: 'other' } });
    return json(409, { message: 'Apply failed with 1 conflict: conflict with "kubectl": .data.k' });
  });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', cm('x')]]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'conflict');
  assert.match(r.results[0]!.message, /kubectl/);
});

// execution_controller.go syncToClusters writes the member's error whole into the Work's Applied condition: every
// field error of a refused object is there, however long the list.
test("a refused object's result carries the API server's whole message, every field error of it", async () => {
  const causes = Array.from({ length: 12 }, (_, i) => `metadata.labels[key${i}]: Invalid value: "${'v'.repeat(70)}"`);
  const message = `ConfigMap "x" is invalid: [${causes.join(', ')}]`;
  const kube = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(404, { message: 'not found' });
    return json(422, { kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, message });
  });
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map([['p', cm('x')]]),
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
  });
  assert.is(r.results[0]!.action, 'failed');
  assert.ok(r.results[0]!.message.endsWith(`HTTP 422: ${message}`), r.results[0]!.message);
});

// execution_controller.go syncToClusters quotes the error itself: client-go's StatusError says the Status message
// alone, and objectwatcher.go Update refuses an object it does not manage in its own sentence.
test("a refusal keeps the words Karmada's Applied condition quotes: the member's Status message, the watcher's refusal", async () => {
  const message = 'ConfigMap "x" is invalid: data[k]: Invalid value: "v"';
  const refusing = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(404, { message: 'not found' });
    return json(422, { kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, message });
  });
  const apply = (kube: ReturnType<typeof fakeKube>) =>
    applyClusterFolder({
      cluster: 'm',
      manifests: new Map([['p', cm('x')]]),
      kube,
      inventory: [],
      prune: true,
      retry: NO_WAIT,
    });
  const refused = (await apply(refusing)).results[0]!;
  assert.is(refused.error, message);
  assert.match(refused.message, `server-side apply failed: HTTP 422: ${message}`);
  const conflict = (await apply(member({ '/api/v1/namespaces/d/configmaps/x': foreign }))).results[0]!;
  assert.is(
    conflict.error,
    'resource(kind=ConfigMap, d/x) already exists in the cluster m and the work.karmada.io/conflict-resolution strategy value is empty, Karmada will not manage this resource',
  );
  const proxy = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(404, { message: 'not found' });
    return { status: 502, headers: {}, body: '<html>bad gateway</html>' };
  });
  // No Status: client-go's sentence for the code, quoting a text body as Go's %q does.
  assert.is(
    (await apply(proxy)).results[0]!.error,
    'an error on the server ("<html>bad gateway</html>") has prevented the request from succeeding',
  );
});

// objectwatcher.go Update writes with PUT under retry.RetryOnConflict: once the retries are spent, the Work quotes the
// member's Conflict Status as client-go's StatusError says it, with nothing of Karmada's own before it. A field-manager
// conflict of an unforced apply is likewise the member's Status message.
test("a replace or an apply the member keeps refusing records the member's words alone", async () => {
  const modified =
    'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again';
  const stale = {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: 'Conflict',
    code: 409,
    message: modified,
  };
  const live = { ...cm('x'), metadata: { ...cm('x').metadata, resourceVersion: '7' }, data: { k: 'old', e: 'theirs' } };
  const kube = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(200, live);
    // The forced apply leaves what another manager set beside Git's: the object is to be replaced.
    if (req.method === 'PATCH')
      return json(200, { ...live, data: { k: 'v', e: 'theirs' }, spec: { items: ['a', 'b'] } });
    return json(409, stale);
  });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'x' };
  const [replaced] = (
    await applyClusterFolder({
      cluster: 'm',
      manifests: new Map([['p', { ...cm('x'), spec: { items: ['a'] } }]]),
      kube,
      inventory: [ref],
      prune: true,
      retry: NO_WAIT,
    })
  ).results;
  assert.ok(
    kube.log.some((r) => r.method === 'PUT'),
    'replaced',
  );
  assert.is(replaced!.action, 'failed');
  assert.is(replaced!.error, modified);
  assert.match(replaced!.message, /^applied, but it still holds fields other managers set beside Git's/);

  const conflictMessage = 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.k';
  const conflicting = fakeKube('m', (req) => {
    if (req.path === '/api/v1') return json(200, CORE);
    if (req.method === 'GET') return json(200, live);
    return json(409, {
      ...stale,
      message: conflictMessage,
      details: {
        causes: [{ type: 'FieldManagerConflict', message: 'conflict with "kubectl-edit"', field: '.data.k' }],
      },
    });
  });
  const [conflict] = (
    await applyClusterFolder({
      cluster: 'm',
      manifests: new Map([['p', cm('x')]]),
      kube: conflicting,
      inventory: [],
      prune: true,
      retry: NO_WAIT,
    })
  ).results;
  assert.is(conflict!.action, 'conflict');
  assert.is(conflict!.error, conflictMessage);
});

test('prune deletes a labelled inventory object with a uid precondition; an unlabelled one is left', async () => {
  const ours = { ...cm('old'), metadata: { ...cm('old').metadata, uid: 'u-old' } };
  const kube = member({ '/api/v1/namespaces/d/configmaps/old': ours, '/api/v1/namespaces/d/configmaps/x': foreign });
  const inventory = [
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'old' },
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'x' },
  ];
  // Emptying the folder is prune safety's business (tested below): here a trailer allows it.
  const pruneSafety = {
    source: 'ok' as const,
    readDeletions: async () => () => ({ allowReason: 'test', commit: 'c'.repeat(40) }),
  };
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map(),
    kube,
    inventory,
    prune: true,
    retry: NO_WAIT,
    pruneSafety,
  });
  assert.equal(
    r.results.map((x) => [x.ref.name, x.action]),
    [
      ['old', 'pruned'],
      ['x', 'conflict'],
    ],
  );
  const del = kube.log.filter((q) => q.method === 'DELETE');
  assert.is(del.length, 1);
  assert.equal(JSON.parse(del[0]!.body!).preconditions, { uid: 'u-old' });
  assert.equal(r.inventory, []);
});

test('prune: false deletes nothing and keeps the old inventory', async () => {
  const kube = member({});
  const inventory = [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'd', name: 'old' }];
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests: new Map(),
    kube,
    inventory,
    prune: false,
    retry: NO_WAIT,
  });
  assert.is(kube.log.length, 0);
  assert.equal(r.inventory, inventory);
});

test("an unreachable member fails every object after one object's retries, not each object's", async () => {
  const kube = fakeKube('m', () => {
    throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
  });
  const manifests = new Map(Array.from({ length: 50 }, (_, i) => [`p${i}`, cm(`c${i}`)] as [string, unknown]));
  const r = await applyClusterFolder({
    cluster: 'm',
    manifests,
    kube,
    inventory: [],
    prune: true,
    retry: NO_WAIT,
    concurrency: 4,
  });
  assert.ok(r.results.every((x) => x.action === 'failed'));
  assert.ok(kube.log.length <= 4 * NO_WAIT.attempts, `${kube.log.length} requests`);
  assert.match(r.notes.join(), /ECONNREFUSED/);
  assert.is(
    r.pending?.length,
    50,
    'attempted objects are remembered as pending (label and field manager guard any later prune)',
  );
  assert.is(r.inventory.length, 0, 'none is confirmed ours, so none is forced on a later pass');
});

test.run();
