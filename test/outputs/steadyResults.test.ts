import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { parseRefKey } from '../../src/api/kinds.ts';
import type { FailoverEvent } from '../../src/works/renderTemplates.ts';
import type { ConfigModel } from '../../src/api/model.ts';
import type { Placement } from '../../src/api/policy.ts';
import type { WorkloadRebalancer } from '../../src/api/rebalancer.ts';
import type { IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import {
  endedResultOf,
  evictedResultOf,
  followedResultOf,
  keepsResult,
  mayEndAlone,
  mayKeepResult,
  mayShrinkResult,
  shrunkResultOf,
  steadyView,
} from '../../src/outputs/steadyResults.ts';
import { renderTemplates } from '../../src/works/renderTemplates.ts';
import type { ShrunkResult } from '../../src/works/shrunkResults.ts';
import { parseYamlValue } from '../../src/yaml/blockYaml.ts';
import {
  coldRenderInput,
  configMap,
  deployment,
  memberCluster,
  modelOf,
  overridePolicy,
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

const CONFIG_MAP = 'v1/ConfigMap/default/web-config';

/** A ConfigMap (a kind without replicas) under the Divided placement, on the given clusters. */
function configMapFleet(clusters: ReturnType<typeof memberCluster>[]): ConfigModel {
  return modelOf({
    templates: [configMap('web-config')],
    policies: [
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web-config' }],
        placement: dynamic,
      }),
    ],
    clusters,
  });
}

/** The template rendered cold: its index entry and binding, as the output branch holds them. */
async function rendered(model: ConfigModel, key = KEY): Promise<{ entry: IndexEntry; binding: ResourceBinding }> {
  const out = await renderTemplates(coldRenderInput(model));
  const path = [...out.edits.keys()].find((p) => p.startsWith('bindings/') && p.includes(key.split('/').pop()!))!;
  return { entry: out.indexChanges.get(key)!, binding: parseYamlValue(out.edits.get(path)!) as ResourceBinding };
}

/** The model with a NoExecute taint on m1 since the day before NOW: its toleration, if any, has run out. */
function withNoExecuteOnM1(model: ConfigModel): ConfigModel {
  const m1 = model.clusters.get('m1')!;
  const taints = [{ key: 'down', effect: 'NoExecute' as const, timeAdded: '2025-12-31T00:00:00Z' }];
  model.clusters.set('m1', { ...m1, object: { ...m1.object, spec: { ...m1.object.spec, taints } } });
  return model;
}

test('a Divided workload whose placement and replicas are as its binding says keeps its result when a cluster joins', async () => {
  const { entry, binding } = await rendered(fleet(dynamic));
  assert.equal(entry.clusters, ['m1', 'm2']);
  const view = steadyView(fleet(dynamic, 'prod'), NOW);
  assert.ok(mayKeepResult(KEY, entry, view));
  assert.ok(keepsResult(KEY, entry, binding, view));
});

test('static weights and spread constraints keep the result too: the scheduler does not run at all', async () => {
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
  const { entry, binding } = await rendered(fleet(spread));
  assert.ok(keepsResult(KEY, entry, binding, steadyView(fleet(spread, 'prod'), NOW)));
});

