// Karmada's binding controller helpers, case by case (pkg/controllers/binding/common_test.go): the clusters a
// binding's Works go to, the labels and annotations that tie a Work to its binding, the Work's conflict resolution,
// suspended dispatching, and a Job's completions.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding, TargetCluster } from '../../src/api/binding.ts';
import { refKey } from '../../src/api/kinds.ts';
import type { ConfigModel, Located, Template } from '../../src/api/model.ts';
import { dispatchingSuspended, type PropagationPolicy, type PropagationSpec } from '../../src/api/policy.ts';
import { claimTemplate } from '../../src/bindings/claimTemplate.ts';
import { emptyIndex, viewOfWhole, type IndexEntry } from '../../src/branches/rendered/outputIndex.ts';
import { distributeDependencies, type PlacedDependency } from '../../src/works/distributeDependencies.ts';
import { renderWorkManifest } from '../../src/works/renderWorkManifest.ts';
import {
  configMap,
  deployment,
  memberCluster,
  modelOf,
  propagationPolicy,
  templateOf,
} from '../helpers/inMemoryModel.ts';

type Meta = { labels: Record<string, string>; annotations: Record<string, string> };
const member1 = memberCluster('member1');
const member2 = memberCluster('member2');

/** The template as the binding controller gets it: claimed by `policy`, placed on `targets`. */
function source(template: Template, model: ConfigModel, targets: TargetCluster[], policy: Located<PropagationPolicy>) {
  const claim = claimTemplate(template, model, undefined);
  if (claim.status !== 'claimed') throw new Error(claim.reason);
  const binding: ResourceBinding = { ...claim.binding, spec: { ...claim.binding.spec, clusters: targets } };
  return { template, binding, clusters: targets, policy };
}

/** One cluster's manifest of `template` claimed by a policy with `spec`, placed on `targets`. */
function manifestOf(
  template: Template,
  spec: Omit<PropagationSpec, 'resourceSelectors'>,
  targets: TargetCluster[],
  on = targets[0]!,
) {
  const policy = propagationPolicy('p', {
    resourceSelectors: [{ apiVersion: template.ref.apiVersion, kind: template.ref.kind }],
    ...spec,
  });
  const model = modelOf({ templates: [template], policies: [policy], clusters: [member1, member2] });
  const cluster = on.name === 'member1' ? member1 : member2;
  return renderWorkManifest(source(template, model, targets, policy), on, cluster, model).manifest as {
    metadata: Meta;
    spec: Record<string, unknown>;
  };
}

// Test_mergeTargetClusters: a binding's Work clusters are its own, then each requiredBy snapshot's clusters it lacks,
// taken as the snapshot has them ("the same cluster": foo once, with its own 1; "different clusters": foo, then bar
// with the snapshot's replicas 1).
test("a dependency's Work clusters are its own plus the parents' it lacks, as the parents' snapshots give them", async () => {
  const own = configMap('settings');
  const ownBinding: ResourceBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'settings-configmap', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' },
      clusters: [{ name: 'foo', replicas: 1 }],
    },
  };
  const parent = deployment('web', 1);
  const mergedWith = async (parentCluster: string) => {
    const placed = new Map<string, PlacedDependency>([
      [refKey(parent.ref), { template: parent, clusters: [{ name: parentCluster, replicas: 1 }] }],
      [refKey(own.ref), { template: own, clusters: [{ name: 'foo', replicas: 1 }], binding: ownBinding }],
    ]);
    const changes = new Map<string, IndexEntry | null>([
      [
        refKey(parent.ref),
        { file: 'templates/web.yaml', policy: 'p', clusters: [parentCluster], deps: [refKey(own.ref)] },
      ],
      [refKey(own.ref), { file: 'templates/settings.yaml', policy: 'q', clusters: ['foo'] }],
    ]);
    const clusters = (await distributeDependencies(placed, changes, viewOfWhole(emptyIndex()))).get(
      refKey(own.ref),
    )!.clusters;
    return [...clusters].sort((a, b) => (a.name < b.name ? -1 : 1));
  };
  assert.equal(await mergedWith('foo'), [{ name: 'foo', replicas: 1 }]);
  assert.equal(await mergedWith('bar'), [
    { name: 'bar', replicas: 1 },
    { name: 'foo', replicas: 1 },
  ]);
});

