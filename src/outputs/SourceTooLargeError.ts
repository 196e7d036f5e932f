import type { TreeTooLargeError } from '../commits/TreeTooLargeError.ts';
import type { Problem } from '../errors/problem.ts';
import { sourceTooLargeToRead } from './sourceLimits.ts';

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

  /**
   * The same commit as a command that writes no rendered branch says it (validate, explain, plan, render --out-dir):
   * that it cannot read it, not what the clusters keep. `after`: what that leaves undone, when worth saying.
   */
  readBy(command: string, after?: string): SourceTooLargeError {
    return new SourceTooLargeError(
      sourceTooLargeToRead(this.source, this.walk, command, true, after),
      this.source,
      this.walk,
    );
  }
}
