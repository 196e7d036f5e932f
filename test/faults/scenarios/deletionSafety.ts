// Deletion safety, as far as the product enforces it today: preserveResourcesOnDeletion on the member, the plan's
// prune budget with the Flotilla-Allow-Prune trailer, and what deleting a policy does to what it placed.
import { readPlan } from '../../../src/plans/readPlan.ts';
import type { Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { baseFiles, configMap, policy } from '../helpers/fleet.ts';
import { describeLost, withPipeline } from '../helpers/pipeline.ts';
import { makeFleet } from '../helpers/fleet.ts';

const CM = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });

export const deletionSafetyScenarios: Scenario[] = [
  {
    group: 'deletion', name: 'preserveResourcesOnDeletion', injected: 'template cm-2 deleted; its policy says preserveResourcesOnDeletion: true', speed: 'fast',
    run: (expect) => withPipeline(async (p) => {
      await p.reconcile();
      const expected = await p.expected();
      expect.equal(describeLost(p.lost(expected)), '', 'baseline');
      p.fleet.work.commit({ 'templates/cm-2.yaml': null }, 'Retire cm-2, keep it running');
      const pass = await p.reconcile();
      const pruned = [...(pass.delivery?.clusters.values() ?? [])].flatMap((d) => d.results.filter((r) => r.prune && r.action === 'pruned'));
      expect.equal(pruned.length, 0, 'objects pruned');
      // Another push and pass: a released object must not be pruned later either.
      p.fleet.work.commit({ 'templates/cm-9.yaml': configMap('cm-9') }, 'Unrelated change');
      await p.reconcile();
      const lost = p.lost(expected);
      expect.equal(p.logs.filter((l) => l.step === 'apply').length > 0, true, 'apply ran');
      // The template comes back: managed again, applied in place.
      p.fleet.work.commit({ 'templates/cm-2.yaml': configMap('cm-2', { value: 'back' }) }, 'cm-2 is back');
      const started = performance.now();
      await p.reconcile();
      const recovery = since(started);
      expect.equal((p.live('member1', CM('cm-2')) as { data?: { value?: string } } | undefined)?.data?.value, 'back', 'cm-2 managed again after re-adding');
      const released = await p.fleet.outputText('.flotilla/released.json');
      expect.equal(released, undefined, 'released list once cm-2 is back everywhere');
      return { outcome: 'cm-2 left on both members through 2 passes; re-adding it manages it again', lost: lost.length, recovery_s: recovery };
    }, { files: { ...baseFiles(), 'policies/everything.yaml': policy(undefined, '  preserveResourcesOnDeletion: true\n') } }),
  },
  {
    group: 'deletion', name: 'prune budget in plan', injected: 'a push deleting 3 of 5 objects per cluster, then the same with Flotilla-Allow-Prune', speed: 'fast',
    run: async (expect) => {
      const fleet = await makeFleet();
      try {
        const base = fleet.work.git('rev-parse', 'HEAD');
        fleet.work.commit({ 'templates/cm-0.yaml': null, 'templates/cm-1.yaml': null, 'templates/cm-2.yaml': null }, 'Drop three');
        const held = await readPlan(fleet.repo, { base, head: 'HEAD' });
        expect.equal(held.prune.held.map((h) => `${h.cluster}:${h.reason}`), ['member1:OVER_THRESHOLD', 'member2:OVER_THRESHOLD'], 'held deletions');
        fleet.work.git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '--amend', '-m', 'Drop three\n\nFlotilla-Allow-Prune: retiring the old config maps');
        const allowed = await readPlan(fleet.repo, { base, head: 'HEAD' });
        expect.equal(allowed.prune.held.length, 0, 'held deletions with the trailer');
        expect.equal(allowed.prune.allowedBy, 'retiring the old config maps', 'allowed by');
        // lost: deletions the plan let through without the trailer.
        const unheld = held.prune.held.length === 0 ? Object.values(held.clusters).reduce((n, c) => n + c.removed.length, 0) : 0;
        return { outcome: 'plan holds 3/5 deletions per cluster (OVER_THRESHOLD); the trailer lets them through', lost: unheld };
      } finally {
        fleet.cleanup();
      }
    },
  },
  {
    group: 'deletion', name: 'policy deleted', injected: 'the policy of namespace shop removed (its templates stay; other namespaces unaffected)', speed: 'fast',
    run: (expect) => withPipeline(async (p) => {
      p.fleet.work.commit({
        'templates/shop.yaml': `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\n${configMap('cart', { a: 'b' }, 'shop')}`,
        'policies/shop.yaml': policy().replace('namespace: default', 'namespace: shop').replace('name: everything', 'name: shop'),
      }, 'The shop');
      await p.reconcile();
      const expected = await p.expected();
      expect.that(expected.some((e) => e.ref.name === 'cart'), 'cart was placed');
      expect.equal(describeLost(p.lost(expected)), '', 'baseline');
      p.fleet.work.commit({ 'policies/shop.yaml': null }, 'Remove the shop policy');
      await p.reconcile();
      const lost = p.lost(expected);
      expect.equal(describeLost(lost), '', 'member objects gone after the policy was deleted (Karmada keeps them)');
      return { outcome: 'POLICY_REMOVED warning; member objects stay (as in Karmada)', lost: lost.length };
    }),
  },
];
