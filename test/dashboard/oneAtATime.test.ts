import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { oneAtATime } from '../../src/dashboard/oneAtATime.ts';

const busy = (s: number) => Object.assign(new Error('busy'), { status: 503, retryAfter: s });
const refused = (p: Promise<unknown>) =>
  p.then(
    () => assert.unreachable('it ran'),
    (err: Error & { retryAfter?: number }) => err.retryAfter,
  );

test('work that holds the process takes turns: one at a time, then a pause as long as it took, and a refusal says how long to wait', async () => {
  let clock = 0;
  const run = oneAtATime(busy, () => clock);
  let finish = (_: string) => {};
  const first = run(() => new Promise<string>((resolve) => (finish = resolve)));
  clock = 4_000;
  let ranSecond = false;
  const waitWhileRunning = await refused(
    run(async () => {
      ranSecond = true;
    }),
  );
  assert.not.ok(ranSecond);
  assert.ok(waitWhileRunning! >= 1, `${waitWhileRunning}`);
  clock = 10_000;
  finish('first');
  assert.is(await first, 'first');
  // It took 10 s: the next may start 10 s after it ended.
  clock = 12_500;
  assert.is(await refused(run(async () => 'early')), 8);
  clock = 20_000;
  const failed = await run(() => Promise.reject(new Error('render failed'))).catch((err: Error) => err.message);
  assert.is(failed, 'render failed');
  assert.is(await run(async () => 'after'), 'after');
});

test.run();