test('a Duplicated placement, a kind without replicas, or an entry waiting on status or evicting is rendered', async () => {
  const duplicated: Placement = { ...dynamic, replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
  const { entry } = await rendered(fleet(duplicated));
  assert.not.ok(mayKeepResult(KEY, entry, steadyView(fleet(duplicated, 'prod'), NOW)));

  const view = steadyView(fleet(dynamic, 'prod'), NOW);
  const steady = (await rendered(fleet(dynamic))).entry;
  assert.not.ok(mayKeepResult('v1/ConfigMap/default/web', steady, view), 'a ConfigMap is never a workload');
  assert.not.ok(mayKeepResult(KEY, { ...steady, waiting: {} }, view));
  assert.not.ok(mayKeepResult(KEY, { ...steady, evicting: ['m1'] }, view));
  assert.not.ok(mayKeepResult(KEY, { ...steady, clusters: [...steady.clusters, 'gone'] }, view));
});

test('replicas moved, placement changed, a pending WorkloadRebalancer, a due taint or dependents: the result moves', async () => {
  const { entry, binding } = await rendered(fleet(dynamic));
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

  const tainted = withNoExecuteOnM1(fleet(dynamic, 'prod'));
  assert.not.ok(keepsResult(KEY, entry, binding, steadyView(tainted, NOW)), 'a NoExecute taint evicts from m1');
});

test('a ConfigMap dependency is never a candidate of its own: it follows its parents', () => {
  const model = modelOf({ templates: [configMap('web-config')] });
  assert.not.ok(
    mayKeepResult('v1/ConfigMap/default/web-config', { file: 'x', clusters: [], policy: 'p' }, steadyView(model, NOW)),
  );
});

// A Duplicated placement (or any placement of a kind without replicas) selects every cluster its affinity takes: a
// relabel that only takes clusters out leaves the previous result without them.
const duplicated: Placement = { ...dynamic, replicaScheduling: { replicaSchedulingType: 'Duplicated' } };

test('a Duplicated workload whose affinity no longer takes a relabeled cluster keeps the rest of its result', async () => {
  const { entry, binding } = await rendered(fleet(duplicated, 'prod'));
  assert.equal(entry.clusters, ['m1', 'm2', 'm3']);
  const view = steadyView(fleet(duplicated, 'dev'), NOW);
  assert.ok(mayShrinkResult(KEY, entry, view, new Set(['m3'])));
  const shrunk = shrunkResultOf(KEY, entry, binding, view, new Set(['m3']));
  assert.equal(shrunk?.lost, ['m3']);
  assert.equal(shrunk?.entry.clusters, ['m1', 'm2']);
  // What a render of the relabeled fleet writes: the same binding, the same entry.
  const fresh = await rendered(fleet(duplicated, 'dev'));
  assert.equal(shrunk?.binding, fresh.binding);
  assert.equal(shrunk?.entry, fresh.entry);
});

test('a kind without replicas under a Divided placement shrinks as a Duplicated one; a Divided workload does not', async () => {
  const svc = CONFIG_MAP;
  const model = (m3: string) =>
    configMapFleet([memberCluster('m1', {}, { env: 'prod' }), memberCluster('m3', {}, { env: m3 })]);
  const { entry, binding } = await rendered(model('prod'), svc);
  const view = steadyView(model('dev'), NOW);
  assert.ok(mayShrinkResult(svc, entry, view, new Set(['m3'])));
  assert.equal(
    shrunkResultOf(svc, entry, binding, view, new Set(['m3']))?.entry,
    (await rendered(model('dev'), svc)).entry,
  );
  const workload = await rendered(fleet(dynamic, 'prod'));
  assert.not.ok(mayShrinkResult(KEY, workload.entry, steadyView(fleet(dynamic, 'dev'), NOW), new Set(['m3'])));
});

test('a cluster that may join, spread constraints, a dependent, a lone cluster or a due taint: the scheduler decides', async () => {
  const { entry, binding } = await rendered(fleet(duplicated, 'prod'));
  const view = steadyView(fleet(duplicated, 'dev'), NOW);
  const changed = new Set(['m3']);
  const of = (b: Partial<ResourceBinding['spec']>) =>
    shrunkResultOf(KEY, entry, { ...binding, spec: { ...binding.spec, ...b } }, view, changed);
  assert.ok(of({}));
  assert.not.ok(of({ requiredBy: [{ namespace: 'default', name: 'parent' }] }), 'a dependency follows its parents');
  assert.not.ok(of({ placement: dynamic }), 'the binding was built from another placement');
  // m2 relabeled too and still prod: nothing lost from it, and m3 out: still a shrink; m3 prod again: it may join.
  const partial = await rendered(fleet(duplicated, 'dev'));
  assert.not.ok(
    shrunkResultOf(KEY, partial.entry, partial.binding, steadyView(fleet(duplicated, 'prod'), NOW), changed),
  );
  const spread: Placement = {
    ...duplicated,
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }],
  };
  assert.not.ok(mayShrinkResult(KEY, entry, steadyView(fleet(spread, 'dev'), NOW), changed));
  assert.not.ok(mayShrinkResult(KEY, { ...entry, evicting: ['m1'] }, view, changed));
  assert.not.ok(
    mayShrinkResult(KEY, entry, steadyView(fleet(duplicated, 'prod'), NOW), changed),
    'm3 still prod: nothing lost',
  );
  const lone = { ...entry, clusters: ['m3'] };
  const loneBinding = { ...binding, spec: { ...binding.spec, clusters: [{ name: 'm3', replicas: 4 }] } };
  assert.not.ok(shrunkResultOf(KEY, lone, loneBinding, view, changed), 'no cluster left: a failed schedule');
  const tainted = withNoExecuteOnM1(fleet(duplicated, 'dev'));
  assert.not.ok(shrunkResultOf(KEY, entry, binding, steadyView(tainted, NOW), changed), 'a NoExecute taint evicts');
  const job = { ...binding, spec: { ...binding.spec, resource: { ...binding.spec.resource, kind: 'Job' } } };
  assert.not.ok(
    shrunkResultOf('batch/v1/Job/default/web', entry, job, view, changed),
    'a Job whose result moves renders on every cluster again',
  );
});

