// A fake clock and an in-memory Lease API with the API server's optimistic concurrency (resourceVersion, 409), for
// elector and membership tests that must not wait on real time.
import type { Clock } from '../../../src/leases/Clock.ts';
import { LeaseConflictError, type LeaseClient } from '../../../src/leases/LeaseClient.ts';
import type { LeaseObject } from '../../../src/leases/leaseRecord.ts';

/** Lets every pending promise chain run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 30; i++) await new Promise((resolve) => setImmediate(resolve));
}

export class FakeClock implements Clock {
  t = 1_800_000_000_000;
  private timers: { at: number; resolve: () => void }[] = [];

  /** How far the wall clock is ahead of the monotonic one (a suspended machine's wall clock moved on). */
  wallAhead = 0;

  now(): number {
    return this.t;
  }

  wall(): number {
    return this.t + this.wallAhead;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const onAbort = () => {
        this.timers = this.timers.filter((t) => t !== timer);
        resolve();
      };
      const timer = {
        at: this.t + Math.max(0, ms),
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.timers.push(timer);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward `ms`, firing each timer at its moment and letting what it starts run before the next. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.t = Math.max(this.t, due.at);
      due.resolve();
    }
    this.t = end;
    await settle();
  }

  /** Advances in steps until `cond` holds; returns the time it took, or throws after `limitMs`. */
  async until(cond: () => boolean, limitMs: number, stepMs = 50): Promise<number> {
    const start = this.t;
    while (!cond()) {
      if (this.t - start > limitMs) throw new Error(`condition not met within ${limitMs} ms of fake time`);
      await this.advance(stepMs);
    }
    return this.t - start;
  }
}

/** One API server's Leases; `clientFor` hands each replica its own connection, which a test can cut. */
export class FakeLeaseApi {
  readonly leases = new Map<string, LeaseObject>();
  private version = 1;
  writes = 0;

  clientFor(): LeaseClient & { down: boolean } {
    const api = this;
    const client = {
      down: false,
      async get(namespace: string, name: string) {
        api.check(client);
        const l = api.leases.get(`${namespace}/${name}`);
        return l ? structuredClone(l) : null;
      },
      async create(lease: LeaseObject) {
        api.check(client);
        const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
        if (api.leases.has(key)) throw new LeaseConflictError(`leases "${lease.metadata.name}" already exists`);
        return api.store(key, lease);
      },
      async update(lease: LeaseObject) {
        api.check(client);
        const key = `${lease.metadata.namespace}/${lease.metadata.name}`;
        const current = api.leases.get(key);
        if (!current || current.metadata.resourceVersion !== lease.metadata.resourceVersion)
          throw new LeaseConflictError(`Operation cannot be fulfilled on leases "${lease.metadata.name}"`);
        return api.store(key, lease);
      },
      async delete(namespace: string, name: string, resourceVersion: string) {
        api.check(client);
        const current = api.leases.get(`${namespace}/${name}`);
        if (!current || current.metadata.resourceVersion !== resourceVersion) return false;
        api.leases.delete(`${namespace}/${name}`);
        return true;
      },
      async list(namespace: string, labelSelector: string) {
        api.check(client);
        const [k, v] = labelSelector.split('=');
        return [...api.leases.values()]
          .filter((l) => l.metadata.namespace === namespace && l.metadata.labels?.[k!] === v)
          .map((l) => structuredClone(l));
      },
    };
    return client;
  }

  private check(client: { down: boolean }): void {
    if (client.down) throw new Error('connect ECONNREFUSED (partitioned)');
  }

  private store(key: string, lease: LeaseObject): LeaseObject {
    this.writes++;
    const stored = structuredClone({
      ...lease,
      metadata: { ...lease.metadata, resourceVersion: String(++this.version) },
    });
    this.leases.set(key, stored);
    return structuredClone(stored);
  }
}
