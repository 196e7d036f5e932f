// client-go's LeaderElector loop (k8s.io/client-go/tools/leaderelection/leaderelection.go: acquire, renew, release)
// around the pure decisions of electionStep.ts, on a LeaseClient. It keeps running after losing the lease: a
// replica that stops leading goes back to acquiring, since it has its shard to apply either way.
import { systemClock, type Clock } from './Clock.ts';
import {
  afterWrite,
  holdsLeadership,
  INITIAL_ELECTION_STATE,
  isHolder,
  isLeaseValid,
  JITTER_FACTOR,
  planAttempt,
  planFastRenew,
  planRelease,
  type Candidate,
  type ElectionState,
  type ElectionTimings,
} from './electionStep.ts';
import { LeaseConflictError, type LeaseClient } from './LeaseClient.ts';
import { recordOf, specOf, type LeaseObject, type LeaseRecord } from './leaseRecord.ts';

export interface ElectorOptions {
  client: LeaseClient;
  namespace: string;
  name: string;
  identity: string;
  timings: ElectionTimings;
  clock?: Clock;
  /** Labels the Lease is created with (membership Leases are listed by label). */
  labels?: Record<string, string>;
  /** Annotations written with every acquire and renew (a replica's cluster claims). */
  annotations?: () => Record<string, string>;
  /** Called after each successful write with what the API server stored. */
  onWritten?: (lease: LeaseObject) => void;
  onStartedLeading?: () => void;
  onStoppedLeading?: (reason: string) => void;
  /** Someone else (or nobody: '') is seen holding the lease. */
  onNewLeader?: (identity: string) => void;
  log: (entry: Record<string, unknown>) => void;
  /** For the acquire loop's jitter; Math.random unless a test fixes it. */
  random?: () => number;
}

export class LeaseElector {
  private state: ElectionState = INITIAL_ELECTION_STATE;
  private lastRenewSentAt: number | undefined;
  private leading = false;
  private lastLeader: string | undefined;
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;
  private attempts: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;
  private readonly me: Candidate;

  constructor(private readonly opts: ElectorOptions) {
    this.clock = opts.clock ?? systemClock;
    this.me = {
      identity: opts.identity,
      leaseDurationSeconds: Math.max(1, Math.floor(opts.timings.leaseDurationMs / 1000)),
    };
  }

  get identity(): string {
    return this.opts.identity;
  }

  start(): void {
    this.loop ??= this.run().catch((err: unknown) =>
      this.opts.log({ step: 'lease', lease: this.where(), error: (err as Error).message }),
    );
  }

  /**
   * True while this process may act as the holder: it holds the Lease as last observed and its last successful
   * renewal was sent less than the renew deadline ago (fencing; see holdsLeadership).
   */
  isLeader(): boolean {
    return (
      this.leading &&
      isHolder(this.state, this.me.identity) &&
      holdsLeadership(this.lastRenewSentAt, this.opts.timings.renewDeadlineMs, this.clock.now())
    );
  }

  /** When the current holding ends unless renewed (epoch ms); undefined when not holding. */
  holdsUntil(): number | undefined {
    return this.isLeader() ? this.lastRenewSentAt! + this.opts.timings.renewDeadlineMs : undefined;
  }

  /** The holder as last observed while its lease is valid; undefined when nobody (or nobody known) holds it. */
  holder(): string | undefined {
    const h = this.state.observed?.holderIdentity;
    return h && isLeaseValid(this.state, this.clock.now()) ? h : undefined;
  }

  /** The record last read or written. */
  observed(): LeaseRecord | undefined {
    return this.state.observed;
  }

  /** One renewal now, outside the loop's rhythm (to publish changed annotations); true when it succeeded. */
  renewNow(): Promise<boolean> {
    if (!this.leading || this.abort.signal.aborted) return Promise.resolve(false);
    return this.serialized(() => this.tryAcquireOrRenew(this.opts.timings.retryPeriodMs));
  }

  /** Ends the loop and, when holding, releases the Lease (client-go's ReleaseOnCancel) so a successor need not wait. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await this.attempts;
    const wasLeading = this.leading;
    this.leading = false;
    const record = planRelease(this.state, this.me, this.clock.wall());
    if (!record || !this.state.lease) return;
    try {
      const written = await this.release(record, this.state.lease);
      this.state = afterWrite(written, this.clock.now());
      this.opts.log({ step: 'lease', lease: this.where(), released: this.me.identity });
    } catch (err) {
      this.opts.log({ step: 'lease', lease: this.where(), releaseFailed: (err as Error).message });
    }
    if (wasLeading) this.opts.onStoppedLeading?.('released on stop');
  }

  /**
   * client-go's tryRelease retries a conflict on the Lease read afresh: someone labelling or annotating the Lease
   * must not make a successor wait a whole lease duration. Only while that read still names this holder, so a Lease
   * another candidate took in the meantime is never emptied.
   */
  private async release(record: LeaseRecord, last: LeaseObject): Promise<LeaseObject> {
    const { client, namespace, name } = this.opts;
    try {
      return await client.update(this.objectFor(record, last), 5_000);
    } catch (err) {
      if (!(err instanceof LeaseConflictError)) throw err;
      const fresh = await client.get(namespace, name, 5_000);
      if (!fresh || recordOf(fresh).holderIdentity !== this.me.identity) throw err;
      return client.update(
        this.objectFor({ ...record, leaseTransitions: recordOf(fresh).leaseTransitions }, fresh),
        5_000,
      );
    }
  }

