import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Cluster } from '../../src/api/cluster.ts';
import { emptyFileObjects, type FileObjects } from '../../src/api/model.ts';
import type { ClusterAffinity } from '../../src/api/policy.ts';
import { applyTemplateChanges, emptyIndex, viewOfWhole } from '../../src/branches/rendered/outputIndex.ts';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import { assembleModel } from '../../src/documents/assembleModel.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import { coldRenderInput, memberCluster, propagationPolicy } from '../helpers/inMemoryModel.ts';

// Scoped units (a clusterAffinity in flotilla-unit.yaml) built inline: what the units stage hands assembleModel.
const KEY = 'apps/v1/Deployment/default/web';

function webFrom(
  dir: string,
  scope: ClusterAffinity | undefined,
  image: string,
  replicas: number,
  labels = {},
): FileObjects {
  const marker = `${dir}/kustomization.yaml`;
  return emptyFileObjects(marker, {
    unit: { dir, tool: 'kustomize', marker, ...(scope ? { scope, optionsFile: `${dir}/flotilla-unit.yaml` } : {}) },
    templates: [
      {
        ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
        manifest: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'default', labels },
          spec: { replicas, template: { spec: { containers: [{ name: 'web', image }] } } },
        },
        source: { file: marker, line: 1, column: 1 },
      },
    ],
  });
}

function clusterFile(c: Cluster): FileObjects {
  const file = `clusters/${c.metadata.name}.yaml`;
  return emptyFileObjects(file, { clusters: [{ object: c, source: { file, line: 1, column: 1 } }] });
}

const CLUSTERS = [
  memberCluster('m1', {}, { env: 'staging' }),
  memberCluster('m2', {}, { env: 'test' }),
  memberCluster('m3', {}, { env: 'prod' }),
  memberCluster('m4', {}, { env: 'prod' }),
];
const DIVIDED = propagationPolicy('web', {
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
  placement: {
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 1 }] },
    },
  },
});
const policyFile = emptyFileObjects('policies/web.yaml', { propagationPolicies: [DIVIDED] });

async function render(files: FileObjects[]) {
  const model = await assembleModel(files);
  const out = await renderTemplates(coldRenderInput(model));
  return { model, out };
}
const imageIn = (text: string | null | undefined) => /image: (\S+)/.exec(text ?? '')?.[1];
const replicasIn = (text: string | null | undefined) => Number(/replicas: (\d+)/.exec(text ?? '')?.[1]);

test('scoped units with disjoint scopes make one template whose Divided replicas go only to in-scope clusters, each running its own variant', async () => {
  const { model, out } = await render([
    policyFile,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/staging', { clusterNames: ['m1'] }, 'web:staging', 6),
    webFrom('apps/production', { labelSelector: { matchLabels: { env: 'prod' } } }, 'web:prod', 9),
  ]);
  assert.equal(model.problems, []);
  const template = model.templates.get(KEY)!;
  // The scheduling view is the first unit's (by marker path): apps/production.
  assert.equal(
    template.variants?.map((v) => v.unit),
    ['apps/production/kustomization.yaml', 'apps/staging/kustomization.yaml'],
  );
  const manifest = (c: string) => out.edits.get(`clusters/${c}/default/deployment.apps_web.yaml`) as string | undefined;
  assert.is(manifest('m2'), undefined, 'm2 is in no scope');
  assert.is(imageIn(manifest('m1')), 'web:staging');
  assert.is(imageIn(manifest('m3')), 'web:prod');
  assert.is(imageIn(manifest('m4')), 'web:prod');
  assert.is(replicasIn(manifest('m1')) + replicasIn(manifest('m3')) + replicasIn(manifest('m4')), 9);
  const explanation = out.explanations.get(KEY)!;
  assert.equal(
    explanation.schedule?.explanation.find((e) => e.cluster === 'm2'),
    {
      cluster: 'm2',
      outcome: 'filtered',
      plugin: 'ClusterAffinity',
      reason: 'cluster(s) did not match the placement cluster affinity constraint',
      detail: 'left out by the scope (clusterAffinity in flotilla-unit.yaml) of units apps/production, apps/staging',
    },
  );
  assert.equal(out.indexChanges.get(KEY)?.units, [
    { file: 'apps/production/kustomization.yaml', clusters: ['m3', 'm4'] },
    { file: 'apps/staging/kustomization.yaml', clusters: ['m1'] },
  ]);
});

test('Duplicated, each cluster runs its own variant with its own replicas, as an override of that cluster would set them', async () => {
  const duplicated = emptyFileObjects('policies/web.yaml', {
    propagationPolicies: [
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
      }),
    ],
  });
  const { model, out } = await render([
    duplicated,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/staging', { clusterNames: ['m1'] }, 'web:staging', 1),
    webFrom('apps/production', { labelSelector: { matchLabels: { env: 'prod' } } }, 'web:prod', 5),
  ]);
  assert.equal(model.problems, []);
  const manifest = (c: string) => out.edits.get(`clusters/${c}/default/deployment.apps_web.yaml`) as string | undefined;
  assert.equal(
    ['m1', 'm3', 'm4'].map((c) => [imageIn(manifest(c)), replicasIn(manifest(c))]),
    [
      ['web:staging', 1],
      ['web:prod', 5],
      ['web:prod', 5],
    ],
  );
  assert.is(manifest('m2'), undefined);
});

