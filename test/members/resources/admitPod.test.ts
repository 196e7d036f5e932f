import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../src/members/ApiError.ts';
import { admitPod } from '../../../src/members/resources/admitPod.ts';
import { prepareForCreate } from '../../../src/members/resources/prepareForCreate.ts';
import { keepAllocatedValues } from '../../../src/members/resources/serviceAllocation.ts';
import type { KubeObject } from '../../../src/members/types.ts';

const account = (name: string, extra: object = {}): KubeObject => ({ metadata: { name, namespace: 'ns' }, ...extra });

test('a pod runs as default and gets the token volume mounted in every container', () => {
  const pod: KubeObject = {
    metadata: { name: 'p', namespace: 'ns' },
    spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }] },
  };
  admitPod(pod, (name) => (name === 'default' ? account(name) : undefined));
  assert.is(pod.spec.serviceAccountName, 'default');
  assert.is(pod.spec.serviceAccount, 'default');
  const volume = pod.spec.volumes[0];
  assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
  assert.equal(
    volume.projected.sources.map((s: object) => Object.keys(s)[0]),
    ['serviceAccountToken', 'configMap', 'downwardAPI'],
  );
  for (const c of [...pod.spec.containers, ...pod.spec.initContainers]) {
    assert.equal(c.volumeMounts, [
      { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' },
    ]);
  }
});

test('automounting off on the pod or its account mounts nothing; a missing account is a 403', () => {
  const off: KubeObject = {
    metadata: { name: 'p' },
    spec: { automountServiceAccountToken: false, containers: [{ name: 'a' }] },
  };
  admitPod(off, account);
  assert.is(off.spec.volumes, undefined);
  const byAccount: KubeObject = {
    metadata: { name: 'p' },
    spec: { serviceAccountName: 'quiet', containers: [{ name: 'a' }] },
  };
  admitPod(byAccount, (name) => account(name, { automountServiceAccountToken: false }));
  assert.is(byAccount.spec.volumes, undefined);
  try {
    admitPod(
      { metadata: { name: 'p', namespace: 'ns' }, spec: { serviceAccountName: 'ghost', containers: [] } },
      () => undefined,
    );
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ApiError);
    assert.is((error as ApiError).code, 403);
    assert.is(
      (error as ApiError).message,
      'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found',
    );
  }
});

test('a Job gets a selector on its uid and the job labels on its template, keeping labels it set', () => {
  const job: KubeObject = {
    metadata: { name: 'backup', uid: 'u-1' },
    spec: { manualSelector: false, template: { metadata: { labels: { 'job-name': 'mine' } } } },
  };
  prepareForCreate('Job', job);
  assert.equal(job.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } });
  assert.equal(job.spec.template.metadata.labels, {
    'job-name': 'mine',
    'batch.kubernetes.io/job-name': 'backup',
    'controller-uid': 'u-1',
    'batch.kubernetes.io/controller-uid': 'u-1',
  });
  const manual: KubeObject = {
    metadata: { name: 'm', uid: 'u-2' },
    spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } } },
  };
  prepareForCreate('Job', manual);
  assert.equal(manual.spec.selector, { matchLabels: { a: 'b' } });
});

test("an update without the Service's addresses keeps its cluster IP and node ports by port name", () => {
  const before: KubeObject = {
    metadata: {},
    spec: {
      type: 'NodePort',
      clusterIP: '10.96.0.11',
      clusterIPs: ['10.96.0.11'],
      ports: [
        { name: 'http', port: 80, nodePort: 30001 },
        { name: 'admin', port: 81, nodePort: 30002 },
      ],
    },
  };
  const after: KubeObject = {
    metadata: {},
    spec: {
      type: 'NodePort',
      ports: [
        { name: 'http', port: 8080 },
        { name: 'admin', port: 81, nodePort: 30001 },
      ],
    },
  };
  keepAllocatedValues(before, after);
  assert.is(after.spec.clusterIP, '10.96.0.11');
  assert.equal(after.spec.clusterIPs, ['10.96.0.11']);
  // 30001 is now taken by another port of the new spec, so http gets none back (and is allocated afresh).
  assert.equal(
    after.spec.ports.map((p: { nodePort?: number }) => p.nodePort),
    [undefined, 30001],
  );
});

test.run();
