// End to end: apply to two emulated members, collect Cluster and workload status, commit it to flotilla/status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { listTreeFiles } from '../../src/commits/listTreeFiles.ts';
import { readBlob } from '../../src/commits/readBlob.ts';
import { readCommitInfo } from '../../src/commits/readCommitInfo.ts';
import { readRef } from '../../src/commits/readRef.ts';
import type { GitRepo } from '../../src/commits/types.ts';
import { applyRendered } from '../../src/deliveries/applyRendered.ts';
import { DEFAULT_STATUS_REF } from '../../src/branches/status/branch.ts';
import { connectKubeconfig } from '../../src/deliveries/connectKubeTarget.ts';
import type { KubeTarget } from '../../src/deliveries/KubeTarget.ts';
import type { Member } from '../../src/members/startMember.ts';
import { parseTrailers } from '../../src/branches/rendered/trailers.ts';
import type { ClusterReport } from '../../src/statuses/buildStatusFiles.ts';
import { collectClusterStatus } from '../../src/statuses/collectClusterStatus.ts';
import { writeStatus } from '../../src/statuses/writeStatus.ts';
import type { ReplicasSyncPlan } from '../../src/statuses/syncDeploymentReplicas.ts';
import { commitRendered, RENDERED_REF, rendered, Scratch, waitFor } from '../deliveries/helpers/e2e.ts';

const scratch = new Scratch();
let members: Member[];
let kubes: Map<string, KubeTarget>;
let repo: GitRepo;

const deployment = rendered('apps/v1', 'Deployment', 'web', 'demo', {
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '250m', memory: '64Mi' } } }],
      },
    },
  },
});
const folder = [
  rendered('v1', 'Namespace', 'demo', undefined),
  deployment,
  rendered('v1', 'Service', 'web', 'demo', { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } }),
];

/** One full pass as the sync loop runs it: apply, collect each cluster's status, commit what changed. */
async function pass() {
  const d = await applyRendered({
    repo,
    outputRef: RENDERED_REF,
    clusters: kubes,
    retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
  });
  const reports: ClusterReport[] = await Promise.all(
    [...d.clusters.values()].map(async (delivery) => ({
      cluster: delivery.cluster,
      delivery,
      status: await collectClusterStatus(kubes.get(delivery.cluster)!),
    })),
  );
  return {
    delivery: d,
    written: await writeStatus({ repo, reports, renderedCommit: d.renderedCommit, sourceCommit: d.sourceCommit }),
  };
}

async function statusFile(path: string): Promise<any> {
  const head = await readRef(repo, DEFAULT_STATUS_REF);
  const files = await listTreeFiles(repo, (await readCommitInfo(repo, head!)).tree);
  const f = files.get(path);
  return f ? parse(new TextDecoder().decode(await readBlob(repo, f.oid))) : undefined;
}

test.before(async () => {
  members = await Promise.all(['s1', 's2'].map((n) => scratch.member(n, { readyDelayMs: 300 })));
  kubes = await connectKubeconfig(scratch.kubeconfig(members), { timeoutMs: 3_000 });
  repo = await scratch.repo();
  await commitRendered(repo, { s1: folder, s2: folder }, 'c'.repeat(40));
});

test.after(async () => {
  await Promise.all([...(kubes?.values() ?? [])].map((k) => k.close()));
  await scratch.cleanup();
});

test('the status branch shows the Deployment aggregated over members once its pods are Ready, then stops committing', async () => {
  const first = await pass();
  assert.ok(first.written.commit, 'the first pass commits');
  const info = await readCommitInfo(repo, first.written.commit!);
  assert.equal(parseTrailers(info.message), {
    'Rendered-Commit': first.delivery.renderedCommit,
    'Source-Commit': 'c'.repeat(40),
    'Flotilla-Format': '1',
  });

  const web = await waitFor('readyReplicas 4 on the status branch', async () => {
    await pass();
    const f = await statusFile('templates/demo/deployment.apps_web.yaml');
    return f?.status?.readyReplicas === 4 && f.aggregatedStatus.every((i: { health: string }) => i.health === 'Healthy')
      ? f
      : undefined;
  });
  assert.equal(web.status, {
    replicas: 4,
    updatedReplicas: 4,
    readyReplicas: 4,
    availableReplicas: 4,
  });
  assert.equal(
    web.aggregatedStatus.map((i: { clusterName: string; applied: boolean }) => [i.clusterName, i.applied]),
    [
      ['s1', true],
      ['s2', true],
    ],
  );
  assert.is(web.conditions[0].type, 'FullyApplied');
  assert.is(web.conditions[0].status, 'True');
  const svc = await statusFile('templates/demo/service_web.yaml');
  assert.equal(
    svc.aggregatedStatus.map((i: { health: string }) => i.health),
    ['Healthy', 'Healthy'],
  );

  const cluster = await statusFile('clusters/s1.yaml');
  assert.is(cluster.kind, 'Cluster');
  assert.equal(cluster.status.conditions.find((c: { type: string }) => c.type === 'Ready').status, 'True');
  assert.match(cluster.status.kubernetesVersion, /^v1\./);
  assert.is(cluster.status.nodeSummary.totalNum, 3);
  assert.is(cluster.status.resourceSummary.allocated.cpu, '500m', 'two pods of 250m');
  assert.ok(cluster.status.apiEnablements.some((e: { groupVersion: string }) => e.groupVersion === 'apps/v1'));
  assert.ok(await statusFile('inventories/s2.json'));

  const head = await readRef(repo, DEFAULT_STATUS_REF);
  const quiet = await pass();
  assert.is(
    quiet.written.commit,
    null,
    `nothing changed, nothing committed (changed: ${quiet.written.changedPaths.join(', ')})`,
  );
  assert.is(await readRef(repo, DEFAULT_STATUS_REF), head);
});

