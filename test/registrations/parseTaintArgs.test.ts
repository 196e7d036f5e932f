import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';
import { RegistrationError } from '../../src/registrations/RegistrationError.ts';

test('karmadactl taint syntax: key=value:Effect, key:Effect, key:Effect- and key-', () => {
  assert.equal(parseTaintArgs(['dedicated=gpu:NoSchedule', 'example.com/spot:NoExecute', 'old:NoExecute-', 'gone-']), [
    { action: 'add', key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    { action: 'add', key: 'example.com/spot', effect: 'NoExecute' },
    { action: 'remove', key: 'old', effect: 'NoExecute' },
    { action: 'remove', key: 'gone' },
  ]);
});

// Karmada's pkg/util/lifted/taint_test.go, TestParseTaints: "delete taints", "add taints and delete taints".
test('a removal may carry a value, which is dropped; additions come before removals, as karmadactl applies them', () => {
  assert.equal(parseTaintArgs(['foo:NoSchedule-', 'bar:NoSchedule-', 'qux=:NoSchedule-', 'dedicated-']), [
    { action: 'remove', key: 'foo', effect: 'NoSchedule' },
    { action: 'remove', key: 'bar', effect: 'NoSchedule' },
    { action: 'remove', key: 'qux', effect: 'NoSchedule' },
    { action: 'remove', key: 'dedicated' },
  ]);
  assert.equal(parseTaintArgs(['foo=abc:NoSchedule', 'baz=:NoSchedule-', 'bar=abc:NoSchedule', 'foo:NoExecute-']), [
    { action: 'add', key: 'foo', value: 'abc', effect: 'NoSchedule' },
    { action: 'add', key: 'bar', value: 'abc', effect: 'NoSchedule' },
    { action: 'remove', key: 'baz', effect: 'NoSchedule' },
    { action: 'remove', key: 'foo', effect: 'NoExecute' },
  ]);
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
  rejects(['k=not ok:NoSchedule-'], /value "not ok" is not a valid label value/);
  rejects(['k:PreferNoSchedule'], /a Cluster takes no PreferNoSchedule taint/);
  rejects(['k=not ok:NoSchedule'], /value "not ok" is not a valid label value/);
  rejects(['k=a:NoSchedule', 'k=b:NoSchedule'], /the same key and effect are given twice/);
  rejects([], /no taint given/);
});

test.run();
