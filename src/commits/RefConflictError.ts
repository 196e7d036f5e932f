/**
 * Thrown by updateRef when the compare-and-swap fails: the ref moved since the caller read it
 * (`actual` differs from `expected`), or another writer holds `<ref>.lock` right now (`locked`).
 */
export class RefConflictError extends Error {
  readonly code = 'REF_CONFLICT' as const;
  readonly data: { ref: string; expected: string | null; actual: string | null; locked: boolean };

  constructor(ref: string, expected: string | null, actual: string | null, locked = false) {
    const show = (v: string | null) => (v === null ? '(missing)' : v);
    super(
      locked
        ? `${ref} is locked by another writer (${ref}.lock exists); fix: retry, or delete the lock file if no writer is running`
        : `${ref} moved: expected ${show(expected)}, found ${show(actual)}; fix: re-read the ref and rebuild on top of it`,
    );
    this.name = 'RefConflictError';
    this.data = { ref, expected, actual, locked };
  }
}
