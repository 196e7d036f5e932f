import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KubeUnreachableError, sendRequest } from '../../src/deliveries/sendRequest.ts';
import { fakeKube, json } from './helpers/fakeKube.ts';

const policy = { attempts: 4, baseDelayMs: 10, maxDelayMs: 25 };

test('5xx and 429 are retried with growing, capped delays until an answer that is not', async () => {
  const answers = [json(503, {}), json(429, {}), json(500, {}), json(200, { ok: true })];
  const kube = fakeKube('m', () => answers.shift()!);
  const delays: number[] = [];
  const res = await sendRequest(kube, { method: 'GET', path: '/x' }, policy, async (ms) => void delays.push(ms));
  assert.is(res.status, 200);
  assert.is(kube.log.length, 4);
  assert.is(delays.length, 3);
  assert.ok(delays[0]! >= 5 && delays[0]! <= 10 && delays[2]! <= 25, `delays ${delays}`);
});

test('4xx answers come back at once', async () => {
  const kube = fakeKube('m', () => json(404, {}));
  assert.is((await sendRequest(kube, { method: 'GET', path: '/x' }, policy, async () => undefined)).status, 404);
  assert.is(kube.log.length, 1);
});

test('no answer after every attempt throws KubeUnreachableError naming the cause', async () => {
  const kube = fakeKube('m', () => {
    throw Object.assign(new TypeError('fetch failed'), {
      cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' },
    });
  });
  const err = await sendRequest(kube, { method: 'GET', path: '/x' }, policy, async () => undefined).catch((e) => e);
  assert.instance(err, KubeUnreachableError);
  assert.match(err.message, /ECONNREFUSED/);
  assert.is(kube.log.length, 4);
});

test('a 5xx on the last attempt is returned, not thrown', async () => {
  const kube = fakeKube('m', () => json(500, { message: 'boom' }));
  assert.is((await sendRequest(kube, { method: 'GET', path: '/x' }, policy, async () => undefined)).status, 500);
});

test.run();
