// A pod stamped out of a workload's pod template, as Kubernetes' controller.GetPodFromTemplate builds it (lifted by
// Karmada as pkg/util/lifted/podtemplate.go; cases after pkg/util/lifted/podtemplate_test.go TestGetPodFromTemplate).
// Flotilla's counterpart is the emulated member's podFromTemplate, which names the pod itself and always sets the
// controller reference, so the generateName and no-controller-reference parts of those cases have no equivalent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { podFromTemplate } from '../../src/members/controllers/workloadPods.ts';

const parent = (template: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'parent', namespace: 'default', uid: 'test-uid' },
  spec: { template },
});

// TestGetPodFromTemplate "Valid template".
test("a pod from a template carries the template's labels, annotations and finalizers, in the parent's namespace", () => {
  const pod = podFromTemplate(
    parent({
      metadata: { labels: { app: 'test' }, annotations: { key: 'value' }, finalizers: ['finalizer1'] },
      spec: { containers: [{ name: 'test-container', image: 'test-image' }] },
    }),
    'parent-abcde',
    {},
  );
  assert.is(pod.metadata.namespace, 'default');
  assert.equal(pod.metadata.labels, { app: 'test' });
  assert.equal(pod.metadata.annotations, { key: 'value' });
  assert.equal(pod.metadata.finalizers, ['finalizer1']);
  assert.equal(
    (pod.metadata.ownerReferences ?? []).map((r) => r.name),
    ['parent'],
  );
  assert.equal(
    pod.spec.containers.map((c: { name: string }) => c.name),
    ['test-container'],
  );
});

// TestGetPodFromTemplate "Empty template".
test('a pod from an empty template has no labels, annotations, finalizers or containers', () => {
  const pod = podFromTemplate(parent({}), 'parent-abcde', {});
  assert.is(pod.metadata.namespace, 'default');
  assert.equal(pod.metadata.labels ?? {}, {});
  assert.equal(pod.metadata.annotations ?? {}, {});
  assert.equal(pod.metadata.finalizers ?? [], []);
  assert.equal(pod.spec.containers ?? [], []);
});

test.run();
