// Load: many templates on many in-process members, then a burst of pushes rendered by one sync and applied by
// one pass. Nothing may be lost, the last push must win everywhere, and the heap must not grow with the pushes.
// The fast row fits `npm test`; `--soak` runs the largest fleet this 2-core machine holds in a few minutes.
import type { Scenario } from '../helpers/frame.ts';
import { since } from '../helpers/frame.ts';
import { clusterYaml, configMap } from '../../helpers/fleet.ts';
import { describeLost, withPipeline } from '../helpers/pipeline.ts';

interface LoadSize {
  templates: number;
  members: number;
  pushes: number;
}

function fleetFiles(size: LoadSize): { files: Record<string, string>; clusters: string[] } {
  const clusters = Array.from({ length: size.members }, (_, i) => `member${i + 1}`);
  const files: Record<string, string> = {
    'policies/all.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: all
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: v1
      kind: ConfigMap
  placement:
    replicaScheduling:
      replicaSchedulingType: Duplicated
`,
  };
  for (const c of clusters) files[`clusters/${c}.yaml`] = clusterYaml(c);
  for (let i = 0; i < size.templates; i++) files[`templates/cm-${i}.yaml`] = configMap(`cm-${i}`);
  return { files, clusters };
}

function loadScenario(size: LoadSize, speed: Scenario['speed']): Scenario {
  const { files, clusters } = fleetFiles(size);
  return {
    group: 'load',
    name: `${size.templates} templates x ${size.members} members, ${size.pushes} pushes`,
    speed,
    injected: `${size.templates * size.members} objects applied, then ${size.pushes} pushes in quick succession`,
    run: (expect) =>
      withPipeline(
        async (p) => {
          const t0 = performance.now();
          await p.reconcile();
          const firstApply = since(t0);
          const expected = await p.expected();
          expect.equal(expected.length, size.templates * size.members, 'rendered objects');
          const heapBefore = process.memoryUsage().heapUsed;
          // The burst: each push rewrites one ConfigMap; several pushes hit the same one, so order matters.
          const hot = Math.min(10, size.templates);
          for (let k = 0; k < size.pushes; k++)
            p.fleet.work.commit(
              { [`templates/cm-${k % hot}.yaml`]: configMap(`cm-${k % hot}`, { value: `push-${k}` }) },
              `push ${k}`,
            );
          const t1 = performance.now();
          const pass = await p.reconcile();
          const burst = since(t1);
          const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
          expect.equal(pass.rendered.length, size.pushes, 'source commits rendered');
          const lost = p.lost(expected);
          expect.equal(describeLost(lost.slice(0, 5)), '', 'objects missing after the burst');
          const stale: string[] = [];
          for (let i = 0; i < hot; i++) {
            const last = [...Array(size.pushes).keys()].filter((k) => k % hot === i).pop();
            const want = last === undefined ? `cm-${i}` : `push-${last}`;
            for (const c of clusters) {
              const got = (
                p.live(c, { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: `cm-${i}` }) as
                  | { data?: { value?: string } }
                  | undefined
              )?.data?.value;
              if (got !== want) stale.push(`${c}/cm-${i}=${got}`);
            }
          }
          expect.equal(stale.slice(0, 5), [], 'objects not at their last push');
          expect.that(heapGrowthMb < 200, `heap growth over the burst bounded: ${heapGrowthMb.toFixed(0)} MB`);
          const applied = expected.length / firstApply;
          return {
            outcome: `first pass ${firstApply.toFixed(1)} s (${Math.round(applied)} objects/s); ${size.pushes} pushes rendered+applied in ${burst.toFixed(1)} s (${(size.pushes / burst).toFixed(0)} pushes/s); last push won; heap +${heapGrowthMb.toFixed(0)} MB`,
            lost: lost.length + stale.length,
            recovery_s: burst,
          };
        },
        { files, clusters, timeoutMs: 15_000 },
      ),
  };
}

export const loadScenarios: Scenario[] = [
  loadScenario({ templates: 100, members: 3, pushes: 20 }, 'fast'),
  // The largest run that finishes in minutes here: members share the test's one event loop with the applier.
  loadScenario({ templates: 1_000, members: 10, pushes: 1_000 }, 'soak'),
];