test('a dependency follows parents that only lose clusters: their snapshots anew, the clusters none holds left', () => {
  const dep = 'v1/ConfigMap/default/web-config';
  const entry: IndexEntry = { file: 'templates/web.yaml', clusters: ['m1', 'm2', 'm3'] };
  const binding: ResourceBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'web-config-configmap', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'web-config' },
      requiredBy: [
        { namespace: 'default', name: 'api-deployment', clusters: [{ name: 'm3', replicas: 1 }] },
        {
          namespace: 'default',
          name: 'web-deployment',
          clusters: [
            { name: 'm1', replicas: 4 },
            { name: 'm2', replicas: 4 },
          ],
        },
      ],
    },
  };
  const web = { file: 'w', policy: 'p', clusters: ['m1'], deps: [dep], replicas: [4] };
  const api = { file: 'a', policy: 'p', clusters: ['m3'], deps: [dep], replicas: [1] };
  const parents = new Map([
    ['apps/v1/Deployment/default/web', { entry: web, lost: new Set(['m2']) }],
    ['apps/v1/Deployment/default/api', { entry: api }],
  ]);
  const result = followedResultOf(dep, entry, binding, parents);
  assert.equal(result?.lost, ['m2']);
  assert.equal(result?.entry.clusters, ['m1', 'm3']);
  assert.equal(result?.binding.spec.requiredBy, [
    binding.spec.requiredBy![0]!,
    { namespace: 'default', name: 'web-deployment', clusters: [{ name: 'm1', replicas: 4 }] },
  ]);

  assert.not.ok(followedResultOf(dep, { ...entry, policy: 'own' }, binding, parents), 'a result of its own');
  const bringing = new Map(parents).set('apps/v1/Deployment/default/api', { entry: { ...api, clusters: ['m4'] } });
  assert.not.ok(followedResultOf(dep, entry, binding, bringing), 'a parent brings a cluster: rendered');
  parents.delete('apps/v1/Deployment/default/api');
  assert.not.ok(followedResultOf(dep, entry, binding, parents), 'a snapshot of a parent it does not know');
});

// A NoExecute taint on a cluster of a Duplicated result: Karmada's taint manager moves the cluster into a graceful
// eviction task and the scheduler, run again, selects every other cluster it selected before.
const onM1 = new Set(['m1']);

/** The render of the tainted fleet against the previous binding: what the taint manager and the scheduler make of it. */
async function evictedByRender(model: ConfigModel, binding: ResourceBinding, key = KEY) {
  const out = await renderTemplates(
    coldRenderInput(model, {
      previousBindings: new Map([[key, binding]]),
      failover: { now: NOW, observed: new Map() },
    }),
  );
  const path = [...out.edits.keys()].find((p) => p.startsWith('bindings/'))!;
  return {
    entry: out.indexChanges.get(key)!,
    binding: parseYamlValue(out.edits.get(path)!) as ResourceBinding,
    evictionEnd: out.evictionEnds.get(key),
    failover: out.failover,
  };
}

