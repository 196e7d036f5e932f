// The reconciler's structured log as a test reads it: every entry kept, and a way to await the first one matching.
/** Collects structured log entries and lets a test await the first one matching, with a deadline. */
export class LogEvents {
  readonly entries: Record<string, unknown>[] = [];
  private waiters: { match: (e: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }[] =
    [];
  private readonly listeners = new Set<(e: Record<string, unknown>) => void>();

  readonly log = (entry: Record<string, unknown>): void => {
    this.entries.push(entry);
    for (const listener of [...this.listeners]) listener(entry);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(entry)) return true;
      w.resolve(entry);
      return false;
    });
  };

  /** Calls `listener` with every entry from now on; returns how to stop (a ChangeSource for untilTrue). */
  readonly subscribe = (listener: (e: Record<string, unknown>) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The first entry from now on (or already seen, when `past`) that matches. */
  next(
    what: string,
    match: (e: Record<string, unknown>) => boolean,
    timeoutMs = 15_000,
    past = false,
  ): Promise<Record<string, unknown>> {
    const seen = past ? this.entries.find(match) : undefined;
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what}; last entries: ${JSON.stringify(this.entries.slice(-5))}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }
}
