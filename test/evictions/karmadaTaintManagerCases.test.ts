// The NoExecute taint manager's eviction decisions, case by case, as Karmada's taint manager makes them (cases after
// pkg/controllers/cluster/taint_manager_test.go at f8fdd02: syncBindingEviction, syncClusterBindingEviction,
// needEvictionWithCurrentTime, getPurgeMode, enqueueBinding, syncCluster). Karmada's queue only decides when a
// binding is looked at; what counts here is the decision: evicted now, evicted at a time, or never.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceBinding } from '../../src/api/binding.ts';
import type { Cluster, Taint } from '../../src/api/cluster.ts';
import type { PropagationPolicy, Toleration } from '../../src/api/policy.ts';
import { evictTaintedClusters, purgeModeOf } from '../../src/evictions/evictTaintedClusters.ts';
import { taintEviction } from '../../src/evictions/taintEviction.ts';

const NOW = '2025-09-23T12:00:00Z';
const at = (s: number) => new Date(Date.parse(NOW) + s * 1000);
const iso = (s: number) => at(s).toISOString().replace('.000Z', 'Z');

const cluster = (taints: Taint[], name = 'test-cluster'): Cluster => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  spec: { syncMode: 'Push', taints },
});
const snapshot = (...clusters: Cluster[]) => new Map(clusters.map((c) => [c.metadata.name, c]));

const policy = (failover?: unknown, tolerations?: Toleration[]): PropagationPolicy => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'p', namespace: 'default' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    placement: tolerations ? { clusterTolerations: tolerations } : {},
    ...(failover !== undefined ? { failover } : {}),
  },
});

/** A binding on test-cluster with 1 replica, its applied-placement annotation as given (absent when undefined). */
function binding(
  appliedPlacement: string | undefined,
  kind: ResourceBinding['kind'] = 'ResourceBinding',
  name = 'test-rb',
): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: {
      name,
      ...(kind === 'ResourceBinding' ? { namespace: 'default' } : {}),
      ...(appliedPlacement !== undefined
        ? { annotations: { 'policy.karmada.io/applied-placement': appliedPlacement } }
        : {}),
    },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      clusters: [{ name: 'test-cluster', replicas: 1 }],
    },
  };
}
const tolerating = (...tolerations: Toleration[]) => JSON.stringify({ clusterTolerations: tolerations });
const exists = (key: string, tolerationSeconds?: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(tolerationSeconds !== undefined ? { tolerationSeconds } : {}),
});

// --- syncBindingEviction / syncClusterBindingEviction -------------------------------------------------------------

const notReadyNoTime: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' };

test('a binding or cluster binding tolerating only another taint is evicted gracefully from the tainted cluster', () => {
  // "rb without tolerations" / "crb without tolerations": the applied placement tolerates unreachable for 30 s, the
  // cluster has not-ready:NoExecute.
  for (const kind of ['ResourceBinding', 'ClusterResourceBinding'] as const) {
    const evicted = evictTaintedClusters(
      binding(tolerating(exists('cluster.karmada.io/unreachable', 30)), kind),
      policy(),
      snapshot(cluster([notReadyNoTime])),
      at(0),
    );
    assert.equal(evicted.clusters, [], kind);
    assert.equal(
      evicted.tasks.map((t) => [t.fromCluster, t.purgeMode, t.replicas, t.reason, t.producer, t.suppressDeletion]),
      [['test-cluster', 'Gracefully', 1, 'TaintUntolerated', 'TaintManager', undefined]],
      kind,
    );
  }
});

test("the taint manager's eviction task carries no message, as Karmada's GracefulEvictCluster options set none", () => {
  // Same cases: the expected spec's task is {fromCluster, purgeMode, replicas, reason, producer} and nothing else
  // (taint_manager.go syncBindingEviction passes WithPurgeMode, WithProducer, WithReason, WithPreservedLabelState).
  const evicted = evictTaintedClusters(
    binding(tolerating(exists('cluster.karmada.io/unreachable', 30))),
    policy(),
    snapshot(cluster([notReadyNoTime])),
    at(0),
  );
  assert.equal(
    evicted.tasks.map(({ creationTimestamp: _, ...task }) => task),
    [
      {
        fromCluster: 'test-cluster',
        replicas: 1,
        purgeMode: 'Gracefully',
        reason: 'TaintUntolerated',
        producer: 'TaintManager',
      },
    ],
  );
});

