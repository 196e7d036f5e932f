// Which Namespaces go to every cluster without a policy (cases after controllers/namespace/namespace_sync_controller_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoPropagatedNamespace } from '../../src/works/autoPropagatedNamespace.ts';

const ns = (name: string, labels: Record<string, string> = {}) => ({
  ref: { apiVersion: 'v1', kind: 'Namespace', namespace: '', name },
  labels,
});

test('the skip-auto-propagation label is read case-insensitively, as Karmada lower-cases it', () => {
  for (const value of ['true', 'True', 'TRUE']) {
    assert.is(
      autoPropagatedNamespace(ns('team-a', { 'namespace.karmada.io/skip-auto-propagation': value })).propagate,
      false,
      value,
    );
  }
  for (const value of ['false', 'yes', '']) {
    assert.is(
      autoPropagatedNamespace(ns('team-a', { 'namespace.karmada.io/skip-auto-propagation': value })).propagate,
      true,
      value,
    );
  }
});

test('reserved, default and kube-* namespaces stay home; a regular one goes everywhere; other kinds are not namespaces', () => {
  for (const name of [
    'karmada-system',
    'karmada-cluster',
    'karmada-es-member1',
    'default',
    'kube-system',
    'kube-public',
  ])
    assert.is(autoPropagatedNamespace(ns(name)).propagate, false, name);
  assert.is(autoPropagatedNamespace(ns('team-a')).propagate, true);
  assert.is(
    autoPropagatedNamespace({
      ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team-a', name: 'x' },
      labels: {},
    }).propagate,
    false,
  );
});

test.run();
