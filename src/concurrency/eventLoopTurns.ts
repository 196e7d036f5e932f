// Work that runs for seconds on the one thread (a fleet's cold render) gives the event loop a turn now and then, so
// Lease renewals, /healthz and member watches are served while it runs: Go's scheduler preempts a long goroutine,
// Node's event loop waits for the code to let go.
import { setImmediate as nextImmediate } from 'node:timers/promises';

/**
 * How long work runs between two turns. Lease renewals (a 10 s renew deadline by default) and a liveness probe (5 s
 * timeout in deploy/kubernetes) need far less; a turn costs some microseconds, so 20 turns a second cost nothing.
 */
export const SLICE_MS = 50;

export interface EventLoopTurns {
  /** The work has run a slice since its last turn: cheap enough to ask once per item. */
  due(): boolean;
  /** Lets timers and I/O callbacks run, then starts the next slice. */
  give(): Promise<void>;
}

/**
 * With `clockEvery`, due() reads the clock once in that many calls: for items (a path, an edit) that cost far less
 * than reading it.
 */
export function eventLoopTurns(sliceMs = SLICE_MS, { clockEvery = 1 } = {}): EventLoopTurns {
  let sliceEnds = performance.now() + sliceMs;
  let calls = 0;
  return {
    due() {
      if (++calls < clockEvery) return false;
      calls = 0;
      return performance.now() >= sliceEnds;
    },
    async give() {
      await eventLoopTurn();
      sliceEnds = performance.now() + sliceMs;
    },
  };
}

/** One turn of the event loop, between two steps of long work. */
export async function eventLoopTurn(): Promise<void> {
  // An immediate, not a resolved promise: microtasks would run before any timer or socket got its turn.
  await nextImmediate();
}
