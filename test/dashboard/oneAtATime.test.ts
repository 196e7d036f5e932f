import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { oneAtATime } from '../../src/dashboard/oneAtATime.ts';

test('work that holds the process runs one at a time: a second asked meanwhile is refused at once, and a run that fails frees the slot', async () => {
  const run = oneAtATime(() => Object.assign(new Error('busy'), { status: 503 }));
  let finish = (_: string) => {};
  const first = run(() => new Promise<string>((resolve) => (finish = resolve)));
  let ranSecond = false;
  const second = await run(async () => {
    ranSecond = true;
    return 'second';
  }).catch((err: Error & { status?: number }) => err);
  assert.ok(second instanceof Error);
  assert.is(second.status, 503);
  assert.not.ok(ranSecond);
  finish('first');
  assert.is(await first, 'first');
  const failed = await run(() => Promise.reject(new Error('render failed'))).catch((err: Error) => err.message);
  assert.is(failed, 'render failed');
  assert.is(await run(async () => 'after'), 'after');
});

test.run();
