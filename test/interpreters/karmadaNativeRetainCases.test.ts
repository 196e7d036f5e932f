// What an update keeps from the member's object, as Karmada's native Retain does (cases after
// pkg/resourceinterpreter/default/native/retain_test.go, default_test.go TestRetain and pkg/util/lifted/retain_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { retainForMember } from '../../src/interpreters/retainForMember.ts';

type Obj = Record<string, unknown>;

const secret = (type: string, key: string, value: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {},
  type,
  data: { [key]: value },
});

// Test_retainSecretServiceAccountToken "ignores missing uid and data", "does not retain for type basic-auth" and
// "does not retain for type dockercfg".
test('only a service-account token Secret takes the member data, and only data the member has', () => {
  const bare = { apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/service-account-token' };
  assert.equal(retainForMember(bare, { ...bare }), bare);
  assert.equal(
    retainForMember(
      secret('kubernetes.io/basic-auth', 'username', 'desired-user'),
      secret('kubernetes.io/basic-auth', 'username', 'observed-user'),
    ),
    secret('kubernetes.io/basic-auth', 'username', 'desired-user'),
  );
  assert.equal(
    retainForMember(
      secret('kubernetes.io/dockercfg', '.dockercfg', 'desired-docker-cfg'),
      secret('kubernetes.io/dockercfg', '.dockercfg', 'observed-docker-cfg'),
    ),
    secret('kubernetes.io/dockercfg', '.dockercfg', 'desired-docker-cfg'),
  );
});

// Test_retainPersistentVolumeFields "retain claimRef" and Test_retainPersistentVolumeClaimFields "retain observed volume
// name": the member's value replaces the one the template carries.
test("a PersistentVolume keeps the member's claimRef and a claim its volumeName, over what the template says", () => {
  const pv = (name: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv' },
    spec: { claimRef: { name, namespace: 'default' } },
  });
  assert.equal(retainForMember(pv('pvc-1'), pv('pvc-2')), pv('pvc-2'));
  const pvc = (volumeName: string) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'pvc' },
    spec: { volumeName },
  });
  assert.equal(retainForMember(pvc('desired-volume-name'), pvc('observed-volume-name')), pvc('observed-volume-name'));
});

// Test_retainJobSelectorFields, all three cases (selector and template labels, no selector, no template labels).
test("a Job keeps the member's selector and pod labels, each only where the member has it", () => {
  const job = (selector: Obj | undefined, labels: Obj | undefined): Obj => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'nginx' },
    spec: {
      ...(selector ? { selector: { matchLabels: selector } } : {}),
      template: labels ? { metadata: { labels } } : {},
      parallelism: 2,
    },
  });
  const v1 = { app: 'nginx_v1' };
  const member = { name: 'nginx' };
  assert.equal(retainForMember(job(v1, v1), job(member, member)), job(member, member));
  assert.equal(retainForMember(job(undefined, v1), job(undefined, member)), job(undefined, member));
  assert.equal(retainForMember(job(v1, undefined), job(member, undefined)), job(member, undefined));
});

// Test_retainPodFields "retain observed pod fields".
test("a Pod takes the member's node, service account, volumes and the mounts of containers the member has", () => {
  const mount = (name: string, mountPath: string, readOnly: boolean) => ({ name, readOnly, mountPath });
  const container = (name: string, m: Obj) => ({ name, volumeMounts: [m] });
  const desired = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      nodeName: 'node2',
      serviceAccountName: 'fake-desired-sa',
      volumes: [{ name: 'fake-desired-volume', secret: { secretName: 'fake-desired-secret' } }],
      initContainers: [
        container('test', mount('fake-desired-config', '/etc/etcd/desired', false)),
        container('test-3', mount('fake-desired-config-2', '/etc/etcd/desired2', false)),
      ],
      containers: [
        container('test', mount('fake-desired-cert', '/etc/karmada/desired', true)),
        container('test-3', mount('fake-desired-cert-2', '/etc/karmada/desired2', true)),
      ],
    },
  };
  const observed = {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      nodeName: 'node1',
      serviceAccountName: 'fake-observed-sa',
      volumes: [{ name: 'fake-observed-volume', secret: { secretName: 'fake-observed-secret' } }],
      initContainers: [
        container('test', mount('fake-observed-config', '/etc/etcd/observed', false)),
        container('test-2', mount('fake-observed-config-2', '/etc/etcd/observed2', false)),
      ],
      containers: [
        container('test', mount('fake-observed-cert', '/etc/karmada/observed', true)),
        container('test-2', mount('fake-observed-cert-2', '/etc/karmada/observed2', true)),
      ],
    },
  };
  assert.equal(retainForMember(desired, observed), {
    apiVersion: 'v1',
    kind: 'Pod',
    spec: {
      nodeName: 'node1',
      serviceAccountName: 'fake-observed-sa',
      volumes: [{ name: 'fake-observed-volume', secret: { secretName: 'fake-observed-secret' } }],
      initContainers: [
        container('test', mount('fake-observed-config', '/etc/etcd/observed', false)),
        container('test-3', mount('fake-desired-config-2', '/etc/etcd/desired2', false)),
      ],
      containers: [
        container('test', mount('fake-observed-cert', '/etc/karmada/observed', true)),
        container('test-3', mount('fake-desired-cert-2', '/etc/karmada/desired2', true)),
      ],
    },
  });
});

