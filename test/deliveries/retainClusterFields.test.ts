// What Karmada's object watcher keeps of a member's object when it replaces it (objectwatcher.go retainClusterFields,
// util.RetainLabels and RetainAnnotations, their cases in pkg/util/label_test.go and annotation_test.go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { retainClusterFields } from '../../src/deliveries/retainClusterFields.ts';

const deployment = (metadata: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'demo', ...metadata },
  spec: { replicas: 2 },
});

test('observed without labels or annotations: the manifest as it is', () => {
  assert.equal(retainClusterFields(deployment({}), deployment({})), deployment({}));
});

test("the member's labels and annotations the manifest lacks are kept; where both have a key, the manifest's value wins", () => {
  const out = retainClusterFields(
    deployment({ labels: { app: 'git' }, annotations: { note: 'git' } }),
    deployment({
      labels: { app: 'edited', foo: 'bar' },
      annotations: { note: 'edited', 'deployment.kubernetes.io/revision': '3' },
    }),
  );
  assert.equal(out.metadata, {
    name: 'demo',
    labels: { app: 'git', foo: 'bar' },
    annotations: { note: 'git', 'deployment.kubernetes.io/revision': '3' },
  });
});

test('a key the manifest set before (in its managed-labels or managed-annotations record) and dropped since is not kept', () => {
  const out = retainClusterFields(
    deployment({ labels: { app: 'git' } }),
    deployment({
      labels: { app: 'git', dropped: 'x', foo: 'bar' },
      annotations: {
        'resourcetemplate.karmada.io/managed-labels': 'app,dropped',
        'resourcetemplate.karmada.io/managed-annotations':
          'gone,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels',
        gone: 'y',
        kept: 'z',
      },
    }),
  );
  assert.equal(out.metadata, { name: 'demo', labels: { app: 'git', foo: 'bar' }, annotations: { kept: 'z' } });
});

test("resourceVersion, finalizers and ownerReferences are the member's, present or not", () => {
  const owner = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' }];
  const out = retainClusterFields(
    deployment({ finalizers: ['git/f'], resourceVersion: '1' }),
    deployment({ resourceVersion: '42', ownerReferences: owner }),
  );
  assert.equal(out.metadata, { name: 'demo', resourceVersion: '42', ownerReferences: owner });
  assert.equal(out.spec, { replicas: 2 }, 'everything else is the manifest');
});

test.run();
