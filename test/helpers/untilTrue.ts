// Waiting for a condition that only an event can change (a reconciler's pass, a member's write): it is checked now
// and again after each such event, never on a timer, so a wait costs nothing while nothing happens and the
// processes it waits for keep the event loop.

/** Calls `listener` on each change it sees; returns how to stop. */
export type ChangeSource = (listener: () => void) => () => void;

/**
 * The first truthy value of `check`, checked now and after each event of `sources`. An event during a check makes
 * the next check run at once, so none is missed. Fails after `timeoutMs` with the last value.
 */
export async function untilTrue<T>(
  what: string,
  check: () => T | Promise<T>,
  sources: readonly ChangeSource[],
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let changed = false;
  let wake: (() => void) | undefined;
  const stops = sources.map((source) =>
    source(() => {
      changed = true;
      wake?.();
    }),
  );
  let last: T | undefined;
  try {
    for (;;) {
      changed = false;
      last = await check();
      if (last) return last as NonNullable<T>;
      const timedOut =
        Date.now() > deadline ||
        (!changed &&
          (await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), deadline - Date.now());
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          })));
      wake = undefined;
      if (timedOut)
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 500)}`,
        );
    }
  } finally {
    for (const stop of stops) stop();
  }
}
