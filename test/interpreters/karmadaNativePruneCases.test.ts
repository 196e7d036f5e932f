// What every member copy loses before it is sent, as Karmada's prune.RemoveIrrelevantFields removes it (cases after
// pkg/resourceinterpreter/default/native/prune/prune_test.go; the Service, Job, ServiceAccount, token Secret,
// basic-auth Secret, PVC and revision-history cases are in pruneForMember.test.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pruneForMember } from '../../src/interpreters/pruneForMember.ts';

// TestRemoveIrrelevantField "remove common object irrelevant fields": an object of no particular kind.
test('the metadata the API server populates, owner references, finalizers and status are removed from any object', () => {
  const pruned = pruneForMember({
    metadata: {
      creationTimestamp: '2023-03-13T05:00:41Z',
      deletionTimestamp: '2023-03-13T06:00:41Z',
      deletionGracePeriodSeconds: 10,
      generation: 2,
      managedFields: [{ apiVersion: 'v1', fieldsType: 'FieldsV1', manager: 'name', operation: 'Apply' }],
      resourceVersion: '22222',
      selfLink: 'http://example.com',
      uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'foo', uid: 'fb11a9a6-1daa-265b-c046-1c1dea42a42c' }],
      finalizers: ['foregroundDeletion'],
    },
    status: {},
  });
  assert.equal(pruned, { metadata: {} });
});

// TestRemoveIrrelevantField "removes deployment revision annotation": the annotation goes whatever its value.
test("a Deployment's revision annotation is removed even when it is not a string", () => {
  const pruned = pruneForMember({
    kind: 'Deployment',
    metadata: { annotations: { 'deployment.kubernetes.io/revision': 1, keep: 'k' } },
  }) as { metadata: { annotations: Record<string, unknown> } };
  assert.equal(pruned.metadata.annotations, { keep: 'k' });
});

test.run();
