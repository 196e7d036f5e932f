// Webhooks into a running reconciler (real daemon in-process, real Git, loopback HTTP): the commit its last pass
// rendered is what a replayed push is checked against.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startReconciler, type Reconciler } from '../../src/passes/startReconciler.ts';
import { configMap, makeFleet, type Fleet } from '../helpers/fleet.ts';
import { forgeHeaders } from '../helpers/forgeDeliveries.ts';
import { LogEvents } from '../helpers/logEvents.ts';

const SECRET = 'reconciler-hooks-s3cret';
let fleet: Fleet;
let events: LogEvents;
let reconciler: Reconciler;

test.before(async () => {
  fleet = await makeFleet({ readyDelayMs: 0 });
  events = new LogEvents();
  reconciler = await startReconciler({
    source: { kind: 'local', path: fleet.bare },
    clusters: { kind: 'fixed', targets: new Map() },
    resyncMs: 0,
    statusUpdateFrequencyMs: 0,
    listen: { host: '127.0.0.1', port: 0 },
    webhookSecret: SECRET,
    log: events.log,
  });
});
test.after(async () => {
  await reconciler?.stop();
  await fleet?.cleanup();
});

async function pushHook(after: string): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after });
  const res = await fetch(`${reconciler.url}/hooks/github`, {
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/json',
      ...forgeHeaders('github', body, randomBytes(8).toString('hex'), SECRET),
    },
  });
  return { status: res.status, text: await res.text() };
}
const webhookTriggers = async () =>
  (await reconciler.metrics.registry.getSingleMetric('flotilla_triggers_total')!.get()).values.find(
    (v) => v.labels.trigger === 'webhook',
  )?.value ?? 0;

test('a push webhook for the commit the last pass rendered starts nothing; one for a newer commit starts a pass with reason webhook', async () => {
  const sha = fleet.push({ 'templates/settings.yaml': configMap('settings', 'blue') }, 'a ConfigMap');
  const pass = await events.next('the pass of the push', (e) => e.step === 'pass' && e.sourceCommit === sha);
  assert.ok((pass.rendered as number) > 0, 'the pass rendered the commit');
  const same = await pushHook(sha);
  assert.is(same.status, 200);
  assert.match(same.text, `commit ${sha} was already processed`);
  assert.is(await webhookTriggers(), 0, 'no pass was asked for');

  const newer = await pushHook('e'.repeat(40));
  assert.is(newer.status, 202, newer.text);
  const hooked = await events.next(
    'the pass of the webhook',
    (e) => e.step === 'pass' && (e.reasons as string[]).includes('webhook'),
    15_000,
    true,
  );
  assert.is(hooked.sourceCommit, sha, 'the pass reads Git afresh: the branch head');
  assert.is(await webhookTriggers(), 1);
});

test.run();
