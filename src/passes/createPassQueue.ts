/**
 * Single flight: at most one pass runs at a time. A trigger that arrives during a pass queues exactly one
 * more (however many arrive, they share it), because the pass reads Git afresh and so covers them all.
 */
export interface PassQueue {
  /** Resolves when a pass that started after this call has finished (its outcome is the pass's business). */
  kick(reason: string): Promise<void>;
  /** No new passes; resolves once the running one (and any queued) is over. */
  stop(): Promise<void>;
}

export function createPassQueue(runPass: (reasons: readonly string[]) => Promise<void>): PassQueue {
  let running: Promise<void> | null = null;
  let queued: { reasons: string[]; done: Promise<void>; resolve: () => void } | null = null;
  let stopped = false;

  const start = (reasons: string[]): Promise<void> => {
    const pass = runPass(reasons).catch(() => undefined).then(() => {
      const next = queued;
      queued = null;
      if (next && !stopped) {
        running = start(next.reasons);
        void running.then(next.resolve);
      } else {
        running = null;
        next?.resolve();
      }
    });
    return pass;
  };

  return {
    kick(reason) {
      if (stopped) return Promise.resolve();
      if (!running) {
        running = start([reason]);
        return running;
      }
      if (!queued) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => { resolve = r; });
        queued = { reasons: [], done, resolve };
      }
      if (!queued.reasons.includes(reason)) queued.reasons.push(reason);
      return queued.done;
    },
    async stop() {
      stopped = true;
      while (running) await running;
    },
  };
}
