import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';
import { RegistrationError } from '../../src/registrations/RegistrationError.ts';

test('kubectl taint syntax: key=value:Effect, key:Effect, key:Effect- and key-', () => {
  assert.equal(
    parseTaintArgs(['dedicated=gpu:NoSchedule', 'example.com/spot:PreferNoSchedule', 'old:NoExecute-', 'gone-']),
    [
      { action: 'add', key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { action: 'add', key: 'example.com/spot', effect: 'PreferNoSchedule' },
      { action: 'remove', key: 'old', effect: 'NoExecute' },
      { action: 'remove', key: 'gone' },
    ],
  );
});

function rejects(words: string[], text: RegExp): void {
  try {
    parseTaintArgs(words);
  } catch (err) {
    assert.instance(err, RegistrationError);
    assert.is((err as RegistrationError).code, 'BAD_TAINT');
    assert.match((err as Error).message, text);
    assert.match((err as Error).message, /fix: write key=value:Effect/);
    return;
  }
  assert.unreachable(`${words.join(' ')} was accepted`);
}

test('bad words are refused with the word, the reason and the syntax', () => {
  rejects(['k=v:Sometimes'], /unknown effect "Sometimes"; use NoSchedule, PreferNoSchedule, NoExecute/);
  rejects(['k=v'], /"k=v": an added taint needs an effect/);
  rejects(['-bad:NoSchedule'], /key "-bad" is not a qualified name/);
  rejects(['k=v:NoSchedule-'], /a removal names the key \(and effect\) only/);
  rejects(['k=not ok:NoSchedule'], /value "not ok" is not a valid label value/);
  rejects(['k=a:NoSchedule', 'k=b:NoSchedule'], /the same key and effect are given twice/);
  rejects(['k=a:NoSchedule', 'k-'], /both added and removed/);
  rejects([], /no taint given/);
});

test.run();
