// A replica's membership and cluster ownership, on Leases: its own Lease (flotilla-replica-<id>, renewed like the
// leader's, claims in an annotation) and a look at every replica's Lease each retry period, which drives the pure
// assignment (assignClusters.ts) and handoff (planClaims.ts).
import { systemClock, type Clock } from '../leases/Clock.ts';
import type { ElectionTimings } from '../leases/electionStep.ts';
import type { LeaseClient } from '../leases/LeaseClient.ts';
import { LeaseElector } from '../leases/LeaseElector.ts';
import { assignClusters } from './assignClusters.ts';
import {
  CLAIMS_ANNOTATION,
  claimsOf,
  currentOwners,
  isLive,
  isStale,
  observePeers,
  planClaims,
  REPLICA_LABEL,
  REPLICA_LABEL_VALUE,
  REPLICA_SELECTOR,
  replicaLeaseName,
  type PeerObservation,
} from './planClaims.ts';

export interface MembershipOptions {
  client: LeaseClient;
  namespace: string;
  identity: string;
  timings: ElectionTimings;
  clock?: Clock;
  log: (entry: Record<string, unknown>) => void;
  /** The Push clusters to share and their weights (object counts); read each round. */
  weights: () => Promise<ReadonlyMap<string, number>>;
  /** The clusters this replica may apply changed (a claim confirmed, released or dropped): time for a pass. */
  onOwnedChange?: (owned: readonly string[]) => void;
}

/** What this replica knows of the shards, for `flotilla get shards`-like views and metrics. */
export interface ShardView {
  identity: string;
  /** Live replicas (this one included while its Lease is held) and the clusters each claims. */
  replicas: Map<string, string[]>;
  /** This replica's confirmed clusters: the ones it applies. */
  owned: string[];
  /** What the assignment wants, as this replica computed it last. */
  desired: Map<string, string>;
}

export class ShardMembership {
  private claims = new Set<string>();
  private confirmed = new Set<string>();
  private published = new Set<string>();
  private readonly busy = new Map<string, number>();
  private peers = new Map<string, PeerObservation>();
  private desired = new Map<string, string>();
  private readonly elector: LeaseElector;
  private readonly clock: Clock;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private readonly removeFailures = new Set<string>();

  constructor(private readonly opts: MembershipOptions) {
    this.clock = opts.clock ?? systemClock;
    this.elector = new LeaseElector({
      client: opts.client,
      namespace: opts.namespace,
      name: replicaLeaseName(opts.identity),
      identity: opts.identity,
      timings: opts.timings,
      clock: this.clock,
      labels: { [REPLICA_LABEL]: REPLICA_LABEL_VALUE },
      annotations: () => ({ [CLAIMS_ANNOTATION]: JSON.stringify([...this.claims].sort()) }),
      onWritten: (lease) => {
        this.published = new Set(claimsOf(lease));
      },
      // Others may count this Lease expired from now on and claim its clusters: start over with none.
      onStoppedLeading: () => this.forget(),
      log: opts.log,
    });
  }

  get identity(): string {
    return this.opts.identity;
  }

  start(): void {
    this.elector.start();
    this.loop ??= this.run();
  }

  /** The clusters this replica may apply now: its confirmed claims, while its own Lease is held (fencing). */
  owned(): ReadonlySet<string> {
    return this.elector.isLeader() ? new Set(this.confirmed) : new Set();
  }

  /** This replica's own Lease is held (it is a member). */
  member(): boolean {
    return this.elector.isLeader();
  }

  /** Marks clusters as being applied; their claims are not released until the returned function is called. */
  hold(clusters: Iterable<string>): () => void {
    const held = [...clusters];
    for (const c of held) this.busy.set(c, (this.busy.get(c) ?? 0) + 1);
    return () => {
      for (const c of held) {
        const n = (this.busy.get(c) ?? 1) - 1;
        if (n > 0) this.busy.set(c, n);
        else this.busy.delete(c);
      }
    };
  }

