import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ObjectRef } from '../../src/api/kinds.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeRequest, KubeResponse, KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import { readLiveObjects } from '../../src/statuses/readLiveObjects.ts';
import { Scratch } from '../deliveries/helpers/e2e.ts';

const scratch = new Scratch();
let kube: KubeTarget;
const refs: ObjectRef[] = [];
const cm = (namespace: string, name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });

/** The member as the status pass sees it, with every request it sends recorded; `refuseLists` makes each LIST fail. */
function recording(refuseLists = false): { target: KubeTarget; sent: KubeRequest[] } {
  const sent: KubeRequest[] = [];
  const target: KubeTarget = {
    name: kube.name,
    server: kube.server,
    discovery: new Map(),
    stats: { requests: 0, writes: 0 },
    request: async (req): Promise<KubeResponse> => {
      sent.push(req);
      if (refuseLists && req.query?.labelSelector)
        return { status: 500, body: { message: 'list refused' }, headers: {} };
      return kube.request(req);
    },
    close: async () => undefined,
  };
  return { target, sent };
}

async function create(namespace: string, name: string, labels: Record<string, string>): Promise<void> {
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels },
    data: { n: name },
  });
  const res = await kube.request({
    method: 'POST',
    path: `/api/v1/namespaces/${namespace}/configmaps`,
    body,
    contentType: 'application/json',
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
}

test.before(async () => {
  const member = await scratch.member('m1');
  kube = (await connectKubeconfig(scratch.kubeconfig([member]), { timeoutMs: 3_000 })).get('m1')!;
  const ns = await kube.request({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }),
    contentType: 'application/json',
  });
  assert.is(ns.status, 201);
  const managed = { 'karmada.io/managed': 'true' };
  for (let i = 0; i < 25; i++) refs.push(cm('default', `cm-${i}`));
  for (let i = 0; i < 15; i++) refs.push(cm('team-a', `cm-${i}`));
  await Promise.all(refs.map((r) => create(r.namespace, r.name, managed)));
  // Someone took the label off: no LIST by label returns it, a GET still reads it.
  await create('default', 'unlabelled', { app: 'x' });
  await create('default', 'not-in-inventory', managed);
  refs.push(cm('default', 'unlabelled'), cm('team-a', 'gone'), {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    namespace: 'default',
    name: 'w',
  });
});

test.after(async () => {
  await kube?.close();
  await scratch.cleanup();
});

const configMapRequests = (sent: KubeRequest[]) => sent.filter((r) => r.path.includes('/configmaps'));

test('a status pass over 42 objects of one kind sends one LIST per namespace, plus a GET for each object the LIST did not return', async () => {
  const { target, sent } = recording();
  const live = await readLiveObjects(target, refs);
  const lists = configMapRequests(sent).filter((r) => r.query?.labelSelector);
  assert.equal(lists.map((r) => r.path).sort(), [
    '/api/v1/namespaces/default/configmaps',
    '/api/v1/namespaces/team-a/configmaps',
  ]);
  assert.ok(lists.every((r) => r.query!.labelSelector === 'karmada.io/managed=true' && r.method === 'GET'));
  assert.equal(
    configMapRequests(sent)
      .filter((r) => !r.query?.labelSelector)
      .map((r) => r.path)
      .sort(),
    ['/api/v1/namespaces/default/configmaps/unlabelled', '/api/v1/namespaces/team-a/configmaps/gone'],
  );
  assert.is(live.found.length, 41);
  assert.ok(!live.found.some((f) => f.ref.name === 'not-in-inventory'));
  assert.equal(live.missing, [cm('team-a', 'gone')]);
  assert.is(live.unread, 1, 'the unserved Widget');
  const first = live.found.find((f) => f.ref.namespace === 'team-a' && f.ref.name === 'cm-3')!;
  assert.equal(first.live.data, { n: 'cm-3' });
  assert.is(first.live.kind, 'ConfigMap');
});

test('the result is the one GETting every object gives: LISTs that fail fall back to a GET per object', async () => {
  const listed = await readLiveObjects(recording().target, refs);
  const { target, sent } = recording(true);
  const fetched = await readLiveObjects(target, refs);
  assert.is(
    configMapRequests(sent).filter((r) => !r.query?.labelSelector).length,
    42,
    'a GET per ConfigMap of the inventory',
  );
  assert.equal(fetched, listed);
});

test('a LIST larger than a page is read page by page', async () => {
  const { target, sent } = recording();
  const live = await readLiveObjects(target, refs, 8, 10);
  const pages = configMapRequests(sent).filter((r) => r.query?.labelSelector && r.path.includes('/default/'));
  assert.is(pages.length, 3, '26 labelled ConfigMaps in default, 10 a page');
  assert.ok(pages.slice(1).every((r) => r.query!.continue));
  assert.equal(live, await readLiveObjects(recording().target, refs));
});

test.run();