test('an unreachable member gets Ready=False ClusterNotReachable, and so does a /readyz answering 500 (client-go takes it for an error)', async () => {
  const [s1, s2] = members;
  await s1!.faults.set({ refuse: true });
  await s2!.faults.set({ readyzFalse: true });
  try {
    const down = await collectClusterStatus(kubes.get('s1')!);
    assert.equal(
      down.conditions!.map((c) => [c.type, c.status, c.reason]),
      [['Ready', 'False', 'ClusterNotReachable']],
    );
    const notReady = await collectClusterStatus(kubes.get('s2')!);
    assert.equal(
      notReady.conditions!.map((c) => [c.type, c.status, c.reason]),
      [['Ready', 'False', 'ClusterNotReachable']],
      'nothing else collected, as from a member that does not answer',
    );
    assert.is(notReady.conditions![0]!.message, 'cluster is not reachable');
    await writeStatus({
      repo,
      reports: [{ cluster: 's1', status: down }],
      clusterOptions: { thresholds: { successMs: 0, failureMs: 0 } },
    });
    const file = await statusFile('clusters/s1.yaml');
    assert.is(file.status.conditions[1].reason, 'ClusterNotReachable');
    assert.is(file.status.nodeSummary.totalNum, 3, 'last known details are kept');
    assert.equal(
      file.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]),
      [
        ['CompleteAPIEnablements', 'True'],
        ['Ready', 'False'],
      ],
      'and the conditions this pass did not collect, Ready set where it stood',
    );
  } finally {
    await s1!.faults.reset();
    await s2!.faults.reset();
  }
});

// execution_controller.go Reconcile: no Work is synced to a cluster that is not Ready, so one it never got has no
// Applied condition, which assembleWorkStatus lists not applied, Unknown, with no appliedMessage.
test('an object a member held not Ready never got is recorded not applied without a message', async () => {
  const [s1] = members;
  const late = rendered('v1', 'ConfigMap', 'late', 'demo', { data: { n: '1' } });
  await commitRendered(repo, { s1: [...folder, late], s2: [...folder, late] }, 'c'.repeat(40));
  await s1!.faults.set({ refuse: true });
  try {
    const d = await applyRendered({
      repo,
      outputRef: RENDERED_REF,
      clusters: kubes,
      retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
    });
    assert.is(d.clusters.get('s1')!.notReady, true, 'the status branch holds s1 Ready=False');
    assert.is(d.clusters.get('s2')!.notReady, undefined);
    await writeStatus({
      repo,
      reports: [...d.clusters.values()].map((delivery) => ({ cluster: delivery.cluster, delivery })),
      renderedCommit: d.renderedCommit,
      sourceCommit: d.sourceCommit,
    });
    const file = await statusFile('templates/demo/configmap_late.yaml');
    assert.equal(file.aggregatedStatus, [
      { clusterName: 's1', applied: false, health: 'Unknown' },
      { clusterName: 's2', applied: true, health: 'Healthy' },
    ]);
  } finally {
    await s1!.faults.reset();
  }
});

