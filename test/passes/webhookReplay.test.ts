import { createHmac, randomUUID } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createReconcilerMetrics } from '../../src/passes/createReconcilerMetrics.ts';
import { ReplayWindow } from '../../src/passes/ReplayWindow.ts';
import { serveEndpoints, type Endpoints } from '../../src/passes/serveEndpoints.ts';
import { verifyWebhook, type Forge } from '../../src/passes/verifyWebhook.ts';
import { forgeHeaders } from '../helpers/forgeDeliveries.ts';

const SECRET = 'replay-s3cret';
const sign = (forge: Forge, body: string, id: string) => forgeHeaders(forge, body, id, SECRET);

let hinted = 0;
let processed: string | undefined;
let server: Endpoints;
test.before(async () => {
  server = await serveEndpoints({
    host: '127.0.0.1',
    port: 0,
    metrics: createReconcilerMetrics('replay-test'),
    webhookSecret: SECRET,
    log: () => undefined,
    readiness: () => ({ ready: true, reason: '' }),
    onWebhook: () => {
      hinted++;
    },
    processedCommit: () => processed,
  });
});
test.after(() => server.close());
test.before.each(() => {
  hinted = 0;
  processed = undefined;
});

async function post(forge: Forge, body: string, id = randomUUID()): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/hooks/${forge}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/json', ...sign(forge, body, id) },
  });
  return { status: res.status, text: await res.text() };
}

for (const forge of ['github', 'gitlab', 'gitea', 'generic'] as Forge[]) {
  test(`${forge}: a signed body replayed under new delivery ids starts one pass, not one per replay`, async () => {
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      after: randomUUID().replace(/-/g, '').padEnd(40, 'a'),
      forge,
    });
    assert.is((await post(forge, body)).status, 202);
    for (let i = 0; i < 5; i++) {
      const replay = await post(forge, body);
      assert.is(replay.status, 409);
      assert.match(replay.text, 'was already received');
    }
    assert.is(hinted, 1);
    assert.is((await post(forge, body.replace('main', 'other'))).status, 202, 'another body is another delivery');
    assert.is(hinted, 2);
  });
}

test('a push whose pushed commit the last pass already processed starts nothing (200), another commit starts a pass', async () => {
  processed = 'c'.repeat(40);
  const same = await post('github', JSON.stringify({ ref: 'refs/heads/main', after: processed, n: 1 }));
  assert.is(same.status, 200);
  assert.match(same.text, `commit ${processed} was already processed`);
  assert.is(hinted, 0);
  assert.is((await post('github', JSON.stringify({ ref: 'refs/heads/main', after: 'd'.repeat(40) }))).status, 202);
  assert.is((await post('github', JSON.stringify({ zen: 'ping without a commit' }))).status, 202);
  assert.is(hinted, 2);
});

test('ReplayWindow forgets a key after its window and the oldest keys past its capacity', () => {
  const window = new ReplayWindow(1000, 3);
  assert.ok(window.remember('a', 0));
  assert.not.ok(window.remember('a', 999));
  assert.ok(window.remember('a', 1000), 'after the window the same key counts once more');
  for (const k of ['b', 'c', 'd']) assert.ok(window.remember(k, 1001));
  assert.is(window.size, 3);
  assert.ok(window.remember('a', 1002), 'the oldest key was dropped past the capacity');
});

/** GitLab's signing token, as the Standard Webhooks specification signs: v1,base64(HMAC(id.timestamp.body)). */
function standardHeaders(
  body: string,
  id: string,
  timestamp: number,
  key: Buffer | string = SECRET,
): Record<string, string> {
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

test('gitlab signing token: a signed timestamp within five minutes is accepted, an older one is refused however well signed', async () => {
  const now = Math.floor(Date.now() / 1000);
  const send = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(`${server.url}/hooks/gitlab`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
    return { status: res.status, text: await res.text() };
  };
  const fresh = JSON.stringify({ after: 'e'.repeat(40), n: 'fresh' });
  assert.is((await send(fresh, standardHeaders(fresh, 'msg_1', now))).status, 202);
  const old = JSON.stringify({ after: 'f'.repeat(40), n: 'old' });
  const stale = await send(old, standardHeaders(old, 'msg_2', now - 10 * 60));
  assert.is(stale.status, 401);
  assert.match(stale.text, 'more than 5 minutes');
  const forged = await send(old, { ...standardHeaders(old, 'msg_3', now), 'webhook-signature': 'v1,AAAA' });
  assert.is(forged.status, 401);
  assert.is(hinted, 1);
});

test('gitlab signing token: a whsec_ secret is the base64 key of the Standard Webhooks specification', () => {
  const key = Buffer.from('a Standard Webhooks key');
  const secret = `whsec_${key.toString('base64')}`;
  const body = '{"after":"1111111111111111111111111111111111111111"}';
  const now = Date.now();
  const verdict = verifyWebhook(
    'gitlab',
    lower(standardHeaders(body, 'msg_9', Math.floor(now / 1000), key)),
    Buffer.from(body),
    secret,
    now,
  );
  assert.equal(verdict, { ok: true, forge: 'gitlab', deliveryId: 'msg_9' });
});

const lower = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

test.run();
