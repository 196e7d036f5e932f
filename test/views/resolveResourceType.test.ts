import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveResourceType } from '../../src/views/resolveResourceType.ts';

const kinds = [
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'FederatedHPA' },
  { apiVersion: 'autoscaling.karmada.io/v1alpha1', kind: 'CronFederatedHPA' },
  { apiVersion: 'networking.karmada.io/v1alpha1', kind: 'MultiClusterService' },
];

test("Karmada's short names resolve to its kinds the repo holds, as kubectl get fhpa does on Karmada", () => {
  // A FederatedHPA has its own view (its decision and conditions from the status branch), whatever the repo holds.
  assert.equal(resolveResourceType('fhpa', kinds), { type: 'federatedhpas' });
  assert.is((resolveResourceType('cronfhpa', kinds) as { kind?: string } | undefined)?.kind, 'CronFederatedHPA');
  assert.equal(resolveResourceType('cronfhpa.autoscaling.karmada.io', kinds), resolveResourceType('cronfhpa', kinds));
  assert.is((resolveResourceType('mcs', kinds) as { kind?: string } | undefined)?.kind, 'MultiClusterService');
  assert.equal(resolveResourceType('wk', kinds), { type: 'works' });
});

test('a short name of a kind the repo does not hold resolves to nothing', () => {
  assert.is(resolveResourceType('cronfhpa', []), undefined);
  assert.is(resolveResourceType('mci', kinds), undefined);
  assert.is(resolveResourceType('cronfhpa.apps', kinds), undefined);
});

test("every built-in kind resolves by kubectl's short name, plural and kind, as kube-apiserver's discovery names it", () => {
  const kindOf = (word: string) => resolveResourceType(word, []) as { kind?: string; group?: string } | undefined;
  for (const [word, kind, group] of [
    ['rc', 'ReplicationController', ''],
    ['pv', 'PersistentVolume', ''],
    ['pc', 'PriorityClass', 'scheduling.k8s.io'],
    ['quota', 'ResourceQuota', ''],
    ['limits', 'LimitRange', ''],
    ['ep', 'Endpoints', ''],
    ['csr', 'CertificateSigningRequest', 'certificates.k8s.io'],
    ['ingressclasses', 'IngressClass', 'networking.k8s.io'],
    ['endpointslice', 'EndpointSlice', 'discovery.k8s.io'],
    ['deploy', 'Deployment', 'apps'],
    ['pods', 'Pod', ''],
    ['replicationcontrollers.v1', undefined, undefined],
  ] as const) {
    const found = kindOf(word);
    assert.equal([found?.kind, found?.group], [kind, group], word);
  }
  // A group narrows the word to that group's kind: metrics-server's pods are no template.
  assert.is(resolveResourceType('pods.metrics.k8s.io', []), undefined);
  assert.is((resolveResourceType('pc.scheduling.k8s.io', []) as { kind?: string })?.kind, 'PriorityClass');
});

test.run();