test("Ready follows /readyz's status as Karmada reads it: 200 whatever the body, another 2xx reachable but not ready (nothing else collected), /healthz when /readyz is 404", async () => {
  const real = kubes.get('s1')!;
  /** s1 as the status pass sees it, with the health endpoints answering as given. */
  const answering = (health: Record<string, { status: number; body: unknown }>): KubeTarget => ({
    ...real,
    request: async (req) => {
      const fake = health[req.path];
      return fake ? { ...fake, headers: {} } : real.request(req);
    },
  });
  const readyOf = async (health: Record<string, { status: number; body: unknown }>) => {
    const status = await collectClusterStatus(answering(health), {
      retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    });
    const ready = status.conditions![0]!;
    return [ready.status, ready.reason, status.kubernetesVersion !== undefined];
  };
  assert.equal(await readyOf({ '/readyz': { status: 200, body: 'test' } }), ['True', 'ClusterReady', true]);
  assert.equal(await readyOf({ '/readyz': { status: 202, body: '' } }), ['False', 'ClusterNotReady', false]);
  assert.equal(await readyOf({ '/readyz': { status: 404, body: 'no' }, '/healthz': { status: 200, body: 'ok' } }), [
    'True',
    'ClusterReady',
    true,
  ]);
  assert.equal(await readyOf({ '/readyz': { status: 404, body: 'no' }, '/healthz': { status: 404, body: 'no' } }), [
    'False',
    'ClusterNotReachable',
    false,
  ]);
  assert.equal(await readyOf({ '/readyz': { status: 503, body: 'etcd failed' } }), [
    'False',
    'ClusterNotReachable',
    false,
  ]);
});

test("the Ready and CompleteAPIEnablements conditions carry Karmada's reasons and messages", async () => {
  const real = kubes.get('s1')!;
  /** s1 with the given paths answering as given. */
  const answering = (fake: Record<string, { status: number; body: unknown }>): KubeTarget => ({
    ...real,
    request: async (req) => {
      const f = fake[req.path];
      return f ? { ...f, headers: {} } : real.request(req);
    },
  });
  const conditionsOf = async (fake: Record<string, { status: number; body: unknown }>) =>
    (
      await collectClusterStatus(answering(fake), { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } })
    ).conditions!.map((c) => [c.type, c.status, c.reason, c.message]);
  const ready = ['Ready', 'True', 'ClusterReady', 'cluster is healthy and ready to accept workloads'];
  assert.equal(await conditionsOf({}), [
    ready,
    ['CompleteAPIEnablements', 'True', 'Complete', 'collected complete APIEnablements from the cluster'],
  ]);
  const served = (await collectClusterStatus(real)).apiEnablements!.length;
  const partial = await collectClusterStatus(answering({ '/apis/apps/v1': { status: 503, body: 'unavailable' } }), {
    retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  });
  assert.not.ok(
    partial.apiEnablements!.some((e) => e.groupVersion === 'apps/v1'),
    'the failed groupVersion is left out',
  );
  assert.equal(partial.conditions![1], {
    type: 'CompleteAPIEnablements',
    status: 'False',
    reason: 'Partial',
    message: `might collect partial APIEnablements(${served - 1}) from the cluster`,
  });
  assert.equal(await conditionsOf({ '/apis': { status: 500, body: 'down' } }), [
    ready,
    ['CompleteAPIEnablements', 'False', 'Empty', 'collected empty APIEnablements from the cluster'],
  ]);
  assert.equal(await conditionsOf({ '/readyz': { status: 503, body: 'etcd failed' } }), [
    ['Ready', 'False', 'ClusterNotReachable', 'cluster is not reachable'],
  ]);
  assert.equal((await conditionsOf({ '/readyz': { status: 202, body: '' } }))[0], [
    'Ready',
    'False',
    'ClusterNotReady',
    'cluster is reachable but health endpoint responded without ok',
  ]);
});

test('a full collection replaces what the member no longer reports: no API enablements left, none written', async () => {
  const real = kubes.get('s1')!;
  const noGroups: KubeTarget = {
    ...real,
    request: async (req) => (req.path === '/api' ? { status: 500, body: 'down', headers: {} } : real.request(req)),
  };
  const undamped = { thresholds: { successMs: 0, failureMs: 0 } };
  await writeStatus({
    repo,
    reports: [{ cluster: 's1', status: await collectClusterStatus(real) }],
    clusterOptions: undamped,
  });
  assert.ok((await statusFile('clusters/s1.yaml')).status.apiEnablements.length > 0);
  const status = await collectClusterStatus(noGroups, { retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 } });
  await writeStatus({ repo, reports: [{ cluster: 's1', status }], clusterOptions: undamped });
  const file = await statusFile('clusters/s1.yaml');
  assert.is(file.status.apiEnablements, undefined);
  assert.equal(
    file.status.conditions.find((c: { type: string }) => c.type === 'CompleteAPIEnablements').reason,
    'Empty',
  );
  assert.is(file.status.nodeSummary.totalNum, 3);
});

