import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderTemplates, type RenderInput } from '../../src/works/renderTemplates.ts';
import { coldRenderInput, deployment, memberCluster, modelOf, propagationPolicy } from '../helpers/inMemoryModel.ts';

// A render that writes the output branch does not keep the scheduler's reason for every registered cluster: kept for
// a whole render they grow with templates × clusters. explain and plan (the default) keep them.
const model = modelOf({
  templates: [deployment('web', 4)],
  policies: [
    propagationPolicy('web', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      placement: {
        clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      },
    }),
  ],
  clusters: [
    memberCluster('m1', {}, { env: 'prod' }),
    memberCluster('m2', {}, { env: 'dev' }),
    memberCluster('m3', {}, { env: 'prod' }),
  ],
});
const input: RenderInput = coldRenderInput(model);

test('a render without cluster reasons writes the same files and keeps the scheduling summary, not the reason or target per cluster', async () => {
  const full = await renderTemplates(input);
  const lean = await renderTemplates({ ...input, clusterReasons: false });
  assert.equal([...lean.edits], [...full.edits]);
  assert.equal([...lean.indexChanges], [...full.indexChanges]);
  const [key] = model.templates.keys();
  const withReasons = full.explanations.get(key!)!;
  const without = lean.explanations.get(key!)!;
  assert.equal(
    withReasons.schedule?.explanation.map((e) => e.cluster).sort(),
    ['m1', 'm2', 'm3'],
    'explain and plan see every cluster',
  );
  assert.equal(without.schedule?.explanation, []);
  assert.is(without.schedule?.status, withReasons.schedule?.status);
  assert.is(without.schedule?.message, withReasons.schedule?.message);
  assert.ok(withReasons.clusters.length > 0);
  assert.equal(without.clusters, [], 'the binding written has them');
});

test.run();
