// Karmada's deployment replicas syncer, case by case (pkg/controllers/deploymentreplicassyncer/
// deployment_replicas_syncer_controller_test.go: TestReconcile and TestIsDeploymentStatusCollected), on Flotilla's
// side: the status pass decides whether the members' summed status.replicas replace a Deployment's replicas
// (decideReplicasSync), and reads the rendered binding before anything (planReplicasSyncs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import { refKey } from '../../src/api/kinds.ts';
import { openRepo } from '../../src/commits/openRepo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import { syncRepo } from '../../src/outputs/syncRepo.ts';
import { syncedReplicasPath } from '../../src/branches/status/syncedReplicas.ts';
import { decideReplicasSync, planReplicasSyncs, replicasSyncEdits } from '../../src/statuses/syncDeploymentReplicas.ts';
import { clusterYaml, makeConfigRepo, RENDERED_REF, SOURCE_REF } from '../helpers/fleet.ts';
import { templateOf } from '../helpers/inMemoryModel.ts';

const NOW = new Date('2026-12-01T00:00:00Z');

/** A rendered binding: the template's replicas, its clusters and its placement as the render wrote them. */
const binding = (replicas: number, clusters: string[], placement: Record<string, unknown>) =>
  ({
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'test-deployment', namespace: 'default' },
      replicas,
      clusters: clusters.map((name) => ({ name, replicas: 1 })),
      placement,
    },
  }) as unknown as Pick<ResourceBinding, 'spec'>;
const DIVIDED = { replicaScheduling: { replicaSchedulingType: 'Divided' } };

const decide = (b: ReturnType<typeof binding>, items: Record<string, unknown>[] | undefined) =>
  decideReplicasSync({
    gitReplicas: 3,
    binding: b,
    status: items === undefined ? undefined : ({ aggregatedStatus: items } as never),
    ref: { namespace: 'default', name: 'test-deployment' },
    now: NOW,
  });
const outcome = (out: ReturnType<typeof decide>) =>
  'wait' in out ? `wait: ${out.wait}` : `sync to ${out.file.replicas}`;

// TestReconcile "non-divided scheduling type": a binding whose placement states no replicaScheduling is Duplicated
// (Placement.ReplicaSchedulingType), and the syncer leaves the Deployment alone whatever its members run.
test('a placement without replica scheduling is Duplicated: the members never rewrite its replicas', () => {
  const out = decide(binding(3, ['cluster1', 'cluster2'], {}), [
    { clusterName: 'cluster1', applied: true, health: 'Healthy', status: { replicas: 3 } },
    { clusterName: 'cluster2', applied: true, health: 'Healthy', status: { replicas: 1 } },
  ]);
  assert.ok('wait' in out, outcome(out));
});

// TestIsDeploymentStatusCollected "aggregated status is nil": a cluster listed in the aggregated status with no
// status collected yet means the syncer waits.
test('a member listed without a collected status makes the syncer wait, never count it as 0', () => {
  const out = decide(binding(3, ['cluster1'], DIVIDED), [
    { clusterName: 'cluster1', applied: true, health: 'Unknown' },
  ]);
  assert.ok('wait' in out, outcome(out));
});

// TestIsDeploymentStatusCollected "invalid status JSON": a status that is not an object (what JSON that does not
// parse into a DeploymentStatus stands for here) makes the syncer wait.
test('a member status that is not a Deployment status makes the syncer wait', () => {
  const out = decide(binding(3, ['cluster1'], DIVIDED), [
    { clusterName: 'cluster1', applied: true, health: 'Healthy', status: 'invalid json' as never },
  ]);
  assert.ok('wait' in out, outcome(out));
});

// TestReconcile "binding not found": a Deployment labelled retain-replicas that no policy propagates has no binding,
// and nothing is synced for it.
test('a retain-replicas Deployment without a binding records no synced replicas', async () => {
  const r = makeConfigRepo();
  try {
    const manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'test-deployment',
        namespace: 'default',
        labels: { 'resourcetemplate.karmada.io/retain-replicas': 'true' },
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx' }] },
        },
      },
    };
    r.commit(
      {
        'clusters/cluster1.yaml': clusterYaml('cluster1'),
        'templates/web.yaml': JSON.stringify(manifest),
      },
      'a Deployment no policy selects',
    );
    const repo = await openRepo(r.dir);
    await syncRepo(repo, { sourceRef: SOURCE_REF, outputRef: RENDERED_REF });
    const renderedCommit = await readRef(repo, RENDERED_REF);
    assert.ok(renderedCommit, 'rendered');
    assert.ok(!r.ls('flotilla/rendered').some((p) => p.startsWith('bindings/')), 'no binding was rendered');
    const template = templateOf(manifest, 'templates/web.yaml');
    const plan = await planReplicasSyncs({
      repo,
      renderedCommit: renderedCommit!,
      templates: new Map([[refKey(template.ref), template]]),
      existing: new Set(),
    });
    assert.equal(plan.scaled, []);
    const out = replicasSyncEdits(plan, () => undefined, NOW);
    assert.equal([...out.edits.keys()], []);
    assert.equal(out.lines, []);
    // A record stays while its Deployment is in the source (the count Karmada wrote stays in the template); one whose
    // Deployment left the source goes.
    const kept = syncedReplicasPath('default', 'test-deployment');
    const gone = syncedReplicasPath('default', 'deleted-deployment');
    const later = await planReplicasSyncs({
      repo,
      renderedCommit: renderedCommit!,
      templates: new Map([[refKey(template.ref), template]]),
      existing: new Set([kept, gone]),
    });
    assert.equal([...later.gone.edits], [[gone, null]]);
    assert.equal(later.gone.lines, [`${gone}: its Deployment is gone`]);
  } finally {
    r.cleanup();
  }
});

test.run();
