import git from 'isomorphic-git';
import type { CommitInfo, GitRepo } from './types.ts';

/** Reads and parses one commit object. Throws isomorphic-git's NotFoundError/ObjectTypeError as is. */
export async function readCommitInfo(repo: GitRepo, sha: string): Promise<CommitInfo> {
  const { oid, commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: sha, cache: repo.cache });
  const identity = (p: typeof commit.author) => ({
    name: p.name,
    email: p.email,
    timestamp: p.timestamp,
    timezoneOffset: p.timezoneOffset,
  });
  return {
    oid,
    tree: commit.tree,
    parents: [...commit.parent],
    message: commit.message,
    author: identity(commit.author),
    committer: identity(commit.committer),
  };
}
