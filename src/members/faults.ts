/** Fault knobs a test can turn on a running member. All default to a healthy member. */
export interface FaultSettings {
  /** Added to every request before it is handled. */
  latencyMs: number;
  /** Fraction (0..1) of API requests answered with a 500 InternalError Status; health endpoints are spared. */
  errorRate: number;
  /** Close the listening socket (clients get ECONNREFUSED) and drop open connections. */
  refuse: boolean;
  /** /readyz answers 500 while the API keeps serving, like an apiserver whose etcd check fails. */
  readyzFalse: boolean;
  /**
   * How far the member's clock is off, in ms (negative: behind). Every time the member writes is offset:
   * creationTimestamp, condition lastTransitionTime and lastHeartbeatTime, events.
   */
  clockSkewMs: number;
}

export interface Listener {
  close(): Promise<void>;
  open(): Promise<void>;
}

/**
 * Live fault settings of one member. Plain fields take effect on the next request; `refuse` has to close or
 * reopen the listening socket, so `set()` returns a promise that settles once that is done.
 */
export class MemberFaults implements FaultSettings {
  latencyMs = 0;
  errorRate = 0;
  readyzFalse = false;
  clockSkewMs = 0;
  private refusing = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly listener: Listener) {}

  get refuse(): boolean {
    return this.refusing;
  }

  /** Assigning starts closing or reopening the listener; await `set({refuse})` to know when it is done. */
  set refuse(value: boolean) {
    void this.set({ refuse: value });
  }

  async set(settings: Partial<FaultSettings>): Promise<void> {
    if (settings.latencyMs !== undefined) this.latencyMs = settings.latencyMs;
    if (settings.errorRate !== undefined) this.errorRate = settings.errorRate;
    if (settings.readyzFalse !== undefined) this.readyzFalse = settings.readyzFalse;
    if (settings.clockSkewMs !== undefined) this.clockSkewMs = settings.clockSkewMs;
    if (settings.refuse !== undefined && settings.refuse !== this.refusing) {
      this.refusing = settings.refuse;
      const change = settings.refuse ? () => this.listener.close() : () => this.listener.open();
      this.pending = this.pending.then(change, change);
    }
    await this.pending;
  }

  async reset(): Promise<void> {
    await this.set({ latencyMs: 0, errorRate: 0, readyzFalse: false, refuse: false, clockSkewMs: 0 });
  }
}