test('a Duplicated result a NoExecute taint evicts from a cluster: the last binding with that cluster in a task, as a render writes it', async () => {
  for (const [key, model] of [
    [KEY, () => fleet(duplicated)],
    [
      CONFIG_MAP,
      () => configMapFleet([memberCluster('m1', {}, { env: 'prod' }), memberCluster('m2', {}, { env: 'prod' })]),
    ],
  ] as const) {
    const { entry, binding } = await rendered(model(), key);
    assert.equal(entry.clusters, ['m1', 'm2']);
    const tainted = withNoExecuteOnM1(model());
    const cut = evictedResultOf(key, entry, binding, steadyView(tainted, NOW), onM1);
    const render = await evictedByRender(tainted, binding, key);
    assert.equal(cut?.binding, render.binding, key);
    assert.is(JSON.stringify(cut?.binding), JSON.stringify(render.binding), `${key}: the binding's fields in order`);
    assert.equal(cut?.entry, render.entry, key);
    assert.equal(JSON.stringify(cut?.entry), JSON.stringify(render.entry), `${key}: the entry's fields in order`);
    assert.equal(cut?.entry.evicting, ['m1']);
    assert.equal(cut?.lost, [], 'm1 keeps its copy until the task ends');
    assert.is(cut?.evicted?.lookAt, render.evictionEnd);
    assert.equal(
      cut?.evicted?.evictions.map((e) => ({
        type: 'evicted',
        ref: render.failover[0]!.ref,
        result: cut.evicted!.result,
        ...e,
      })),
      render.failover,
    );
  }
});

test('a binding that records its reschedule requests otherwise than a render writes them (name@generation) is rendered', async () => {
  const rebalancers: WorkloadRebalancer[] = [
    {
      apiVersion: 'apps.karmada.io/v1alpha1',
      kind: 'WorkloadRebalancer',
      metadata: { name: 'again' },
      spec: { workloads: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }] },
    },
  ];
  const inForm = (binding: ResourceBinding, observed: string): ResourceBinding => ({
    ...binding,
    metadata: {
      ...binding.metadata,
      annotations: { ...binding.metadata.annotations, 'flotilla.io/observed-rebalancers': observed },
    },
  });

  const divided = await rendered(fleet(dynamic, 'dev', { rebalancers }));
  assert.is(divided.binding.metadata.annotations?.['flotilla.io/observed-rebalancers'], 'again');
  const joined = steadyView(fleet(dynamic, 'prod', { rebalancers }), NOW);
  assert.ok(keepsResult(KEY, divided.entry, divided.binding, joined), 'as a render wrote it, the result is kept');
  assert.not.ok(keepsResult(KEY, divided.entry, inForm(divided.binding, 'again@3'), joined), 'the older form');
  const none = await rendered(fleet(dynamic));
  const prod = steadyView(fleet(dynamic, 'prod'), NOW);
  assert.ok(keepsResult(KEY, none.entry, none.binding, prod), 'no request, no annotation');
  assert.not.ok(keepsResult(KEY, none.entry, inForm(none.binding, ''), prod), 'recorded empty: a render drops it');

  const copies = await rendered(fleet(duplicated, 'dev', { rebalancers }));
  const tainted = steadyView(withNoExecuteOnM1(fleet(duplicated, 'dev', { rebalancers })), NOW);
  assert.ok(evictedResultOf(KEY, copies.entry, copies.binding, tainted, onM1), 'as a render wrote it, the cut applies');
  assert.is(evictedResultOf(KEY, copies.entry, inForm(copies.binding, 'again@3'), tainted, onM1), undefined);
  const legacy = inForm(copies.binding, 'again@3');
  const render = await evictedByRender(withNoExecuteOnM1(fleet(duplicated, 'dev', { rebalancers })), legacy);
  assert.is(
    render.binding.metadata.annotations?.['flotilla.io/observed-rebalancers'],
    'again',
    'a render writes it anew',
  );
});

