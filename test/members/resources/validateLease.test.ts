// kube-apiserver's ValidateLeaseSpec as the member answers it: each mistake with its field path and the API server's words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { leaseSpecErrors } from '../../../src/members/resources/validateLease.ts';

const messages = (spec: unknown) => leaseSpecErrors(spec).map((e) => `${e.field}: ${e.body}`);

test('a lease election writes passes: any positive duration, no coordination fields or a known strategy', () => {
  assert.equal(messages({ holderIdentity: 'a', leaseDurationSeconds: 1, leaseTransitions: 0 }), []);
  assert.equal(messages({ holderIdentity: '', leaseDurationSeconds: 15, preferredHolder: '' }), []);
  assert.equal(messages({ strategy: 'OldestEmulationVersion', preferredHolder: 'kcm-2' }), []);
  assert.equal(messages({ strategy: 'example.com/newest' }), []);
  assert.equal(messages(undefined), []);
});

test('a duration not above zero, negative transitions and a preferred holder without strategy are refused', () => {
  assert.equal(messages({ leaseDurationSeconds: -3, leaseTransitions: -1, preferredHolder: 'b' }), [
    'spec.leaseDurationSeconds: Invalid value: -3: must be greater than 0',
    'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
  ]);
  assert.equal(messages({ leaseDurationSeconds: 0 }), [
    'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
  ]);
});

test('a strategy is a Kubernetes-defined name or a domain-prefixed qualified name', () => {
  assert.equal(messages({ strategy: '' }), [
    'spec.strategy.strategy: Unsupported value: "": supported values: "OldestEmulationVersion"',
  ]);
  assert.equal(messages({ strategy: 'Newest', preferredHolder: 'b' }), [
    'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
  ]);
  assert.equal(messages({ strategy: '/newest' }), [
    'spec.strategy.strategy: Invalid value: "/newest": prefix part must be non-empty',
  ]);
});

test.run();
