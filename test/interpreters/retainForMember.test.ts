// What an update keeps from the member's object (cases after default/native/retain_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { retainForMember } from '../../src/interpreters/retainForMember.ts';

const deploy = (labels: Record<string, string>, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'w', labels },
  spec: { replicas },
});

test('a Deployment labelled retain-replicas=true keeps the replicas its member scaled it to; without the label Git wins', () => {
  const live = deploy({}, 7);
  assert.is(
    retainForMember(deploy({ 'resourcetemplate.karmada.io/retain-replicas': 'true' }, 2), live).spec.replicas,
    7,
  );
  assert.is(
    retainForMember(deploy({ 'resourcetemplate.karmada.io/retain-replicas': 'True' }, 2), live).spec.replicas,
    2,
    'only the exact value',
  );
  assert.is(retainForMember(deploy({}, 2), live).spec.replicas, 2);
  assert.is(
    retainForMember(deploy({ 'resourcetemplate.karmada.io/retain-replicas': 'true' }, 2), undefined).spec.replicas,
    2,
    'a create sends what Git says',
  );
});

test('a Pod keeps its node, service account, volumes and the volume mounts of containers that are still there', () => {
  const desired = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      containers: [
        { name: 'app', image: 'v2', volumeMounts: [] },
        { name: 'new', image: 'x' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
  };
  const live = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      nodeName: 'node-1',
      serviceAccountName: 'default',
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'kube-api-access-x', projected: { sources: [] } },
      ],
      containers: [
        { name: 'app', image: 'v1', volumeMounts: [{ name: 'kube-api-access-x', mountPath: '/var/run/secrets' }] },
      ],
    },
  };
  const kept = retainForMember(desired, live);
  assert.equal(kept.spec, {
    containers: [
      { name: 'app', image: 'v2', volumeMounts: [{ name: 'kube-api-access-x', mountPath: '/var/run/secrets' }] },
      { name: 'new', image: 'x' },
    ],
    volumes: live.spec.volumes,
    nodeName: 'node-1',
    serviceAccountName: 'default',
  });
  assert.equal(desired.spec.containers[0]!.volumeMounts, [], 'the desired object is not changed');
});

test('Service clusterIP and health-check port, PVC volumeName, PV claimRef and a Job generated selector come from the member', () => {
  assert.equal(
    retainForMember(
      { apiVersion: 'v1', kind: 'Service', spec: { ports: [] } },
      { spec: { clusterIP: '10.0.0.7', healthCheckNodePort: 31000 } },
    ).spec,
    { ports: [], healthCheckNodePort: 31000, clusterIP: '10.0.0.7' },
  );
  assert.equal(
    retainForMember({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: {} }, { spec: { volumeName: 'pv-1' } })
      .spec,
    { volumeName: 'pv-1' },
  );
  assert.equal(
    retainForMember({ apiVersion: 'v1', kind: 'PersistentVolume', spec: {} }, { spec: { claimRef: { name: 'c' } } })
      .spec,
    { claimRef: { name: 'c' } },
  );
  const job = retainForMember(
    { apiVersion: 'batch/v1', kind: 'Job', spec: { template: { spec: {} } } },
    {
      spec: {
        selector: { matchLabels: { 'controller-uid': 'u' } },
        template: { metadata: { labels: { 'controller-uid': 'u', 'job-name': 'j' } } },
      },
    },
  );
  assert.equal(job.spec, {
    template: { spec: {}, metadata: { labels: { 'controller-uid': 'u', 'job-name': 'j' } } },
    selector: { matchLabels: { 'controller-uid': 'u' } },
  });
});

test("a ServiceAccount keeps the member's secrets and pull secrets after its own; a service-account token keeps its data", () => {
  const sa = retainForMember(
    { apiVersion: 'v1', kind: 'ServiceAccount', secrets: [{ name: 'a' }] },
    { secrets: [{ name: 'b' }, { name: 'a' }], imagePullSecrets: [{ name: 'reg' }] },
  );
  assert.equal(sa.secrets, [{ name: 'a' }, { name: 'b' }]);
  assert.equal(sa.imagePullSecrets, [{ name: 'reg' }]);
  const token = { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token', data: null };
  assert.equal(retainForMember(token, { data: { token: 'dA==' } }).data, { token: 'dA==' });
  assert.is(retainForMember({ ...token, type: 'kubernetes.io/tls' }, { data: { token: 'dA==' } }).data, null);
});

test('other kinds and other versions are sent as they are', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } };
  assert.is(retainForMember(cm, { data: { a: '2' } }), cm);
  const beta = {
    apiVersion: 'apps/v1beta2',
    kind: 'Deployment',
    metadata: { labels: { 'resourcetemplate.karmada.io/retain-replicas': 'true' } },
    spec: { replicas: 1 },
  };
  assert.is(retainForMember(beta, { spec: { replicas: 9 } }), beta);
});

test.run();
