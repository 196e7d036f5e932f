// What a pod template names, as Karmada's lifted Kubernetes helpers find it: pkg/util/lifted/visitpod.go
// (VisitPodSecretNames, VisitPodConfigmapNames, used by helper.GetDependenciesFromPodTemplate) and
// pkg/util/lifted/podtemplate.go (GetPodFromTemplate, which the native dependency interpreter uses to build the pod
// whose namespace and spec it reads). Cases from visitpod_test.go TestPodSecrets / TestPodConfigmaps (their stub pods,
// each reference named after its field path) and podtemplate_test.go TestGetPodFromTemplate.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { interpretDependencies } from '../../src/interpreters/interpretDependencies.ts';
import { podReferences } from '../../src/interpreters/podReferences.ts';

const secretRef = (name: string) => ({ secretRef: { name } });
const secretKeyRef = (name: string) => ({ name: 'E', valueFrom: { secretKeyRef: { name, key: 'k' } } });
const configMapRef = (name: string) => ({ configMapRef: { name } });
const configMapKeyRef = (name: string) => ({ name: 'E', valueFrom: { configMapKeyRef: { name, key: 'k' } } });

test('every field of a pod spec that names a Secret is read, and only those', () => {
  // visitpod_test.go TestPodSecrets: the stub pod with every secret reference, named after its path.
  const pod = {
    containers: [
      {
        name: 'c',
        envFrom: [secretRef('Spec.Containers[*].EnvFrom[*].SecretRef')],
        env: [secretKeyRef('Spec.Containers[*].Env[*].ValueFrom.SecretKeyRef')],
      },
    ],
    imagePullSecrets: [{ name: 'Spec.ImagePullSecrets' }],
    initContainers: [
      {
        name: 'i',
        envFrom: [secretRef('Spec.InitContainers[*].EnvFrom[*].SecretRef')],
        env: [secretKeyRef('Spec.InitContainers[*].Env[*].ValueFrom.SecretKeyRef')],
      },
    ],
    volumes: [
      { name: 'a', azureFile: { secretName: 'Spec.Volumes[*].VolumeSource.AzureFile.SecretName', shareName: 's' } },
      // secretFile is a path on the node, not a Secret.
      {
        name: 'b',
        cephfs: {
          monitors: ['m'],
          secretFile: '/etc/ceph/secret',
          secretRef: { name: 'Spec.Volumes[*].VolumeSource.CephFS.SecretRef' },
        },
      },
      { name: 'c', cinder: { volumeID: 'v', secretRef: { name: 'Spec.Volumes[*].VolumeSource.Cinder.SecretRef' } } },
      {
        name: 'd',
        flexVolume: { driver: 'd', secretRef: { name: 'Spec.Volumes[*].VolumeSource.FlexVolume.SecretRef' } },
      },
      {
        name: 'e',
        projected: { sources: [{ secret: { name: 'Spec.Volumes[*].VolumeSource.Projected.Sources[*].Secret' } }] },
      },
      {
        name: 'f',
        rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'Spec.Volumes[*].VolumeSource.RBD.SecretRef' } },
      },
      { name: 'g', secret: { secretName: 'Spec.Volumes[*].VolumeSource.Secret.SecretName' } },
      { name: 'h', secret: { secretName: 'Spec.Volumes[*].VolumeSource.Secret' } },
      {
        name: 'i',
        scaleIO: {
          gateway: 'g',
          system: 's',
          secretRef: { name: 'Spec.Volumes[*].VolumeSource.ScaleIO.SecretRef' },
        },
      },
      {
        name: 'j',
        iscsi: {
          targetPortal: 't',
          iqn: 'q',
          lun: 0,
          secretRef: { name: 'Spec.Volumes[*].VolumeSource.ISCSI.SecretRef' },
        },
      },
      {
        name: 'k',
        storageos: { volumeName: 'v', secretRef: { name: 'Spec.Volumes[*].VolumeSource.StorageOS.SecretRef' } },
      },
      {
        name: 'l',
        csi: { driver: 'd', nodePublishSecretRef: { name: 'Spec.Volumes[*].VolumeSource.CSI.NodePublishSecretRef' } },
      },
    ],
    ephemeralContainers: [
      {
        name: 'e',
        envFrom: [secretRef('Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].SecretRef')],
        env: [secretKeyRef('Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.SecretKeyRef')],
      },
    ],
  };
  const found = podReferences(pod);
  assert.equal(
    [...found.secrets].sort(),
    [
      'Spec.Containers[*].EnvFrom[*].SecretRef',
      'Spec.Containers[*].Env[*].ValueFrom.SecretKeyRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].SecretRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.SecretKeyRef',
      'Spec.ImagePullSecrets',
      'Spec.InitContainers[*].EnvFrom[*].SecretRef',
      'Spec.InitContainers[*].Env[*].ValueFrom.SecretKeyRef',
      'Spec.Volumes[*].VolumeSource.AzureFile.SecretName',
      'Spec.Volumes[*].VolumeSource.CephFS.SecretRef',
      'Spec.Volumes[*].VolumeSource.Cinder.SecretRef',
      'Spec.Volumes[*].VolumeSource.FlexVolume.SecretRef',
      'Spec.Volumes[*].VolumeSource.Projected.Sources[*].Secret',
      'Spec.Volumes[*].VolumeSource.RBD.SecretRef',
      'Spec.Volumes[*].VolumeSource.Secret',
      'Spec.Volumes[*].VolumeSource.Secret.SecretName',
      'Spec.Volumes[*].VolumeSource.ScaleIO.SecretRef',
      'Spec.Volumes[*].VolumeSource.ISCSI.SecretRef',
      'Spec.Volumes[*].VolumeSource.StorageOS.SecretRef',
      'Spec.Volumes[*].VolumeSource.CSI.NodePublishSecretRef',
    ].sort(),
  );
  assert.equal([...found.configMaps], [], 'no ConfigMap in the secret stub');
  // The stub with an empty envFrom secret name names nothing.
  assert.equal([...podReferences({ containers: [{ name: 'c', envFrom: [secretRef('')] }] }).secrets], []);
});

