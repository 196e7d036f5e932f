import type { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import type { Problem } from '../errors/problem.ts';

/**
 * A source commit whose tree is past its walk's bound (sourceTreeEntries), for what reads one commit whole (validate,
 * plan, verify, explain): the problem a render holds it with, which names the commit and the fix. `source` and `walk`
 * let a reader that is no render say it in its own words (sourceTooLargeToRead).
 */
export class SourceTooLargeError extends Error {
  readonly code = 'SourceTooLargeError' as const;
  readonly problem: Problem;
  readonly source: string;
  readonly walk: TreeTooLargeError;

  constructor(problem: Problem, source: string, walk: TreeTooLargeError) {
    super(`${problem.message}; fix: ${problem.fix}`);
    this.name = 'SourceTooLargeError';
    this.problem = problem;
    this.source = source;
    this.walk = walk;
  }
}
