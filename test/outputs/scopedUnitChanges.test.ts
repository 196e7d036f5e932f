import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emptyFileObjects, type FileObjects, type Located } from '../../src/api/model.ts';
import type { PropagationPolicy } from '../../src/api/policy.ts';
import { policyKey } from '../../src/bindings/matchPolicy.ts';
import type { Cluster } from '../../src/api/cluster.ts';
import { ShardedIndex, type OutputIndex } from '../../src/branches/rendered/outputIndex.ts';
import { assembleModel } from '../../src/documents/assembleModel.ts';
import { affectedByChange } from '../../src/outputs/affectedByChange.ts';
import { memberCluster } from '../helpers/inMemoryModel.ts';

// A Cluster file changed alone: which templates of scoped units a sync renders again. The index says which units output
// each template (its entry's units) and each unit's scope (its file entry); the policy places everywhere.
const KEY = 'helm.toolkit.fluxcd.io/v2/HelmRelease/podinfo/podinfo';
const STAGING = 'apps/staging/kustomization.yaml';
const PRODUCTION = 'apps/production/kustomization.yaml';
const POLICY: Located<PropagationPolicy> = {
  object: {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterPropagationPolicy',
    metadata: { name: 'podinfo' },
    spec: { resourceSelectors: [{ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: 'podinfo' }] },
  },
  source: { file: 'policies/podinfo.yaml', line: 1, column: 1 },
};
const index: OutputIndex = {
  files: {
    [STAGING]: { templates: [KEY], scope: { labelSelector: { matchLabels: { env: 'staging' } } } },
    [PRODUCTION]: { templates: [KEY], scope: { labelSelector: { matchLabels: { env: 'production' } } } },
    'policies/podinfo.yaml': { templates: [], karmada: true },
    'clusters/edge.yaml': { templates: [], karmada: true },
  },
  templates: {
    [KEY]: {
      file: PRODUCTION,
      policy: policyKey(POLICY.object),
      clusters: ['edge'],
      units: [
        { file: PRODUCTION, clusters: [] },
        { file: STAGING, clusters: ['edge'] },
      ],
    },
  },
};

function clusterFile(c: Cluster): FileObjects {
  const file = `clusters/${c.metadata.name}.yaml`;
  return emptyFileObjects(file, { clusters: [{ object: c, source: { file, line: 1, column: 1 } }] });
}

async function affectedWhen(before: Cluster, after: Cluster): Promise<Set<string>> {
  const changed = clusterFile(after);
  return affectedByChange({
    index: ShardedIndex.fromWhole(index),
    model: await assembleModel([changed, emptyFileObjects('policies/podinfo.yaml', { propagationPolicies: [POLICY] })]),
    changedFiles: new Set([changed.file]),
    oldVersions: [clusterFile(before)],
  });
}

test("a cluster's label change re-renders a scoped units' template only when a scope reads the change otherwise", async () => {
  const edge = (labels: Record<string, string>) => memberCluster('edge', {}, labels);
  assert.equal([...(await affectedWhen(edge({ env: 'staging' }), edge({ env: 'production' })))], [KEY], 'moves scope');
  assert.equal(
    [...(await affectedWhen(edge({ env: 'staging' }), edge({ env: 'staging', tier: 'gold' })))],
    [],
    'no scope reads tier',
  );
});

test('any other change of a cluster a scope selects, before or after, re-renders the template', async () => {
  const before = memberCluster('edge', {}, { env: 'staging' });
  const after = memberCluster('edge', { region: 'eu' }, { env: 'staging' });
  assert.equal([...(await affectedWhen(before, after))], [KEY]);
});

test.run();