test('every field of a pod spec that names a ConfigMap is read, and only those', () => {
  // visitpod_test.go TestPodConfigmaps: the stub pod with every ConfigMap reference, named after its path.
  const pod = {
    containers: [
      {
        name: 'c',
        envFrom: [configMapRef('Spec.Containers[*].EnvFrom[*].ConfigMapRef')],
        env: [configMapKeyRef('Spec.Containers[*].Env[*].ValueFrom.ConfigMapKeyRef')],
      },
    ],
    ephemeralContainers: [
      {
        name: 'e',
        envFrom: [configMapRef('Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].ConfigMapRef')],
        env: [configMapKeyRef('Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.ConfigMapKeyRef')],
      },
    ],
    initContainers: [
      {
        name: 'i',
        envFrom: [configMapRef('Spec.InitContainers[*].EnvFrom[*].ConfigMapRef')],
        env: [configMapKeyRef('Spec.InitContainers[*].Env[*].ValueFrom.ConfigMapKeyRef')],
      },
    ],
    volumes: [
      {
        name: 'p',
        projected: {
          sources: [{ configMap: { name: 'Spec.Volumes[*].VolumeSource.Projected.Sources[*].ConfigMap' } }],
        },
      },
      { name: 'v', configMap: { name: 'Spec.Volumes[*].VolumeSource.ConfigMap' } },
    ],
  };
  const found = podReferences(pod);
  assert.equal(
    [...found.configMaps].sort(),
    [
      'Spec.Containers[*].EnvFrom[*].ConfigMapRef',
      'Spec.Containers[*].Env[*].ValueFrom.ConfigMapKeyRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.EnvFrom[*].ConfigMapRef',
      'Spec.EphemeralContainers[*].EphemeralContainerCommon.Env[*].ValueFrom.ConfigMapKeyRef',
      'Spec.InitContainers[*].EnvFrom[*].ConfigMapRef',
      'Spec.InitContainers[*].Env[*].ValueFrom.ConfigMapKeyRef',
      'Spec.Volumes[*].VolumeSource.Projected.Sources[*].ConfigMap',
      'Spec.Volumes[*].VolumeSource.ConfigMap',
    ].sort(),
  );
  assert.equal([...found.secrets], [], 'no Secret in the ConfigMap stub');
  assert.equal([...podReferences({ containers: [{ name: 'c', envFrom: [configMapRef('')] }] }).configMaps], []);
});

test("a workload's pod template is read as a pod in the workload's namespace; its metadata adds nothing", () => {
  // podtemplate_test.go TestGetPodFromTemplate "Valid template" (labels, annotations and finalizers on the template,
  // one container, the pod in the parent's namespace) and "Parent object without name" (namespace kept all the same),
  // as getDeploymentDependencies / getReplicaSetDependencies / getJobDependencies use it.
  const template = {
    metadata: {
      labels: { app: 'test' },
      annotations: { key: 'value' },
      finalizers: ['finalizer1'],
    },
    spec: {
      containers: [{ name: 'test-container', image: 'test-image', envFrom: [configMapRef('settings')] }],
    },
  };
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['batch/v1', 'Job'],
  ]) {
    assert.equal(
      interpretDependencies(
        { apiVersion, kind, metadata: { name: 'parent', namespace: 'default' }, spec: { template } },
        'default',
      ),
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' }],
      kind,
    );
  }
  assert.equal(
    interpretDependencies(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { namespace: 'default' },
        spec: { template: { metadata: {}, spec: template.spec } },
      },
      'default',
    ),
    [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' }],
  );
});

test('an empty pod template has no dependencies', () => {
  // podtemplate_test.go TestGetPodFromTemplate "Empty template": a pod with no containers.
  for (const template of [{}, { metadata: {}, spec: {} }])
    assert.equal(
      interpretDependencies(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'parent', namespace: 'default' },
          spec: { template },
        },
        'default',
      ),
      [],
    );
});

test.run();