test('a NoExecute taint without timeAdded, tolerated with tolerationSeconds, never evicts', () => {
  // "rb with tolerations" / "crb with tolerations": both taints tolerated for 30 s, the taint has no timeAdded, so
  // GetMinTolerationTimeWithCurrentTime finds no trigger time: tolerated for ever, the binding is left unchanged.
  const applied = tolerating(exists('cluster.karmada.io/not-ready', 30), exists('cluster.karmada.io/unreachable', 30));
  for (const kind of ['ResourceBinding', 'ClusterResourceBinding'] as const)
    for (const s of [0, 31, 86_400]) {
      const evicted = evictTaintedClusters(
        binding(applied, kind),
        policy(),
        snapshot(cluster([notReadyNoTime])),
        at(s),
      );
      assert.equal(evicted.clusters, [{ name: 'test-cluster', replicas: 1 }], `${kind} at +${s}s`);
      assert.equal(evicted.tasks, []);
    }
});

// --- needEvictionWithCurrentTime ---------------------------------------------------------------------------------

const testKey = (secondsAgo: number): Taint => ({ key: 'test-key', effect: 'NoExecute', timeAdded: iso(-secondsAgo) });

test('without a readable applied placement the taint manager makes no eviction, whatever the policy tolerates', () => {
  // "placement annotation not exist", "placement annotation is invalid JSON", "placement is nil" (the annotation
  // empty): needEvictionWithCurrentTime returns an error before looking at the cluster, so syncBindingEviction evicts
  // nothing (and enqueueBinding's "fail-safe: immediate" only hands it to that check).
  const untolerating = policy(undefined, []);
  for (const [name, annotation] of [
    ['no annotation', undefined],
    ['invalid JSON', 'invalid-json'],
    ['empty annotation', ''],
  ] as const) {
    const evicted = evictTaintedClusters(binding(annotation), untolerating, snapshot(cluster([testKey(1)])), at(0));
    assert.equal(evicted.evictions, [], name);
    assert.equal(evicted.clusters, [{ name: 'test-cluster', replicas: 1 }], name);
  }
});

test('a toleration with zero tolerationSeconds evicts at once', () => {
  // "taint tolerated with zero toleration seconds - immediate eviction".
  const evicted = evictTaintedClusters(
    binding(tolerating(exists('test-key', 0))),
    policy(),
    snapshot(cluster([testKey(1)])),
    at(0),
  );
  assert.equal(
    evicted.evictions.map((e) => [e.cluster, e.why, e.tolerationSeconds]),
    [['test-cluster', 'tolerationExpired', 0]],
  );
});

test('60 s of toleration for a taint added 1 s ago: no eviction now, due 59 s later', () => {
  // "taint tolerated with positive toleration seconds - wait for toleration time" (tolerationTime 59s).
  const applied = binding(tolerating(exists('test-key', 60)));
  const clusters = snapshot(cluster([testKey(1)]));
  assert.equal(taintEviction([testKey(1)], [exists('test-key', 60)], at(0)), {
    evict: false,
    at: at(59),
    taint: testKey(1),
  });
  assert.equal(evictTaintedClusters(applied, policy(), clusters, at(58)).evictions, []);
  assert.equal(
    evictTaintedClusters(applied, policy(), clusters, at(59)).evictions.map((e) => e.cluster),
    ['test-cluster'],
  );
});

test('an untolerated taint evicts at once even when the tolerated one was added in the future', () => {
  // "multiple taints with mixed tolerations": tolerated-key (timeAdded 1 s later, 30 s) and not-tolerated-key.
  const taints: Taint[] = [
    { key: 'tolerated-key', effect: 'NoExecute', timeAdded: iso(1) },
    { key: 'not-tolerated-key', effect: 'NoExecute', timeAdded: iso(-1) },
  ];
  const evicted = evictTaintedClusters(
    binding(tolerating(exists('tolerated-key', 30))),
    policy(),
    snapshot(cluster(taints)),
    at(0),
  );
  assert.equal(
    evicted.evictions.map((e) => [e.cluster, e.why, e.taint.key]),
    [['test-cluster', 'untolerated', 'not-tolerated-key']],
  );
});

