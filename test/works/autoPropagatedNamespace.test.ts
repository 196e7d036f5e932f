// Which Namespaces go to every cluster without a policy (cases after controllers/namespace/namespace_sync_controller_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoPropagatedNamespace, shadowedNamespacePolicies } from '../../src/works/autoPropagatedNamespace.ts';

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

test('a ClusterPropagationPolicy selecting an auto-propagated Namespace is warned as having no effect; a skipped one is its to place', () => {
  const template = (name: string, labels: Record<string, string> = {}) =>
    [
      `v1/Namespace//${name}`,
      { ...ns(name, labels), manifest: {}, source: { file: `templates/${name}.yaml`, line: 1, column: 1 } },
    ] as const;
  const cpp = (name: string, namespace: string) => ({
    object: {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'Namespace', name: namespace }],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      },
    },
    source: { file: `policies/${name}.yaml`, line: 1, column: 1 },
  });
  const problems = shadowedNamespacePolicies({
    templates: new Map([
      template('example'),
      template('quiet', { 'namespace.karmada.io/skip-auto-propagation': 'true' }),
    ]),
    propagationPolicies: [cpp('propagate-example-ns', 'example'), cpp('propagate-quiet-ns', 'quiet')],
  } as unknown as Parameters<typeof shadowedNamespacePolicies>[0]);
  assert.equal(
    problems.map((p) => [p.file, p.code, p.severity]),
    [['policies/propagate-example-ns.yaml', 'NAMESPACE_AUTO_PROPAGATED', 'warning']],
  );
  assert.match(problems[0]!.fix, 'namespace.karmada.io/skip-auto-propagation: "true"');
});

test.run();
