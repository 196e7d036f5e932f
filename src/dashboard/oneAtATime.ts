/**
 * Work that holds the process for its whole length (its event loop, not only a thread), taking turns with everything
 * else: one at a time, and after each run a pause as long as the run took, so such work has at most half of the
 * process's time however fast it is asked for. Asked while one runs or during the pause, it is refused at once with
 * `busy(seconds)` (an Error; seconds until the next may start, at least 1), never queued. A failed run counts as one.
 */
export function oneAtATime(
  busy: (retryAfterSeconds: number) => Error,
  now: () => number = () => performance.now(),
): <T>(work: () => Promise<T>) => Promise<T> {
  let running: number | undefined;
  let last = 0;
  let openAt = Number.NEGATIVE_INFINITY;
  return async (work) => {
    const start = now();
    if (running !== undefined) throw busy(seconds(Math.max(last, start - running) * 2 - (start - running)));
    if (start < openAt) throw busy(seconds(openAt - start));
    running = start;
    try {
      return await work();
    } finally {
      const end = now();
      last = end - start;
      openAt = end + last;
      running = undefined;
    }
  };
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
