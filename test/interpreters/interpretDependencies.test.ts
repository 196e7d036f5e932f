// What a template depends on, as Karmada's native GetDependencies finds it (cases after
// default/native/dependencies_test.go and lifted/visitpod_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretDependencies } from '../../src/interpreters/interpretDependencies.ts';

const names = (deps: { kind: string; name: string }[]) => deps.map((d) => `${d.kind}/${d.name}`);
const podSpec = {
  serviceAccountName: 'test-serviceaccount',
  containers: [
    {
      name: 'app',
      envFrom: [{ configMapRef: { name: 'test-configmap' } }],
      env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'p' } } }],
    },
  ],
  volumes: [
    { name: 'data', persistentVolumeClaim: { claimName: 'test-pvc' } },
    { name: 'cloud', azureFile: { secretName: 'cloud-secret', shareName: 's' } },
  ],
};

test('an Ingress depends on the Secrets its TLS entries name, in their order and as often; an entry without secretName adds nothing', () => {
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'demo' },
    spec: {
      tls: [
        { hosts: ['a.example.com'], secretName: 'test-secret' },
        { hosts: ['b.example.com'], secretName: 'cloud-secret' },
        { hosts: ['c.example.com'] },
        { hosts: ['d.example.com'], secretName: 'test-secret' },
      ],
    },
  };
  assert.equal(interpretDependencies(ingress, 'demo'), [
    { apiVersion: 'v1', kind: 'Secret', namespace: 'demo', name: 'test-secret' },
    { apiVersion: 'v1', kind: 'Secret', namespace: 'demo', name: 'cloud-secret' },
    { apiVersion: 'v1', kind: 'Secret', namespace: 'demo', name: 'test-secret' },
  ]);
  assert.equal(interpretDependencies({ ...ingress, spec: {} }, 'demo'), []);
});

test('a ServiceImport depends on its derived Service derived-<name> (getServiceImportDependencies)', () => {
  const imp = {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ServiceImport',
    metadata: { name: 'serve', namespace: 'demo' },
    spec: { type: 'ClusterSetIP' },
  };
  assert.equal(interpretDependencies(imp, 'demo'), [
    { apiVersion: 'v1', kind: 'Service', namespace: 'demo', name: 'derived-serve' },
  ]);
});

test('volume plugins that take a secretRef, CSI node-publish secrets and ephemeral containers are dependencies too', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      containers: [{ name: 'app' }],
      ephemeralContainers: [
        {
          name: 'debug',
          envFrom: [{ secretRef: { name: 'debug-secret' } }],
          env: [{ name: 'C', valueFrom: { configMapKeyRef: { name: 'debug-config', key: 'c' } } }],
        },
      ],
      volumes: [
        { name: 'a', cephfs: { monitors: ['m'], secretRef: { name: 'ceph' } } },
        { name: 'b', cinder: { volumeID: 'v', secretRef: { name: 'cinder' } } },
        { name: 'c', flexVolume: { driver: 'd', secretRef: { name: 'flex' } } },
        { name: 'd', rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'rbd' } } },
        { name: 'e', scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'scaleio' } } },
        { name: 'f', iscsi: { targetPortal: 't', iqn: 'q', lun: 0, secretRef: { name: 'iscsi' } } },
        { name: 'g', storageos: { volumeName: 'v', secretRef: { name: 'storageos' } } },
        { name: 'h', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi' } } },
        { name: 'i', azureFile: { secretName: 'azure', shareName: 's' } },
      ],
    },
  };
  assert.equal(names(interpretDependencies(pod, 'demo')), [
    'ConfigMap/debug-config',
    'Secret/azure',
    'Secret/ceph',
    'Secret/cinder',
    'Secret/csi',
    'Secret/debug-secret',
    'Secret/flex',
    'Secret/iscsi',
    'Secret/rbd',
    'Secret/scaleio',
    'Secret/storageos',
  ]);
});

test('a StatefulSet leaves out the PVCs whose claim name is one of its volumeClaimTemplates, whatever the volume is called', () => {
  const sts = (templates: string[]) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 's' },
    spec: { template: { spec: podSpec }, volumeClaimTemplates: templates.map((name) => ({ metadata: { name } })) },
  });
  assert.equal(names(interpretDependencies(sts(['test-pvc']), 'demo')), [
    'ConfigMap/test-configmap',
    'Secret/cloud-secret',
    'Secret/env-secret',
    'ServiceAccount/test-serviceaccount',
  ]);
  // A template named like the volume (not the claim) does not hide the claim.
  assert.ok(names(interpretDependencies(sts(['data']), 'demo')).includes('PersistentVolumeClaim/test-pvc'));
});

test('every workload kind reads its pod template, ConfigMaps, Secrets, ServiceAccount then PVCs; the default ServiceAccount and other kinds add nothing', () => {
  const all = [
    'ConfigMap/test-configmap',
    'Secret/cloud-secret',
    'Secret/env-secret',
    'ServiceAccount/test-serviceaccount',
    'PersistentVolumeClaim/test-pvc',
  ];
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'],
    ['batch/v1', 'Job'],
  ]) {
    assert.equal(
      names(interpretDependencies({ apiVersion, kind, spec: { template: { spec: podSpec } } }, 'demo')),
      all,
      kind,
    );
  }
  assert.equal(
    names(
      interpretDependencies(
        { apiVersion: 'batch/v1', kind: 'CronJob', spec: { jobTemplate: { spec: { template: { spec: podSpec } } } } },
        'demo',
      ),
    ),
    all,
  );
  assert.equal(
    interpretDependencies(
      { apiVersion: 'v1', kind: 'Pod', spec: { serviceAccountName: 'default', containers: [{ name: 'a' }] } },
      'demo',
    ),
    [],
  );
  assert.equal(
    interpretDependencies({ apiVersion: 'v1', kind: 'Service', spec: { template: { spec: podSpec } } }, 'demo'),
    [],
  );
});

test('the deprecated serviceAccount names the ServiceAccount when serviceAccountName is empty, as the API server stores the pod spec', () => {
  const deployment = (spec: Record<string, unknown>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    spec: { template: { spec: { containers: [{ name: 'c' }], ...spec } } },
  });
  assert.equal(names(interpretDependencies(deployment({ serviceAccount: 'sa-old' }), 'demo')), [
    'ServiceAccount/sa-old',
  ]);
  assert.equal(
    names(interpretDependencies(deployment({ serviceAccount: 'sa-old', serviceAccountName: 'sa-new' }), 'demo')),
    ['ServiceAccount/sa-new'],
  );
  assert.equal(names(interpretDependencies(deployment({ serviceAccount: 'default' }), 'demo')), []);
});

test.run();
