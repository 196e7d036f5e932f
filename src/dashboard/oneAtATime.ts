/**
 * Work that holds the process for its whole length, run one at a time: a second piece asked while one runs is refused
 * at once with `busy` (an Error with status 503), never queued, so asking in a loop costs one run at a time and never
 * a pile of them. A run that fails frees the slot as one that succeeds does.
 */
export function oneAtATime(busy: () => Error): <T>(work: () => Promise<T>) => Promise<T> {
  let running = false;
  return async (work) => {
    if (running) throw busy();
    running = true;
    try {
      return await work();
    } finally {
      running = false;
    }
  };
}