// Test_getAllDefaultRetentionInterpreter and default_test.go TestRetain "cannot retain observed replica of given kind and
// apiversion" (an apps/v1 Pod): eight kinds have a rule; other kinds and versions are sent as they are.
test('eight kinds have a retain rule, keyed by apiVersion and kind', () => {
  const member = {
    metadata: { name: 'x' },
    spec: {
      replicas: 4,
      nodeName: 'n1',
      clusterIP: '10.0.0.1',
      volumeName: 'v',
      claimRef: { name: 'c' },
      selector: { matchLabels: { a: 'b' } },
    },
    secrets: [{ name: 's' }],
    data: { token: 't' },
  };
  for (const [apiVersion, kind, extra] of [
    ['apps/v1', 'Deployment', { metadata: { labels: { 'resourcetemplate.karmada.io/retain-replicas': 'true' } } }],
    ['v1', 'Pod', {}],
    ['v1', 'Service', {}],
    ['v1', 'ServiceAccount', {}],
    ['v1', 'PersistentVolumeClaim', {}],
    ['v1', 'PersistentVolume', {}],
    ['batch/v1', 'Job', {}],
    ['v1', 'Secret', { type: 'kubernetes.io/service-account-token' }],
  ] as [string, string, Obj][]) {
    const desired = { apiVersion, kind, spec: { replicas: 2 }, ...extra };
    assert.not.equal(retainForMember(desired, member), desired, `${apiVersion} ${kind}`);
  }
  const pod = { apiVersion: 'apps/v1', kind: 'Pod', metadata: { name: 'nginx' }, spec: { replicas: 2 } };
  assert.equal(retainForMember(pod, { ...pod, spec: { replicas: 4, nodeName: 'n1' } }), pod);
});

// lifted/retain_test.go TestRetainHealthCheckNodePortInServiceFields "cluster object has no healthCheckNodePort" and
// "... has healthCheckNodePort 0"; TestRetainClusterIPInServiceFields "cluster object has no clusterIP".
test('a Service takes no health-check port the member has not allocated, and no clusterIP it does not have', () => {
  const svc = { apiVersion: 'v1', kind: 'Service' };
  assert.equal(retainForMember(svc, {}), svc);
  assert.equal(retainForMember(svc, { spec: { healthCheckNodePort: 0 } }), svc);
  assert.equal(retainForMember(svc, { spec: { clusterIP: '' } }), svc);
});

// lifted/retain_test.go TestRetainServiceAccountFields, all four cases.
test("a ServiceAccount keeps its own secrets first, then the member's it does not name", () => {
  const sa = (fields: Obj) => ({ apiVersion: 'v1', kind: 'ServiceAccount', ...fields });
  const none = retainForMember(sa({}), {});
  assert.ok(none.secrets === undefined || none.secrets === null, 'no secrets');
  assert.ok(none.imagePullSecrets === undefined || none.imagePullSecrets === null, 'no image pull secrets');
  const test1 = [{ name: 'test' }];
  assert.equal(retainForMember(sa({ secrets: test1 }), { secrets: [{ name: 'test' }] }).secrets, test1);
  assert.equal(
    retainForMember(sa({ secrets: test1 }), { secrets: [{ name: 'test' }, { name: 'test-token' }] }).secrets,
    [{ name: 'test' }, { name: 'test-token' }],
  );
  const pulled = retainForMember(sa({ secrets: test1 }), {
    secrets: [{ name: 'test' }],
    imagePullSecrets: [{ name: 'foo' }],
  });
  assert.equal(pulled.secrets, test1);
  assert.equal(pulled.imagePullSecrets, [{ name: 'foo' }]);
});

// retainSecretsField appends the desired list whole and checks only the member's entries against the names seen.
test('a ServiceAccount keeps a secret its template lists twice, and the member adds each of its own names once', () => {
  const sa = retainForMember(
    { apiVersion: 'v1', kind: 'ServiceAccount', secrets: [{ name: 'a' }, { name: 'a' }] },
    { secrets: [{ name: 'b' }, { name: 'a' }, { name: 'b' }] },
  );
  assert.equal(sa.secrets, [{ name: 'a' }, { name: 'a' }, { name: 'b' }]);
});

test.run();
