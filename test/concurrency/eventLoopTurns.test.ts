// Long work that asks for turns lets timers run while it goes on, as a Lease renewal must during a fleet's render.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventLoopTurns } from '../../src/concurrency/eventLoopTurns.ts';

/** Spins on the thread until `stop()` says so or `safetyMs` passed; with `turns`, gives one whenever one is due. */
async function busy(stop: () => boolean, turns?: ReturnType<typeof eventLoopTurns>, safetyMs = 5_000) {
  const until = performance.now() + safetyMs;
  let spins = 0;
  while (!stop() && performance.now() < until) {
    spins++;
    if (turns?.due()) await turns.give();
  }
  return spins;
}

test('a timer due while the work runs fires before the work ends, once a slice is over', async () => {
  let fired = false;
  setTimeout(() => (fired = true), 0);
  await busy(() => fired, eventLoopTurns(1));
  assert.ok(fired, 'the timer ran while the work went on');
});

test('until a turn is due, a timer waits for the work to end', async () => {
  let fired = false;
  setTimeout(() => (fired = true), 0);
  // A slice longer than the work: no turn is due, so the timer cannot fire until the work has ended.
  const turns = eventLoopTurns(60_000);
  const until = performance.now() + 20;
  await busy(() => performance.now() >= until || fired, turns);
  assert.not.ok(fired, 'no turn was given');
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(fired);
});

test('due() is false right after a turn and true again once the slice has run', async () => {
  const turns = eventLoopTurns(5);
  await turns.give();
  assert.not.ok(turns.due());
  const until = performance.now() + 6;
  while (performance.now() < until);
  assert.ok(turns.due());
});

test('with clockEvery, due() reads the clock once in that many calls', async () => {
  const turns = eventLoopTurns(0, { clockEvery: 3 });
  assert.equal([turns.due(), turns.due(), turns.due(), turns.due()], [false, false, true, false]);
});

test.run();