// --- getPurgeMode -----------------------------------------------------------------------------------------------

test('purge mode: a failover.cluster block without purgeMode is Gracefully; an explicit Gracefully stays', () => {
  // "failover spec is present, PurgeMode is empty, should be Gracefully"; "failover spec is present, PurgeMode is
  // Gracefully" (the global --no-execute-taint-eviction-purge-mode does not apply once failover.cluster is set).
  assert.is(purgeModeOf(policy({ cluster: {} })), 'Gracefully');
  assert.is(purgeModeOf(policy({ cluster: { purgeMode: 'Gracefully' } })), 'Gracefully');
  const evicted = evictTaintedClusters(
    binding(tolerating()),
    policy({ cluster: {} }),
    snapshot(cluster([testKey(1)])),
    at(0),
  );
  assert.equal(
    evicted.tasks.map((t) => [t.fromCluster, t.purgeMode]),
    [['test-cluster', 'Gracefully']],
  );
});

// --- enqueueBinding ---------------------------------------------------------------------------------------------

test('two taints each tolerated without seconds are tolerated for ever; one with 120 s falls due then', () => {
  // "multiple taints - all tolerated indefinitely - skip"; "multiple taints - one tolerated with finite seconds -
  // delayed".
  const taints: Taint[] = [
    { key: 'key1', effect: 'NoExecute', timeAdded: iso(-1) },
    { key: 'key2', effect: 'NoExecute', timeAdded: iso(-1) },
  ];
  assert.equal(taintEviction(taints, [exists('key1'), exists('key2')], at(0)), { evict: false });
  assert.equal(
    evictTaintedClusters(
      binding(tolerating(exists('key1'), exists('key2'))),
      policy(),
      snapshot(cluster(taints)),
      at(1_000_000),
    ).evictions,
    [],
  );
  const finite = taintEviction(taints, [exists('key1'), exists('key2', 120)], at(0));
  assert.equal(finite, { evict: false, at: at(119), taint: taints[1] });
  const applied = binding(tolerating(exists('key1'), exists('key2', 120)));
  assert.equal(evictTaintedClusters(applied, policy(), snapshot(cluster(taints)), at(118)).evictions, []);
  assert.is(evictTaintedClusters(applied, policy(), snapshot(cluster(taints)), at(119)).evictions.length, 1);
});

// --- syncCluster ------------------------------------------------------------------------------------------------

test('one tainted cluster, four bindings: tolerated for ever, due after 142 s, and untolerated binding and cluster binding', () => {
  // Test_syncCluster_enqueuesBindingsCorrectly: cluster.karmada.io/maintenance:NoExecute added 1 s ago.
  const maintenance: Taint = { key: 'cluster.karmada.io/maintenance', effect: 'NoExecute', timeAdded: iso(-1) };
  const clusters = snapshot(cluster([maintenance]));
  const bindings = [
    binding(tolerating(exists(maintenance.key)), 'ResourceBinding', 'infinite-rb'),
    binding(tolerating(exists(maintenance.key, 142)), 'ResourceBinding', 'finite-rb'),
    binding(tolerating(), 'ResourceBinding', 'no-toleration-rb'),
    binding(tolerating(), 'ClusterResourceBinding', 'no-toleration-crb'),
  ];
  const evictedAt = (s: number) =>
    bindings
      .filter((b) => evictTaintedClusters(b, policy(), clusters, at(s)).evictions.length > 0)
      .map((b) => b.metadata.name);
  assert.equal(evictedAt(0), ['no-toleration-rb', 'no-toleration-crb']);
  assert.equal(evictedAt(140), ['no-toleration-rb', 'no-toleration-crb']);
  assert.equal(evictedAt(141), ['finite-rb', 'no-toleration-rb', 'no-toleration-crb']);
  assert.equal(evictedAt(1_000_000), ['finite-rb', 'no-toleration-rb', 'no-toleration-crb']);
});

test.run();
