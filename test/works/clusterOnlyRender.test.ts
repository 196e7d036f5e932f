import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { viewOfWhole, type IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { renderTemplates, type RenderOutput } from '../../src/works/renderTemplates.ts';
import {
  coldRenderInput,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
} from '../helpers/inMemoryModel.ts';

// A commit that changes only Cluster registrations renders what that change can reach: on a cluster that did not
// change and keeps its replicas, a template's manifest is made of the same things as before, so it is neither
// rendered nor read (nor looked up) again, even when the placement moved elsewhere (a cluster joined), and for a dependency attached
// to its dependents too.
const COMMIT = 'c'.repeat(40);
const web = deployment('web', 2, {
  template: {
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27', envFrom: [{ configMapRef: { name: 'web-config' } }] }],
    },
  },
});
const config = configMap('web-config');
const prodOnly = propagationPolicy('web', {
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
  propagateDeps: true,
  placement: {
    clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } },
    replicaScheduling: { replicaSchedulingType: 'Duplicated' },
  },
});
const fleet = (m4: string) =>
  modelOf({
    templates: [web, config],
    policies: [prodOnly],
    clusters: [
      memberCluster('m1', {}, { env: 'prod' }),
      memberCluster('m2', {}, { env: 'prod' }),
      memberCluster('m3', {}, { env: 'prod' }),
      memberCluster('m4', {}, { env: m4 }),
    ],
  });

function coldRender(model = fleet('dev')): Promise<RenderOutput> {
  return renderTemplates(coldRenderInput(model, { sourceCommit: COMMIT }));
}

test('a cluster joining a placement renders its manifests and the bindings; the other clusters are not read again', async () => {
  const before = await coldRender();
  const files = new Map([...before.edits].map(([path, text]) => [path, text!]));
  const templates: Record<string, IndexEntry> = {};
  for (const [key, entry] of before.indexChanges) templates[key] = entry!;
  const bindings = new Map<string, ResourceBinding>();
  for (const [path, text] of files)
    if (path.startsWith('bindings/')) {
      const b = parseYamlValue(text) as ResourceBinding;
      const r = b.spec.resource;
      bindings.set(`${r.apiVersion}/${r.kind}/${r.namespace}/${r.name}`, b);
    }
  assert.is(bindings.size, 2, [...files.keys()].join(', '));
  assert.ok(bindings.get('v1/ConfigMap/default/web-config')?.spec.requiredBy, 'the ConfigMap is attached to web');

  const read: string[] = [];
  const model = fleet('prod');
  const out = await renderTemplates({
    model,
    affected: new Set(model.templates.keys()),
    previousIndex: viewOfWhole({ files: {}, templates }),
    previousBindings: bindings,
    previousFiles: {
      has: (path) => {
        read.push(path);
        return files.has(path);
      },
      get: (path) => {
        read.push(path);
        return files.get(path);
      },
    },
    sourceCommit: COMMIT,
    onlyClustersChanged: new Set(['m4']),
  });
  assert.equal(
    read.filter((p) => p.startsWith('clusters/') && !p.startsWith('clusters/m4/')),
    [],
    'no manifest of m1, m2 or m3 is read, nor even looked up',
  );
  assert.equal([...out.edits.keys()].sort(), [
    'bindings/default/web-config-configmap.yaml',
    'bindings/default/web-deployment.yaml',
    'clusters/m4/default/configmap_web-config.yaml',
    'clusters/m4/default/deployment.apps_web.yaml',
  ]);
  // What is written is what a render of the whole fleet as it is now writes.
  const cold = await coldRender(model);
  for (const [path, text] of out.edits) assert.is(text, cold.edits.get(path), path);
});

test.run();
