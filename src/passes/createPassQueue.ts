/**
 * What a pass does. `full`: sync → render → apply → status. `status`: probe the members and read the status of what
 * they hold, write the status branch; no render, no member write. A full pass does everything a status pass does.
 */
export type PassKind = 'full' | 'status';

/**
 * Single flight: at most one pass runs at a time. A trigger that arrives during a pass queues exactly one
 * more (however many arrive, they share it), because the pass reads Git afresh and so covers them all. The queued
 * pass is full when any of its triggers asked for a full one.
 */
export interface PassQueue {
  /** Resolves when a pass that started after this call (and covers `kind`) has finished (its outcome is the pass's business). */
  kick(reason: string, kind?: PassKind): Promise<void>;
  /** No new passes; resolves once the running one (and any queued) is over. */
  stop(): Promise<void>;
}

export function createPassQueue(runPass: (reasons: readonly string[], kind: PassKind) => Promise<void>): PassQueue {
  let running: Promise<void> | null = null;
  let queued: { reasons: string[]; kind: PassKind; done: Promise<void>; resolve: () => void } | null = null;
  let stopped = false;

  const start = (reasons: string[], kind: PassKind): Promise<void> => {
    const pass = runPass(reasons, kind)
      .catch(() => undefined)
      .then(() => {
        const next = queued;
        queued = null;
        if (next && !stopped) {
          running = start(next.reasons, next.kind);
          void running.then(next.resolve);
        } else {
          running = null;
          next?.resolve();
        }
      });
    return pass;
  };

  return {
    kick(reason, kind = 'full') {
      if (stopped) return Promise.resolve();
      if (!running) {
        running = start([reason], kind);
        return running;
      }
      if (!queued) {
        let resolve!: () => void;
        const done = new Promise<void>((r) => {
          resolve = r;
        });
        queued = { reasons: [], kind, done, resolve };
      }
      if (kind === 'full') queued.kind = 'full';
      if (!queued.reasons.includes(reason)) queued.reasons.push(reason);
      return queued.done;
    },
    async stop() {
      stopped = true;
      while (running !== null) await running;
    },
  };
}
