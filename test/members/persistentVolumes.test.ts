import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MemberHarness, waitFor } from './helpers/memberHarness.ts';

// What a StatefulSet's volumeClaimTemplates and a pod's claims do on a member, as the real kubectl sees them: the
// StatefulSet controller makes one claim per ordinal, a provisioner binds it to a new volume, and the scheduler places
// no pod whose claim is missing or unbound.

const harness = new MemberHarness();
let kubectl: ReturnType<MemberHarness['kubectl']>;

test.before(async () => {
  const member = await harness.start({ name: 'member1', readyDelayMs: 50 });
  kubectl = harness.kubectl([member]);
});

test.after(async () => {
  await harness.cleanup();
});

const statefulSet = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - name: db
        image: postgres:16
        volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
  volumeClaimTemplates:
  - metadata: {name: data, labels: {tier: storage}}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 2Gi}}
`;

test('a StatefulSet gets one bound claim per ordinal, printed as kubectl get pvc and pv print them', async () => {
  const applied = await kubectl(['apply', '--server-side', '-f', '-'], statefulSet);
  assert.is(applied.code, 0, applied.stderr);
  await waitFor('db 2/2', async () => {
    const get = await kubectl(['get', 'statefulset', 'db']);
    return /^db\s+2\/2\s/m.test(get.stdout) ? get.stdout : undefined;
  });
  const pvc = await kubectl(['get', 'pvc']);
  assert.is(pvc.code, 0, pvc.stderr);
  const lines = pvc.stdout.trim().split('\n');
  assert.match(
    lines[0]!,
    /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$/,
  );
  assert.is(lines.length, 3, pvc.stdout);
  assert.match(lines[1]!, /^data-db-0\s+Bound\s+pvc-[0-9a-f-]{36}\s+2Gi\s+RWO\s+<unset>\s+\S+$/);
  assert.match(lines[2]!, /^data-db-1\s+Bound\s+pvc-/);
  const claim = JSON.parse((await kubectl(['get', 'pvc', 'data-db-0', '-o', 'json'])).stdout);
  assert.equal(claim.metadata.labels, { tier: 'storage', app: 'db' });
  assert.is(claim.metadata.ownerReferences, undefined, 'kept when the set goes (retention Retain)');
  const pod = JSON.parse((await kubectl(['get', 'pod', 'db-1', '-o', 'json'])).stdout);
  assert.equal(pod.spec.volumes[0], { name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } });
  const pv = await kubectl(['get', 'pv', claim.spec.volumeName]);
  assert.match(
    pv.stdout,
    /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$/m,
  );
  assert.match(pv.stdout, /\s2Gi\s+RWO\s+Delete\s+Bound\s+default\/data-db-0\s+<unset>\s+\S+$/m);

  // A claim a running pod mounts stays Terminating (pvc-protection) until the pod is gone; scaled down, the set
  // leaves its claims (whenScaled: Retain), and the volume of a deleted claim goes with it.
  assert.ok(claim.metadata.finalizers.includes('kubernetes.io/pvc-protection'));
  const deleted = await kubectl(['delete', 'pvc', 'data-db-1', '--wait=false']);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.match((await kubectl(['get', 'pvc', 'data-db-1'])).stdout, /^data-db-1\s+Terminating\s/m);
  assert.is((await kubectl(['scale', 'statefulset', 'db', '--replicas=1'])).code, 0);
  await waitFor('data-db-1 and its volume deleted', async () => {
    const claims = await kubectl(['get', 'pvc', '-o', 'name']);
    const volumes = await kubectl(['get', 'pv', '-o', 'name']);
    return claims.stdout.trim() === 'persistentvolumeclaim/data-db-0' && volumes.stdout.trim().split('\n').length === 1
      ? claims.stdout
      : undefined;
  });
});

test('a pod whose claim is missing or names a StorageClass the cluster lacks stays Pending, and runs once it is bound', async () => {
  const pod = `apiVersion: v1
kind: Pod
metadata: {name: reader, namespace: default}
spec:
  containers: [{name: app, image: busybox, volumeMounts: [{name: files, mountPath: /files}]}]
  volumes: [{name: files, persistentVolumeClaim: {claimName: files}}]
