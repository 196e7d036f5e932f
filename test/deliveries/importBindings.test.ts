// The conflict resolution a ServiceImport's derived Service takes from the ServiceImport's binding on the rendered
// branch (applyRendered's readImportBindings), against a scripted member that already has a hand-made derived-web: a
// binding that cannot be parsed still reads as Abort, and the cluster's report names the file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ObjectRef } from '../../src/api/kinds.ts';
import { bindingPath, manifestPath } from '../../src/branches/rendered/outputPaths.ts';
import { applyRendered } from '../../src/deliveries/applyRendered.ts';
import type { KubeRequest } from '../../src/deliveries/KubeTarget.ts';
import { commitRendered, RENDERED_REF, rendered, Scratch } from './helpers/e2e.ts';
import { fakeKube, json, NO_WAIT } from './helpers/fakeKube.ts';

const scratch = new Scratch();
const SERVICE_IMPORT = rendered('multicluster.x-k8s.io/v1alpha1', 'ServiceImport', 'web', 'default', {
  spec: { type: 'ClusterSetIP', ports: [{ port: 80, protocol: 'TCP' }] },
});
const SERVICE_IMPORT_REF: ObjectRef = {
  apiVersion: 'multicluster.x-k8s.io/v1alpha1',
  kind: 'ServiceImport',
  namespace: 'default',
  name: 'web',
};
const SERVICE_IMPORT_PATH = manifestPath('m2', SERVICE_IMPORT_REF);
const BINDING = bindingPath(SERVICE_IMPORT_REF);
const DERIVED = '/api/v1/namespaces/default/services/derived-web';

/** A member serving Services and ServiceImports, with an unlabelled derived-web Service someone made by hand. */
function member() {
  return fakeKube('m2', (req: KubeRequest) => {
    if (req.path === '/api/v1')
      return json(200, { resources: [{ name: 'services', kind: 'Service', namespaced: true }] });
    if (req.path === '/apis/multicluster.x-k8s.io/v1alpha1')
      return json(200, { resources: [{ name: 'serviceimports', kind: 'ServiceImport', namespaced: true }] });
    if (req.method === 'GET' && req.path === DERIVED)
      return json(200, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'derived-web', namespace: 'default', uid: 'u-1', resourceVersion: '1' },
        spec: { type: 'ClusterIP', ports: [{ port: 81 }] },
      });
    if (req.method === 'PATCH') return json(200, JSON.parse(req.body ?? '{}'));
    return json(404, { kind: 'Status', status: 'Failure', reason: 'NotFound' });
  });
}

async function applyWithBinding(binding: string) {
  const repo = await scratch.repo();
  await commitRendered(repo, { m2: [SERVICE_IMPORT] }, undefined, { [BINDING]: binding });
  const kube = member();
  const d = await applyRendered({ repo, outputRef: RENDERED_REF, clusters: new Map([['m2', kube]]), retry: NO_WAIT });
  const report = d.clusters.get('m2')!;
  const derived = report.results.find((r) => r.ref.kind === 'Service' && r.ref.name === 'derived-web');
  assert.ok(derived, JSON.stringify(report.results));
  return { report, derived, patches: kube.log.filter((q) => q.method === 'PATCH' && q.path === DERIVED) };
}

test.after(() => scratch.cleanup());

test('a ServiceImport binding that cannot be parsed reads as Abort, and the report names the binding file and how to restore it', async () => {
  const { report, derived, patches } = await applyWithBinding('spec: {conflictResolution: Overwrite\n');
  // The fallback stays: the hand-made Service is not taken over.
  assert.is(derived.action, 'conflict');
  assert.equal(patches, []);
  const notes = report.notes.filter((n) => n.includes(BINDING));
  assert.is(notes.length, 1, JSON.stringify(report.notes));
  const note = notes[0]!;
  assert.ok(note.startsWith(`ServiceImport ${SERVICE_IMPORT_PATH}: `), note);
  assert.match(note, 'conflict resolution Abort');
  assert.match(note, `flotilla/rendered:${BINDING}: `);
  assert.match(note, `git show flotilla/rendered~1:${BINDING}`);
});

test('a readable binding says Overwrite: the derived Service takes the hand-made one over, and nothing is noted', async () => {
  const { report, derived, patches } = await applyWithBinding(
    'apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nspec:\n  conflictResolution: Overwrite\n',
  );
  assert.is(derived.action, 'configured', derived.message);
  assert.is(patches.length, 1);
  assert.is(patches[0]!.query?.force, 'true');
  assert.equal(
    report.notes.filter((n) => n.includes(BINDING)),
    [],
  );
});

test.run();
