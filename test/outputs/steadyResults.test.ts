import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { ConfigModel } from '../../src/api/model.ts';
import type { Placement } from '../../src/api/policy.ts';
import type { IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { keepsResult, mayKeepResult, steadyView } from '../../src/outputs/steadyResults.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import {
  coldRenderInput,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
} from '../helpers/inMemoryModel.ts';

// Whether a template a relabeled cluster reaches keeps its last scheduling result, decided from its index entry,
// its policy and its previous binding as Karmada's scheduler decides whether to schedule at all.
const NOW = new Date('2026-01-01T00:00:00Z');
const KEY = 'apps/v1/Deployment/default/web';
const dynamic: Placement = {
  clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } },
  replicaScheduling: {
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { dynamicWeight: 'AvailableReplicas' },
  },
};

function fleet(placement: Placement, m3 = 'dev', extra: Partial<Parameters<typeof modelOf>[0]> = {}): ConfigModel {
  return modelOf({
    templates: [deployment('web', 4)],
    policies: [
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        placement,
      }),
    ],
    clusters: [
      memberCluster('m1', {}, { env: 'prod' }),
      memberCluster('m2', {}, { env: 'prod' }),
      memberCluster('m3', {}, { env: m3 }),
    ],
    ...extra,
  });
}

/** The template rendered cold: its index entry and binding, as the output branch holds them. */
function rendered(model: ConfigModel, key = KEY): { entry: IndexEntry; binding: ResourceBinding } {
  const out = renderTemplates(coldRenderInput(model));
  const path = [...out.edits.keys()].find((p) => p.startsWith('bindings/') && p.includes(key.split('/').pop()!))!;
  return { entry: out.indexChanges.get(key)!, binding: parseYamlValue(out.edits.get(path)!) as ResourceBinding };
}

test('a Divided workload whose placement and replicas are as its binding says keeps its result when a cluster joins', () => {
  const { entry, binding } = rendered(fleet(dynamic));
  assert.equal(entry.clusters, ['m1', 'm2']);
  const view = steadyView(fleet(dynamic, 'prod'), NOW);
  assert.ok(mayKeepResult(KEY, entry, view));
  assert.ok(keepsResult(KEY, entry, binding, view));
});

test('static weights and spread constraints keep the result too: the scheduler does not run at all', () => {
  const spread: Placement = {
    ...dynamic,
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 3 }],
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      weightPreference: {
        staticWeightList: [{ targetCluster: { clusterNames: ['m1', 'm2', 'm3'] }, weight: 1 }],
      },
    },
  };
  const { entry, binding } = rendered(fleet(spread));
  assert.ok(keepsResult(KEY, entry, binding, steadyView(fleet(spread, 'prod'), NOW)));
});

test('a Duplicated placement, a kind without replicas, or an entry waiting on status or evicting is rendered', () => {
  const duplicated: Placement = { ...dynamic, replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
  const { entry } = rendered(fleet(duplicated));
  assert.not.ok(mayKeepResult(KEY, entry, steadyView(fleet(duplicated, 'prod'), NOW)));

  const view = steadyView(fleet(dynamic, 'prod'), NOW);
  const steady = rendered(fleet(dynamic)).entry;
  assert.not.ok(mayKeepResult('v1/ConfigMap/default/web', steady, view), 'a ConfigMap is never a workload');
  assert.not.ok(mayKeepResult(KEY, { ...steady, waiting: {} }, view));
  assert.not.ok(mayKeepResult(KEY, { ...steady, evicting: ['m1'] }, view));
  assert.not.ok(mayKeepResult(KEY, { ...steady, clusters: [...steady.clusters, 'gone'] }, view));
});

test('replicas moved, placement changed, a pending WorkloadRebalancer, a due taint or dependents: the result moves', () => {
  const { entry, binding } = rendered(fleet(dynamic));
  const view = steadyView(fleet(dynamic, 'prod'), NOW);
  const spec = binding.spec;
  const variant = (b: Partial<ResourceBinding['spec']>, meta: Partial<ResourceBinding['metadata']> = {}) =>
    keepsResult(KEY, entry, { ...binding, metadata: { ...binding.metadata, ...meta }, spec: { ...spec, ...b } }, view);
  assert.not.ok(variant({ replicas: 5 }), 'replicas no longer the sum of the result');
  assert.not.ok(variant({ replicas: undefined }), 'no replicas: a non-workload, scheduled every time');
  assert.not.ok(
    variant({}, { annotations: { ...binding.metadata.annotations, 'policy.karmada.io/applied-placement': '{}' } }),
    'applied placement differs from the policy',
  );
  assert.not.ok(variant({ requiredBy: [{ namespace: 'default', name: 'parent' }] }));
  assert.not.ok(
    keepsResult(KEY, entry, { ...binding, spec: { ...spec, resource: { ...spec.resource, name: 'other' } } }, view),
    "another object's binding at the path",
  );

  const rebalanced = steadyView(
    fleet(dynamic, 'prod', {
      rebalancers: [
        {
          apiVersion: 'apps.karmada.io/v1alpha1',
          kind: 'WorkloadRebalancer',
          metadata: { name: 'again' },
          spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }] },
        },
      ],
    }),
    NOW,
  );
  assert.not.ok(keepsResult(KEY, entry, binding, rebalanced), 'a reschedule request not yet observed');

  const tainted = fleet(dynamic, 'prod');
  const m1 = tainted.clusters.get('m1')!;
  tainted.clusters.set('m1', {
    ...m1,
    object: {
      ...m1.object,
      spec: {
        ...m1.object.spec,
        taints: [{ key: 'down', effect: 'NoExecute', timeAdded: '2025-12-31T00:00:00Z' }],
      },
    },
  });
  assert.not.ok(keepsResult(KEY, entry, binding, steadyView(tainted, NOW)), 'a NoExecute taint evicts from m1');
});

test('a ConfigMap dependency is never a candidate of its own: it follows its parents', () => {
  const model = modelOf({ templates: [configMap('web-config')] });
  assert.not.ok(
    mayKeepResult('v1/ConfigMap/default/web-config', { file: 'x', clusters: [], policy: 'p' }, steadyView(model, NOW)),
  );
});

test.run();