test('a toleration, another purge mode, no cluster left, a cluster that may join, tasks or dependents: the render evicts', async () => {
  const { entry, binding } = await rendered(fleet(duplicated));
  const tainted = () => withNoExecuteOnM1(fleet(duplicated));
  const view = steadyView(tainted(), NOW);
  const of = (b: Partial<ResourceBinding['spec']>, e: Partial<IndexEntry> = {}, v = view, changed = onM1) =>
    evictedResultOf(KEY, { ...entry, ...e }, { ...binding, spec: { ...binding.spec, ...b } }, v, changed);
  assert.ok(of({}));
  const policyWith = (extra: object) => {
    const model = tainted();
    const p = model.propagationPolicies[0]!;
    model.propagationPolicies[0] = { ...p, object: { ...p.object, spec: { ...p.object.spec, ...extra } } };
    return steadyView(model, NOW);
  };
  assert.not.ok(
    of({}, {}, policyWith({ failover: { cluster: { purgeMode: 'Directly' } } })),
    'Directly: the copy goes at once',
  );
  assert.not.ok(of({}, {}, policyWith({ failover: { cluster: { purgeMode: 'Never' } } })));
  assert.not.ok(of({}, {}, steadyView(fleet(duplicated), NOW)), 'no taint: nothing is evicted');
  assert.not.ok(
    of({ clusters: [{ name: 'm1', replicas: 4 }] }, { clusters: ['m1'] }),
    'no cluster left: the scheduler reports it',
  );
  assert.not.ok(of({}, {}, view, new Set(['m1', 'm2'])), 'm2 changed too: its manifest renders again there');
  const job = 'batch/v1/Job/default/web';
  const jobBinding = { ...binding, spec: { ...binding.spec, resource: { ...binding.spec.resource, kind: 'Job' } } };
  assert.ok(of({}), 'the Deployment alone');
  assert.not.ok(
    evictedResultOf(job, entry, jobBinding, view, onM1),
    'a Job whose result moved renders on every cluster again',
  );
  const m3Prod = withNoExecuteOnM1(fleet(duplicated, 'prod'));
  assert.not.ok(of({}, {}, steadyView(m3Prod, NOW), new Set(['m1', 'm3'])), 'm3 changed too and may join');
  assert.not.ok(
    of({
      gracefulEvictionTasks: [
        {
          fromCluster: 'm3',
          purgeMode: 'Gracefully',
          reason: 'TaintUntolerated',
          producer: 'TaintManager',
          creationTimestamp: '2025-12-31T00:00:00Z',
        },
      ],
    }),
    'a task already: the render looks at it',
  );
  assert.not.ok(of({ requiredBy: [{ namespace: 'default', name: 'parent' }] }), 'a dependency follows its parents');
  assert.not.ok(of({}, { deps: ['v1/ConfigMap/default/web-config'] }), "its dependencies' snapshots of it move");
  const divided = await rendered(fleet(dynamic));
  assert.not.ok(
    evictedResultOf(KEY, divided.entry, divided.binding, steadyView(withNoExecuteOnM1(fleet(dynamic)), NOW), onM1),
    'a Divided workload: its replicas move',
  );
});

// Ten minutes after the taint manager evicted a result from m1, with nothing else moved: Karmada's graceful eviction
// controller ends the task, and its scheduler looks at the binding again.
const GRACE_ENDED = new Date(NOW.getTime() + 601_000);

/** A Deployment whose pods request resources: its binding carries replica requirements. */
const requesting = () =>
  deployment('web', 4, {
    template: {
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }] },
    },
  });

/** The template rendered cold, then evicted from m1 by a NoExecute taint: its entry and binding with the task. */
async function evictedFromM1(model: () => ConfigModel, key: string) {
  const { binding } = await rendered(model(), key);
  return evictedByRender(withNoExecuteOnM1(model()), binding, key);
}

/** A render of the template once its task's grace period ran out, against its binding under eviction. */
async function endedByRender(model: ConfigModel, binding: ResourceBinding, key: string) {
  const out = await renderTemplates(
    coldRenderInput(model, {
      previousBindings: new Map([[key, binding]]),
      failover: { now: GRACE_ENDED, observed: new Map() },
    }),
  );
  const path = [...out.edits.keys()].find((p) => p.startsWith('bindings/'))!;
  return {
    entry: out.indexChanges.get(key)!,
    binding: parseYamlValue(out.edits.get(path)!) as ResourceBinding,
    failover: out.failover,
  };
}

/** The failover events a render lists for a result whose tasks ended without one (renderTemplates' order). */
function releasedEvents(key: string, cut: ShrunkResult | undefined): FailoverEvent[] {
  return (cut?.released?.ends ?? []).map((end) => ({
    type: 'released',
    ref: parseRefKey(key),
    cluster: end.task.fromCluster,
    why: end.why,
    result: [...cut!.released!.result],
    ...(cut!.released!.placedAgain.includes(end.task.fromCluster) ? { placedAgain: true as const } : {}),
  }));
}

