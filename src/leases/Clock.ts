/** Time as the elector sees it: injectable so its unit tests run on a fake clock. */
export interface Clock {
  /** Milliseconds since the epoch, never going backwards within a process. */
  now(): number;
  /**
   * The wall clock, for the times written into a Lease (acquireTime, renewTime) that other readers compare with
   * theirs (`flotilla get shards`, kubectl): the monotonic one lags it by any time the machine was suspended.
   */
  wall(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * The process's monotonic clock on the epoch scale: a wall-clock step (NTP) must not shorten or stretch a lease,
 * which is why client-go measures expiry with Go's monotonic time.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  wall: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }),
};
