import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emptyFileObjects, type FileObjects } from '../../src/api/model.ts';
import { clusterScopedKindsAfter, declaredClusterScopedKinds } from '../../src/documents/clusterScopedKinds.ts';
import { KIND_TYPES } from '../../src/api/apiFields.generated.ts';
import { CLUSTER_SCOPED_KINDS } from '../../src/api/kinds.ts';
import { installedClientNode, kindOperations } from '../../scripts/apiFields/apiFieldsModule.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function withCrd(file: string, scope: string, versions = ['v1']): FileObjects {
  const f = emptyFileObjects(file);
  f.templates.push({
    ref: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name: 'widgets.example.com',
      namespace: undefined,
    },
    manifest: {
      spec: { group: 'example.com', scope, names: { kind: 'Widget' }, versions: versions.map((name) => ({ name })) },
    },
    source: { file, line: 1, column: 1 },
  });
  return f;
}

test('a CRD of scope Cluster declares its kind cluster-scoped in each version it lists; a Namespaced one nothing', () => {
  assert.equal(declaredClusterScopedKinds(withCrd('a.yaml', 'Cluster', ['v2', 'v1'])), [
    'example.com/v1/Widget',
    'example.com/v2/Widget',
  ]);
  assert.equal(declaredClusterScopedKinds(withCrd('a.yaml', 'Namespaced')), []);
});

test('after a change, a kind stays cluster-scoped while any file declares it, and is rescoped when the last one stops or the first one starts', () => {
  const W = 'example.com/v1/Widget';
  const known = { [W]: ['chart/Chart.yaml', 'crds/w.yaml'] };
  // One of two declarations goes: nothing moves.
  assert.equal(clusterScopedKindsAfter(known, new Map([['crds/w.yaml', null]])), {
    kinds: new Set([W]),
    rescoped: new Set(),
  });
  // Both go (one file made Namespaced, one deleted): every widget moves into a namespace.
  assert.equal(
    clusterScopedKindsAfter(
      known,
      new Map<string, FileObjects | null>([
        ['crds/w.yaml', null],
        ['chart/Chart.yaml', withCrd('chart/Chart.yaml', 'Namespaced')],
      ]),
    ),
    { kinds: new Set(), rescoped: new Set([W]) },
  );
  // Moved from one file to another in one change: nothing moves.
  assert.equal(
    clusterScopedKindsAfter(
      { [W]: ['crds/w.yaml'] },
      new Map<string, FileObjects | null>([
        ['crds/w.yaml', null],
        ['team/kustomization.yaml', withCrd('team/kustomization.yaml', 'Cluster')],
      ]),
    ),
    { kinds: new Set([W]), rescoped: new Set() },
  );
  // A first declaration.
  assert.equal(clusterScopedKindsAfter({}, new Map([['crds/w.yaml', withCrd('crds/w.yaml', 'Cluster')]])), {
    kinds: new Set([W]),
    rescoped: new Set([W]),
  });
});

// kube-apiserver serves a cluster-scoped resource without a namespace in its path, and client-node names its operations
// after that: createValidatingAdmissionPolicy, not createNamespacedValidatingAdmissionPolicy. An object of such a kind
// has no namespace in Karmada: only a ClusterPropagationPolicy selects it, and its binding is a ClusterResourceBinding.
test('every built-in kind kube-apiserver serves without a namespace is cluster-scoped, and no other', async () => {
  const { apiFiles } = await installedClientNode(ROOT);
  const served = new Set<string>();
  for (const key of Object.keys(KIND_TYPES)) {
    const operations = [...kindOperations(apiFiles, key)];
    if (operations.length > 0 && operations.every((op) => !op.endsWith('Namespaced'))) served.add(key);
  }
  assert.ok(served.has('admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy'));
  assert.ok(!served.has('apps/v1/Deployment'));
  const builtIn = [...CLUSTER_SCOPED_KINDS].filter((k) => KIND_TYPES[k] !== undefined);
  assert.equal(builtIn.sort(), [...served].sort());
});

test.run();