test('the end of a graceful eviction without a render: m1 takes back a Duplicated copy, a Divided one goes, as a render decides', async () => {
  const fleets: [what: string, key: string, model: () => ConfigModel, lost: string[]][] = [
    ['a Duplicated workload with requests', KEY, () => fleet(duplicated, 'dev', { templates: [requesting()] }), []],
    [
      'a kind without replicas',
      CONFIG_MAP,
      () => configMapFleet([memberCluster('m1', {}, { env: 'prod' }), memberCluster('m2', {}, { env: 'prod' })]),
      [],
    ],
    ['a Divided workload', KEY, () => fleet(dynamic), ['m1']],
  ];
  for (const [what, key, model, lost] of fleets) {
    const evicted = await evictedFromM1(model, key);
    assert.equal(evicted.entry.evicting, ['m1'], what);
    const view = steadyView(model(), GRACE_ENDED);
    assert.ok(mayEndAlone(key, evicted.entry, view), what);
    const cut = endedResultOf(key, evicted.entry, evicted.binding, view, new Set());
    const render = await endedByRender(model(), evicted.binding, key);
    assert.is(JSON.stringify(cut?.binding), JSON.stringify(render.binding), `${what}: the binding, fields in order`);
    assert.is(JSON.stringify(cut?.entry), JSON.stringify(render.entry), `${what}: the entry, fields in order`);
    assert.equal(cut?.lost, lost, what);
    assert.equal(releasedEvents(key, cut), render.failover, what);
  }
  // Still tainted when the task ends: the scheduler leaves m1 out for its state alone, which the render's entry says
  // it waits on (to take m1 back once the taint goes): that is the render's to write.
  const model = () => withNoExecuteOnM1(fleet(duplicated));
  const evicted = await evictedFromM1(() => fleet(duplicated), KEY);
  const render = await endedByRender(model(), evicted.binding, KEY);
  assert.equal(render.entry.clusters, ['m2']);
  assert.equal(render.entry.waiting, {});
  assert.not.ok(endedResultOf(KEY, evicted.entry, evicted.binding, steadyView(model(), GRACE_ENDED), new Set()));
});

test('a task within its grace period, another purge mode, a moved cluster, other replicas or an override: the render ends it', async () => {
  const evicted = await evictedFromM1(() => fleet(duplicated), KEY);
  const view = steadyView(fleet(duplicated), GRACE_ENDED);
  const of = (b: Partial<ResourceBinding['spec']> = {}, v = view, changed: ReadonlySet<string> = new Set()) =>
    endedResultOf(KEY, evicted.entry, { ...evicted.binding, spec: { ...evicted.binding.spec, ...b } }, v, changed);
  assert.ok(of());
  assert.not.ok(of({}, steadyView(fleet(duplicated), new Date(NOW.getTime() + 60_000))), 'the task runs on');
  assert.not.ok(of({}, view, new Set(['m2'])), 'm2 moved: the scheduler decides');
  const [task] = evicted.binding.spec.gracefulEvictionTasks!;
  assert.not.ok(of({ gracefulEvictionTasks: [{ ...task!, purgeMode: 'Directly' }] }), 'no copy kept');
  assert.not.ok(
    of({ gracefulEvictionTasks: [{ ...task!, replicas: 3 }] }),
    "m1's copy runs 3 replicas, the result gives it 4: written again",
  );
  assert.not.ok(mayEndAlone(KEY, { ...evicted.entry, held: true }, view), 'a held template: its files are older');
  const overridden = fleet(duplicated, 'dev', {
    overrides: [
      overridePolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        overriders: { labelsOverrider: [{ operator: 'add', value: { tier: 'web' } }] },
      }),
    ],
  });
  assert.not.ok(
    mayEndAlone(KEY, evicted.entry, steadyView(overridden, GRACE_ENDED)),
    'an override may report a failed rule on m1, which goes into the commit message',
  );
  const job = 'batch/v1/Job/default/web';
  assert.not.ok(mayEndAlone(job, evicted.entry, view), 'a Job');
  // A cluster the scheduler takes now that held no copy would get one: the render writes it.
  const prod = (name: string) => memberCluster(name, {}, { env: 'prod' });
  const configMaps = await evictedFromM1(() => configMapFleet([prod('m1'), prod('m2')]), CONFIG_MAP);
  const withM3 = steadyView(configMapFleet([prod('m1'), prod('m2'), prod('m3')]), GRACE_ENDED);
  assert.ok(
    endedResultOf(
      CONFIG_MAP,
      configMaps.entry,
      configMaps.binding,
      steadyView(configMapFleet([prod('m1'), prod('m2')]), GRACE_ENDED),
      new Set(),
    ),
  );
  assert.not.ok(endedResultOf(CONFIG_MAP, configMaps.entry, configMaps.binding, withM3, new Set()), 'm3 would join');
});

test.run();
