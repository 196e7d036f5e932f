// Karmada's deployment replicas syncer conditions (deployment_replicas_syncer_controller.go), as a pure decision:
// which template counts are replaced by the members' summed status.replicas, and when it waits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { decideReplicasSync } from '../../src/statuses/syncDeploymentReplicas.ts';

const binding = (replicas: number, clusters: [string, number][], type = 'Divided') =>
  ({
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
      replicas,
      clusters: clusters.map(([name, r]) => ({ name, replicas: r })),
      placement: { replicaScheduling: { replicaSchedulingType: type } },
    },
  }) as unknown as Pick<ResourceBinding, 'spec'>;
const item = (clusterName: string, replicas: number, extra: Record<string, unknown> = {}) => ({
  clusterName,
  applied: true,
  health: 'Healthy' as const,
  status: { replicas, generation: 2, observedGeneration: 2, ...extra },
});
const decide = (b: ReturnType<typeof binding>, items: ReturnType<typeof item>[], gitReplicas: number | null = 4) =>
  decideReplicasSync({
    gitReplicas: gitReplicas ?? undefined,
    binding: b,
    status: { aggregatedStatus: items },
    ref: { namespace: 'default', name: 'web' },
    now: new Date('2026-12-01T00:00:00Z'),
  });

test('the members summed replace the template count of a Divided placement, against the Git count they hold for', () => {
  const out = decide(
    binding(4, [
      ['member1', 2],
      ['member2', 2],
    ]),
    [item('member1', 3), item('member2', 3)],
  );
  assert.ok('file' in out);
  if (!('file' in out)) return;
  assert.equal(
    { replicas: out.file.replicas, gitReplicas: out.file.gitReplicas, previous: out.file.previousReplicas },
    { replicas: 6, gitReplicas: 4, previous: 4 },
  );
  assert.equal(out.file.clusters, { member1: 3, member2: 3 });
  const noReplicasInGit = decide(binding(1, [['member1', 1]]), [item('member1', 2)], null);
  assert.is('file' in noReplicasInGit && noReplicasInGit.file.gitReplicas, 1, "the API server's default");
});

test('the syncer waits: Duplicated, equal counts, a status missing or extra, a zero count, a spec not yet observed', () => {
  const waits = (out: ReturnType<typeof decide>) => ('wait' in out ? out.wait : 'synced');
  const two = binding(4, [
    ['member1', 2],
    ['member2', 2],
  ]);
  assert.is(
    waits(
      decide(
        binding(
          2,
          [
            ['member1', 2],
            ['member2', 2],
          ],
          'Duplicated',
        ),
        [item('member1', 3), item('member2', 3)],
      ),
    ),
    'not a Divided placement',
  );
  assert.is(waits(decide(two, [item('member1', 2), item('member2', 2)])), 'the template replicas equal the members');
  assert.match(waits(decide(two, [item('member1', 3)])), /not every target cluster/);
  assert.match(
    waits(decide(binding(1, [['member1', 1]]), [item('member1', 2), item('member2', 1)])),
    /not every target cluster/,
  );
  assert.match(waits(decide(two, [item('member1', 3), item('member2', 0)])), /status of member2 is not collected/);
  assert.match(
    waits(decide(two, [item('member1', 3), item('member2', 3, { generation: 3 })])),
    /member2 has not observed its current spec/,
  );
});

test.run();
