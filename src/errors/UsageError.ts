/** Wrong command-line words: exit code 2 and a one-line message, never a stack trace. */
export class UsageError extends Error {
  readonly code = 'USAGE';
}
