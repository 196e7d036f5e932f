// Deletion safety, as far as the product enforces it today: preserveResourcesOnDeletion on the member, the plan's
// prune budget with the Flotilla-Allow-Prune trailer, and what deleting a policy does to what it placed.
import { readPlan } from '../../../src/plans/readPlan.ts';
import type { Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import {
  baseFiles,
  clusterYaml,
  configMap,
  deployment,
  makeFleet,
  NOT_READY_TAINT_POLICY,
  policy,
} from '../../helpers/fleet.ts';
import { describeLost, withPipeline } from '../helpers/pipeline.ts';
import { parse } from 'yaml';
import type { Expectations } from '../helpers/frame.ts';
import { STATUS_REF, type Pipeline } from '../helpers/pipeline.ts';

/** ConfigMaps Duplicated to both members, web Divided 1:1 over them; member2 NotReady evicts at once (no toleration). */
function failoverFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'clusters/member1.yaml': clusterYaml('member1'),
    'clusters/member2.yaml': clusterYaml('member2'),
    'policies/not-ready-evicts.yaml': NOT_READY_TAINT_POLICY,
    'templates/web.yaml': deployment('web', 2),
    'policies/configmaps.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: configmaps, namespace: default}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`,
    'policies/web.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
`,
  };
  for (let i = 0; i < 3; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  return files;
}

const WEB = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' };
const uidOf = (p: Pipeline, cluster: string, ref: typeof WEB) =>
  (p.live(cluster, ref)?.metadata as { uid?: string } | undefined)?.uid;
const renderedHas = async (p: Pipeline, path: string) => (await p.fleet.output()).has(path);

async function readyOf(p: Pipeline, cluster: string): Promise<string | undefined> {
  const status = parse(p.fleet.work.show(STATUS_REF.replace('refs/heads/', ''), `clusters/${cluster}.yaml`)) as {
    status?: { conditions?: { type: string; status: string }[] };
  };
  return status.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

/** member2 stopped with a NoExecute ClusterTaintPolicy, evicted, restarted: still wanted objects kept, stale ones removed once Ready. */
async function clusterReturns(expect: Expectations, p: Pipeline) {
  const M2_WEB = 'clusters/member2/default/deployment.apps_web.yaml';
  await p.reconcileUntil(() => Boolean(p.live('member1', WEB) && p.live('member2', WEB)));
  const cms = [0, 1, 2].map((i) => CM(`cm-${i}`));
  const uids = new Map(cms.map((r) => [r.name, uidOf(p, 'member2', r)]));
  const webUid = uidOf(p, 'member2', WEB);

  await p.members.get('member2')!.stop();
  await p.reconcile();
  p.advanceClock(31_000);
  await p.reconcile();
  expect.equal(await readyOf(p, 'member2'), 'False', 'member2 Ready after 30 s stopped');
  // Eviction: the ConfigMaps leave member2's folder at once, web's replica moves and member2's copy stays until member1 runs both.
  let passes = 0;
  for (; passes < 20 && (await renderedHas(p, M2_WEB)); passes++) {
    p.advanceClock(1_000);
    await p.reconcile();
  }
  expect.that(!(await renderedHas(p, M2_WEB)), `graceful eviction of web from member2 ended (${passes} passes)`);
  expect.equal(
    (p.live('member1', WEB)?.spec as { replicas?: number } | undefined)?.replicas,
    2,
    'web replicas on member1 after failover',
  );
  expect.that(
    !(await renderedHas(p, 'clusters/member2/default/configmap_cm-0.yaml')),
    "the ConfigMaps evicted from member2's folder",
  );

  // Back, with its data; NotReady until the success threshold passes: nothing may be deleted there meanwhile.
  await p.startMember('member2');
  p.advanceClock(1_000);
  await p.reconcile();
  expect.equal(await readyOf(p, 'member2'), 'False', 'member2 Ready 1 s after coming back (damped)');
  expect.equal(uidOf(p, 'member2', WEB), webUid, 'member2 keeps its evicted web copy while NotReady');
  const keptWhileNotReady = cms.filter((r) => uidOf(p, 'member2', r) === uids.get(r.name)).length;
  expect.equal(keptWhileNotReady, cms.length, 'ConfigMaps kept on member2 while NotReady');
  p.advanceClock(31_000);
  const started = performance.now();
  await p.reconcileUntil(
    async () => !p.live('member2', WEB) && (await renderedHas(p, 'clusters/member2/default/configmap_cm-0.yaml')),
  );
  const recovery = since(started);
  expect.equal(await readyOf(p, 'member2'), 'True', 'member2 Ready after the success threshold');
  const sameCms = cms.filter((r) => uidOf(p, 'member2', r) === uids.get(r.name)).length;
  expect.equal(sameCms, cms.length, 'ConfigMaps on member2 are the same objects (never deleted and re-created)');
  expect.equal(
    p.managedCount('member2'),
    (await p.expected()).filter((e) => e.cluster === 'member2').length,
    'managed objects on member2 = its rendered folder',
  );
  const lost = p.lost(await p.expected());
  expect.equal(describeLost(lost), '', 'objects missing after the return');
  return {
    outcome: `web 1 replica member2→member1; member2 back: ${sameCms}/${cms.length} ConfigMaps kept (same uid), stale web removed only once Ready`,
    lost: lost.length,
    recovery_s: recovery,
  };
}

const liveCount = (p: Pipeline, refs: readonly { cluster: string; ref: typeof WEB }[]) =>
  refs.filter((e) => p.live(e.cluster, e.ref)).length;

/** A commit deleting every template while member2 is partitioned: held everywhere; with the trailer, pruned after recovery. */
async function pruneUnderPartition(expect: Expectations, p: Pipeline) {
  await p.reconcile();
  const baseline = await p.expected();
  expect.equal(describeLost(p.lost(baseline)), '', 'baseline');
  const member2 = p.members.get('member2')!;
  const templates = Object.keys(baseFiles()).filter((f) => f.startsWith('templates/'));

  await member2.faults.set({ refuse: true });
  p.fleet.work.commit(Object.fromEntries(templates.map((f) => [f, null])), 'Delete every template');
  const held = await p.reconcile();
  const heldOn = [...(held.delivery?.clusters ?? [])]
    .filter(([, d]) => (d.prune?.held.length ?? 0) > 0)
    .map(([c]) => c);
  expect.equal(heldOn, ['member1', 'member2'], 'clusters whose deletions were held during the partition');
  await member2.faults.set({ refuse: false });
  const afterHeal = await p.reconcile();
  const heldAfter = [...(afterHeal.delivery?.clusters ?? [])]
    .filter(([, d]) => (d.prune?.held.length ?? 0) > 0)
    .map(([c]) => c);
  expect.equal(heldAfter, ['member1', 'member2'], 'clusters whose deletions were held once member2 answers');
  const lost = baseline.length - liveCount(p, baseline);
  expect.equal(lost, 0, 'objects deleted without the trailer');

  await member2.faults.set({ refuse: true });
  p.fleet.work.git(
    '-c',
    'user.name=Ada',
    '-c',
    'user.email=ada@example.com',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'Retire everything',
    '--trailer',
    'Flotilla-Allow-Prune: the fleet is retired',
  );
  await p.reconcile();
  expect.equal(p.managedCount('member1'), 0, 'managed objects on member1 after the trailer');
  expect.equal(
    p.managedCount('member2'),
    baseline.filter((e) => e.cluster === 'member2').length,
    'member2 (partitioned) untouched',
  );
  await member2.faults.set({ refuse: false });
  const started = performance.now();
  await p.reconcileUntil(() => p.managedCount('member2') === 0);
  return {
    outcome: `held on both members during the partition and after it (${baseline.length} objects kept); with the trailer: member1 pruned, member2 pruned after recovery`,
    lost,
    recovery_s: since(started),
  };
}

const CM = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });

export const deletionSafetyScenarios: Scenario[] = [
  {
    group: 'deletion',
    name: 'cluster returns after eviction',
    speed: 'fast',
    injected: 'member2 stopped for 30 s+ under a NoExecute ClusterTaintPolicy, then started again with its data',
    run: (expect) => withPipeline((p) => clusterReturns(expect, p), { files: failoverFiles() }),
  },
  {
    group: 'deletion',
    name: 'prune budget under a partition',
    speed: 'fast',
    injected:
      'a commit deleting every template while member2 refuses connections; later an empty commit with Flotilla-Allow-Prune',
    run: (expect) => withPipeline((p) => pruneUnderPartition(expect, p)),
  },
  {
    group: 'deletion',
    name: 'preserveResourcesOnDeletion',
    injected: 'template cm-2 deleted; its policy says preserveResourcesOnDeletion: true',
    speed: 'fast',
    run: (expect) =>
      withPipeline(
        async (p) => {
          await p.reconcile();
          const expected = await p.expected();
          expect.equal(describeLost(p.lost(expected)), '', 'baseline');
          p.fleet.work.commit({ 'templates/cm-2.yaml': null }, 'Retire cm-2, keep it running');
          const pass = await p.reconcile();
          const pruned = [...(pass.delivery?.clusters.values() ?? [])].flatMap((d) =>
            d.results.filter((r) => r.prune && r.action === 'pruned'),
          );
          expect.equal(pruned.length, 0, 'objects pruned');
          // Another push and pass: a released object must not be pruned later either.
          p.fleet.work.commit({ 'templates/cm-9.yaml': configMap('cm-9') }, 'Unrelated change');
          await p.reconcile();
          const lost = p.lost(expected);
          expect.equal(p.logs.filter((l) => l.step === 'apply').length > 0, true, 'apply ran');
          // Released, cm-2 is no longer labelled as placed: taking it back is Karmada's promotion of an existing
          // object, which conflictResolution Overwrite allows (under Abort the apply is a conflict).
          p.fleet.work.commit(
            {
              'templates/cm-2.yaml': configMap('cm-2', { value: 'back' }),
              'policies/everything.yaml': policy(
                undefined,
                '  preserveResourcesOnDeletion: true\n  conflictResolution: Overwrite\n',
              ),
            },
            'cm-2 is back',
          );
          const started = performance.now();
          await p.reconcile();
          const recovery = since(started);
          expect.equal(
            (p.live('member1', CM('cm-2')) as { data?: { value?: string } } | undefined)?.data?.value,
            'back',
            'cm-2 managed again after re-adding',
          );
          const released = await p.fleet.outputText('.flotilla/released.json');
          expect.equal(released, undefined, 'released list once cm-2 is back everywhere');
          return {
            outcome: 'cm-2 left on both members through 2 passes; re-added with Overwrite, managed again',
            lost: lost.length,
            recovery_s: recovery,
          };
        },
        {
          files: {
            ...baseFiles(),
            'policies/everything.yaml': policy(undefined, '  preserveResourcesOnDeletion: true\n'),
          },
        },
      ),
  },
  {
    group: 'deletion',
    name: 'prune budget in plan',
    injected: 'a push deleting 3 of 5 objects per cluster, then the same with Flotilla-Allow-Prune',
    speed: 'fast',
    run: async (expect) => {
      const fleet = await makeFleet({ files: baseFiles() });
      try {
        const base = fleet.work.git('rev-parse', 'HEAD');
        fleet.work.commit(
          { 'templates/cm-0.yaml': null, 'templates/cm-1.yaml': null, 'templates/cm-2.yaml': null },
          'Drop three',
        );
        const held = await readPlan(fleet.repo, { base, head: 'HEAD' });
        expect.equal(
          held.prune.held.map((h) => `${h.cluster}:${h.reason}`),
          ['member1:OVER_THRESHOLD', 'member2:OVER_THRESHOLD'],
          'held deletions',
        );
        fleet.work.git(
          '-c',
          'user.name=Ada',
          '-c',
          'user.email=ada@example.com',
          'commit',
          '-q',
          '--amend',
          '-m',
          'Drop three\n\nFlotilla-Allow-Prune: retiring the old config maps',
        );
        const allowed = await readPlan(fleet.repo, { base, head: 'HEAD' });
        expect.equal(allowed.prune.held.length, 0, 'held deletions with the trailer');
        expect.equal(allowed.prune.allowedBy, 'retiring the old config maps', 'allowed by');
        // lost: deletions the plan let through without the trailer.
        const unheld =
          held.prune.held.length === 0 ? Object.values(held.clusters).reduce((n, c) => n + c.removed.length, 0) : 0;
        return {
          outcome: 'plan holds 3/5 deletions per cluster (OVER_THRESHOLD); the trailer lets them through',
          lost: unheld,
        };
      } finally {
        await fleet.cleanup();
      }
    },
  },
  {
    group: 'deletion',
    name: 'policy deleted',
    injected: 'the policy of namespace shop removed (its templates stay; other namespaces unaffected)',
    speed: 'fast',
    run: (expect) =>
      withPipeline(async (p) => {
        p.fleet.work.commit(
          {
            'templates/shop.yaml': `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\n${configMap('cart', { a: 'b' }, 'shop')}`,
            'policies/shop.yaml': policy()
              .replace('namespace: default', 'namespace: shop')
              .replace('name: everything', 'name: shop'),
          },
          'The shop',
        );
        await p.reconcile();
        const expected = await p.expected();
        expect.that(
          expected.some((e) => e.ref.name === 'cart'),
          'cart was placed',
        );
        expect.equal(describeLost(p.lost(expected)), '', 'baseline');
        p.fleet.work.commit({ 'policies/shop.yaml': null }, 'Remove the shop policy');
        await p.reconcile();
        const lost = p.lost(expected);
        expect.equal(describeLost(lost), '', 'member objects gone after the policy was deleted (Karmada keeps them)');
        return { outcome: 'POLICY_REMOVED warning; member objects stay (as in Karmada)', lost: lost.length };
      }),
  },
];