  view(): ShardView {
    const now = this.clock.now();
    const replicas = new Map<string, string[]>();
    for (const p of this.peers.values())
      if (isLive(p, now) && p.holder !== this.opts.identity) replicas.set(p.holder, [...p.claims].sort());
    if (this.elector.isLeader()) replicas.set(this.opts.identity, [...this.claims].sort());
    return { identity: this.opts.identity, replicas, owned: [...this.owned()].sort(), desired: new Map(this.desired) };
  }

  /** Gives up every claim and releases the Lease: the others take the clusters over within a retry period. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    this.forget();
    await this.elector.stop();
  }

  private forget(): void {
    if (this.claims.size > 0)
      this.opts.log({ step: 'shards', replica: this.opts.identity, dropped: [...this.claims].sort() });
    this.claims = new Set();
    this.confirmed = new Set();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      await this.clock.sleep(this.opts.timings.retryPeriodMs, signal);
      if (signal.aborted) return;
      try {
        await this.round();
      } catch (err) {
        this.opts.log({ step: 'shards', replica: this.opts.identity, error: (err as Error).message });
      }
    }
  }

  /** Deletes replica Leases unchanged since long before they expired; only if still unchanged (resourceVersion). */
  private async removeStale(now: number): Promise<void> {
    for (const peer of [...this.peers.values()]) {
      if (peer.holder === this.opts.identity || !isStale(peer, now) || !peer.resourceVersion) continue;
      const removed = await this.opts.client
        .delete(this.opts.namespace, peer.lease, peer.resourceVersion, this.opts.timings.retryPeriodMs)
        .catch((err: unknown) => {
          // Logged once per Lease: a missing `delete` permission would otherwise say so every retry period.
          if (!this.removeFailures.has(peer.lease))
            this.opts.log({ step: 'shards', lease: peer.lease, removeFailed: (err as Error).message });
          this.removeFailures.add(peer.lease);
          return false;
        });
      if (removed) {
        this.peers.delete(peer.lease);
        this.opts.log({ step: 'shards', removedLease: peer.lease, holder: peer.holder || null });
      }
    }
  }

  /** One look at every replica: assign, release, yield, claim, confirm; publish at once when the claims changed. */
  private async round(): Promise<void> {
    if (!this.elector.isLeader()) return;
    const me = this.opts.identity;
    const published = new Set(this.published);
    const leases = await this.opts.client.list(this.opts.namespace, REPLICA_SELECTOR, this.opts.timings.retryPeriodMs);
    const now = this.clock.now();
    this.peers = observePeers(this.peers, leases, now);
    const others = new Map<string, string[]>();
    for (const p of this.peers.values()) if (p.holder !== me && isLive(p, now)) others.set(p.holder, p.claims);
    await this.removeStale(now);
    const weights = await this.opts.weights();
    this.desired = assignClusters({
      replicas: [me, ...others.keys()],
      weights,
      current: currentOwners(me, this.claims, others),
    });
    const plan = planClaims({
      me,
      state: { claims: this.claims, confirmed: this.confirmed },
      published,
      others,
      desired: this.desired,
      busy: new Set(this.busy.keys()),
    });
    if (!this.elector.isLeader()) return; // lost while reading: forget() already ran
    const changed = plan.claimed.length + plan.released.length + plan.yielded.length > 0;
    this.claims = new Set(plan.state.claims);
    this.confirmed = new Set(plan.state.confirmed);
    for (const key of ['claimed', 'confirmed', 'released', 'yielded'] as const)
      if (plan[key].length > 0) this.opts.log({ step: 'shards', replica: me, [key]: plan[key] });
    if (changed) await this.elector.renewNow();
    if (plan.confirmed.length + plan.released.length > 0) this.opts.onOwnedChange?.([...this.confirmed].sort());
  }
}
