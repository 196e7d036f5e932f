// The karmadactl taint words, as pkg/util/lifted/taint.go ParseTaints / parseTaint read them (called by
// pkg/karmadactl/taint/taint.go Complete). The cases of taint_test.go TestParseTaints are in
// test/registrations/karmadaHelperTaintArgCases.test.ts and parseTaintArgs.test.ts; these follow the branches of
// parseTaint those cases do not reach.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RegistrationError } from '../../src/registrations/RegistrationError.ts';
import { parseTaintArgs } from '../../src/registrations/parseTaintArgs.ts';

function refused(words: string[]): boolean {
  try {
    parseTaintArgs(words);
  } catch (err) {
    assert.instance(err, RegistrationError);
    return true;
  }
  return false;
}

test('a removal without an effect names a bare key: key=value- is refused', () => {
  // parseTaint, case len(parts) == 1: the whole word is the key, with no split at "=", and "foo=bar" is no
  // qualified name (validation.IsQualifiedName), so ParseTaints returns "invalid taint spec".
  assert.is(refused(['foo=bar-']), true, 'foo=bar-');
  assert.is(refused(['foo=-']), true, 'foo=-');
  // The same removal with an effect splits key and value, and the value is dropped.
  assert.equal(parseTaintArgs(['foo=bar:NoSchedule-']), [{ action: 'remove', key: 'foo', effect: 'NoSchedule' }]);
});

test('an empty removal and a removal with more than one colon are refused', () => {
  // parseTaint: "" is no qualified name; three parts are "invalid taint spec".
  assert.is(refused(['-']), true, '-');
  assert.is(refused(['foo:bar:NoSchedule-']), true, 'foo:bar:NoSchedule-');
  assert.is(refused(['foo=a=b:NoSchedule-']), true, 'foo=a=b:NoSchedule-');
});

test('a prefixed key is a qualified name and may be added and removed', () => {
  // parseTaint: validation.IsQualifiedName(key) admits a DNS-subdomain prefix.
  assert.equal(parseTaintArgs(['example.com/gpu=yes:NoExecute', 'example.com/old-']), [
    { action: 'add', key: 'example.com/gpu', value: 'yes', effect: 'NoExecute' },
    { action: 'remove', key: 'example.com/old' },
  ]);
  assert.is(refused(['Example.com/gpu:NoExecute']), true, 'an upper-case prefix is no DNS subdomain');
});

test('the same key may be added once per effect', () => {
  // ParseTaints: uniqueness is by <key, effect>.
  assert.equal(parseTaintArgs(['k=a:NoSchedule', 'k=a:NoExecute']), [
    { action: 'add', key: 'k', value: 'a', effect: 'NoSchedule' },
    { action: 'add', key: 'k', value: 'a', effect: 'NoExecute' },
  ]);
});

test.run();