  private where(): string {
    return `${this.opts.namespace}/${this.opts.name}`;
  }

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.attempts.then(fn, fn);
    this.attempts = next.catch(() => undefined);
    return next;
  }

  private async run(): Promise<void> {
    const { retryPeriodMs, renewDeadlineMs } = this.opts.timings;
    const signal = this.abort.signal;
    const random = this.opts.random ?? Math.random;
    while (!signal.aborted) {
      // acquire: wait.JitterUntil(tryAcquireOrRenew, RetryPeriod, JitterFactor)
      while (!signal.aborted) {
        if (await this.serialized(() => this.tryAcquireOrRenew(renewDeadlineMs))) break;
        await this.clock.sleep(retryPeriodMs * (1 + random() * JITTER_FACTOR), signal);
      }
      if (signal.aborted) return;
      this.leading = true;
      this.opts.log({ step: 'lease', lease: this.where(), acquired: this.me.identity });
      this.opts.onStartedLeading?.();
      // renew: every RetryPeriod; give up once the last renewal is older than the renew deadline.
      for (;;) {
        await this.clock.sleep(retryPeriodMs, signal);
        if (signal.aborted) return;
        let renewed = false;
        for (;;) {
          const left = this.lastRenewSentAt! + renewDeadlineMs - this.clock.now();
          if (left <= 0 || signal.aborted) break;
          renewed = await this.serialized(() => this.tryAcquireOrRenew(left));
          if (renewed || !isHolder(this.state, this.me.identity)) break;
          await this.clock.sleep(Math.min(retryPeriodMs, left), signal);
        }
        if (signal.aborted) return;
        if (renewed) continue;
        this.leading = false;
        const reason = isHolder(this.state, this.me.identity)
          ? `not renewed within the renew deadline (${renewDeadlineMs} ms)`
          : `taken over by ${this.state.observed?.holderIdentity || 'nobody'}`;
        this.opts.log({ step: 'lease', lease: this.where(), lost: this.me.identity, reason });
        this.opts.onStoppedLeading?.(reason);
        break;
      }
    }
  }

  /** tryAcquireOrRenew: true when this candidate holds the lease afresh. */
  private async tryAcquireOrRenew(timeoutMs: number): Promise<boolean> {
    const client = this.opts.client;
    const { namespace, name } = this.opts;
    const timeout = Math.max(100, Math.round(timeoutMs));
    const sent = this.clock.now();
    const fast = planFastRenew(this.state, this.me, sent, this.clock.wall());
    if (fast && this.state.lease) {
      try {
        return this.wrote(await client.update(this.objectFor(fast, this.state.lease), timeout), sent);
      } catch {
        // client-go: "failed to update lock optimistically, falling back to slow path"
      }
    }
    let read: LeaseObject | null;
    try {
      read = await client.get(namespace, name, timeout);
    } catch (err) {
      this.opts.log({ step: 'lease', lease: this.where(), error: (err as Error).message });
      return false;
    }
    const plan = planAttempt(this.state, this.me, read, this.clock.now(), this.clock.wall());
    this.state = plan.state;
    if (plan.kind === 'held') {
      this.noteLeader(plan.holder);
      return false;
    }
    try {
      const object = this.objectFor(plan.record, plan.kind === 'update' ? read! : undefined);
      const written =
        plan.kind === 'create' ? await client.create(object, timeout) : await client.update(object, timeout);
      return this.wrote(written, sent);
    } catch (err) {
      this.opts.log({ step: 'lease', lease: this.where(), error: (err as Error).message });
      return false;
    }
  }

  private wrote(written: LeaseObject, sent: number): boolean {
    this.state = afterWrite(written, this.clock.now());
    this.lastRenewSentAt = sent;
    this.noteLeader(this.me.identity);
    this.opts.onWritten?.(written);
    return true;
  }

  private noteLeader(identity: string): void {
    if (identity === this.lastLeader) return;
    this.lastLeader = identity;
    if (identity !== this.me.identity) this.opts.onNewLeader?.(identity);
  }

  private objectFor(record: LeaseRecord, previous: LeaseObject | undefined): LeaseObject {
    const metadata = previous?.metadata ?? { name: this.opts.name, namespace: this.opts.namespace };
    const labels = { ...metadata.labels, ...this.opts.labels };
    const annotations = { ...metadata.annotations, ...this.opts.annotations?.() };
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        ...metadata,
        ...(Object.keys(labels).length ? { labels } : {}),
        ...(Object.keys(annotations).length ? { annotations } : {}),
      },
      spec: specOf(record),
    };
  }
}
