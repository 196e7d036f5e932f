import type { Problem } from '../errors/problem.ts';

/**
 * A source commit whose tree is past its walk's bound (sourceTreeEntries), for what reads one commit whole (validate,
 * plan, verify, explain): the problem a render holds it with, which names the commit and the fix.
 */
export class SourceTooLargeError extends Error {
  readonly code = 'SourceTooLargeError' as const;
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(`${problem.message}; ${problem.fix}`);
    this.name = 'SourceTooLargeError';
    this.problem = problem;
  }
}
