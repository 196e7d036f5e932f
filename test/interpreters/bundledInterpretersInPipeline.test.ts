// The interpreters Karmada bundles for third-party kinds act where a customization would: a Kruise CloneSet is a
// workload the scheduler divides, each member's manifest carries its share, its ConfigMap follows it under
// propagateDeps, its health and status come from the bundled rules, and a commit's own ResourceInterpreterCustomization
// still comes first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { ClusterDelivery } from '../../src/deliveries/applyRendered.ts';
import { templateStatusPath } from '../../src/branches/status/statusFiles.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import {
  BUILT_IN_INTERPRETERS,
  customHealth,
  customizationFor,
  customReplicas,
  interpreterSet,
} from '../../src/interpreters/customizations.ts';
import { LuaHookError, loadLuaRuntime } from '../../src/interpreters/lua/luaRuntime.ts';
import { interpretsHealth } from '../../src/interpreters/healthHook.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { buildStatusFiles, type ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { clusterYaml, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';

const cloneSet = (replicas: number) => `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: web, namespace: shop}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          resources: {requests: {cpu: 250m}}
          envFrom: [{configMapRef: {name: web-settings}}]
`;
const policy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps.kruise.io/v1alpha1, kind: CloneSet, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 3}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`;
const settings = `apiVersion: v1
kind: ConfigMap
metadata: {name: web-settings, namespace: shop}
data: {color: blue}
`;
const manifest = (cluster: string) => `clusters/${cluster}/shop/cloneset.apps.kruise.io_web.yaml`;

test('a CloneSet is divided like a Deployment, each member gets its share and the ConfigMap it reads', async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'clusters/member2.yaml': clusterYaml('member2'),
        'policies/web.yaml': policy,
        'templates/web.yaml': cloneSet(8),
        'templates/settings.yaml': settings,
      },
      'a CloneSet on two members',
    );
    await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const binding = parse(r.show('flotilla/rendered', 'bindings/shop/web-cloneset.yaml'));
    assert.is(binding.spec.replicas, 8);
    assert.equal(binding.spec.replicaRequirements, { resourceRequest: { cpu: '250m' } });
    assert.equal(binding.spec.clusters, [
      { name: 'member1', replicas: 6 },
      { name: 'member2', replicas: 2 },
    ]);
    const replicas = (cluster: string) => parse(r.show('flotilla/rendered', manifest(cluster))).spec.replicas;
    assert.equal([replicas('member1'), replicas('member2')], [6, 2]);
    const files = r.ls('flotilla/rendered');
    for (const cluster of ['member1', 'member2'])
      assert.ok(files.includes(`clusters/${cluster}/shop/configmap_web-settings.yaml`), `web-settings on ${cluster}`);
  } finally {
    r.cleanup();
  }
});

test('a CloneSet its bundled interpreter refuses is held with an error naming that interpreter, not a customization', async () => {
  const r = makeConfigRepo();
  try {
    r.commit(
      {
        'clusters/member1.yaml': clusterYaml('member1'),
        'clusters/member2.yaml': clusterYaml('member2'),
        'policies/web.yaml': policy,
        'templates/web.yaml': cloneSet(8).replace('  replicas: 8\n', ''),
        'templates/settings.yaml': settings,
      },
      'a CloneSet without replicas',
    );
    const { reports } = await syncRepo(await openRepo(r.dir), { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const failed = reports.flatMap((x) => x.problems).filter((p) => p.code === 'INTERPRETER_FAILED');
    assert.equal(
      failed.map((p) => [p.file, p.severity]),
      [['templates/web.yaml', 'error']],
    );
    assert.match(
      failed[0]!.message,
      /GetReplicas of the interpreter Karmada bundles for apps\.kruise\.io\/v1alpha1 CloneSet/,
    );
    assert.match(failed[0]!.fix ?? '', /your own ResourceInterpreterCustomization/);
  } finally {
    r.cleanup();
  }
});

const ref = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'shop', name: 'web' };
const live = (ready: number, updated: number) => ({
  ...ref,
  metadata: { name: 'web', namespace: 'shop', generation: 2 },
  spec: { replicas: 3 },
  status: {
    observedGeneration: 2,
    replicas: 3,
    readyReplicas: ready,
    availableReplicas: ready,
    updatedReplicas: updated,
    updatedReadyReplicas: Math.min(ready, updated),
  },
});
const report = (cluster: string, object: Record<string, unknown>): ClusterReport => ({
  cluster,
  delivery: {
    cluster,
    results: [{ ref, action: 'unchanged', message: 'unchanged', live: object }],
    inventory: [ref],
    previousInventory: [ref],
    writes: 0,
    notes: [],
    durationMs: 0,
  } satisfies ClusterDelivery,
});

test("a CloneSet's members report health and status by Karmada's bundled rules, summed on the template", () => {
  assert.ok(interpretsHealth(ref, customizationFor(BUILT_IN_INTERPRETERS, ref)), 'its health is interpreted');
  const files = buildStatusFiles(
    new Map(),
    [report('member1', live(3, 3)), report('member2', live(1, 3))],
    new Date('2026-12-03T08:00:00Z'),
  );
  const status = parse(files.get(templateStatusPath(ref)) ?? '');
  assert.equal(
    status.aggregatedStatus.map((i: { clusterName: string; health: string }) => [i.clusterName, i.health]),
    [
      ['member1', 'Healthy'],
      ['member2', 'Unhealthy'],
    ],
  );
  assert.is(status.status.replicas, 6);
  assert.is(status.status.readyReplicas, 4);
  assert.is(status.status.updatedReplicas, 6);
});

test("a commit's own customization of an operation comes before the bundled one, which keeps the others", async () => {
  await loadLuaRuntime();
  const own = interpreterSet([
    {
      object: {
        apiVersion: 'config.karmada.io/v1alpha1',
        kind: 'ResourceInterpreterCustomization',
        metadata: { name: 'cloneset-health' },
        spec: {
          target: { apiVersion: ref.apiVersion, kind: ref.kind },
          customizations: { healthInterpretation: { luaScript: 'function InterpretHealth(o) return true end' } },
        },
      },
      source: { file: 'interpreters/cloneset.yaml', line: 1, column: 1 },
    },
  ]);
  const kind = customizationFor(own, ref)!;
  const lagging = live(1, 3);
  assert.is(customHealth(customizationFor(BUILT_IN_INTERPRETERS, ref)!, lagging), 'Unhealthy', 'the bundled rule');
  assert.is(customHealth(kind, lagging), 'Healthy', "the commit's script");
  const template = { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
  assert.is(customReplicas(kind, { ...lagging, spec: { replicas: 5, template } })?.replicas, 5, 'the bundled replicas');
  // A bundled operation fails as a script does: the callers hold that template's output, as for a customization.
  assert.throws(
    () => customReplicas(kind, { ...lagging, spec: { replicas: 5 } }),
    (e: Error) => e instanceof LuaHookError && e.name === 'BundledInterpreterError',
  );
});

test.run();
