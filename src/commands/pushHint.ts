import { readRef } from '../commits/readRef.ts';
import type { GitRepo } from '../commits/types.ts';

/**
 * What a command that commits to `branch` adds in a clone whose branch tracks origin's: the commit stays in the clone
 * until it is pushed, and a reconciler watching origin sees nothing before. Undefined elsewhere (the reconciler's own
 * repository, a bare one, a branch origin does not have).
 */
export async function pushHint(repo: GitRepo, branch: string): Promise<string | undefined> {
  if (repo.bare || (await readRef(repo, `refs/remotes/origin/${branch}`)) === null) return undefined;
  return `committed in this clone only: git push origin ${branch} hands it to the reconciler\n`;
}
