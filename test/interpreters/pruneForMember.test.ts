// What every member copy loses before it is sent (cases after default/native/prune/prune_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { pruneForMember } from '../../src/interpreters/pruneForMember.ts';

test("a Job's ttlSecondsAfterFinished is not sent: the member must not delete a Job the control plane still propagates", () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi' },
    spec: { ttlSecondsAfterFinished: 100, template: { spec: { containers: [] } } },
  };
  assert.equal(pruneForMember(job).spec, { template: { spec: { containers: [] } } });
  assert.is(job.spec.ttlSecondsAfterFinished, 100, 'the template itself is left alone');
  // Only Jobs: another kind's field of the same name is its own.
  assert.is(
    (
      pruneForMember({ apiVersion: 'example.io/v1', kind: 'Task', spec: { ttlSecondsAfterFinished: 5 } }).spec as {
        ttlSecondsAfterFinished?: number;
      }
    ).ttlSecondsAfterFinished,
    5,
  );
});

test('a Job without manualSelector loses the generated selector and template labels; with manualSelector it keeps them', () => {
  const job = (manualSelector?: boolean) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', uid: 'u', resourceVersion: '7' },
    spec: {
      ...(manualSelector === undefined ? {} : { manualSelector }),
      selector: { matchLabels: { 'controller-uid': 'u', 'batch.kubernetes.io/controller-uid': 'u', app: 'pi' } },
      template: {
        metadata: {
          labels: {
            'controller-uid': 'u',
            'job-name': 'pi',
            'batch.kubernetes.io/controller-uid': 'u',
            'batch.kubernetes.io/job-name': 'pi',
            app: 'pi',
          },
        },
      },
    },
    status: { active: 1 },
  });
  const pruned = pruneForMember(job()) as any;
  assert.equal(pruned.metadata, { name: 'pi' });
  assert.is(pruned.status, undefined);
  assert.equal(pruned.spec.selector.matchLabels, { app: 'pi' });
  assert.equal(pruned.spec.template.metadata.labels, { app: 'pi' });
  assert.equal((pruneForMember(job(true)) as any).spec.selector.matchLabels, job(true).spec.selector.matchLabels);
});

// prune.go removeServiceAccountIrrelevantField moves on after removing an entry: the one that slid into its place is
// not looked at.
test("a ServiceAccount's token secrets are removed as Karmada's loop removes them: of two in a row the second stays", () => {
  assert.equal(
    (
      pruneForMember({
        kind: 'ServiceAccount',
        metadata: { name: 'sa' },
        secrets: [{ name: 'sa-token-1' }, { name: 'sa-token-2' }, { name: 'x' }, { name: 'sa-token-3' }],
      }) as any
    ).secrets,
    [{ name: 'sa-token-2' }, { name: 'x' }],
  );
});

test('Service, ServiceAccount, token Secret, PVC and Deployment lose what the member assigns', () => {
  assert.equal(
    (pruneForMember({ kind: 'Service', spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ports: [] } }) as any)
      .spec,
    { ports: [] },
  );
  assert.equal((pruneForMember({ kind: 'Service', spec: { clusterIP: 'None', clusterIPs: ['None'] } }) as any).spec, {
    clusterIP: 'None',
    clusterIPs: ['None'],
  });
  // removeServiceIrrelevantField: NestedString finds no string in a null clusterIP, so nothing is removed.
  assert.equal((pruneForMember({ kind: 'Service', spec: { clusterIP: null, clusterIPs: ['10.0.0.1'] } }) as any).spec, {
    clusterIP: null,
    clusterIPs: ['10.0.0.1'],
  });
  assert.equal(
    (
      pruneForMember({
        kind: 'ServiceAccount',
        metadata: { name: 'sa' },
        secrets: [{ name: 'sa-token-abc' }, { name: 'keep' }],
      }) as any
    ).secrets,
    [{ name: 'keep' }],
  );
  const token = pruneForMember({
    kind: 'Secret',
    type: 'kubernetes.io/service-account-token',
    metadata: { annotations: { 'kubernetes.io/service-account.uid': 'u', 'kubernetes.io/service-account.name': 'sa' } },
    data: { token: 'dA==' },
  }) as any;
  assert.equal(token.metadata.annotations, { 'kubernetes.io/service-account.name': 'sa' });
  assert.is(token.data, null);
  assert.equal(
    (pruneForMember({ kind: 'Secret', type: 'kubernetes.io/basic-auth', data: { username: 'dQ==' } }) as any).data,
    { username: 'dQ==' },
  );
  assert.equal(
    (
      pruneForMember({
        kind: 'PersistentVolumeClaim',
        metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'n1', keep: 'k' } },
      }) as any
    ).metadata.annotations,
    { keep: 'k' },
  );
  assert.equal(
    (
      pruneForMember({
        kind: 'Deployment',
        metadata: {
          annotations: {
            'deployment.kubernetes.io/revision': '2',
            'deployment.kubernetes.io/revision-history': '1',
            keep: 'k',
          },
        },
      }) as any
    ).metadata.annotations,
    { keep: 'k' },
  );
});

test('the template is copied as structuredClone copies it: a part YAML shares through an alias stays shared, the template is left alone', () => {
  // The selector and the pod labels are one map through an anchor: dropping the generated labels drops them from both,
  // as in a structured clone of the parsed template.
  const job = parse(`apiVersion: batch/v1
kind: Job
metadata:
  name: pi
  annotations: {__proto__: kept, when: 2024-01-01}
spec:
  selector:
    matchLabels: &labels {app: pi, controller-uid: abc}
  template:
    metadata:
      labels: *labels
    spec:
      containers: [{name: pi, args: [a, b]}]
`) as Record<string, any>;
  const before = structuredClone(job);
  const expected = structuredClone(job);
  delete expected.spec.selector.matchLabels['controller-uid'];
  const out = pruneForMember(job) as Record<string, any>;
  assert.equal(out, expected);
  assert.is(out.spec.template.metadata.labels, out.spec.selector.matchLabels);
  assert.is(Object.getPrototypeOf(out.metadata.annotations), Object.prototype);
  assert.equal(Object.keys(out.metadata.annotations), ['__proto__', 'when']);
  assert.equal(job, before);
  assert.is.not(out.spec.template.spec.containers[0], job.spec.template.spec.containers[0]);
  const list = [1, 2, 3];
  delete list[1]; // a hole
  const holes = pruneForMember({ kind: 'ConfigMap', list, at: new Date(0) }) as Record<string, any>;
  assert.is(1 in holes.list, false);
  assert.equal(holes.at, new Date(0));
});

test("a ServiceAccount's token secrets go as Karmada's prune loop drops them: one right after a dropped one stays", () => {
  const prune = (names: string[]) =>
    (
      pruneForMember({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa1' },
        secrets: names.map((name) => ({ name })),
      }) as { secrets: { name: string }[] }
    ).secrets.map((s) => s.name);
  assert.equal(prune(['sa1-token-a', 'other', 'sa1-token-b']), ['other']);
  assert.equal(prune(['sa1-token-a', 'sa1-token-b', 'other']), ['sa1-token-b', 'other']);
  assert.equal(prune(['other', 'sa1-token-a', 'sa1-token-b', 'sa1-token-c']), ['other', 'sa1-token-b']);
});

test.run();
