import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Member } from '../../src/members/startMember.ts';
import { api, MemberHarness, waitFor } from './helpers/memberHarness.ts';

// Graceful pod deletion as the pod registry and the kubelet do it: a delete marks the pod with a deletionTimestamp
// its grace period ahead (the request's gracePeriodSeconds, else spec.terminationGracePeriodSeconds), a later delete
// may only shorten it, and the kubelet deletes the pod for good once its containers stop (here a second after).

const harness = new MemberHarness();
let member: Member;
let kubectl: ReturnType<MemberHarness['kubectl']>;
const PODS = '/api/v1/namespaces/default/pods';

test.before(async () => {
  member = await harness.start({ name: 'member1', readyDelayMs: 1000 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

async function runningPod(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const created = await api(member, 'POST', PODS, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, ...extra },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    },
  });
  assert.is(created.status, 201);
  await waitFor(
    `${name} Running`,
    async () => (await api(member, 'GET', `${PODS}/${name}`)).body.status?.phase === 'Running',
  );
}

const secondsAhead = (timestamp: string) => Math.round((Date.parse(timestamp) - Date.now()) / 1000);

test('a pod deleted is Terminating for its grace period, which a later delete may only shorten, until the kubelet removes it', async () => {
  await runningPod('web');
  const deleted = await api(member, 'DELETE', `${PODS}/web`);
  assert.is(deleted.status, 200);
  assert.is(deleted.body.kind, 'Pod');
  assert.is(deleted.body.metadata.deletionGracePeriodSeconds, 30);
  const ahead = secondsAhead(deleted.body.metadata.deletionTimestamp);
  assert.ok(ahead >= 28 && ahead <= 31, `${ahead}`);
  assert.match((await kubectl(['get', 'pod', 'web', '--no-headers'])).stdout, /\sTerminating\s/);

  const longer = await api(member, 'DELETE', `${PODS}/web`, { body: { gracePeriodSeconds: 60 } });
  assert.is(longer.body.metadata.deletionGracePeriodSeconds, 30);
  assert.is(longer.body.metadata.deletionTimestamp, deleted.body.metadata.deletionTimestamp);
  const shorter = await api(member, 'DELETE', `${PODS}/web`, { body: { gracePeriodSeconds: 10 } });
  assert.is(shorter.body.metadata.deletionGracePeriodSeconds, 10);
  assert.is(
    Date.parse(deleted.body.metadata.deletionTimestamp) - Date.parse(shorter.body.metadata.deletionTimestamp),
    20_000,
  );

  const waited = await kubectl(['wait', '--for=delete', 'pod/web', '--timeout=10s']);
  assert.is(waited.code, 0, waited.stderr);
  assert.is((await api(member, 'GET', `${PODS}/web`)).status, 404);
});

test('kubectl delete --grace-period=0 --force removes a pod at once, as does any delete of a pod no node runs', async () => {
  await runningPod('forced');
  const forced = await kubectl(['delete', 'pod', 'forced', '--grace-period=0', '--force']);
  assert.is(forced.code, 0, forced.stderr);
  assert.is((await api(member, 'GET', `${PODS}/forced`)).status, 404);

  const unscheduled = await api(member, 'POST', PODS, {
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'nowhere' },
      spec: { nodeSelector: { 'example.com/absent': 'yes' }, containers: [{ name: 'web', image: 'nginx' }] },
    },
  });
  assert.is(unscheduled.status, 201);
  const deleted = await api(member, 'DELETE', `${PODS}/nowhere`);
  assert.is(deleted.status, 200);
  assert.is(deleted.body.kind, 'Pod');
  assert.is((await api(member, 'GET', `${PODS}/nowhere`)).status, 404);
});

test("a pod the kubelet has ended stays while a finalizer holds it, and goes with the finalizer's removal", async () => {
  await runningPod('held', { finalizers: ['example.com/hold'] });
  assert.is((await kubectl(['delete', 'pod', 'held', '--wait=false'])).code, 0);
  const ended = await waitFor('the kubelet to end held', async () => {
    const pod = (await api(member, 'GET', `${PODS}/held`)).body;
    return pod.metadata.deletionGracePeriodSeconds === 0 ? pod : undefined;
  });
  assert.equal(ended.metadata.finalizers, ['example.com/hold']);
  const released = await kubectl(['patch', 'pod', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  assert.is(released.code, 0, released.stderr);
  assert.is((await api(member, 'GET', `${PODS}/held`)).status, 404);
});

test.run();