`;
  assert.is((await kubectl(['apply', '-f', '-'], pod)).code, 0);
  const missing = await waitFor('reader unschedulable', async () => {
    const p = JSON.parse((await kubectl(['get', 'pod', 'reader', '-o', 'json'])).stdout);
    return p.status.conditions?.find((c: { type: string }) => c.type === 'PodScheduled')?.message;
  });
  assert.match(missing, '0/3 nodes are available: persistentvolumeclaim "files" not found.');
  const claim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: files, namespace: default}
spec:
  storageClassName: fast
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 1Gi}}
`;
  assert.is((await kubectl(['apply', '-f', '-'], claim)).code, 0);
  const unbound = await waitFor('reader waits for its claim', async () => {
    const p = JSON.parse((await kubectl(['get', 'pod', 'reader', '-o', 'json'])).stdout);
    const message = p.status.conditions?.find((c: { type: string }) => c.type === 'PodScheduled')?.message;
    return message?.includes('unbound') ? message : undefined;
  });
  assert.match(unbound, 'pod has unbound immediate PersistentVolumeClaims');
  assert.match((await kubectl(['get', 'pvc', 'files'])).stdout, /^files\s+Pending\s+fast\s+<unset>\s+\S+$/m);
  const storageClass = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: example.com/fast
reclaimPolicy: Retain
`;
  assert.is((await kubectl(['apply', '-f', '-'], storageClass)).code, 0);
  await waitFor('reader Running', async () => {
    const get = await kubectl(['get', 'pod', 'reader']);
    return /^reader\s+1\/1\s+Running/m.test(get.stdout) ? get.stdout : undefined;
  });
  assert.match((await kubectl(['get', 'pvc', 'files'])).stdout, /^files\s+Bound\s+pvc-\S+\s+1Gi\s+RWX\s+fast\s/m);
});

test('a claim naming a volume a user made waits for it and binds to it, as the volume takes the claim; an unclaimed one is Available', async () => {
  const claim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: models, namespace: default}
spec:
  accessModes: [ReadOnlyMany]
  resources: {requests: {storage: 1Gi}}
  volumeName: models-pv
`;
  assert.is((await kubectl(['apply', '-f', '-'], claim)).code, 0);
  // No provisioner answers a claim that names its volume: it waits while the volume is missing.
  await waitFor('models Pending', async () => {
    const c = JSON.parse((await kubectl(['get', 'pvc', 'models', '-o', 'json'])).stdout);
    return c.metadata.finalizers?.includes('kubernetes.io/pvc-protection') ? c : undefined;
  });
  const pending = (await kubectl(['get', 'pvc', 'models'])).stdout;
  assert.match(pending, /^models\s+Pending\s+models-pv\s+0\s+<unset>\s/m, pending);
  assert.not.match((await kubectl(['get', 'pv'])).stdout, /models-pv|default\/models/);
  const volumes = `apiVersion: v1
kind: PersistentVolume
metadata: {name: models-pv}
spec:
  capacity: {storage: 2Gi}
  accessModes: [ReadOnlyMany]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: /mnt/models}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: spare-pv}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /mnt/spare}
`;
  assert.is((await kubectl(['apply', '-f', '-'], volumes)).code, 0);
  await waitFor('models Bound', async () => {
    const get = await kubectl(['get', 'pvc', 'models']);
    return /^models\s+Bound\s+models-pv\s+2Gi\s+ROX\s/m.test(get.stdout) ? get.stdout : undefined;
  });
  const pv = await waitFor('spare-pv Available', async () => {
    const get = await kubectl(['get', 'pv']);
    return /^spare-pv\s+1Gi\s+RWO\s+Retain\s+Available\s/m.test(get.stdout) ? get.stdout : undefined;
  });
  assert.match(pv, /^models-pv\s+2Gi\s+ROX\s+Retain\s+Bound\s+default\/models\s/m);
  const volume = JSON.parse((await kubectl(['get', 'pv', 'models-pv', '-o', 'json'])).stdout);
  const bound = JSON.parse((await kubectl(['get', 'pvc', 'models', '-o', 'json'])).stdout);
  assert.equal(
    [volume.spec.claimRef.kind, volume.spec.claimRef.namespace, volume.spec.claimRef.name, volume.spec.claimRef.uid],
    ['PersistentVolumeClaim', 'default', 'models', bound.metadata.uid],
  );
  // The controller bound the volume, not the claim: the claim named its volume itself.
  assert.is(volume.metadata.annotations['pv.kubernetes.io/bound-by-controller'], 'yes');
  assert.is(bound.metadata.annotations['pv.kubernetes.io/bind-completed'], 'yes');
  assert.is(bound.metadata.annotations['pv.kubernetes.io/bound-by-controller'], undefined);
  // A volume that loses its claimRef while its claim is bound to it is bound to that claim again (syncBoundClaim).
  const removed = await kubectl([
    'patch',
    'pv',
    'models-pv',
    '--type',
    'json',
    '-p',
    '[{"op":"remove","path":"/spec/claimRef"}]',
  ]);
  assert.is(removed.code, 0, removed.stderr);
  await waitFor('models-pv bound again', async () => {
    const get = await kubectl(['get', 'pv', 'models-pv']);
    return /^models-pv\s+2Gi\s+ROX\s+Retain\s+Bound\s+default\/models\s/m.test(get.stdout) ? get.stdout : undefined;
  });
});

test.run();