test('one scoped unit places its objects only where its scope selects', async () => {
  const { model, out } = await render([
    policyFile,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/production', { labelSelector: { matchLabels: { env: 'prod' } } }, 'web:prod', 4),
  ]);
  assert.equal(model.problems, []);
  assert.equal(out.indexChanges.get(KEY)?.clusters, ['m3', 'm4']);
  assert.match(
    JSON.stringify(out.explanations.get(KEY)?.schedule?.explanation.find((e) => e.cluster === 'm1')),
    /left out by the scope \(clusterAffinity in flotilla-unit.yaml\) of unit apps\/production"/,
  );
});

test('variants with different labels are DUPLICATE_OBJECT: policies select one template by its labels', async () => {
  const { model } = await render([
    policyFile,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/staging', { clusterNames: ['m1'] }, 'web:staging', 1, { env: 'staging' }),
    webFrom('apps/production', { clusterNames: ['m3'] }, 'web:prod', 1, { env: 'prod' }),
  ]);
  const problem = model.problems.find((p) => p.code === 'DUPLICATE_OBJECT');
  assert.ok(problem, JSON.stringify(model.problems));
  assert.match(problem!.message, /output by apps\/production and apps\/staging with different labels/);
  assert.ok(model.held.has(KEY));
  assert.not.ok(model.templates.has(KEY));
});

test('a scoped unit and a plain file defining the same object stay DUPLICATE_OBJECT; a template without scoped units has no variants', async () => {
  const plain = emptyFileObjects('templates/web.yaml', {
    templates: webFrom('x', undefined, 'web:plain', 1).templates.map((t) => ({
      ...t,
      source: { ...t.source, file: 'templates/web.yaml' },
    })),
  });
  const { model } = await render([
    ...CLUSTERS.map(clusterFile),
    plain,
    webFrom('apps/production', { clusterNames: ['m3'] }, 'web:prod', 1),
  ]);
  assert.ok(
    model.problems.some((p) => p.code === 'DUPLICATE_OBJECT'),
    JSON.stringify(model.problems),
  );
  assert.ok(model.held.has(KEY));
  const alone = (await render([...CLUSTERS.map(clusterFile), plain])).model.templates.get(KEY)!;
  assert.not.ok('variants' in alone);
});

test('a scope that selects no registered cluster is what NO_CLUSTER_FITS names, with the fix to widen it', async () => {
  const { out } = await render([
    policyFile,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/production', { clusterNames: ['elsewhere'] }, 'web:prod', 4),
  ]);
  const problem = out.problems.find((p) => p.code === 'NO_CLUSTER_FITS');
  assert.ok(problem, JSON.stringify(out.problems));
  assert.match(
    problem!.message,
    /no cluster fits: m1 ClusterAffinity: left out by the scope \(clusterAffinity in flotilla-unit\.yaml\) of unit apps\/production; m2 /,
  );
  assert.match(
    problem!.fix,
    /^widen the clusterAffinity of unit apps\/production \(flotilla-unit\.yaml\) or the placement of PropagationPolicy default\/web/,
  );
  assert.equal(out.indexChanges.get(KEY)?.clusters, []);
});

test('one scoped unit outputting an object twice is DUPLICATE_OBJECT, whichever clusters its scope selects', async () => {
  const twice = webFrom('apps/production', { clusterNames: ['elsewhere'] }, 'web:prod', 1);
  twice.templates.push({ ...twice.templates[0]!, source: { ...twice.templates[0]!.source, line: 20 } });
  const { model } = await render([...CLUSTERS.map(clusterFile), twice]);
  assert.ok(
    model.problems.some((p) => p.code === 'DUPLICATE_OBJECT' && p.line === 20),
    JSON.stringify(model.problems),
  );
  assert.ok(model.held.has(KEY));
});

test('a Divided result kept as it was (steady mode) still says which clusters the scope leaves out', async () => {
  const files = [
    policyFile,
    ...CLUSTERS.map(clusterFile),
    webFrom('apps/production', { labelSelector: { matchLabels: { env: 'prod' } } }, 'web:prod', 4),
  ];
  const first = await render(files);
  const binding = parseYamlValue(
    first.out.edits.get('bindings/default/web-deployment.yaml') as string,
  ) as ResourceBinding;
  const model = await assembleModel(files);
  const again = await renderTemplates({
    model,
    affected: new Set([KEY]),
    previousIndex: viewOfWhole(applyTemplateChanges(emptyIndex(), first.out.indexChanges)),
    previousBindings: new Map([[KEY, binding]]),
    previousFiles: new Map(),
    sourceCommit: 'd'.repeat(40),
  });
  const schedule = again.explanations.get(KEY)!.schedule!;
  assert.is(schedule.status, 'Unchanged');
  assert.equal(
    schedule.explanation.filter((e) => e.outcome === 'filtered').map((e) => e.cluster),
    ['m1', 'm2'],
  );
});

test.run();
