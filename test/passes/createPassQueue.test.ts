import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPassQueue } from '../../src/passes/createPassQueue.ts';

/** A pass that stays open until the test releases it. */
function gatedPasses() {
  const started: string[][] = [];
  const gates: (() => void)[] = [];
  let running = 0;
  let maxRunning = 0;
  const run = (reasons: readonly string[]) => {
    started.push([...reasons]);
    running++;
    maxRunning = Math.max(maxRunning, running);
    return new Promise<void>((resolve) =>
      gates.push(() => {
        running--;
        resolve();
      }),
    );
  };
  const startedCount = async (n: number) => {
    while (started.length < n) await new Promise((r) => setImmediate(r));
  };
  return { run, started, gates, startedCount, max: () => maxRunning };
}

test('one pass at a time: triggers during a pass share exactly one more pass, with every reason', async () => {
  const g = gatedPasses();
  const q = createPassQueue(g.run);
  const first = q.kick('start');
  await g.startedCount(1);
  const a = q.kick('push');
  const b = q.kick('webhook');
  const c = q.kick('push');
  assert.is(g.started.length, 1, 'nothing else starts while a pass runs');
  g.gates[0]!();
  await first;
  await g.startedCount(2);
  assert.equal(g.started[1], ['push', 'webhook']);
  let settled = false;
  void Promise.all([a, b, c]).then(() => {
    settled = true;
  });
  await new Promise((r) => setImmediate(r));
  assert.not.ok(settled, 'the queued callers wait for the pass that covers them, not the one that was running');
  g.gates[1]!();
  await Promise.all([a, b, c]);
  assert.is(g.started.length, 2);
  assert.is(g.max(), 1);
  await q.stop();
});

test('a failing pass does not stop the queue', async () => {
  let calls = 0;
  const q = createPassQueue(async () => {
    calls++;
    if (calls === 1) throw new Error('boom');
  });
  await q.kick('a');
  await q.kick('b');
  assert.is(calls, 2);
  await q.stop();
});

test('stop waits for the running pass and refuses new ones', async () => {
  const g = gatedPasses();
  const q = createPassQueue(g.run);
  void q.kick('start');
  await g.startedCount(1);
  void q.kick('queued');
  let stopped = false;
  const stopping = q.stop().then(() => {
    stopped = true;
  });
  await new Promise((r) => setImmediate(r));
  assert.not.ok(stopped);
  g.gates[0]!();
  await stopping;
  await q.kick('late');
  assert.is(g.started.length, 1, 'neither the queued pass nor a later kick ran after stop');
});

test.run();
