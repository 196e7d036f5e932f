// The karmadactl taint syntax, case by case (cases after pkg/util/lifted/taint_test.go at f8fdd02, TestParseTaints:
// the malformed words and "add new taints"; "delete taints" and "add taints and delete taints" are in
// parseTaintArgs.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RegistrationError } from '../../src/registrations/RegistrationError.ts';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';

test('a malformed taint word is refused', () => {
  for (const word of [
    '',
    'foo=abc',
    'foo=abc=xyz:NoSchedule',
    'foo=abc:xyz:NoSchedule',
    'foo',
    'foo=abc:invalid_effect',
    'foo:invalid_effect-',
  ]) {
    let refused: unknown;
    try {
      parseTaintArgs([word]);
    } catch (err) {
      refused = err;
    }
    assert.instance(refused, RegistrationError, JSON.stringify(word));
  }
});

test('added taints keep their order; key:Effect and key=:Effect both mean an empty value', () => {
  assert.equal(
    parseTaintArgs([
      'foo=abc:NoSchedule',
      'bar=abc:NoSchedule',
      'baz:NoSchedule',
      'qux:NoSchedule',
      'foobar=:NoSchedule',
    ]),
    [
      { action: 'add', key: 'foo', value: 'abc', effect: 'NoSchedule' },
      { action: 'add', key: 'bar', value: 'abc', effect: 'NoSchedule' },
      { action: 'add', key: 'baz', effect: 'NoSchedule' },
      { action: 'add', key: 'qux', effect: 'NoSchedule' },
      { action: 'add', key: 'foobar', effect: 'NoSchedule' },
    ],
  );
});

test.run();
