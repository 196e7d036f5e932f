import git from 'isomorphic-git';
import type { GitRepo } from './types.ts';

/** The content of one blob. Throws isomorphic-git's NotFoundError / ObjectTypeError as is. */
export async function readBlob(repo: GitRepo, oid: string): Promise<Uint8Array> {
  const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
  return blob;
}
