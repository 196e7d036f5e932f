import git from 'isomorphic-git';
import type { GitRepo } from './types.ts';

/**
 * The oid a ref points at, following symbolic refs such as HEAD; null when it does not exist
 * (a branch not created yet, or HEAD of an empty repo). Accepts full names ('refs/heads/main')
 * and the short forms git accepts ('main', 'v1', 'origin/main').
 */
export async function readRef(repo: GitRepo, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
  } catch (err) {
    if ((err as { code?: string }).code === 'NotFoundError') return null;
    throw err;
  }
}
