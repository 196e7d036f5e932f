import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keptAnswer } from '../../src/dashboard/keptAnswer.ts';

test('an answer is read once per key, a failed read is read again, and beyond the bound the oldest goes', async () => {
  const answers = new Map<string, Promise<string>>();
  const reads: string[] = [];
  const read =
    (key: string, fail = false) =>
    () => {
      reads.push(key);
      return fail ? Promise.reject(new Error(`no ${key}`)) : Promise.resolve(`answer ${key}`);
    };
  assert.is(await keptAnswer(answers, 'a', 2, read('a')), 'answer a');
  assert.is(await keptAnswer(answers, 'a', 2, read('a')), 'answer a');
  assert.equal(reads, ['a']);
  await keptAnswer(answers, 'b', 2, read('b', true)).catch(() => undefined);
  await Promise.resolve();
  assert.is(await keptAnswer(answers, 'b', 2, read('b')), 'answer b');
  assert.equal(reads, ['a', 'b', 'b']);
  await keptAnswer(answers, 'c', 2, read('c'));
  assert.equal([...answers.keys()], ['b', 'c']);
});

test.run();