// Test_mergeLabel "ClusterScoped" and Test_mergeAnnotations "ClusterScoped": a ClusterResourceBinding's Work carries
// clusterresourcebinding.karmada.io/permanent-id and clusterresourcebinding.karmada.io/name, nothing of a
// ResourceBinding's.
test("a cluster-scoped object's manifest is tied to its ClusterResourceBinding by permanent id and name", () => {
  const role = templateOf(
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' }, rules: [] },
    'templates/role.yaml',
    true,
  );
  const cpp = propagationPolicy('roles', {
    resourceSelectors: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }],
  });
  cpp.object = { ...cpp.object, kind: 'ClusterPropagationPolicy', metadata: { name: 'roles' } };
  const model = modelOf({ templates: [role], policies: [cpp], clusters: [member1] });
  const target = { name: 'member1', replicas: 0 };
  const src = source(role, model, [target], cpp);
  assert.is(src.binding.kind, 'ClusterResourceBinding');
  const m = renderWorkManifest(src, target, member1, model).manifest as { metadata: Meta };
  const crbId = src.binding.metadata.labels?.['clusterresourcebinding.karmada.io/permanent-id'];
  assert.ok(crbId);
  assert.is(m.metadata.labels['clusterresourcebinding.karmada.io/permanent-id'], crbId);
  assert.is(m.metadata.labels['resourcebinding.karmada.io/permanent-id'], undefined);
  assert.is(m.metadata.annotations['clusterresourcebinding.karmada.io/name'], src.binding.metadata.name);
  assert.is(m.metadata.annotations['resourcebinding.karmada.io/name'], undefined);
  assert.is(m.metadata.annotations['resourcebinding.karmada.io/namespace'], undefined);
});

// Test_mergeConflictResolution: the template's own annotation wins when it is abort or overwrite; without one, or with
// another value, the binding's conflictResolution decides (Overwrite → overwrite, anything else → abort).
test("the Work's conflict resolution: the template's valid annotation, else the policy's", () => {
  const web = (annotation?: string) =>
    templateOf({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'web',
        namespace: 'default',
        ...(annotation ? { annotations: { 'work.karmada.io/conflict-resolution': annotation } } : {}),
      },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
  const targets = [{ name: 'member1', replicas: 1 }];
  const resolution = (annotation: string | undefined, conflictResolution: 'Abort' | 'Overwrite') =>
    manifestOf(web(annotation), { conflictResolution }, targets).metadata.annotations[
      'work.karmada.io/conflict-resolution'
    ];
  assert.is(resolution(undefined, 'Overwrite'), 'overwrite', 'EmptyInRT_OverwriteInRB');
  assert.is(resolution(undefined, 'Abort'), 'abort', 'EmptyInRT_AbortInRB');
  assert.is(resolution('abort', 'Overwrite'), 'abort', 'AbortInRT_OverwriteInPP');
  assert.is(resolution('unknown', 'Overwrite'), 'overwrite', 'InvalidInRT_OverwriteInPP');
});

// Test_shouldSuspendDispatching: every case.
test('dispatching is suspended by dispatching: true, or on the clusters dispatchingOnClusters names', () => {
  assert.is(dispatchingSuspended(undefined, 'clusterA'), false, 'nil suspension');
  assert.is(dispatchingSuspended({}, 'clusterA'), false, 'nil dispatching');
  assert.is(dispatchingSuspended({ dispatching: false }, 'clusterA'), false, 'not suspended');
  assert.is(dispatchingSuspended({ dispatching: true }, 'clusterA'), true, 'suspended');
  assert.is(
    dispatchingSuspended({ dispatchingOnClusters: { clusterNames: ['clusterA'] } }, 'clusterA'),
    true,
    'matching cluster',
  );
  assert.is(
    dispatchingSuspended({ dispatchingOnClusters: { clusterNames: ['clusterB'] } }, 'clusterA'),
    false,
    'mismatched cluster',
  );
});

const job = (parallelism: number, completions: number) =>
  templateOf({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'batch', namespace: 'default' },
    spec: { parallelism, completions, template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
  });

// Test_needReviseJobCompletions "placement is nil" and "replica scheduling type is not divided": completions are
// divided only for a Divided placement.
test("a Job's completions stay whole without a placement and when Duplicated", () => {
  const targets = [
    { name: 'member1', replicas: 4 },
    { name: 'member2', replicas: 4 },
  ];
  for (const [what, spec] of [
    ['no placement', {}],
    ['Duplicated', { placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' as const } } }],
  ] as const) {
    for (const on of targets)
      assert.is(manifestOf(job(4, 10), spec, targets, on).spec.completions, 10, `${what} ${on.name}`);
  }
});

// Test_divideReplicasByJobCompletions "completions found": 10 completions over clusters weighted 5 and 5 are 5 and 5.
test('a Divided Job splits its completions by the replicas each cluster got', () => {
  const targets = [
    { name: 'member1', replicas: 5 },
    { name: 'member2', replicas: 5 },
  ];
  const divided = { placement: { replicaScheduling: { replicaSchedulingType: 'Divided' as const } } };
  assert.equal(
    targets.map((on) => manifestOf(job(10, 10), divided, targets, on).spec.completions),
    [5, 5],
  );
});

test.run();
