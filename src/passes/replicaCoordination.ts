// Several `flotilla run --leader-elect` replicas on one repo: the leader (Lease flotilla-leader) renders, every replica
// applies the Push clusters of its shard (ShardMembership). This module ties both to the repo: the shards' weights are
// the clusters' object counts on the rendered branch, and changes of role or shard ask the reconciler for a pass.
import { Gauge, type Registry } from 'prom-client';
import { readLastRender } from '../branches/rendered/readLastRender.ts';
import { readOutputIndex } from '../branches/rendered/readOutputIndex.ts';
import type { GitRepo } from '../commits/types.ts';
import type { Clock } from '../leases/Clock.ts';
import type { ElectionTimings } from '../leases/electionStep.ts';
import type { LeaseClient } from '../leases/LeaseClient.ts';
import { LeaseElector } from '../leases/LeaseElector.ts';
import { LEADER_LEASE } from '../shards/planClaims.ts';
import { ShardMembership, type ShardView } from '../shards/ShardMembership.ts';
import { readClusterRegistrations, type RegistrationCache } from './readClusterRegistrations.ts';

export interface LeaderElectionOptions {
  client: LeaseClient;
  namespace: string;
  /** This replica's name (--id): holderIdentity of the Leases it holds. */
  identity: string;
  timings: ElectionTimings;
  clock?: Clock;
  /** Where the Leases are, for messages (e.g. "kubeconfig host.config"). */
  describe?: string;
}

export interface ReplicaCoordination {
  readonly identity: string;
  /** Render and write flotilla/rendered only while true (the leader Lease held and renewed in time). */
  leading(): boolean;
  /** This replica's membership Lease is held: it may apply its shard and write status. */
  member(): boolean;
  /** The Push clusters this replica applies now. */
  owned(): ReadonlySet<string>;
  /** Marks clusters as being applied by a pass; call the result when the pass is over. */
  hold(clusters: Iterable<string>): () => void;
  /** Who leads and who owns what, as this replica sees it. */
  view(): ShardView & { leader: string | undefined };
  stop(): Promise<void>;
}

/** Starts both Leases' loops. `changed` asks for a pass: leadership gained, or the owned clusters changed. */
export function startReplicaCoordination(
  opts: LeaderElectionOptions & {
    repo: GitRepo;
    outputRef: string;
    log: (entry: Record<string, unknown>) => void;
    registry?: Registry;
    changed: (why: string) => void;
  },
): ReplicaCoordination {
  const leader = new LeaseElector({
    client: opts.client,
    namespace: opts.namespace,
    name: LEADER_LEASE,
    identity: opts.identity,
    timings: opts.timings,
    ...(opts.clock ? { clock: opts.clock } : {}),
    log: opts.log,
    onStartedLeading: () => opts.changed('leader'),
    onNewLeader: (identity) =>
      opts.log({ step: 'lease', lease: `${opts.namespace}/${LEADER_LEASE}`, leader: identity || null }),
  });
  const weights = shardWeights(opts.repo, opts.outputRef);
  const shards = new ShardMembership({
    client: opts.client,
    namespace: opts.namespace,
    identity: opts.identity,
    timings: opts.timings,
    ...(opts.clock ? { clock: opts.clock } : {}),
    log: opts.log,
    weights,
    onOwnedChange: () => opts.changed('shards'),
  });
  const coordination: ReplicaCoordination = {
    identity: opts.identity,
    leading: () => leader.isLeader(),
    member: () => shards.member(),
    owned: () => shards.owned(),
    hold: (clusters) => shards.hold(clusters),
    view: () => ({ ...shards.view(), leader: leader.isLeader() ? opts.identity : leader.holder() }),
    async stop() {
      await Promise.all([shards.stop(), leader.stop()]);
    },
  };
  if (opts.registry) registerShardMetrics(opts.registry, coordination, opts.namespace);
  shards.start();
  leader.start();
  return coordination;
}

/** Weights read once per rendered commit (readShardWeights). */
function shardWeights(repo: GitRepo, outputRef: string): () => Promise<ReadonlyMap<string, number>> {
  const registrations: RegistrationCache = new Map();
  let cached: { commit: string; weights: ReadonlyMap<string, number> } | undefined;
  return async () => {
    const { rendered } = await readLastRender(repo, outputRef);
    if (!rendered) return new Map();
    if (cached?.commit !== rendered.oid)
      cached = { commit: rendered.oid, weights: await readShardWeights(repo, outputRef, registrations) };
    return cached.weights;
  };
}

/**
 * The Push clusters registered in Git and their weights: the number of objects the rendered head gives each (at
 * least 1). Empty before the first render.
 */
export async function readShardWeights(
  repo: GitRepo,
  outputRef: string,
  registrations: RegistrationCache = new Map(),
): Promise<Map<string, number>> {
  const { rendered } = await readLastRender(repo, outputRef);
  if (!rendered) return new Map();
  const push = (await readClusterRegistrations(repo, outputRef, registrations)).filter((r) => r.syncMode === 'Push');
  const weights = new Map(push.map((r) => [r.name, 1]));
  const index = await readOutputIndex(repo, rendered.tree);
  for (const entry of Object.values(index?.templates ?? {}))
    for (const c of entry.clusters) if (weights.has(c)) weights.set(c, weights.get(c)! + 1);
  return weights;
}

/** client-go's leader_election_master_status, and who owns what (flotilla_shard_*). */
function registerShardMetrics(registry: Registry, c: ReplicaCoordination, namespace: string): void {
  const reg = { registers: [registry] };
  new Gauge({
    ...reg,
    name: 'leader_election_master_status',
    help: 'Whether this replica leads (1) or not (0); label name is the Lease.',
    labelNames: ['name'],
    collect() {
      this.set({ name: `${namespace}/${LEADER_LEASE}` }, c.leading() ? 1 : 0);
    },
  });
  new Gauge({
    ...reg,
    name: 'flotilla_shard_member',
    help: 'Whether this replica holds its membership Lease (1) or not (0).',
    collect() {
      this.set(c.member() ? 1 : 0);
    },
  });
  new Gauge({
    ...reg,
    name: 'flotilla_shard_owned_clusters',
    help: 'Push clusters this replica applies now.',
    collect() {
      this.set(c.owned().size);
    },
  });
  new Gauge({
    ...reg,
    name: 'flotilla_shard_cluster_owner',
    help: 'Who applies each Push cluster, as this replica sees the replicas Leases (1 per cluster and replica).',
    labelNames: ['member_cluster', 'replica'],
    collect() {
      this.reset();
      for (const [replica, clusters] of c.view().replicas)
        for (const cluster of clusters) this.set({ member_cluster: cluster, replica }, 1);
    },
  });
}