test("concurrent writers for different clusters never lose each other's entries", async () => {
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'demo', name: 'shared' };
  const names = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
  const results = await Promise.all(
    names.map((cluster) =>
      writeStatus({
        repo,
        reports: [
          {
            cluster,
            delivery: {
              cluster,
              results: [
                {
                  ref,
                  action: 'created',
                  message: 'created',
                  live: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' } },
                },
              ],
              inventory: [ref],
              previousInventory: [],
              writes: 1,
              notes: [],
              durationMs: 0,
            },
          },
        ],
      }),
    ),
  );
  const file = await statusFile('templates/demo/configmap_shared.yaml');
  assert.equal(
    file.aggregatedStatus.map((i: { clusterName: string }) => i.clusterName),
    names,
  );
  for (const c of names) assert.ok(await statusFile(`inventories/${c}.json`), c);
  assert.ok(results.every((r) => r.commit));
  console.log(
    `      6 concurrent writers: ${results.reduce((a, r) => a + r.attempts, 0)} compare-and-swap attempts in all`,
  );
});

test("the replicas syncer decides on the file being committed: this writer's member merged with another writer's", async () => {
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'demo', name: 'scaled' };
  /** What a member reports after its HPA scaled the Deployment to 3 and its controller caught up. */
  const report = (cluster: string): ClusterReport => ({
    cluster,
    delivery: {
      cluster,
      results: [
        {
          ref,
          action: 'configured',
          message: 'configured',
          live: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'scaled', namespace: 'demo', generation: 2 },
            spec: { replicas: 3 },
            status: { replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2 },
          },
        },
      ],
      inventory: [ref],
      previousInventory: [],
      writes: 1,
      notes: [],
      durationMs: 0,
    },
  });
  const plan: ReplicasSyncPlan = {
    scaled: [
      {
        ref,
        gitReplicas: 4,
        binding: {
          apiVersion: 'work.karmada.io/v1alpha2',
          kind: 'ResourceBinding',
          metadata: { name: 'scaled-deployment', namespace: 'demo' },
          spec: {
            resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'demo', name: 'scaled' },
            replicas: 4,
            clusters: [
              { name: 'p1', replicas: 2 },
              { name: 'p2', replicas: 2 },
            ],
            placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
          },
        } as unknown as ReplicasSyncPlan['scaled'][number]['binding'],
      },
    ],
    gone: { edits: new Map(), lines: [] },
  };
  // Another writer (a Pull agent, or a replica owning p2) committed p2's status; this one, deciding, reports p1 only.
  const other = await writeStatus({ repo, reports: [report('p2')] });
  assert.not.ok(
    other.changedPaths.some((p) => p.startsWith('syncedreplicas/')),
    'only a decider syncs',
  );
  const mine = await writeStatus({ repo, reports: [report('p1')], replicasSync: plan });
  assert.ok(mine.changedPaths.includes('syncedreplicas/demo/scaled.yaml'), mine.changedPaths.join(', '));
  const synced = await statusFile('syncedreplicas/demo/scaled.yaml');
  assert.equal({ replicas: synced.replicas, clusters: synced.clusters }, { replicas: 6, clusters: { p1: 3, p2: 3 } });
  const again = await writeStatus({ repo, reports: [report('p1')], replicasSync: plan });
  assert.is(again.commit, null, 'the same count is not written again');
});

test("the collected summary counts the member's unbound pods as allocating, a failed one too", async () => {
  const kube = kubes.get('s2')!;
  const pods = '/api/v1/namespaces/demo/pods';
  const unschedulable = (name: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'demo' },
      spec: {
        nodeSelector: { 'no-such-node': 'x' },
        containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '300m', memory: '8Mi' } } }],
      },
    });
  const before = (await collectClusterStatus(kube)).resourceSummary?.allocating;
  try {
    for (const name of ['waiting', 'gave-up'])
      assert.is((await kube.request({ method: 'POST', path: pods, body: unschedulable(name) })).status, 201);
    const failed = await kube.request({
      method: 'PATCH',
      path: `${pods}/gave-up/status`,
      contentType: 'application/merge-patch+json',
      body: JSON.stringify({ status: { phase: 'Failed' } }),
    });
    assert.is(failed.status, 200);
    const status = await collectClusterStatus(kube);
    assert.is(before, undefined, 'no pod was waiting before');
    assert.equal(status.resourceSummary!.allocating, { cpu: '600m', memory: '16Mi', pods: '2' });
  } finally {
    for (const name of ['waiting', 'gave-up']) await kube.request({ method: 'DELETE', path: `${pods}/${name}` });
  }
});

test.run();
